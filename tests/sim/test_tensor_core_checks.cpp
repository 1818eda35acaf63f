// The tensor cores' instructions in the simulator: what it checks and what it counts.
// ldmatrix's row addresses (16-byte aligned, in the block's shared memory), its
// reads as shared loads (races, bank conflicts), the lanes of an .x1 whose addresses it
// ignores; an mma.sync or ldmatrix that a lane skips, or meets at another call, named with
// the lanes and where they are; and the launch's counters of each. (What the instructions
// compute is tested on both backends in tests/runtime/test_tensor_core.cpp.)
#include <cstdint>
#include <string>
#include <vector>

#include "sim_test_support.hpp"

namespace {

using SimTensorCore = sim_test::SimTest;
using sim_test::contains;
using sim_test::kernel_failure_of;
using sim_test::KernelFailure;
using wb::sim::AccessKind;

constexpr unsigned kWarp = 32;

// A tile of 32 rows of 8 bf16 patterns (one uint4 each), row r holding r in every element.
// Each lane fills its row, then gives row `lane` (plus `skew` bytes for lane 5) to an .x4.
__global__ void ldmatrix_with_skewed_lane(unsigned* out, int skew) {
  __shared__ uint4 smem_rows[kWarp];
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned both = lane | lane << 16;
  smem_rows[lane] = make_uint4(both, both, both, both);
  __syncthreads();
  const char* row = reinterpret_cast<const char*>(&smem_rows[lane]) + (lane == 5 ? skew : 0);
  unsigned regs[4];
  wb::ldmatrix_x4(regs, row);
  out[lane] = regs[0];
}

// Lane 7 returns before the mma the others wait at.
__global__ void mma_without_lane_7(float* out) {
  const unsigned lane = threadIdx.x;
  if (lane == 7) return;
  const unsigned a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
  const float c[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  float d[4];
  wb::mma_m16n8k16_bf16(d, a, b, c);
  out[lane] = d[0];
}

// Half the warp at one ldmatrix, half at another line: an .aligned instruction is one.
__global__ void ldmatrix_in_two_branches(unsigned* out) {
  __shared__ uint4 smem_rows[kWarp];
  const unsigned lane = threadIdx.x;
  smem_rows[lane] = make_uint4(lane, lane, lane, lane);
  __syncthreads();
  unsigned regs[4];
  if (lane < 16) {
    wb::ldmatrix_x4(regs, &smem_rows[lane]);
  } else {
    wb::ldmatrix_x4(regs, &smem_rows[lane]);
  }
  out[lane] = regs[0];
}

// Every lane gives row `lane + offset` of a 32-row tile (4 words a row) in the dynamic
// shared memory, launched with exactly its 512 bytes: past its end for offset > 0.
__global__ void ldmatrix_past_the_tile(unsigned* out, int offset) {
  WB_DYNAMIC_SHARED(unsigned, smem_words);
  const unsigned lane = threadIdx.x;
  for (unsigned w = 0; w < 4; ++w) smem_words[4 * lane + w] = lane;
  __syncthreads();
  unsigned regs[4];
  wb::ldmatrix_x4(regs, &smem_words[4 * (lane + static_cast<unsigned>(offset))]);
  out[lane] = regs[0];
}

// Every lane gives a row of device memory, where ldmatrix cannot read.
__global__ void ldmatrix_from_global(const uint4* rows, unsigned* out) {
  unsigned regs[4];
  wb::ldmatrix_x4(regs, &rows[threadIdx.x]);
  out[threadIdx.x] = regs[0];
}

// Each lane stores its own row and gives its neighbour's with no barrier between: a
// race, as for a plain load of another thread's store.
__global__ void ldmatrix_without_a_barrier(unsigned* out) {
  __shared__ uint4 smem_rows[kWarp];
  const unsigned lane = threadIdx.x;
  smem_rows[lane] = make_uint4(lane, lane, lane, lane);
  unsigned regs[4];
  wb::ldmatrix_x4(regs, &smem_rows[(lane + 1) % kWarp]);
  out[lane] = regs[0];
}

// Rows `stride` uint4 apart: stride 1 puts each 8-row matrix in 128 contiguous bytes (one
// wavefront), stride 4 its rows 64 bytes apart, two to a bank group (4 wavefronts).
// An .x4, an .x2 and an .x1 whose lanes 8-31 give no address at all, then one mma.
template <int kStride>
__global__ void ldmatrix_forms_and_an_mma(float* out) {
  __shared__ uint4 smem_rows[kWarp * kStride];
  const unsigned lane = threadIdx.x % kWarp;
  for (unsigned i = threadIdx.x; i < kWarp * kStride; i += blockDim.x) smem_rows[i] = make_uint4(i, i, i, i);
  __syncthreads();
  unsigned a[4], b[2], x1[1];
  wb::ldmatrix_x4(a, &smem_rows[lane * kStride]);
  wb::ldmatrix_x2_trans(b, &smem_rows[lane * kStride]);
  wb::ldmatrix_x1(x1, lane < 8 ? &smem_rows[lane * kStride] : nullptr);
  const float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  float d[4];
  wb::mma_m16n8k16_bf16(d, a, b, c);
  out[threadIdx.x] = d[0] + static_cast<float>(x1[0] & 1u);
}

TEST_F(SimTensorCore, AMisalignedRowIsNamedWithItsLane) {
  wb::DeviceBuffer<unsigned> out(kWarp);
  wb::launch(ldmatrix_with_skewed_lane, dim3(1), dim3(kWarp), 0, out.data(), 0);  // aligned: fine
  const KernelFailure failure = kernel_failure_of(
      [&] { wb::launch(ldmatrix_with_skewed_lane, dim3(1), dim3(kWarp), 0, out.data(), 8); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::misaligned);
  EXPECT_TRUE(contains(failure.message,
                       "^tests/sim/test_tensor_core_checks.cpp:[0-9]+: block \\(0,0,0\\), thread \\(5,0,0\\): "
                       "ldmatrix.x4: lane 5 gives row 5 of matrix 0 at 0x[0-9a-f]+, which is not 16-byte aligned "
                       "\\(address % 16 == 8; it is bytes \\[88, 104\\) of the __shared__ variable smem_rows"))
      << failure.message;
}

TEST_F(SimTensorCore, ALaneThatSkipsTheMmaIsNamed) {
  wb::DeviceBuffer<float> out(kWarp);
  const KernelFailure failure =
      kernel_failure_of([&] { wb::launch(mma_without_lane_7, dim3(1), dim3(kWarp), 0, out.data()); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::warp_sync);
  EXPECT_TRUE(contains(failure.message,
                       "lanes 0-6, 8-31 of warp 0 wait at mma.sync.m16n8k16 \\(bf16\\) "
                       "\\([^ ]*tests/sim/test_tensor_core_checks.cpp:[0-9]+\\) for lane 7, which returned from the "
                       "kernel. Every lane of the warp must execute the same instruction \\(.sync.aligned\\)"))
      << failure.message;
}

TEST_F(SimTensorCore, LanesAtTwoCallsOfOneInstructionAreAnError) {
  wb::DeviceBuffer<unsigned> out(kWarp);
  const KernelFailure failure =
      kernel_failure_of([&] { wb::launch(ldmatrix_in_two_branches, dim3(1), dim3(kWarp), 0, out.data()); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::warp_sync);
  EXPECT_TRUE(contains(failure.message,
                       "ldmatrix.x4: lane [0-9]+ of warp 0 arrives here while lanes? [-0-9, ]+ wait at ldmatrix.x4 "
                       "at tests/sim/test_tensor_core_checks.cpp:[0-9]+. Every lane of the warp must execute the "
                       "same instruction"))
      << failure.message;
}

TEST_F(SimTensorCore, ARowPastTheSharedMemoryIsNamed) {
  constexpr std::size_t kTileBytes = 16 * kWarp;
  wb::DeviceBuffer<unsigned> out(kWarp);
  wb::launch(ldmatrix_past_the_tile, dim3(1), dim3(kWarp), kTileBytes, out.data(), 0);
  const KernelFailure failure = kernel_failure_of(
      [&] { wb::launch(ldmatrix_past_the_tile, dim3(1), dim3(kWarp), kTileBytes, out.data(), 1); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::shared_out_of_bounds);
  EXPECT_TRUE(contains(failure.message, "^tests/sim/test_tensor_core_checks.cpp:[0-9]+: block \\(0,0,0\\), "
                                        "thread \\(31,0,0\\): ldmatrix.x4: lane 31 gives row 7 of matrix 3 at "
                                        "0x[0-9a-f]+, which covers bytes \\[512, 528\\) of the dynamic shared "
                                        "memory \\(512 bytes, as launched\\): past its end"))
      << failure.message;
}

TEST_F(SimTensorCore, ARowInGlobalMemoryIsNamed) {
  wb::DeviceBuffer<uint4> rows(kWarp);
  wb::DeviceBuffer<unsigned> out(kWarp);
  const KernelFailure failure = kernel_failure_of(
      [&] { wb::launch(ldmatrix_from_global, dim3(1), dim3(kWarp), 0, rows.data(), out.data()); });
  EXPECT_TRUE(contains(failure.message, "ldmatrix.x4: lane [0-9]+ gives row [0-7] of matrix [0-3] at 0x[0-9a-f]+, "
                                        "which is in global memory \\(a device allocation\\). ldmatrix reads rows "
                                        "of shared memory only"))
      << failure.message;
}

TEST_F(SimTensorCore, ARowStoredByAnotherLaneWithNoBarrierIsARace) {
  wb::DeviceBuffer<unsigned> out(kWarp);
  const KernelFailure failure =
      kernel_failure_of([&] { wb::launch(ldmatrix_without_a_barrier, dim3(1), dim3(kWarp), 0, out.data()); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::shared_race);
  EXPECT_TRUE(contains(failure.message, "^tests/sim/test_tensor_core_checks.cpp:[0-9]+: ")) << failure.message;
}

TEST_F(SimTensorCore, EachWarpInstructionIsCountedOnceAndItsRowsAsOneRequest) {
  constexpr unsigned kWarps = 2;
  wb::DeviceBuffer<float> out(kWarps * kWarp);
  wb::launch(ldmatrix_forms_and_an_mma<1>, dim3(1), dim3(kWarps * kWarp), 0, out.data());
  const wb::sim::LaunchStats contiguous = wb::sim::last_launch_stats();
  EXPECT_EQ(contiguous.ldmatrix_calls, 3u * kWarps);
  EXPECT_EQ(contiguous.ldmatrix_matrices, (4u + 2u + 1u) * kWarps);
  EXPECT_EQ(contiguous.mma_calls, 1u * kWarps);
  EXPECT_EQ(contiguous.warp_syncs, 0u) << "ldmatrix and mma are not shuffles";
  // The only shared loads are ldmatrix's rows: per warp, one request of each form, whose
  // 8-lane phases are its matrices (4 + 2 + 1 wavefronts, none lost to conflicts), and
  // the .x1's request has the 8 lanes that gave rows.
  const wb::sim::RequestCounts& rows = contiguous.of(AccessKind::shared_load);
  EXPECT_EQ(rows.requests, 3u * kWarps);
  EXPECT_EQ(rows.transactions, 7u * kWarps);
  EXPECT_EQ(rows.ideal, 7u * kWarps);
  EXPECT_EQ(rows.lanes, (32u + 16u + 8u) * kWarps);

  wb::launch(ldmatrix_forms_and_an_mma<4>, dim3(1), dim3(kWarps * kWarp), 0, out.data());
  const wb::sim::RequestCounts& strided = wb::sim::last_launch_stats().of(AccessKind::shared_load);
  // Rows 64 bytes apart: a matrix's 8 rows fall on two groups of 4 banks, 4 rows each.
  EXPECT_EQ(strided.transactions, 4u * 7u * kWarps);
  EXPECT_EQ(strided.ideal, 7u * kWarps);
}

}  // namespace
