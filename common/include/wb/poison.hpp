// Poison: bit patterns that say where a wrong value came from.
//
// Four kinds, each for one mistake, which the graders name when they find it:
//   unwritten   an output element the kernel never stored (outputs are filled with it
//               before every run);
//   in_flight   a cp.async destination read before the copy was waited for (the
//               simulator writes it at issue and the data only at the wait);
//   stale       shared memory no copy of this block has written yet (the simulator
//               refills the block's cp.async destinations with it between blocks);
//   guard       the bands around an output buffer, to catch out-of-bounds stores.
//
// Each element type has a pattern of its own for each kind: pattern<T>(kind), and
// matches<T>(value, kind) or kind_of(value) to recognise one.
//
// Everything starts from one 16-bit value per kind, chosen to be a quiet NaN both as an
// IEEE half (exponent 0x1F, quiet bit 0x0200) and as a bfloat16 (exponent 0xFF, quiet
// bit 0x0040), with a 6-bit payload that names the kind:
//   unwritten 0x7FED, in_flight 0x7FE5, stale 0x7FDE, guard 0x7FCD.
// The 32-bit word of a kind is that value twice (0x7FED7FED): a quiet float NaN whose
// two halves are the 16-bit pattern. The simulator fills shared memory with the word,
// so a kernel that reads it as float, __half or __nv_bfloat16, at any 2-byte offset,
// finds that type's pattern of the kind.
//
//   float          the word.
//   __half,        the 16-bit value.
//   __nv_bfloat16
//   double         a quiet NaN whose low 32 bits are the word (unwritten is
//                  0x7FF800007FED7FED). A double read of simulator-poisoned shared
//                  memory sees two words: 0x7FED7FED7FED7FED is no NaN (its exponent is
//                  0x7FE: a finite 1.7e308), but is recognised as that kind all the same.
//   integers       no NaN exists: the poison is a value, the word's bytes over the
//                  integer's width. 32 bits: 2146271213 (unwritten), 2145746917
//                  (in_flight), 2145288158 (stale), 2144174029 (guard); 64 bits: the
//                  word twice; 16 bits and 8 bits: the word's low bytes (0x7FED, 0xED).
//                  Random test data practically never produce them (1 in 2^32 for a
//                  random 32-bit word) and counts or indices never do; the word the
//                  simulator writes byte-wise reads as the same value.
// A NaN pattern matches whatever the sign and quiet bits (arithmetic may set them on
// the CPU); an integer pattern only exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

#include "wb/backend.hpp"  // __half and __nv_bfloat16

namespace wb::poison {

enum class Kind { unwritten, in_flight, stale, guard };
inline constexpr Kind kKinds[] = {Kind::unwritten, Kind::in_flight, Kind::stale, Kind::guard};

inline const char* name(Kind kind) {
  switch (kind) {
    case Kind::unwritten: return "unwritten";
    case Kind::in_flight: return "in flight";
    case Kind::stale: return "stale";
    case Kind::guard: return "guard";
  }
  return "?";
}

// The 16-bit values, NaNs as __half and as __nv_bfloat16 alike.
inline constexpr std::uint16_t unwritten_half = 0x7FEDu;
inline constexpr std::uint16_t in_flight_half = 0x7FE5u;
inline constexpr std::uint16_t stale_half = 0x7FDEu;
inline constexpr std::uint16_t guard_half = 0x7FCDu;

// The 32-bit words: the float patterns, and what the simulator writes byte-wise into
// shared memory, whatever type a kernel reads there.
constexpr std::uint32_t twice(std::uint16_t half) { return std::uint32_t{half} << 16 | half; }
inline constexpr std::uint32_t unwritten = twice(unwritten_half);
inline constexpr std::uint32_t in_flight = twice(in_flight_half);
inline constexpr std::uint32_t stale = twice(stale_half);
inline constexpr std::uint32_t guard = twice(guard_half);

constexpr std::uint32_t word(Kind kind) {
  switch (kind) {
    case Kind::unwritten: return unwritten;
    case Kind::in_flight: return in_flight;
    case Kind::stale: return stale;
    case Kind::guard: return guard;
  }
  return 0;
}

// The word's payload, ignoring the sign and the quiet bit that arithmetic may set.
inline bool matches(std::uint32_t bits, std::uint32_t pattern) {
  constexpr std::uint32_t payload_mask = 0x7FBFFFFFu;
  return (bits & payload_mask) == (pattern & payload_mask);
}

inline std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline float as_float(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Fills `bytes` bytes at `destination` with the word, word by word (a trailing part of a
// word gets the word's leading bytes).
inline void fill(void* destination, std::size_t bytes, std::uint32_t pattern) {
  auto* out = static_cast<unsigned char*>(destination);
  unsigned char word_bytes[4];
  std::memcpy(word_bytes, &pattern, 4);
  for (std::size_t i = 0; i < bytes; ++i) out[i] = word_bytes[i % 4];
}

// Fills `bytes` bytes at `destination` with `eight_bytes` repeated (in memory order),
// the form in which every type's pattern travels to the device (fill_pattern<T>).
inline void fill_repeating(void* destination, std::size_t bytes, std::uint64_t eight_bytes) {
  auto* out = static_cast<unsigned char*>(destination);
  unsigned char period[8];
  std::memcpy(period, &eight_bytes, 8);
  for (std::size_t i = 0; i < bytes; ++i) out[i] = period[i % 8];
}

// ---------------------------------------------------------------------------------
// The patterns of each element type.

// Traits<T>: Bits, the unsigned integer of T's size; pattern(kind), its bits; kFree,
// the bits a match ignores; kIsNaN, whether the patterns are NaNs of T; and
// also_matches(bits, kind), any second form a value of the kind may take.
template <class T, class = void>
struct Traits;  // no poison for T: specialise it

namespace detail {

// A NaN pattern whose sign and quiet bit may change.
template <class BitsType, BitsType kSign, BitsType kQuiet>
struct NaNTraits {
  using Bits = BitsType;
  static constexpr Bits kFree = kSign | kQuiet;
  static constexpr bool kIsNaN = true;
  static constexpr bool also_matches(Bits, Kind) { return false; }
};

// The 32-bit word's bytes repeated over `bytes` bytes (1, 2, 4 or 8), from the low end.
constexpr std::uint64_t word_over(std::size_t bytes, Kind kind) {
  const std::uint64_t twice = std::uint64_t{word(kind)} << 32 | word(kind);
  return bytes == 8 ? twice : twice & ((std::uint64_t{1} << (8 * bytes)) - 1);
}

}  // namespace detail

template <>
struct Traits<float> : detail::NaNTraits<std::uint32_t, 0x80000000u, 0x00400000u> {
  static constexpr Bits pattern(Kind kind) { return word(kind); }
};

template <>
struct Traits<double>
    : detail::NaNTraits<std::uint64_t, 0x8000000000000000ull, 0x0008000000000000ull> {
  static constexpr Bits pattern(Kind kind) { return 0x7FF8000000000000ull | word(kind); }
  // Two float words of the kind, as a double read of simulator-poisoned shared memory
  // finds them.
  static bool also_matches(Bits bits, Kind kind) {
    return matches(static_cast<std::uint32_t>(bits >> 32), word(kind)) &&
           matches(static_cast<std::uint32_t>(bits), word(kind));
  }
};

template <>
struct Traits<__half> : detail::NaNTraits<std::uint16_t, 0x8000u, 0x0200u> {
  static constexpr Bits pattern(Kind kind) { return static_cast<Bits>(word(kind)); }
};

template <>
struct Traits<__nv_bfloat16> : detail::NaNTraits<std::uint16_t, 0x8000u, 0x0040u> {
  static constexpr Bits pattern(Kind kind) { return static_cast<Bits>(word(kind)); }
};

template <class T>
struct Traits<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  using Bits = std::make_unsigned_t<T>;
  static constexpr Bits kFree = 0;
  static constexpr bool kIsNaN = false;
  static constexpr Bits pattern(Kind kind) {
    return static_cast<Bits>(detail::word_over(sizeof(T), kind));
  }
  static constexpr bool also_matches(Bits, Kind) { return false; }
};

template <class T, class = void>
inline constexpr bool has_traits = false;
template <class T>
inline constexpr bool has_traits<T, std::void_t<typename Traits<T>::Bits>> = true;

template <class T>
typename Traits<T>::Bits bits(T value) {
  typename Traits<T>::Bits result;
  static_assert(sizeof result == sizeof value, "a type's bits are as wide as the type");
  std::memcpy(&result, &value, sizeof result);
  return result;
}

template <class T>
T pattern(Kind kind) {
  const typename Traits<T>::Bits pattern_bits = Traits<T>::pattern(kind);
  T value;
  // Through void*: __half keeps its bits private, which g++ warns about otherwise.
  std::memcpy(static_cast<void*>(&value), &pattern_bits, sizeof value);
  return value;
}

template <class T>
bool matches(T value, Kind kind) {
  using Type = Traits<T>;
  const typename Type::Bits value_bits = bits(value);
  const auto kept = static_cast<typename Type::Bits>(~Type::kFree);
  return (value_bits & kept) == (Type::pattern(kind) & kept) ||
         Type::also_matches(value_bits, kind);
}

// The kind of poison `value` is, if it is one.
template <class T>
std::optional<Kind> kind_of(T value) {
  for (Kind kind : kKinds) {
    if (matches(value, kind)) return kind;
  }
  return std::nullopt;
}

// T's pattern of the kind as eight bytes to repeat over a buffer of T (fill_repeating).
// A type without traits made of 32-bit parts (float4, int2, a struct of floats) gets
// the 32-bit word in every part.
template <class T>
std::uint64_t fill_pattern(Kind kind) {
  if constexpr (has_traits<T>) {
    static_assert(8 % sizeof(T) == 0, "a poisoned type is 1, 2, 4 or 8 bytes wide");
    std::uint64_t eight_bytes = 0;
    for (std::size_t offset = 0; offset < 8; offset += sizeof(T)) {
      eight_bytes |= static_cast<std::uint64_t>(Traits<T>::pattern(kind)) << (8 * offset);
    }
    return eight_bytes;
  } else {
    static_assert(sizeof(T) % 4 == 0,
                  "no poison pattern for this type: give it a wb::poison::Traits specialisation");
    return detail::word_over(8, kind);
  }
}

}  // namespace wb::poison
