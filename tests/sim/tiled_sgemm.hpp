// A shared-memory tiled SGEMM, the simulator's benchmark workload (sim_speed) and one
// of its tests: many blocks, many threads, two barriers per k-tile, so that its time is
// dominated by what the simulator itself costs (fiber switches, barrier rounds).
#pragma once

#include <cstdint>
#include <vector>

namespace sim_test {

constexpr int kSgemmTile = 16;  // 16x16 threads a block, one output element each

// C (m x n) = A (m x k) * B (k x n), all row-major device arrays; m, n and k must be
// multiples of kSgemmTile (the kernel has no bounds checks, to stay a pure timing load).
void tiled_sgemm(const float* a, const float* b, float* c, int m, int n, int k);

// The largest error of `c` against a double-precision product, each element's error
// relative to the sum of the magnitudes of its k terms (so that an output that cancels
// to nearly zero is not held to an impossible bound).
double sgemm_relative_error(const std::vector<float>& a, const std::vector<float>& b,
                            const std::vector<float>& c, int m, int n, int k);

}  // namespace sim_test
