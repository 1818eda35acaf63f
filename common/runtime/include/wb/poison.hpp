/// \file
/// Poison: bit patterns that say where a wrong value came from.
///
/// Five kinds, each for one mistake, which the graders name when they find it:
///
/// | kind      | what it marks |
/// | --------- | ------------- |
/// | unwritten | an output element the kernel never stored (outputs are filled with it before every run) |
/// | in_flight | an asynchronous copy's destination (cp.async, a bulk or tensor copy) read before the copy landed (the simulator writes it at issue and the data only at the wait) |
/// | stale     | shared memory no copy of this block has written yet (the simulator refills the block's cp.async destinations with it between blocks) |
/// | guard     | the bands around an output buffer, to catch out-of-bounds stores |
/// | pending   | the accumulators of a `wgmma` read before its `wgmma_wait_group` (the simulator writes it into them at issue and the product only at the wait) |
///
/// Each element type has a pattern of its own for each kind: `pattern<T>(kind)`, and
/// `matches<T>(value, kind)` or `kind_of(value)` to recognise one.
///
/// Everything starts from one 16-bit value per kind, chosen to be a quiet NaN both as an
/// IEEE half (exponent 0x1F, quiet bit 0x0200) and as a bfloat16 (exponent 0xFF, quiet
/// bit 0x0040), with a 6-bit payload that names the kind:
/// unwritten 0x7FED, in_flight 0x7FE5, stale 0x7FDE, guard 0x7FCD, pending 0x7FD5.
/// The 32-bit word of a kind is that value twice (0x7FED7FED): a quiet float NaN whose
/// two halves are the 16-bit pattern. The simulator fills shared memory with the word,
/// so a kernel that reads it as float, `__half` or `__nv_bfloat16`, at any 2-byte offset,
/// finds that type's pattern of the kind.
///
/// | type | its pattern of a kind |
/// | ---- | --------------------- |
/// | float | the word. |
/// | `__half`, `__nv_bfloat16` | the 16-bit value. |
/// | double | a quiet NaN whose low 32 bits are the word (unwritten is 0x7FF800007FED7FED). A double read of simulator-poisoned shared memory sees two words: 0x7FED7FED7FED7FED is no NaN (its exponent is 0x7FE: a finite 1.7e308), but is recognised as that kind all the same. |
/// | integers | no NaN exists: the poison is a value, the word's bytes over the integer's width. 32 bits: 2146271213 (unwritten), 2145746917 (in_flight), 2145288158 (stale), 2144174029 (guard); 64 bits: the word twice; 16 bits and 8 bits: the word's low bytes (0x7FED, 0xED). Random test data practically never produce them (1 in 2^32 for a random 32-bit word) and counts or indices never do; the word the simulator writes byte-wise reads as the same value. |
///
/// A NaN pattern matches whatever the sign and quiet bits (arithmetic may set them on
/// the CPU); an integer pattern only exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

#include "wb/backend.hpp"  // __half and __nv_bfloat16

/// Poison: the bit patterns that say where a wrong value came from (poison.hpp).
namespace wb::poison {

/// The five kinds of poison, one for each mistake they reveal.
enum class Kind {
  unwritten,  ///< an output element the kernel never stored
  in_flight,  ///< an asynchronous copy's destination read before it landed
  stale,      ///< shared memory no copy of this block has written yet
  guard,      ///< the bands around an output, to catch stores out of bounds
  pending,    ///< an asynchronous product's accumulators read before its wait
};
/// Every kind, for loops.
inline constexpr Kind kKinds[] = {Kind::unwritten, Kind::in_flight, Kind::stale, Kind::guard, Kind::pending};

/// The kind in words: "unwritten", "in flight", "stale", "guard" or "pending".
inline const char* name(Kind kind) {
  switch (kind) {
    case Kind::unwritten: return "unwritten";
    case Kind::in_flight: return "in flight";
    case Kind::stale: return "stale";
    case Kind::guard: return "guard";
    case Kind::pending: return "pending";
  }
  return "?";
}

/// \name The 16-bit values, NaNs as __half and as __nv_bfloat16 alike.
/// \{
inline constexpr std::uint16_t unwritten_half = 0x7FEDu;  ///< unwritten
inline constexpr std::uint16_t in_flight_half = 0x7FE5u;  ///< in flight
inline constexpr std::uint16_t stale_half = 0x7FDEu;      ///< stale
inline constexpr std::uint16_t guard_half = 0x7FCDu;      ///< guard
inline constexpr std::uint16_t pending_half = 0x7FD5u;    ///< pending
/// \}

/// A 16-bit value twice, as a 32-bit word (0x7FED becomes 0x7FED7FED).
constexpr std::uint32_t twice(std::uint16_t half) { return std::uint32_t{half} << 16 | half; }
/// \name The 32-bit words: the float patterns, and what the simulator writes byte-wise
/// into shared memory, whatever type a kernel reads there.
/// \{
inline constexpr std::uint32_t unwritten = twice(unwritten_half);  ///< 0x7FED7FED
inline constexpr std::uint32_t in_flight = twice(in_flight_half);  ///< 0x7FE57FE5
inline constexpr std::uint32_t stale = twice(stale_half);          ///< 0x7FDE7FDE
inline constexpr std::uint32_t guard = twice(guard_half);          ///< 0x7FCD7FCD
inline constexpr std::uint32_t pending = twice(pending_half);      ///< 0x7FD57FD5
/// \}

/// The 32-bit word of a kind.
constexpr std::uint32_t word(Kind kind) {
  switch (kind) {
    case Kind::unwritten: return unwritten;
    case Kind::in_flight: return in_flight;
    case Kind::stale: return stale;
    case Kind::guard: return guard;
    case Kind::pending: return pending;
  }
  return 0;
}

/// Whether `bits` carry the word's payload, ignoring the sign and the quiet bit that
/// arithmetic may set.
inline bool matches(std::uint32_t bits, std::uint32_t pattern) {
  constexpr std::uint32_t payload_mask = 0x7FBFFFFFu;
  return (bits & payload_mask) == (pattern & payload_mask);
}

/// The bits of a float.
inline std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// The float of these bits.
inline float as_float(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// Fills `bytes` bytes at `destination` with the word, word by word (a trailing part of a
/// word gets the word's leading bytes).
inline void fill(void* destination, std::size_t bytes, std::uint32_t pattern) {
  auto* out = static_cast<unsigned char*>(destination);
  unsigned char word_bytes[4];
  std::memcpy(word_bytes, &pattern, 4);
  for (std::size_t i = 0; i < bytes; ++i) out[i] = word_bytes[i % 4];
}

/// Fills `bytes` bytes at `destination` with `eight_bytes` repeated (in memory order),
/// the form in which every type's pattern travels to the device (`fill_pattern<T>`).
inline void fill_repeating(void* destination, std::size_t bytes, std::uint64_t eight_bytes) {
  auto* out = static_cast<unsigned char*>(destination);
  unsigned char period[8];
  std::memcpy(period, &eight_bytes, 8);
  for (std::size_t i = 0; i < bytes; ++i) out[i] = period[i % 8];
}

// ---------------------------------------------------------------------------------
// The patterns of each element type.

/// The poison of element type T. `Bits`, the unsigned integer of T's size;
/// `pattern(kind)`, its bits; `kFree`, the bits a match ignores; `kIsNaN`, whether the
/// patterns are NaNs of T; and `also_matches(bits, kind)`, any second form a value of
/// the kind may take. Specialised for float, double, `__half`, `__nv_bfloat16` and the
/// integers; specialise it for any other element type a test poisons.
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

/// float: the 32-bit word, a quiet NaN.
template <>
struct Traits<float> : detail::NaNTraits<std::uint32_t, 0x80000000u, 0x00400000u> {
  /// The bits of the kind's pattern.
  static constexpr Bits pattern(Kind kind) { return word(kind); }
};

/// double: a quiet NaN whose low 32 bits are the word.
template <>
struct Traits<double>
    : detail::NaNTraits<std::uint64_t, 0x8000000000000000ull, 0x0008000000000000ull> {
  /// The bits of the kind's pattern.
  static constexpr Bits pattern(Kind kind) { return 0x7FF8000000000000ull | word(kind); }
  /// Two float words of the kind, as a double read of simulator-poisoned shared memory
  /// finds them.
  static bool also_matches(Bits bits, Kind kind) {
    return matches(static_cast<std::uint32_t>(bits >> 32), word(kind)) &&
           matches(static_cast<std::uint32_t>(bits), word(kind));
  }
};

/// `__half`: the 16-bit value, a quiet NaN.
template <>
struct Traits<__half> : detail::NaNTraits<std::uint16_t, 0x8000u, 0x0200u> {
  /// The bits of the kind's pattern.
  static constexpr Bits pattern(Kind kind) { return static_cast<Bits>(word(kind)); }
};

/// `__nv_bfloat16`: the 16-bit value, a quiet NaN.
template <>
struct Traits<__nv_bfloat16> : detail::NaNTraits<std::uint16_t, 0x8000u, 0x0040u> {
  /// The bits of the kind's pattern.
  static constexpr Bits pattern(Kind kind) { return static_cast<Bits>(word(kind)); }
};

/// The integers: no NaN, a value, the word's bytes over the integer's width.
template <class T>
struct Traits<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  using Bits = std::make_unsigned_t<T>;  ///< the unsigned integer of T's size
  static constexpr Bits kFree = 0;       ///< a match ignores no bit
  static constexpr bool kIsNaN = false;  ///< the patterns are values, not NaNs
  /// The bits of the kind's pattern.
  static constexpr Bits pattern(Kind kind) {
    return static_cast<Bits>(detail::word_over(sizeof(T), kind));
  }
  /// No second form: an integer pattern matches exactly.
  static constexpr bool also_matches(Bits, Kind) { return false; }
};

/// Whether T has poison patterns of its own (a Traits specialisation).
template <class T, class = void>
inline constexpr bool has_traits = false;
/// Whether T has poison patterns of its own (a Traits specialisation).
template <class T>
inline constexpr bool has_traits<T, std::void_t<typename Traits<T>::Bits>> = true;

/// The bits of a value of T.
template <class T>
typename Traits<T>::Bits bits(T value) {
  typename Traits<T>::Bits result;
  static_assert(sizeof result == sizeof value, "a type's bits are as wide as the type");
  std::memcpy(&result, &value, sizeof result);
  return result;
}

/// T's poison of the kind, as a value of T.
template <class T>
T pattern(Kind kind) {
  const typename Traits<T>::Bits pattern_bits = Traits<T>::pattern(kind);
  T value;
  // Through void*: __half keeps its bits private, which g++ warns about otherwise.
  std::memcpy(static_cast<void*>(&value), &pattern_bits, sizeof value);
  return value;
}

/// Whether `value` is T's poison of the kind (a NaN whatever its sign and quiet bits).
template <class T>
bool matches(T value, Kind kind) {
  using Type = Traits<T>;
  const typename Type::Bits value_bits = bits(value);
  const auto kept = static_cast<typename Type::Bits>(~Type::kFree);
  return (value_bits & kept) == (Type::pattern(kind) & kept) ||
         Type::also_matches(value_bits, kind);
}

/// The kind of poison `value` is, if it is one.
template <class T>
std::optional<Kind> kind_of(T value) {
  for (Kind kind : kKinds) {
    if (matches(value, kind)) return kind;
  }
  return std::nullopt;
}

/// T's pattern of the kind as eight bytes to repeat over a buffer of T (fill_repeating).
/// A type without traits made of 32-bit parts (float4, int2, a struct of floats) gets
/// the 32-bit word in every part.
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
