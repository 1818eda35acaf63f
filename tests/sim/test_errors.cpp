// A kernel that goes wrong fails its launch (one test), never the whole test binary:
// the error names the block and the thread, the other fibers of the block unwind, and
// the next launch, in the same test or the next one, runs as if nothing happened.
#include <string>
#include <vector>

#include "sim_test_support.hpp"

namespace {

using sim_test::contains;
using sim_test::kernel_error_of;
using SimErrors = sim_test::SimTest;

constexpr unsigned kThreads = 64;

// Thread 5 of block 2 fails its assert after the first barrier, while the other threads
// of its block wait at the second one (and other blocks may be running on another OS
// thread): all of them must be unwound.
__global__ void assert_in_one_thread(int* out) {
  __shared__ int smem_values[kThreads];
  smem_values[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  assert(blockIdx.x != 2 || threadIdx.x != 5);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = smem_values[blockDim.x - 1 - threadIdx.x];
}

// Only thread (3,1,0) of block (1,0,0) issues a misaligned copy.
__global__ void misaligned_copy_in_one_thread(const float* in) {
  __shared__ __align__(16) float smem_values[8];
  const bool culprit = blockIdx.x == 1 && threadIdx.x == 3 && threadIdx.y == 1;
  if (culprit) wb::cp_async_ca<16>(&smem_values[2], in);
  wb::cp_async_wait_all();
}

__global__ void reverse_in_blocks(int* out) {
  __shared__ int smem_values[kThreads];
  smem_values[threadIdx.x] = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = smem_values[blockDim.x - 1 - threadIdx.x];
}

// Runs the correct kernel and checks every element: what "the simulator still works"
// means after a failure.
void expect_a_clean_launch_works() {
  constexpr unsigned kBlocks = 4;
  wb::DeviceBuffer<int> out(kBlocks * kThreads);
  out.poison();
  wb::launch(reverse_in_blocks, dim3(kBlocks), dim3(kThreads), 0, out.data());
  const std::vector<int> result = out.download();
  for (unsigned i = 0; i < result.size(); ++i) {
    const unsigned block = i / kThreads, lane = i % kThreads;
    ASSERT_EQ(result[i], static_cast<int>(block * kThreads + kThreads - 1 - lane))
        << "element " << i << " of the launch after a failed one";
  }
  EXPECT_EQ(wb::sim::last_launch_stats().blocks, kBlocks);
}

TEST_F(SimErrors, AssertInAKernelFailsTheLaunchNamingBlockAndThread) {
  wb::DeviceBuffer<int> out(4 * kThreads);
  const std::string message = kernel_error_of(
      [&] { wb::launch(assert_in_one_thread, dim3(4), dim3(kThreads), 0, out.data()); });
  EXPECT_TRUE(contains(message, R"(test_errors\.cpp:\d+: block \(2,0,0\), thread \(5,0,0\))"))
      << "the line, the block and the thread, in: " << message;
  EXPECT_TRUE(contains(message, R"(assert\(blockIdx\.x != 2 \|\| threadIdx\.x != 5\) failed)"))
      << "the failed condition, in: " << message;
  expect_a_clean_launch_works();
}

TEST_F(SimErrors, MisalignedCopyFailsTheLaunchNamingBlockAndThread) {
  wb::DeviceBuffer<float> in(4);
  const std::string message = kernel_error_of([&] {
    wb::launch(misaligned_copy_in_one_thread, dim3(2), dim3(4, 2), 0, in.data());
  });
  EXPECT_TRUE(contains(message, R"(block \(1,0,0\), thread \(3,1,0\): cp\.async)"))
      << "the block and the thread of the bad copy, in: " << message;
  expect_a_clean_launch_works();
}

// Whatever ran before in this process (ctest runs each test alone, a plain run of the
// binary runs them all in order): after a failed launch, no fiber, barrier state or
// pending copy may leak into the next one.
TEST_F(SimErrors, TheLaunchAfterAFailedOneRunsCleanly) {
  wb::DeviceBuffer<int> out(4 * kThreads);
  kernel_error_of([&] { wb::launch(assert_in_one_thread, dim3(4), dim3(kThreads), 0, out.data()); });
  expect_a_clean_launch_works();
}

}  // namespace
