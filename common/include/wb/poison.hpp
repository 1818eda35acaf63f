// Poison: NaN bit patterns that say where a wrong value came from.
//
// Each pattern is a quiet float NaN (and, repeated, a double NaN), so arithmetic on it
// stays NaN and a comparison against a reference never passes by accident. The payload
// tells the graders which mistake left it there:
//   unwritten   an output element the kernel never stored (outputs are filled with it
//               before every run);
//   in_flight   a cp.async destination read before the copy was waited for (the
//               simulator writes it at issue and the data only at the wait);
//   stale       shared memory no copy of this block has written yet (the simulator
//               refills the block's cp.async destinations with it between blocks);
//   guard       the bands around an output buffer, to catch out-of-bounds stores.
#pragma once

#include <cstdint>
#include <cstring>

namespace wb::poison {

inline constexpr std::uint32_t unwritten = 0x7FC0DEADu;
inline constexpr std::uint32_t in_flight = 0x7FC0A5C0u;
inline constexpr std::uint32_t stale = 0x7FC05A1Eu;
inline constexpr std::uint32_t guard = 0x7FC06A4Du;

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

// Fills `bytes` bytes at `destination` with the pattern, word by word (a trailing part
// of a word gets the pattern's leading bytes).
inline void fill(void* destination, std::size_t bytes, std::uint32_t pattern) {
  auto* out = static_cast<unsigned char*>(destination);
  unsigned char word[4];
  std::memcpy(word, &pattern, 4);
  for (std::size_t i = 0; i < bytes; ++i) out[i] = word[i % 4];
}

}  // namespace wb::poison
