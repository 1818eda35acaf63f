// Fresh random inputs for every run, reproducible on demand.
//
// Each call draws a new seed (std::random_device) unless WB_SEED is set in the
// environment; tests put the seed in their failure messages, so that a failure can be
// replayed with WB_SEED=<seed>.
#pragma once

#include <cstdint>
#include <vector>

namespace wb::grading {

std::uint64_t fresh_seed();

// The seed fresh_seed() returned last in this process (0 before the first), for the
// report of a step that crashed: re-running with WB_SEED=<it> replays the same data.
std::uint64_t last_seed();

// `count` floats uniform in [-1, 1), never exactly zero, so an unwritten zero shows.
std::vector<float> random_floats(std::size_t count, std::uint64_t seed);

// `count` 32-bit words, every bit pattern equally likely: integer data, or (through
// their bits) floats of every exponent, infinities and NaNs included.
std::vector<std::uint32_t> random_words(std::size_t count, std::uint64_t seed);

// The bf16 nearest to a finite float (ties to even): its 16 bits, the top half of the
// float's, rounded; and the float that those bits stand for. A bf16 GEMM's inputs are
// random floats passed through both.
std::uint16_t bf16_bits(float value);
float bf16_value(std::uint16_t bits);

}  // namespace wb::grading
