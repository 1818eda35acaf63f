// The warp-level primitives on both backends: shuffles of every kind (with a width, and
// of a double), votes and __syncwarp, against values computed here on the host. On the
// GPU they check the hardware's behaviour the simulator copies; in the simulator, that
// the copy is faithful.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "warp_kernels.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/random.hpp"

namespace {

using WarpPrimitives = wb::grading::KernelTest;

constexpr unsigned kThreads = 128;

TEST_F(WarpPrimitives, ShufflesAndVotesGiveWhatTheLanesHeld) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  std::vector<float> values = wb::grading::random_floats(kThreads, seed);
  for (unsigned t = 64; t < 96; ++t) values[t] = std::fabs(values[t]) + 0.5f;  // warp 2: all positive
  const warp_test::WarpResults got = warp_test::run_warp_primitives(values, kThreads);

  for (unsigned warp = 0; warp < kThreads / 32; ++warp) {
    SCOPED_TRACE("warp " + std::to_string(warp));
    const unsigned base = 32 * warp;
    double sum = 0;
    unsigned ballot = 0;
    bool any_negative = false;
    for (unsigned lane = 0; lane < 32; ++lane) {
      sum += values[base + lane];
      if (values[base + lane] > 0.0f) ballot |= 1u << lane;
      any_negative |= values[base + lane] < 0.0f;
    }
    EXPECT_NEAR(got.sum_down[base], sum, 1e-5) << "lane 0 holds the sum after the shfl_down tree";
    double prefix = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
      const unsigned t = base + lane;
      prefix += values[t];
      SCOPED_TRACE("lane " + std::to_string(lane));
      EXPECT_NEAR(got.sum_butterfly[t], sum, 1e-5) << "every lane holds the sum after the xor butterfly";
      EXPECT_NEAR(got.inclusive_scan[t], prefix, 1e-5);
      EXPECT_EQ(got.from_lane_3[t], values[base + 3]);
      EXPECT_EQ(got.rotate_in_8[t], values[base + lane / 8 * 8 + (lane + 1) % 8])
          << "width 8: the source lane wraps inside its group of 8";
      const unsigned below = lane == 31 ? t : t + 1;  // past the warp's end: its own value
      EXPECT_EQ(got.doubled_down_1[t], 2.0 * values[below]);
      EXPECT_EQ(got.ballot[t], ballot);
      EXPECT_EQ(got.any_negative[t], any_negative ? 1 : 0);
      EXPECT_EQ(got.all_numbers[t], 1);
      EXPECT_EQ(got.neighbour_via_shared[t], values[base + (lane + 1) % 32]);
    }
  }
  EXPECT_EQ(got.ballot[64], 0xFFFFFFFFu) << "warp 2 is all positive";
  EXPECT_EQ(got.any_negative[64], 0);
}

}  // namespace
