// Warp requests: wavefronts per shared-memory request and sectors per global one, for
// access patterns whose figures are computed by hand in each test's comment. The
// graders of chapters 2 to 5 judge bank conflicts and coalescing by these counts.
#include <string>

#include "sim_test_support.hpp"
#include "wb/grading/technique.hpp"

namespace {

using SimRequests = sim_test::SimTest;
using wb::sim::AccessKind;

constexpr unsigned kWarp = 32;

// One warp reads shared floats at `stride` apart: lane l reads word l * stride.
template <int kStride>
__global__ void strided_shared_reads(float* out) {
  __shared__ float smem_values[kWarp * kStride];
  for (unsigned i = threadIdx.x; i < kWarp * kStride; i += kWarp) smem_values[i] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = smem_values[threadIdx.x * kStride];
}

// Every lane reads the same word.
__global__ void broadcast_read(float* out) {
  __shared__ float smem_value;
  if (threadIdx.x == 0) smem_value = 2.0f;
  __syncthreads();
  out[threadIdx.x] = smem_value;
}

// 8- and 16-byte shared loads, lane l at element l * kSpread of its width.
template <class Vector, int kSpread>
__global__ void vector_shared_reads(Vector* out) {
  __shared__ __align__(16) Vector smem_vectors[kWarp * kSpread];
  for (unsigned i = threadIdx.x; i < kWarp * kSpread; i += kWarp) smem_vectors[i] = Vector{};
  __syncthreads();
  out[threadIdx.x] = smem_vectors[threadIdx.x * kSpread];
}

// The same 16-byte copy out of shared memory as a streaming store (__stcs).
__global__ void streamed_vector_stores(float4* out) {
  __shared__ __align__(16) float4 smem_vectors[kWarp];
  smem_vectors[threadIdx.x] = float4{};
  __syncthreads();
  __stcs(&out[threadIdx.x], smem_vectors[threadIdx.x]);
}

// Global reads of floats `stride` apart (and a coalesced store).
__global__ void strided_global_reads(const float* in, float* out, int stride) {
  out[threadIdx.x] = in[threadIdx.x * stride];
}

// cp.async of 4 bytes a lane: consecutive in both memories.
__global__ void coalesced_copies(const float* in, float* out) {
  __shared__ float smem_values[kWarp];
  wb::cp_async(&smem_values[threadIdx.x], &in[threadIdx.x]);
  wb::cp_async_wait_all();
  out[threadIdx.x] = smem_values[threadIdx.x];
}

const wb::sim::RequestCounts& counts(AccessKind kind) { return wb::sim::last_launch_stats().of(kind); }

template <int kStride>
double shared_read_wavefronts() {
  wb::DeviceBuffer<float> out(kWarp);
  wb::launch(strided_shared_reads<kStride>, dim3(1), dim3(kWarp), 0, out.data());
  EXPECT_EQ(counts(AccessKind::shared_load).requests, 1u) << "one warp, one load";
  return counts(AccessKind::shared_load).per_request();
}

TEST_F(SimRequests, FourByteSharedLoadsCountTheLargestBankConflict) {
  // Stride 1: 32 words in 32 banks. Stride 2: banks 0, 2, ..., 30 each twice. Stride 128
  // (a column-major tile of 128 rows read along a row): every lane in bank 0. Stride 130:
  // bank 2l % 32, lanes l and l + 16 share a bank. Stride 129: bank l % 32, all distinct.
  EXPECT_EQ(shared_read_wavefronts<1>(), 1.0);
  EXPECT_EQ(shared_read_wavefronts<2>(), 2.0);
  EXPECT_EQ(shared_read_wavefronts<128>(), 32.0);
  EXPECT_EQ(shared_read_wavefronts<130>(), 2.0);
  EXPECT_EQ(shared_read_wavefronts<129>(), 1.0);
  EXPECT_EQ(counts(AccessKind::shared_load).ideal, 1u);
}

TEST_F(SimRequests, ABroadcastCostsOneWavefront) {
  wb::DeviceBuffer<float> out(kWarp);
  wb::launch(broadcast_read, dim3(1), dim3(kWarp), 0, out.data());
  EXPECT_EQ(counts(AccessKind::shared_load).requests, 1u);
  EXPECT_EQ(counts(AccessKind::shared_load).transactions, 1u);
  // The store is lane 0's alone: one request of one wavefront.
  EXPECT_EQ(counts(AccessKind::shared_store).requests, 1u);
  EXPECT_EQ(counts(AccessKind::shared_store).transactions, 1u);
}

TEST_F(SimRequests, WideSharedLoadsAreServedInPhases) {
  {  // float2, consecutive: two half-warps of 16 lanes x 8 bytes = 32 banks each.
    wb::DeviceBuffer<float2> out(kWarp);
    wb::launch(vector_shared_reads<float2, 1>, dim3(1), dim3(kWarp), 0, out.data());
    EXPECT_EQ(counts(AccessKind::shared_load).per_request(), 2.0);
  }
  {  // float2, 16 bytes apart: in a half-warp lanes l and l + 8 share banks: 2 per phase.
    wb::DeviceBuffer<float2> out(kWarp);
    wb::launch(vector_shared_reads<float2, 2>, dim3(1), dim3(kWarp), 0, out.data());
    EXPECT_EQ(counts(AccessKind::shared_load).per_request(), 4.0);
  }
  {  // float4, consecutive: four quarter-warps of 8 lanes x 16 bytes.
    wb::DeviceBuffer<float4> out(kWarp);
    wb::launch(vector_shared_reads<float4, 1>, dim3(1), dim3(kWarp), 0, out.data());
    EXPECT_EQ(counts(AccessKind::shared_load).per_request(), 4.0);
    EXPECT_EQ(counts(AccessKind::shared_load).ideal_per_request(), 4.0);
  }
  {  // float4, 32 bytes apart: lanes l and l + 4 of a quarter share banks: 2 per phase.
    wb::DeviceBuffer<float4> out(kWarp);
    wb::launch(vector_shared_reads<float4, 2>, dim3(1), dim3(kWarp), 0, out.data());
    EXPECT_EQ(counts(AccessKind::shared_load).per_request(), 8.0);
  }
}

TEST_F(SimRequests, StreamingStoreKeepsTheWidthOfItsVector) {
  // A float4 passed by value would reach the simulator as 4-byte parts: a 4-way conflict
  // on the read and 16 sectors for an ideal of 4 on the store, where the GPU has neither.
  wb::DeviceBuffer<float4> out(kWarp);
  wb::launch(streamed_vector_stores, dim3(1), dim3(kWarp), 0, out.data());
  EXPECT_EQ(counts(AccessKind::shared_load).per_request(), 4.0);
  EXPECT_EQ(counts(AccessKind::shared_load).ideal_per_request(), 4.0);
  EXPECT_EQ(counts(AccessKind::global_store).per_request(), 16.0);
  EXPECT_EQ(counts(AccessKind::global_store).ideal_per_request(), 16.0);
}

TEST_F(SimRequests, GlobalRequestsCountDistinctSectors) {
  wb::DeviceBuffer<float> in(kWarp * 64), out(kWarp);
  in.poison();
  const struct {
    int stride;
    double sectors;
  } cases[] = {{1, 4.0}, {2, 8.0}, {8, 32.0}, {64, 32.0}, {0, 1.0}};
  for (const auto& c : cases) {
    SCOPED_TRACE("stride " + std::to_string(c.stride));
    wb::launch(strided_global_reads, dim3(1), dim3(kWarp), 0, in.data(), out.data(), c.stride);
    EXPECT_EQ(counts(AccessKind::global_load).requests, 1u);
    EXPECT_EQ(counts(AccessKind::global_load).per_request(), c.sectors);
    EXPECT_EQ(counts(AccessKind::global_store).per_request(), 4.0) << "the coalesced store";
  }
}

TEST_F(SimRequests, CpAsyncCountsBothSides) {
  wb::DeviceBuffer<float> in(kWarp), out(kWarp);
  in.poison();
  wb::launch(coalesced_copies, dim3(1), dim3(kWarp), 0, in.data(), out.data());
  EXPECT_EQ(counts(AccessKind::cp_async_read).requests, 1u);
  EXPECT_EQ(counts(AccessKind::cp_async_read).transactions, 4u);
  EXPECT_EQ(counts(AccessKind::cp_async_write).transactions, 1u);
  EXPECT_EQ(counts(AccessKind::shared_load).transactions, 1u);
}

TEST_F(SimRequests, EveryWarpOfEveryBlockCounts) {
  wb::DeviceBuffer<float> in(4 * 2 * kWarp), out(4 * 2 * kWarp);
  in.poison();
  // 4 blocks of 2 warps, each lane one load, one store.
  wb::launch(strided_global_reads, dim3(4), dim3(2 * kWarp), 0, in.data(), out.data(), 1);
  EXPECT_EQ(counts(AccessKind::global_load).requests, 8u);
}

TEST_F(SimRequests, TheTechniqueCheckNamesTheWorstLine) {
  wb::DeviceBuffer<float> out(kWarp);
  wb::launch(strided_shared_reads<128>, dim3(1), dim3(kWarp), 0, out.data());
  const ::testing::AssertionResult check = wb::grading::transactions_per_request_at_most(
      wb::sim::last_launch_stats(), AccessKind::shared_load, 1.0, "pad the array");
  ASSERT_FALSE(check);
  EXPECT_TRUE(sim_test::contains(
      check.message(), "shared loads: 32.0 wavefronts per request \\(ideal 1.0, 1 requests\\); "
                       "worst at tests/sim/test_requests.cpp:2[0-9], 32.0 per request for "
                       "4-byte accesses.*at most 1.0 wavefronts per request: pad the array"))
      << check.message();
}

}  // namespace
