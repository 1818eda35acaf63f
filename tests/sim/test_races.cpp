// The race check on shared memory: two threads touching one word, one of them writing,
// with no barrier between, fail the launch naming both threads, the word and the two
// lines, whatever the schedule; code that orders its accesses (a barrier, a __syncwarp
// between lanes of a warp, atomics, distinct bytes of a word) is never reported.
#include <string>
#include <vector>

#include "sim_test_support.hpp"

namespace {

using SimRaces = sim_test::SimTest;
using sim_test::contains;
using sim_test::kernel_error_of;
using wb::sim::Order;
using wb::sim::Schedule;
using wb::sim::ScopedSchedule;

constexpr unsigned kThreads = 64;
const Schedule kSchedules[] = {{Order::forward, 1}, {Order::reverse, 1}, {Order::random, 3}};

// Each thread writes its element, then (with no barrier) reads its neighbour's.
__global__ void neighbour_without_barrier(float* out) {
  __shared__ float smem_values[kThreads];
  smem_values[threadIdx.x] = static_cast<float>(threadIdx.x);
  out[threadIdx.x] = smem_values[(threadIdx.x + 1) % kThreads];
}

// Write after read: each thread reads its right neighbour, then overwrites its own
// element, which its left neighbour reads.
__global__ void shift_in_place(float* out) {
  __shared__ float smem_values[kThreads];
  smem_values[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  const float right = smem_values[(threadIdx.x + 1) % kThreads];
  smem_values[threadIdx.x] = right;
  __syncthreads();
  out[threadIdx.x] = smem_values[threadIdx.x];
}

// A thread reads the destination of another thread's cp.async after its own wait but
// before a barrier: the other copy may still be in flight.
__global__ void copy_read_by_another_thread(const float* in, float* out) {
  __shared__ float smem_values[kThreads];
  wb::cp_async(&smem_values[threadIdx.x], &in[threadIdx.x]);
  wb::cp_async_wait_all();
  out[threadIdx.x] = smem_values[threadIdx.x ^ 1];
}

// The wait after the barrier instead of before: a copy lands at its thread's wait, after
// the other threads have passed the barrier and may already read it.
__global__ void wait_after_the_barrier(const float* in, float* out) {
  __shared__ float smem_values[kThreads];
  wb::cp_async(&smem_values[threadIdx.x], &in[threadIdx.x]);
  __syncthreads();
  wb::cp_async_wait_all();
  out[threadIdx.x] = smem_values[threadIdx.x ^ 1];
}

// A copy waited for two barriers after its issue, its destination read by another thread
// between the two: on a GPU the copy lands at any moment in that window.
__global__ void read_while_another_copy_travels(const float* in, float* out) {
  __shared__ float smem_values[kThreads];
  wb::cp_async(&smem_values[threadIdx.x], &in[threadIdx.x]);
  wb::cp_async_commit();
  __syncthreads();
  out[threadIdx.x] = smem_values[threadIdx.x ^ 1];
  __syncthreads();
  wb::cp_async_wait<0>();
}

// The same window read by no other thread: the copies travel across two barriers, and
// are read only after the wait and a barrier.
__global__ void copies_travel_across_barriers(const float* in, float* out) {
  __shared__ float smem_values[kThreads];
  __shared__ float smem_other[kThreads];
  smem_other[threadIdx.x] = 1.0f;
  wb::cp_async(&smem_values[threadIdx.x], &in[threadIdx.x]);
  wb::cp_async_commit();
  __syncthreads();
  const float other = smem_other[threadIdx.x ^ 1];
  __syncthreads();
  wb::cp_async_wait<0>();
  __syncthreads();
  out[threadIdx.x] = smem_values[threadIdx.x ^ 1] + other;
}

// Lanes of one warp exchange through shared memory, ordered by __syncwarp.
template <bool kSyncwarp>
__global__ void reverse_in_warp(float* out) {
  __shared__ float smem_values[kThreads];
  smem_values[threadIdx.x] = static_cast<float>(threadIdx.x);
  if (kSyncwarp) __syncwarp();
  const unsigned warp_begin = threadIdx.x / 32 * 32;
  out[threadIdx.x] = smem_values[warp_begin + 31 - threadIdx.x % 32];
}

// Threads write distinct 16-bit halves of one word, and count with shared atomics.
__global__ void halves_and_atomics(unsigned* out) {
  __shared__ unsigned short smem_halves[kThreads];
  __shared__ unsigned smem_count;
  if (threadIdx.x == 0) smem_count = 0;
  smem_halves[threadIdx.x] = static_cast<unsigned short>(threadIdx.x);
  __syncthreads();
  atomicAdd(&smem_count, 1u);
  __syncthreads();
  out[threadIdx.x] = smem_halves[threadIdx.x] + (threadIdx.x == 0 ? smem_count << 16 : 0u);
}

TEST_F(SimRaces, ReadOfAnotherThreadsWriteWithoutBarrierIsCaughtUnderEverySchedule) {
  for (const Schedule& schedule : kSchedules) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const ScopedSchedule scoped(schedule);
    wb::DeviceBuffer<float> out(kThreads);
    const std::string error = kernel_error_of(
        [&] { wb::launch(neighbour_without_barrier, dim3(1), dim3(kThreads), 0, out.data()); });
    // Whichever thread came second names the first and both lines.
    EXPECT_TRUE(contains(error, "a race on shared memory: this thread (reads|writes) "
                                "smem_values\\[[0-9]+\\] \\(in 4-byte elements\\), which "
                                "thread \\([0-9]+,0,0\\) (wrote|read) at "
                                "tests/sim/test_races.cpp:2[56] with no __syncthreads\\(\\)"))
        << error;
    EXPECT_TRUE(contains(error, "^tests/sim/test_races.cpp:2[56]: block \\(0,0,0\\), thread"))
        << error;
  }
}

TEST_F(SimRaces, WriteOverAWordAnotherThreadReadIsCaught) {
  for (const Schedule& schedule : kSchedules) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const ScopedSchedule scoped(schedule);
    wb::DeviceBuffer<float> out(kThreads);
    const std::string error = kernel_error_of(
        [&] { wb::launch(shift_in_place, dim3(1), dim3(kThreads), 0, out.data()); });
    EXPECT_TRUE(contains(error, "a race on shared memory: this thread (reads|writes) smem_values\\[")) << error;
  }
}

TEST_F(SimRaces, ReadOfAnotherThreadsCopyBeforeTheBarrierIsCaught) {
  for (const Schedule& schedule : kSchedules) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const ScopedSchedule scoped(schedule);
    wb::DeviceBuffer<float> in(kThreads), out(kThreads);
    in.poison();
    const std::string error = kernel_error_of([&] {
      wb::launch(copy_read_by_another_thread, dim3(1), dim3(kThreads), 0, in.data(), out.data());
    });
    EXPECT_TRUE(contains(error, "a race on shared memory")) << error;
    try {
      wb::launch(copy_read_by_another_thread, dim3(1), dim3(kThreads), 0, in.data(), out.data());
    } catch (const wb::Error& caught) {
      EXPECT_EQ(caught.kind(), wb::ErrorKind::shared_race);
    }
  }
}

TEST_F(SimRaces, AWaitAfterTheBarrierIsNamedAsSuch) {
  for (const Schedule& schedule : kSchedules) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const ScopedSchedule scoped(schedule);
    wb::DeviceBuffer<float> in(kThreads), out(kThreads);
    in.poison();
    const std::string error = kernel_error_of([&] {
      wb::launch(wait_after_the_barrier, dim3(1), dim3(kThreads), 0, in.data(), out.data());
    });
    EXPECT_TRUE(contains(error, "cp.async, issued at tests/sim/test_races.cpp:[0-9]+, lands only "
                                "when that thread waits for it, and its wait came after the last "
                                "__syncthreads\\(\\)"))
        << error;
  }
}

TEST_F(SimRaces, AnAccessWhileACopyTravelsAcrossBarriersIsKeptAsEvidence) {
  for (const Schedule& schedule : kSchedules) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const ScopedSchedule scoped(schedule);
    wb::DeviceBuffer<float> in(kThreads), out(kThreads);
    in.poison();
    // Kept with the launch's counters, not thrown: the reading of a wrong output comes
    // first, and a right one fails on it (wb::grading::judge_technique).
    wb::launch(read_while_another_copy_travels, dim3(1), dim3(kThreads), 0, in.data(), out.data());
    const std::optional<wb::sim::CopyWindowRace>& race = wb::sim::last_launch_stats().copy_window_race;
    ASSERT_TRUE(race.has_value());
    EXPECT_TRUE(contains(race->message, "thread \\([0-9]+,0,0\\)'s cp.async into smem_values\\[[0-9]+\\].*issued at "
                                "tests/sim/test_races.cpp:[0-9]+, was in flight until that thread's wait, and thread "
                                "\\([0-9]+,0,0\\) read that word at tests/sim/test_races.cpp:[0-9]+ in between"))
        << race->message;
    EXPECT_EQ(race->array, "smem_values");
    wb::launch(copies_travel_across_barriers, dim3(1), dim3(kThreads), 0, in.data(), out.data());
    EXPECT_FALSE(wb::sim::last_launch_stats().copy_window_race.has_value())
        << wb::sim::last_launch_stats().copy_window_race->message;
  }
}

TEST_F(SimRaces, SyncwarpOrdersTheLanesOfAWarp) {
  wb::DeviceBuffer<float> out(kThreads);
  for (const Schedule& schedule : kSchedules) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const ScopedSchedule scoped(schedule);
    out.poison();
    wb::launch(reverse_in_warp<true>, dim3(1), dim3(kThreads), 0, out.data());
    const std::vector<float> result = out.download();
    for (unsigned t = 0; t < kThreads; ++t) {
      ASSERT_EQ(result[t], static_cast<float>(t / 32 * 32 + 31 - t % 32)) << "thread " << t;
    }
    const std::string error = kernel_error_of(
        [&] { wb::launch(reverse_in_warp<false>, dim3(1), dim3(kThreads), 0, out.data()); });
    EXPECT_TRUE(contains(error, "a race on shared memory")) << "without the __syncwarp: " << error;
  }
}

TEST_F(SimRaces, DistinctBytesOfAWordAndAtomicsAreNoRace) {
  wb::DeviceBuffer<unsigned> out(kThreads);
  for (const Schedule& schedule : kSchedules) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const ScopedSchedule scoped(schedule);
    out.poison();
    wb::launch(halves_and_atomics, dim3(1), dim3(kThreads), 0, out.data());
    const std::vector<unsigned> result = out.download();
    EXPECT_EQ(result[0], kThreads << 16) << "every thread's atomicAdd counted";
    for (unsigned t = 1; t < kThreads; ++t) ASSERT_EQ(result[t], t) << "thread " << t;
  }
}

}  // namespace
