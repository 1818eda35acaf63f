// The per-launch counters (wb::sim::last_launch_stats()): the technique checks of the
// graders rely on them ("did the kernel use 16-byte copies?", "did it ever wait?"), so
// each must count exactly what the kernel issued.
#include <string>
#include <vector>

#include "sim_test_support.hpp"

namespace {

using SimCounters = sim_test::SimTest;

constexpr unsigned kBlocks = 2;
constexpr unsigned kThreads = 4;

// Per thread: one copy of each size plus a zero-filled 16-byte copy that reads 8 bytes
// (44 bytes requested), two explicit commits, wait<1> and wait_all (which commits an
// empty group and waits for everything).
__global__ void copies_of_each_size(const float* in) {
  __shared__ __align__(16) float smem_values[kThreads][12];
  float* mine = smem_values[threadIdx.x];
  wb::cp_async_ca<4>(&mine[0], &in[0]);
  wb::cp_async_ca<8>(&mine[2], &in[2]);
  wb::cp_async_commit();
  wb::cp_async_ca<16>(&mine[4], &in[4]);
  wb::cp_async_cg(&mine[8], &in[8], 8);
  wb::cp_async_commit();
  wb::cp_async_wait<1>();
  wb::cp_async_wait_all();
}

// Three copies in one committed group that the thread never waits for.
__global__ void copies_never_waited_for(const float* in) {
  __shared__ __align__(16) float smem_values[kThreads][12];
  for (int i = 0; i < 3; ++i) wb::cp_async_ca<16>(&smem_values[threadIdx.x][4 * i], &in[4 * i]);
  wb::cp_async_commit();
}

TEST_F(SimCounters, CountsCopiesBySizeBytesGroupsAndWaits) {
  wb::DeviceBuffer<float> in(12);
  in.poison();  // the values do not matter here, only that the source is device memory
  wb::launch(copies_of_each_size, dim3(kBlocks), dim3(kThreads), 0, in.data());
  const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
  constexpr unsigned kAll = kBlocks * kThreads;
  EXPECT_EQ(stats.blocks, kBlocks);
  EXPECT_EQ(stats.threads, kAll);
  EXPECT_EQ(stats.barriers, 0u);
  EXPECT_EQ(stats.cp_async_4, kAll);
  EXPECT_EQ(stats.cp_async_8, kAll);
  EXPECT_EQ(stats.cp_async_16, 2 * kAll) << "the .ca and the .cg copy of 16 bytes";
  EXPECT_EQ(stats.cp_async_ops(), 4 * kAll);
  EXPECT_EQ(stats.cp_async_bytes, (4 + 8 + 16 + 8) * kAll)
      << "bytes requested from global memory: the zero-filled copy reads only 8";
  EXPECT_EQ(stats.commit_groups, 3 * kAll) << "two commits, and the one of wait_all";
  EXPECT_EQ(stats.waits, 2 * kAll) << "wait<1> and wait_all";
  EXPECT_EQ(stats.copies_never_waited, 0u);
  EXPECT_TRUE(stats.warnings.empty()) << "first warning: " << stats.warnings.begin()->first;
}

// Three plain loads of global memory: one before the thread's copy is issued, one while
// it travels, one after the wait has landed it.
__global__ void loads_around_a_copy(const float* in, float* out) {
  __shared__ float smem_value[kThreads];
  float sum = in[1];
  wb::cp_async_ca<4>(&smem_value[threadIdx.x], &in[0]);
  wb::cp_async_commit();
  sum += in[2];
  wb::cp_async_wait<0>();
  sum += in[3] + smem_value[threadIdx.x];
  out[blockIdx.x * kThreads + threadIdx.x] = sum;
}

TEST_F(SimCounters, CountsTheGlobalLoadsMadeWhileCopiesTravel) {
  wb::DeviceBuffer<float> in(4);
  in.poison();
  wb::DeviceBuffer<float> out(kBlocks * kThreads);
  wb::launch(loads_around_a_copy, dim3(kBlocks), dim3(kThreads), 0, in.data(), out.data());
  const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
  EXPECT_EQ(stats.global_loads, 3 * kBlocks * kThreads);
  EXPECT_EQ(stats.global_loads_while_copies_travel, kBlocks * kThreads) << "the load between commit and wait";
  ASSERT_EQ(stats.global_loads_without_copies_by_site.size(), 2u) << "the loads before and after, by line";
  for (const auto& [pc, count] : stats.global_loads_without_copies_by_site) EXPECT_EQ(count, kBlocks * kThreads);
}

TEST_F(SimCounters, CountsCopiesNeverWaitedFor) {
  wb::DeviceBuffer<float> in(12);
  in.poison();
  wb::launch(copies_never_waited_for, dim3(kBlocks), dim3(kThreads), 0, in.data());
  const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
  EXPECT_EQ(stats.cp_async_16, 3 * kBlocks * kThreads);
  EXPECT_EQ(stats.commit_groups, kBlocks * kThreads);
  EXPECT_EQ(stats.waits, 0u);
  EXPECT_EQ(stats.copies_never_waited, 3 * kBlocks * kThreads)
      << "every copy is still pending when its thread ends";
  ASSERT_EQ(stats.warnings.size(), 1u) << "one warning, counted once per launch";
  EXPECT_EQ(stats.warnings.begin()->second, kBlocks * kThreads)
      << "the warning counts the threads: " << stats.warnings.begin()->first;
}

TEST_F(SimCounters, EachLaunchStartsFromZero) {
  wb::DeviceBuffer<float> in(12);
  in.poison();
  wb::launch(copies_never_waited_for, dim3(kBlocks), dim3(kThreads), 0, in.data());
  wb::launch(copies_of_each_size, dim3(1), dim3(1), 0, in.data());
  const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
  EXPECT_EQ(stats.blocks, 1u) << "the counters are the last launch's, not a running sum";
  EXPECT_EQ(stats.cp_async_16, 2u);
  EXPECT_EQ(stats.copies_never_waited, 0u);
  EXPECT_TRUE(stats.warnings.empty());
}

}  // namespace
