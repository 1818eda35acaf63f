// Two threads that write one shared word between the same two barriers: an index
// mistake (ErrorKind::shared_write_overlap), named with both threads, both lines and the
// word, and never put down to a missing barrier, which would not fix it. A read of
// another thread's write stays a race that a barrier fixes; collective copies that split
// a tile between the threads are no overlap.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>

#include <string>
#include <vector>

#include "sim_test_support.hpp"

namespace {

namespace cg = cooperative_groups;
using SimWriteOverlap = sim_test::SimTest;
using sim_test::contains;
using sim_test::kernel_failure_of;
using sim_test::KernelFailure;
using wb::sim::Order;
using wb::sim::Schedule;
using wb::sim::ScopedSchedule;
using Barrier = cuda::barrier<cuda::thread_scope_block>;

constexpr unsigned kThreads = 64;
const Schedule kSchedules[] = {{Order::forward, 1}, {Order::reverse, 1}, {Order::random, 3}};

// Threads 2k and 2k+1 store to one element: the index steps by half what it should.
__global__ void halved_index_store(float* out) {
  __shared__ float smem_values[kThreads];
  smem_values[threadIdx.x / 2] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = smem_values[threadIdx.x];
}

// The same overlap through cp.async: two copies into one element.
__global__ void halved_index_copy(const float* in, float* out) {
  __shared__ float smem_values[kThreads];
  wb::cp_async(&smem_values[threadIdx.x / 2], &in[threadIdx.x]);
  wb::cp_async_wait_all();
  __syncthreads();
  out[threadIdx.x] = smem_values[threadIdx.x];
}

// Thread 0 writes element 0 on one line, thread 1 on another.
__global__ void two_lines_one_element(float* out) {
  __shared__ float smem_values[kThreads];
  if (threadIdx.x == 0) smem_values[0] = 1.0f;
  if (threadIdx.x == 1) smem_values[0] = 2.0f;
  __syncthreads();
  out[threadIdx.x] = smem_values[0];
}

// Two collective copies of the block whose destinations share their middle 4 floats.
__global__ void overlapping_group_copies(const float* in, float* out) {
  __shared__ __align__(16) float smem_values[2 * kThreads];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem_values, in, cuda::aligned_size_t<16>(sizeof(float) * (kThreads + 4)));
  cg::memcpy_async(block, smem_values + kThreads, in + kThreads, cuda::aligned_size_t<16>(sizeof(float) * kThreads));
  cg::wait(block);
  out[threadIdx.x] = smem_values[threadIdx.x];
}

// Thread 0 fills the tile with a bulk copy; thread 1 stores into it while it is in flight.
__global__ void store_into_a_bulk_copy(const float* in, float* out) {
  __shared__ __align__(16) float smem_tile[kThreads];
  WB_SHARED_LIBRARY_STATE
  __shared__ Barrier full;
  if (threadIdx.x == 0) init(&full, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::device::memcpy_async_tx(smem_tile, in, cuda::aligned_size_t<16>(sizeof(smem_tile)), full);
    (void)cuda::device::barrier_arrive_tx(full, 1, sizeof(smem_tile));
  }
  if (threadIdx.x == 1) smem_tile[3] = 0.0f;
  full.wait_parity(0);
  out[threadIdx.x] = smem_tile[threadIdx.x];
}

// Each thread writes its element, then (no barrier) reads its neighbour's.
__global__ void neighbour_without_barrier(float* out) {
  __shared__ float smem_values[kThreads];
  smem_values[threadIdx.x] = static_cast<float>(threadIdx.x);
  out[threadIdx.x] = smem_values[(threadIdx.x + 1) % kThreads];
}

// The two writers of one element of smem_values, named with the block, the word and a line
// of this file for each, whichever of the two ran first.
bool names_both_writers(const std::string& message, const std::string& array) {
  return contains(message, "two threads write " + array +
                               "\\[[0-9]+\\] \\(in 4-byte elements\\) between the same two barriers: "
                               "thread \\([0-9]+,0,0\\) of block \\(0,0,0\\) wrote it at "
                               "tests/sim/test_write_overlap.cpp:[0-9]+, then thread \\([0-9]+,0,0\\) "
                               "writes it at tests/sim/test_write_overlap.cpp:[0-9]+\\.");
}

TEST_F(SimWriteOverlap, TwoStoresOfOneLineToOneWordAreAnIndexOverlap) {
  wb::DeviceBuffer<float> out(kThreads);
  for (const Schedule& schedule : kSchedules) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const ScopedSchedule scoped(schedule);
    const KernelFailure failure = kernel_failure_of(
        [&] { wb::launch(halved_index_store, dim3(1), dim3(kThreads), 0, out.data()); });
    EXPECT_EQ(failure.kind, wb::ErrorKind::shared_write_overlap);
    EXPECT_TRUE(names_both_writers(failure.message, "smem_values")) << failure.message;
    EXPECT_TRUE(contains(failure.message, "test_write_overlap.cpp:33, then thread .* at "
                                          "tests/sim/test_write_overlap.cpp:33\\. One line computed "
                                          "the same index for both threads: their indices overlap"))
        << failure.message;
    EXPECT_TRUE(contains(failure.message, "a __syncthreads\\(\\) would not fix this")) << failure.message;
    EXPECT_FALSE(contains(failure.message, "a race|must separate")) << failure.message;
    // Stores bring no element: the evidence has none to name.
    ASSERT_TRUE(failure.fault && failure.fault->overlap) << failure.message;
    EXPECT_EQ(failure.fault->overlap->first_source, nullptr);
    EXPECT_EQ(failure.fault->overlap->source, nullptr);
  }
}

TEST_F(SimWriteOverlap, TwoCopiesIntoOneWordAreAnIndexOverlap) {
  wb::DeviceBuffer<float> in(kThreads), out(kThreads);
  in.poison();
  for (const Schedule& schedule : kSchedules) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const ScopedSchedule scoped(schedule);
    const KernelFailure failure = kernel_failure_of(
        [&] { wb::launch(halved_index_copy, dim3(1), dim3(kThreads), 0, in.data(), out.data()); });
    EXPECT_EQ(failure.kind, wb::ErrorKind::shared_write_overlap);
    EXPECT_TRUE(names_both_writers(failure.message, "smem_values")) << failure.message;
    EXPECT_TRUE(contains(failure.message, "^cp.async of 4 bytes|: cp.async of 4 bytes: two threads write"))
        << failure.message;
    // The evidence for the graders: the element each copy brought, in[2k] and in[2k + 1]
    // into word k, and how many accesses each thread had made before (none: their first).
    ASSERT_TRUE(failure.fault && failure.fault->overlap) << failure.message;
    const wb::OverlappingWrite& overlap = *failure.fault->overlap;
    const auto element = [&](const void* source) { return static_cast<const float*>(source) - in.data(); };
    EXPECT_EQ(overlap.array, "smem_values");
    EXPECT_EQ(element(overlap.first_source) / 2, static_cast<long>(overlap.word));
    EXPECT_EQ(element(overlap.source) / 2, static_cast<long>(overlap.word));
    EXPECT_NE(element(overlap.first_source), element(overlap.source));
    EXPECT_EQ(element(overlap.source), static_cast<long>(failure.fault->thread[0]));
    EXPECT_EQ(element(overlap.first_source), static_cast<long>(overlap.first_thread[0]));
    EXPECT_EQ(overlap.first_earlier_accesses, 0u);
    EXPECT_EQ(failure.fault->earlier_accesses, 0u);
  }
}

TEST_F(SimWriteOverlap, WritesOfTwoLinesNameBothAndWhatABarrierWouldMean) {
  wb::DeviceBuffer<float> out(kThreads);
  for (const Schedule& schedule : kSchedules) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const ScopedSchedule scoped(schedule);
    const KernelFailure failure = kernel_failure_of(
        [&] { wb::launch(two_lines_one_element, dim3(1), dim3(kThreads), 0, out.data()); });
    EXPECT_EQ(failure.kind, wb::ErrorKind::shared_write_overlap);
    EXPECT_TRUE(contains(failure.message, "two threads write smem_values\\[0\\].*wrote it at "
                                          "tests/sim/test_write_overlap.cpp:5[01], then .* writes it "
                                          "at tests/sim/test_write_overlap.cpp:5[01]\\. .*unless the "
                                          "later write is meant to replace the earlier one"))
        << failure.message;
  }
}

TEST_F(SimWriteOverlap, OverlappingCollectiveCopiesAreAnOverlapAndDisjointOnesAreNot) {
  wb::DeviceBuffer<float> in(2 * kThreads), out(kThreads);
  in.poison();
  const KernelFailure failure = kernel_failure_of(
      [&] { wb::launch(overlapping_group_copies, dim3(1), dim3(kThreads), 0, in.data(), out.data()); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::shared_write_overlap);
  EXPECT_TRUE(contains(failure.message, "two threads write smem_values\\[6[4-7]\\] .* wrote it at tests/sim/test_write_overlap.cpp:6[01], "
                                        "then thread .* writes it at tests/sim/test_write_overlap.cpp:6[01]\\."))
      << failure.message;
}

TEST_F(SimWriteOverlap, AStoreIntoATileABulkCopyFillsIsAnOverlap) {
  // Thread 1 first: under the forward schedule thread 0 would complete the phase at its own
  // wait, before thread 1 runs (the simulator lands copies as late as a wait allows).
  const ScopedSchedule reverse({Order::reverse, 1});
  wb::DeviceBuffer<float> in(kThreads), out(kThreads);
  in.poison();
  const KernelFailure failure = kernel_failure_of(
      [&] { wb::launch(store_into_a_bulk_copy, dim3(1), dim3(kThreads), 0, in.data(), out.data()); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::shared_write_overlap);
  EXPECT_TRUE(contains(failure.message, "two threads write smem_tile\\[3\\] .*thread \\(1,0,0\\) of block "
                                        "\\(0,0,0\\) wrote it at .*then thread \\(0,0,0\\) writes it"))
      << failure.message;
}

TEST_F(SimWriteOverlap, AReadOfAnotherThreadsWriteIsStillAMissingBarrier) {
  wb::DeviceBuffer<float> out(kThreads);
  const KernelFailure failure = kernel_failure_of(
      [&] { wb::launch(neighbour_without_barrier, dim3(1), dim3(kThreads), 0, out.data()); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::shared_race);
  EXPECT_TRUE(contains(failure.message, "a barrier must separate them")) << failure.message;
}

}  // namespace
