// Warp requests: wavefronts per shared-memory request and sectors per global one, for
// access patterns whose figures are computed by hand in each test's comment. The
// graders of chapters 2 to 5 judge bank conflicts and coalescing by these counts.
#include <string>
#include <type_traits>
#include <utility>

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

// The ways a learner writes a float4 load from shared memory and a float4 store to it,
// each a warp reading (then writing) 16 consecutive bytes a lane: on the GPU each is one
// 16-byte access (ld.shared.v4, st.shared.v4), 4 wavefronts a request, no conflict.
enum class VectorForm {
  const_value,             // const float4 v = *reinterpret_cast<const float4*>(p);
  value,                   // float4 v = *reinterpret_cast<const float4*>(p);
  value_through_mutable,   // float4 v = *reinterpret_cast<float4*>(p);
  through_ldg,             // float4 v = __ldg(reinterpret_cast<const float4*>(p));
  stored_from_make_float4, // *reinterpret_cast<float4*>(p) = make_float4(...);
  stored_from_float4_braces,  // *reinterpret_cast<float4*>(p) = float4{a, b, c, d};
  stored_from_braces,      // *reinterpret_cast<float4*>(p) = {a, b, c, d};
  stored_from_constants    // *reinterpret_cast<float4*>(p) = {1.0f, 2.0f, 3.0f, 4.0f};
};

// The simulator's vector types keep what CUDA code relies on of nvcc's aggregates.
static_assert(std::is_trivially_copyable_v<float4> && std::is_trivially_default_constructible_v<float4>,
              "float4 is copied with memcpy and declared uninitialised in __shared__ arrays");
static_assert(float4{1.0f}.y == 0.0f && float2{1.0f}.y == 0.0f, "braces with fewer values zero the rest");

template <VectorForm kForm>
__global__ void vector_forms(float* out) {
  __shared__ __align__(16) float smem_floats[4 * kWarp];
  for (unsigned i = threadIdx.x; i < 4 * kWarp; i += kWarp) smem_floats[i] = static_cast<float>(i);
  __syncthreads();
  float* quad = &smem_floats[4 * threadIdx.x];
  float sum = 0.0f;
  if constexpr (kForm == VectorForm::const_value) {
    const float4 v = *reinterpret_cast<const float4*>(quad);
    sum = v.x + v.y + v.z + v.w;
  } else if constexpr (kForm == VectorForm::value) {
    float4 v = *reinterpret_cast<const float4*>(quad);
    sum = v.x + v.y + v.z + v.w;
  } else if constexpr (kForm == VectorForm::value_through_mutable) {
    float4 v = *reinterpret_cast<float4*>(quad);
    sum = v.x + v.y + v.z + v.w;
  } else if constexpr (kForm == VectorForm::through_ldg) {
    float4 v = __ldg(reinterpret_cast<const float4*>(quad));
    sum = v.x + v.y + v.z + v.w;
  } else {
    __syncthreads();
    const float base = static_cast<float>(threadIdx.x);
    if constexpr (kForm == VectorForm::stored_from_make_float4) {
      *reinterpret_cast<float4*>(quad) = make_float4(base, base + 1, base + 2, base + 3);
    } else if constexpr (kForm == VectorForm::stored_from_float4_braces) {
      *reinterpret_cast<float4*>(quad) = float4{base, base + 1, base + 2, base + 3};
    } else if constexpr (kForm == VectorForm::stored_from_braces) {
      *reinterpret_cast<float4*>(quad) = {base, base + 1, base + 2, base + 3};
    } else {
      *reinterpret_cast<float4*>(quad) = {1.0f, 2.0f, 3.0f, 4.0f};
    }
  }
  out[threadIdx.x] = sum;
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

// The lanes of a warp that take part in a request: all of them, or the half that a
// layout wider than the data leaves with something to store.
__global__ void store_from_some_lanes(float* out, unsigned active) {
  if (threadIdx.x % 32 < active) out[threadIdx.x] = 1.0f;
}

TEST_F(SimRequests, RequestsCountTheirActiveLanes) {
  wb::DeviceBuffer<float> out(2 * kWarp);
  wb::launch(store_from_some_lanes, dim3(1), dim3(2 * kWarp), 0, out.data(), 32u);
  EXPECT_EQ(counts(AccessKind::global_store).requests, 2u);
  EXPECT_EQ(counts(AccessKind::global_store).lanes_per_request(), 32.0);
  wb::launch(store_from_some_lanes, dim3(1), dim3(2 * kWarp), 0, out.data(), 16u);
  EXPECT_EQ(counts(AccessKind::global_store).requests, 2u);
  EXPECT_EQ(counts(AccessKind::global_store).lanes, 32u);
  EXPECT_EQ(counts(AccessKind::global_store).bytes, 32u * sizeof(float));
  EXPECT_EQ(counts(AccessKind::global_store).lanes_per_request(), 16.0);
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

// A float4 read or written as its four fields would count four 4-byte requests at 16
// bytes a lane, a 4-way conflict the GPU does not have (a correct chapter 4 step 4 failed
// so): g++ must keep each form one 16-byte access, as nvcc does.
TEST_F(SimRequests, EveryWayOfWritingAVectorAccessIsOneAccessOfItsWidth) {
  wb::DeviceBuffer<float> out(kWarp);
  wb::launch(vector_forms<VectorForm::const_value>, dim3(1), dim3(kWarp), 0, out.data());
  EXPECT_EQ(counts(AccessKind::shared_load).requests, 1u) << "const float4 v = *reinterpret_cast<const float4*>";
  EXPECT_EQ(counts(AccessKind::shared_load).per_request(), 4.0);
  EXPECT_EQ(counts(AccessKind::shared_load).per_request(), counts(AccessKind::shared_load).ideal_per_request())
      << "const float4 v = *reinterpret_cast<const float4*>: no bank conflict";
  wb::launch(vector_forms<VectorForm::value>, dim3(1), dim3(kWarp), 0, out.data());
  EXPECT_EQ(counts(AccessKind::shared_load).requests, 1u) << "float4 v = *reinterpret_cast<const float4*>";
  EXPECT_EQ(counts(AccessKind::shared_load).per_request(), 4.0);
  wb::launch(vector_forms<VectorForm::value_through_mutable>, dim3(1), dim3(kWarp), 0, out.data());
  EXPECT_EQ(counts(AccessKind::shared_load).requests, 1u) << "float4 v = *reinterpret_cast<float4*>";
  EXPECT_EQ(counts(AccessKind::shared_load).per_request(), 4.0);
  wb::launch(vector_forms<VectorForm::through_ldg>, dim3(1), dim3(kWarp), 0, out.data());
  EXPECT_EQ(counts(AccessKind::shared_load).requests, 1u) << "__ldg of a float4";
  EXPECT_EQ(counts(AccessKind::shared_load).per_request(), 4.0);
  // Each store form: 4 requests of the fill loop, 1 of the vector store (st.shared.v4.f32
  // in nvcc's PTX for every one of them), 4 wavefronts.
  const std::pair<void (*)(float*), const char*> stores[] = {
      {vector_forms<VectorForm::stored_from_make_float4>, "= make_float4(...)"},
      {vector_forms<VectorForm::stored_from_float4_braces>, "= float4{a, b, c, d}"},
      {vector_forms<VectorForm::stored_from_braces>, "= {a, b, c, d}"},
      {vector_forms<VectorForm::stored_from_constants>, "= {1.0f, 2.0f, 3.0f, 4.0f}"},
  };
  for (const auto& [kernel, form] : stores) {
    wb::launch(kernel, dim3(1), dim3(kWarp), 0, out.data());
    EXPECT_EQ(counts(AccessKind::shared_store).requests, 5u) << form;
    EXPECT_EQ(counts(AccessKind::shared_store).transactions, 4u + 4u) << form << ": 4 wavefronts";
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
  // A lane, 16 bytes: the graders count the floats stored from the bytes.
  EXPECT_EQ(counts(AccessKind::global_store).lanes, 32u);
  EXPECT_EQ(counts(AccessKind::global_store).bytes, 32u * sizeof(float4));
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
