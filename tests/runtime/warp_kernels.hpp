// Kernels that use the warp-level primitives (shuffles, votes, __syncwarp) on either
// backend, with host wrappers so that the tests stay plain C++: each uploads its input,
// poisons its outputs, runs one block and downloads.
#pragma once

#include <vector>

namespace warp_test {

// For a block of `threads` threads (a multiple of 32) and one input value per thread,
// what each thread computes with the lanes of its warp.
struct WarpResults {
  std::vector<float> sum_down;         // the warp's sum by __shfl_down_sync, in lane 0
  std::vector<float> sum_butterfly;    // the warp's sum by __shfl_xor_sync, in every lane
  std::vector<float> inclusive_scan;   // the prefix sum by __shfl_up_sync
  std::vector<float> from_lane_3;      // __shfl_sync(..., 3): lane 3's value
  std::vector<float> rotate_in_8;      // __shfl_sync(..., lane + 1, 8): within groups of 8
  std::vector<double> doubled_down_1;  // a double moved one lane down (lane 31 keeps its own)
  std::vector<unsigned> ballot;        // __ballot_sync of value > 0
  std::vector<int> any_negative;       // __any_sync of value < 0
  std::vector<int> all_numbers;        // __all_sync of value == value (no NaN)
  std::vector<float> neighbour_via_shared;  // lane's neighbour's value, ordered by __syncwarp
};
WarpResults run_warp_primitives(const std::vector<float>& values, unsigned threads);

}  // namespace warp_test
