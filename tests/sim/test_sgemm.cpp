// The benchmark's SGEMM (see sim_speed.cpp) gives the right product: a timing of a
// wrong kernel would mean nothing.
#include <string>
#include <vector>

#include "sim_test_support.hpp"
#include "tiled_sgemm.hpp"
#include "wb/grading/random.hpp"

namespace {

using SimSgemm = sim_test::SimTest;

// Runs the tiled SGEMM on random inputs and returns its relative error.
double sgemm_error(int m, int n, int k, std::uint64_t seed) {
  const std::vector<float> a = wb::grading::random_floats(std::size_t(m) * k, seed);
  const std::vector<float> b = wb::grading::random_floats(std::size_t(k) * n, seed + 1);
  wb::DeviceBuffer<float> a_device(a.size()), b_device(b.size()), c_device(std::size_t(m) * n);
  a_device.upload(a);
  b_device.upload(b);
  c_device.poison();
  sim_test::tiled_sgemm(a_device.data(), b_device.data(), c_device.data(), m, n, k);
  return sim_test::sgemm_relative_error(a, b, c_device.download(), m, n, k);
}

TEST_F(SimSgemm, TiledSgemmMatchesDoublePrecision) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  EXPECT_LT(sgemm_error(512, 512, 64, seed), 1e-5) << "the benchmark's 512x512x64 problem";
  // Non-square, so that a row/column mix-up in the kernel or the check shows.
  EXPECT_LT(sgemm_error(48, 80, 32, seed), 1e-5) << "a 48x80x32 problem";
  EXPECT_EQ(wb::sim::last_launch_stats().barriers, 3u * 5u * 2u * 2u)
      << "15 blocks, two k-tiles, two barriers each";
}

}  // namespace
