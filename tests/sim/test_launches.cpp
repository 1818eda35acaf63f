// Launch mechanics: fibers are reused across blocks and launches (so state must not
// leak between them), blocks go up to 1024 threads, and 3-D indices map like CUDA's.
#include <string>
#include <vector>

#include "sim_test_support.hpp"
#include "wb/grading/random.hpp"

namespace {

using SimLaunches = sim_test::SimTest;

constexpr unsigned kMaxThreads = 1024;

// Reverses each block's slice, then adds `addend`: a barrier, shared memory and a
// by-value argument, all of which a reused fiber must see afresh.
__global__ void reverse_and_add(const float* in, float* out, float addend) {
  __shared__ float smem_values[kMaxThreads];
  const unsigned base = blockIdx.x * blockDim.x;
  smem_values[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = smem_values[blockDim.x - 1 - threadIdx.x] + addend;
}

// Stores every thread's (blockIdx, threadIdx, blockDim, gridDim) at its CUDA global
// linear index: x fastest, then y, then z, for threads within a block and blocks in a
// grid.
__global__ void store_indices(unsigned* out) {
  const unsigned threads_per_block = blockDim.x * blockDim.y * blockDim.z;
  const unsigned block = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
  const unsigned thread = threadIdx.x + threadIdx.y * blockDim.x +
                          threadIdx.z * blockDim.x * blockDim.y;
  unsigned* mine = out + 12 * (block * threads_per_block + thread);
  const unsigned values[12] = {blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x,
                               threadIdx.y, threadIdx.z, blockDim.x, blockDim.y,
                               blockDim.z,  gridDim.x,  gridDim.y,  gridDim.z};
  for (int i = 0; i < 12; ++i) mine[i] = values[i];
}

// Runs reverse_and_add and returns how many elements are wrong.
int reverse_and_add_errors(const std::vector<float>& values, unsigned threads, float addend) {
  const unsigned blocks = static_cast<unsigned>(values.size() / threads);
  wb::DeviceBuffer<float> in(values.size()), out(values.size());
  in.upload(values);
  out.poison();
  wb::launch(reverse_and_add, dim3(blocks), dim3(threads), 0, in.data(), out.data(), addend);
  const std::vector<float> result = out.download();
  int errors = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::size_t block = i / threads, lane = i % threads;
    errors += result[i] != values[block * threads + threads - 1 - lane] + addend;
  }
  return errors;
}

TEST_F(SimLaunches, ManyLaunchesInARowStayCorrect) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  const std::vector<float> values = wb::grading::random_floats(6 * 96, seed);
  // Block sizes change from launch to launch, so the same fibers serve different
  // threadIdx values and a block sometimes uses fewer fibers than the last one.
  const unsigned block_sizes[] = {96, 32, 64, 1, 192};
  for (int launch = 0; launch < 300; ++launch) {
    const unsigned threads = block_sizes[launch % 5];
    ASSERT_EQ(reverse_and_add_errors(values, threads, static_cast<float>(launch)), 0)
        << "launch " << launch << " with " << threads << " threads a block";
  }
}

TEST_F(SimLaunches, BlockOf1024ThreadsWorks) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  const std::vector<float> values = wb::grading::random_floats(2 * kMaxThreads, seed);
  EXPECT_EQ(reverse_and_add_errors(values, kMaxThreads, 0.5f), 0);
  EXPECT_EQ(wb::sim::last_launch_stats().threads, 2 * kMaxThreads);
}

TEST_F(SimLaunches, ThreeDimensionalIndicesMatchCuda) {
  const dim3 grid(3, 2, 2), block(4, 3, 2);
  const unsigned total = 3 * 2 * 2 * 4 * 3 * 2;
  wb::DeviceBuffer<unsigned> out(12 * total);
  out.poison();
  wb::launch(store_indices, grid, block, 0, out.data());
  const std::vector<unsigned> result = out.download();
  unsigned i = 0;  // walks the grid in CUDA's order: x fastest, blocks outermost
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned tz = 0; tz < block.z; ++tz)
          for (unsigned ty = 0; ty < block.y; ++ty)
            for (unsigned tx = 0; tx < block.x; ++tx, ++i) {
              const std::vector<unsigned> expected = {bx, by, bz, tx, ty, tz, 4, 3, 2, 3, 2, 2};
              const std::vector<unsigned> got(result.begin() + 12 * i,
                                              result.begin() + 12 * (i + 1));
              ASSERT_EQ(got, expected) << "block (" << bx << "," << by << "," << bz
                                       << "), thread (" << tx << "," << ty << "," << tz
                                       << "): blockIdx, threadIdx, blockDim, gridDim";
            }
  EXPECT_EQ(wb::sim::last_launch_stats().blocks, 12u);
  EXPECT_EQ(wb::sim::last_launch_stats().threads, total);
}

}  // namespace
