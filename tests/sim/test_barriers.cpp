// __syncthreads() in the simulator: a barrier releases the block once every thread that
// has not returned waits at it (returned threads count as arrived, as on the GPU); two
// barriers split between threads fail the launch with a message that names the threads
// on each side and the barriers' source lines.
#include <string>
#include <vector>

#include "sim_test_support.hpp"
#include "wb/grading/random.hpp"

namespace {

using sim_test::contains;
using sim_test::kernel_error_of;
using SimBarriers = sim_test::SimTest;

constexpr unsigned kThreads = 64;

// Rotates each block's slice twice through shared memory: each read needs the barrier
// before it, and each overwrite the barrier after the previous read.
__global__ void rotate_twice(const float* in, float* out) {
  __shared__ float smem_values[kThreads];
  const unsigned base = blockIdx.x * blockDim.x;
  smem_values[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  const float once = smem_values[(threadIdx.x + 1) % blockDim.x];
  __syncthreads();
  smem_values[threadIdx.x] = once;
  __syncthreads();
  out[base + threadIdx.x] = smem_values[(threadIdx.x + 1) % blockDim.x];
}

// The upper half of the block returns before the barrier; the lower half exchanges
// values through it. A GPU (sm_70 and later) runs this correctly: a barrier waits only
// for the threads that have not exited.
__global__ void upper_half_returns_early(const float* in, float* out) {
  __shared__ float smem_values[kThreads];
  if (threadIdx.x >= blockDim.x / 2) return;
  smem_values[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = smem_values[blockDim.x / 2 - 1 - threadIdx.x];
}

// Each kernel below first stores the line of its barrier(s), so that the test knows
// which line the message must name without counting lines by hand.
__global__ void barrier_per_branch(int* barrier_lines) {
  barrier_lines[0] = __LINE__ + 3;
  barrier_lines[1] = __LINE__ + 4;
  if (threadIdx.x < 16) {
    __syncthreads();
  } else {
    __syncthreads();
  }
}

// The lower half copies its values and waits at a barrier inside the branch; the upper
// half skips the branch and reads what the lower half wrote: a barrier some threads skip.
__global__ void barrier_inside_a_branch(float* out) {
  __shared__ float smem_values[kThreads];
  if (threadIdx.x < kThreads / 2) {
    smem_values[threadIdx.x] = static_cast<float>(threadIdx.x);
    __syncthreads();
  }
  out[threadIdx.x] = smem_values[threadIdx.x % (kThreads / 2)];
}

// A loop that refills shared memory without a barrier after the reads: thread 0 waits at
// the loop's barrier in its second pass while thread 63 still reads the first pass's
// values. A missing barrier, not a skipped one: thread 63 has passed that barrier before.
__global__ void refill_without_a_barrier_after_the_reads(float* out) {
  __shared__ float smem_values[kThreads];
  float sum = 0.0f;
  for (int pass = 0; pass < 2; ++pass) {
    smem_values[threadIdx.x] = static_cast<float>(pass + threadIdx.x);
    __syncthreads();
    sum += smem_values[(threadIdx.x + 1) % kThreads];
  }
  out[threadIdx.x] = sum;
}

TEST_F(SimBarriers, AReadPastABarrierThatOthersWaitAtIsABarrierSkipped) {
  wb::DeviceBuffer<float> out(kThreads);
  const sim_test::KernelFailure failure = sim_test::kernel_failure_of(
      [&] { wb::launch(barrier_inside_a_branch, dim3(1), dim3(kThreads), 0, out.data()); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::barrier) << failure.message;
  EXPECT_TRUE(contains(failure.message, "threads at different __syncthreads\\(\\): this thread reads "
                                        "smem_values\\[[0-9]+\\].*now waits at the __syncthreads\\(\\) at "
                                        "[^ ]*test_barriers.cpp:[0-9]+, while this thread is past that line "
                                        "without ever having waited there"))
      << failure.message;
}

TEST_F(SimBarriers, ARaceWithAThreadAheadInALoopIsStillAMissingBarrier) {
  wb::DeviceBuffer<float> out(kThreads);
  const sim_test::KernelFailure failure = sim_test::kernel_failure_of(
      [&] { wb::launch(refill_without_a_barrier_after_the_reads, dim3(1), dim3(kThreads), 0, out.data()); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::shared_race) << failure.message;
  EXPECT_TRUE(contains(failure.message, "a barrier must separate them")) << failure.message;
}

TEST_F(SimBarriers, BarrierReachedByAllThreadsReleasesThem) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  constexpr unsigned kBlocks = 3;
  const std::vector<float> values = wb::grading::random_floats(kBlocks * kThreads, seed);
  wb::DeviceBuffer<float> in(values.size()), out(values.size());
  in.upload(values);
  out.poison();
  wb::launch(rotate_twice, dim3(kBlocks), dim3(kThreads), 0, in.data(), out.data());
  const std::vector<float> result = out.download();
  for (unsigned i = 0; i < result.size(); ++i) {
    const unsigned block = i / kThreads, lane = i % kThreads;
    ASSERT_EQ(result[i], values[block * kThreads + (lane + 2) % kThreads])
        << "element " << i << ": the value two lanes up, after two rotations";
  }
  EXPECT_EQ(wb::sim::last_launch_stats().barriers, kBlocks * 3)
      << "three barriers in each of " << kBlocks << " blocks, each released once";
}

TEST_F(SimBarriers, ThreadsThatReturnedCountAsArrived) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  const std::vector<float> values = wb::grading::random_floats(kThreads, seed);
  wb::DeviceBuffer<float> in(values.size()), out(values.size());
  in.upload(values);
  out.poison();
  wb::launch(upper_half_returns_early, dim3(1), dim3(kThreads), 0, in.data(), out.data());
  const std::vector<float> result = out.download();
  for (unsigned i = 0; i < kThreads / 2; ++i) {
    ASSERT_EQ(result[i], values[kThreads / 2 - 1 - i]) << "element " << i;
  }
  EXPECT_EQ(wb::sim::last_launch_stats().barriers, 1u);
}

TEST_F(SimBarriers, ThreadsAtDifferentBarriersNameBothLines) {
  wb::DeviceBuffer<int> lines(2);
  const std::string message = kernel_error_of([&] {
    wb::launch(barrier_per_branch, dim3(1), dim3(32), 0, lines.data());
  });
  const std::vector<int> line = lines.download();
  const std::string first = R"(threads 0-15 \(of 32[^)]*\) at [^ ]*test_barriers\.cpp:)" +
                            std::to_string(line[0]);
  const std::string second = R"(threads 16-31 \(of 32[^)]*\) at [^ ]*test_barriers\.cpp:)" +
                             std::to_string(line[1]);
  EXPECT_TRUE(contains(message, "different barriers")) << message;
  EXPECT_TRUE(contains(message, first)) << "the if branch's barrier, in: " << message;
  EXPECT_TRUE(contains(message, second)) << "the else branch's barrier, in: " << message;
}

}  // namespace
