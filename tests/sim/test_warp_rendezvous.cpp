// Warp rendezvous in the simulator: a shuffle or __syncwarp whose mask names lanes that
// never come fails with the lanes and where they are, instead of hanging; a mask that
// leaves out the caller, or two masks at one meeting, are errors too. (What the
// primitives compute is tested on both backends in tests/runtime/test_warp.cpp.)
#include <string>
#include <vector>

#include "sim_test_support.hpp"

namespace {

using SimWarp = sim_test::SimTest;
using sim_test::contains;
using sim_test::kernel_error_of;

__global__ void half_the_warp_returns(float* out) {
  if (threadIdx.x >= 16) return;
  out[threadIdx.x] = __shfl_down_sync(0xFFFFFFFFu, 1.0f, 1);
}

__global__ void half_the_warp_at_a_barrier(float* out) {
  if (threadIdx.x < 16) {
    out[threadIdx.x] = __shfl_sync(0xFFFFFFFFu, 1.0f, 0);
  }
  __syncthreads();
}

__global__ void mask_without_the_caller(float* out) {
  out[threadIdx.x] = __shfl_sync(0x0000FFFFu, 1.0f, 0);
}

__global__ void two_masks(float* out) {
  const unsigned mask = threadIdx.x < 16 ? 0x0000FFFFu : 0xFFFFFFFFu;
  __syncwarp(mask);
  out[threadIdx.x] = 1.0f;
}

__global__ void half_masks(float* out) {
  const unsigned mask = threadIdx.x < 16 ? 0x0000FFFFu : 0xFFFF0000u;
  out[threadIdx.x] = __shfl_xor_sync(mask, static_cast<float>(threadIdx.x), 1);
}

TEST_F(SimWarp, LanesThatReturnedAreNamed) {
  wb::DeviceBuffer<float> out(32);
  const std::string error =
      kernel_error_of([&] { wb::launch(half_the_warp_returns, dim3(1), dim3(32), 0, out.data()); });
  EXPECT_TRUE(contains(error, "lanes 0-15 of warp 0 wait at __shfl_down_sync with mask 0xffffffff "
                              "\\([^ ]*tests/sim/test_warp_rendezvous.cpp:[0-9]+\\) for lanes 16-31, "
                              "which returned from the kernel"))
      << error;
}

TEST_F(SimWarp, LanesAtABarrierAreNamed) {
  wb::DeviceBuffer<float> out(32);
  const std::string error = kernel_error_of(
      [&] { wb::launch(half_the_warp_at_a_barrier, dim3(1), dim3(32), 0, out.data()); });
  EXPECT_TRUE(contains(error, "for lanes 16-31, which wait at the __syncthreads\\(\\) at "
                              "[^ ]*tests/sim/test_warp_rendezvous.cpp:[0-9]+"))
      << error;
}

TEST_F(SimWarp, MasksMustNameTheCallerAndAgree) {
  wb::DeviceBuffer<float> out(32);
  std::string error =
      kernel_error_of([&] { wb::launch(mask_without_the_caller, dim3(1), dim3(32), 0, out.data()); });
  EXPECT_TRUE(contains(error, "the mask does not name the calling lane 16")) << error;
  error = kernel_error_of([&] { wb::launch(two_masks, dim3(1), dim3(32), 0, out.data()); });
  EXPECT_TRUE(contains(error, "__syncwarp with mask 0x(0000ffff|ffffffff)")) << error;
}

TEST_F(SimWarp, TwoHalvesMeetWithTheirOwnMasksUnderEverySchedule) {
  // Lanes 0-15 and 16-31 meet separately at the same call, each half exchanging within
  // itself, however the lanes of the two halves interleave.
  wb::DeviceBuffer<float> out(32);
  for (const wb::sim::Schedule& schedule :
       {wb::sim::Schedule{wb::sim::Order::forward, 1}, wb::sim::Schedule{wb::sim::Order::reverse, 1},
        wb::sim::Schedule{wb::sim::Order::random, 5}}) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const wb::sim::ScopedSchedule scoped(schedule);
    out.poison();
    wb::launch(half_masks, dim3(1), dim3(32), 0, out.data());
    const std::vector<float> result = out.download();
    for (unsigned lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(result[lane], static_cast<float>(lane ^ 1)) << "lane " << lane;
    }
  }
}

}  // namespace
