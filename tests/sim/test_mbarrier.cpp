// Hopper's mbarrier in the simulator (cuda::barrier<thread_scope_block>, <cuda/barrier>):
// a phase completes when its arrivals and its bytes are in, bulk and tensor copies land at
// the wait for their phase (a read before it sees poison, a read by another thread is a
// race), wait_parity(1) before any phase
// returns at once, a phase that can never complete names what it lacks; the tensor map's
// rules, the box outside the tensor filled with zeros, and the 128-byte swizzle.
#include <cuda/barrier>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "sim_test_support.hpp"
#include "wb/grading/random.hpp"
#include "wb/tensor_map.hpp"

namespace {

using sim_test::contains;
using sim_test::kernel_error_of;
using wb::poison::bits_of;
using wb::poison::matches;
using Barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
using SimMbarrier = sim_test::SimTest;

constexpr int kThreads = 64;
constexpr int kFloats = 256;

// Thread 0 initialises `full` for one arrival a phase and makes it visible to the copies'
// proxy; the barrier then orders that before every thread's use.
__device__ void init_for_one_producer(Barrier& full) {
  if (threadIdx.x == 0) {
    init(&full, 1);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
}

// Thread 0 copies in[0, count) with one bulk copy expecting `expected_bytes`; every thread
// reads the tile after the wait (out[i]).
__global__ void bulk_copy_tile(const float* in, float* out, int count, int expected_bytes) {
  __shared__ __align__(16) float smem_tile[kFloats];
  WB_SHARED_LIBRARY_STATE
  __shared__ Barrier full;
  init_for_one_producer(full);
  if (threadIdx.x == 0) {
    cuda::device::memcpy_async_tx(smem_tile, in, cuda::aligned_size_t<16>(sizeof(float) * count), full);
    (void)cuda::device::barrier_arrive_tx(full, 1, expected_bytes);
  }
  full.wait_parity(0);
  for (int i = threadIdx.x; i < count; i += blockDim.x) out[i] = smem_tile[i];
}

// Every thread arrives and waits with its token, twice: two phases of one barrier.
__global__ void two_phases(float* out) {
  WB_SHARED_LIBRARY_STATE
  __shared__ Barrier all;
  if (threadIdx.x == 0) init(&all, blockDim.x);
  __syncthreads();
  for (int phase = 0; phase < 2; ++phase) {
    Barrier::arrival_token token = all.arrive();
    all.wait(std::move(token));
  }
  out[threadIdx.x] = 1.0f;
}

// wait_parity(1) before any phase completed: the phase "before the first" counts as done.
__global__ void parity_one_first(const float* in, float* out) {
  __shared__ __align__(16) float smem_tile[4];
  WB_SHARED_LIBRARY_STATE
  __shared__ Barrier full;
  init(&full, 1);
  cuda::device::memcpy_async_tx(smem_tile, in, cuda::aligned_size_t<16>(16), full);
  (void)cuda::device::barrier_arrive_tx(full, 1, 16);
  full.wait_parity(1);
  out[0] = smem_tile[0];
  full.wait_parity(0);
  out[1] = smem_tile[0];
}

// A barrier used before any thread initialised it.
__global__ void arrive_uninitialised() {
  WB_SHARED_LIBRARY_STATE
  __shared__ Barrier full;
  (void)full.arrive();
}

// A bulk copy of a size that is not a multiple of 16 bytes.
__global__ void bulk_copy_of_12_bytes(const float* in) {
  __shared__ __align__(16) float smem_tile[4];
  WB_SHARED_LIBRARY_STATE
  __shared__ Barrier full;
  init(&full, 1);
  cuda::device::memcpy_async_tx(smem_tile, in, cuda::aligned_size_t<16>(12), full);
}

// One tensor copy of the box at (row, col) of a rows x cols column-major map, landed, out.
constexpr int kBoxRows = 32, kBoxCols = 8;
__global__ void tensor_copy_box(const __grid_constant__ CUtensorMap tensor_map, float* out, int row, int col) {
  __shared__ __align__(1024) float smem_box[kBoxRows * kBoxCols];
  WB_SHARED_LIBRARY_STATE
  __shared__ Barrier full;
  init_for_one_producer(full);
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(smem_box, &tensor_map, row, col, full);
    (void)cuda::device::barrier_arrive_tx(full, 1, sizeof(smem_box));
  }
  full.wait_parity(0);
  for (int i = threadIdx.x; i < kBoxRows * kBoxCols; i += blockDim.x) out[i] = smem_box[i];
}

CUtensorMap column_major_map(const float* data, int rows, int cols, CUtensorMapSwizzle swizzle) {
  CUtensorMap tensor_map;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(rows), static_cast<cuuint64_t>(cols)};
  const cuuint64_t strides[1] = {sizeof(float) * static_cast<cuuint64_t>(rows)};
  const cuuint32_t box[2] = {kBoxRows, kBoxCols};
  const cuuint32_t element_strides[2] = {1, 1};
  wb::encode_tensor_map_tiled(&tensor_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(data), dims,
                              strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                              CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return tensor_map;
}

TEST_F(SimMbarrier, BulkCopyLandsAtTheWaitForItsPhase) {
  const std::vector<float> values = wb::grading::random_floats(kFloats, 7);
  wb::DeviceBuffer<float> in(kFloats), out(kFloats);
  in.upload(values);
  wb::launch(bulk_copy_tile, dim3(1), dim3(kThreads), 0, in.data(), out.data(), kFloats, 4 * kFloats);
  const std::vector<float> result = out.download();
  for (int i = 0; i < kFloats; ++i) ASSERT_EQ(result[i], values[i]) << "element " << i;
  const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
  EXPECT_EQ(stats.bulk_copies, 1u);
  EXPECT_EQ(stats.bulk_bytes, 4u * kFloats);
  EXPECT_EQ(stats.mbarrier_phases, 1u);
  EXPECT_EQ(stats.mbarrier_arrivals, 1u);
  EXPECT_EQ(stats.mbarrier_waits, static_cast<std::uint64_t>(kThreads));
  EXPECT_EQ(stats.proxy_fences, 1u);
}

TEST_F(SimMbarrier, PhaseThatExpectsMoreBytesThanItsCopiesBringIsNamed) {
  wb::DeviceBuffer<float> in(kFloats), out(kFloats);
  in.upload(wb::grading::random_floats(kFloats, 8));
  const std::string message = kernel_error_of(
      [&] { wb::launch(bulk_copy_tile, dim3(1), dim3(kThreads), 0, in.data(), out.data(), 16, 4 * kFloats); });
  EXPECT_TRUE(contains(message, "a barrier phase that can never complete")) << message;
  EXPECT_TRUE(contains(message, "on the barrier full")) << message;
  EXPECT_TRUE(contains(message, "expects 1024 bytes while the copies of this phase bring 64 bytes")) << message;
}

TEST_F(SimMbarrier, EveryThreadArrivingCompletesOnePhaseEachTime) {
  wb::DeviceBuffer<float> out(kThreads);
  wb::launch(two_phases, dim3(2), dim3(kThreads), 0, out.data());
  const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
  EXPECT_EQ(stats.mbarrier_phases, 4u);  // 2 a block
  EXPECT_EQ(stats.mbarrier_arrivals, 4u * kThreads);
}

TEST_F(SimMbarrier, ParityOneBeforeTheFirstPhaseReturnsAtOnce) {
  wb::DeviceBuffer<float> in(4), out(2);
  in.upload({1.0f, 2.0f, 3.0f, 4.0f});
  wb::launch(parity_one_first, dim3(1), dim3(1), 0, in.data(), out.data());
  const std::vector<float> result = out.download();
  EXPECT_TRUE(matches(bits_of(result[0]), wb::poison::in_flight)) << result[0];
  EXPECT_EQ(result[1], 1.0f);
  EXPECT_EQ(wb::sim::last_launch_stats().mbarrier_waits_on_a_past_phase, 1u);
}

TEST_F(SimMbarrier, UninitialisedBarrierIsNamed) {
  const std::string message = kernel_error_of([&] { wb::launch(arrive_uninitialised, dim3(1), dim3(1), 0); });
  EXPECT_TRUE(contains(message, "which this block has not initialised .yet.")) << message;
}

TEST_F(SimMbarrier, BulkCopyOfAPartial16ByteUnitIsRefused) {
  wb::DeviceBuffer<float> in(4);
  in.upload({1.0f, 2.0f, 3.0f, 4.0f});
  const std::string message = kernel_error_of([&] { wb::launch(bulk_copy_of_12_bytes, dim3(1), dim3(1), 0, in.data()); });
  EXPECT_TRUE(contains(message, "a bulk copy moves a positive multiple of 16 bytes")) << message;
}

TEST_F(SimMbarrier, TensorCopyFillsTheBoxOutsideTheTensorWithZeros) {
  const int rows = 40, cols = 6;  // the box at (32, 0) has 8 rows and 6 columns inside
  const std::vector<float> values = wb::grading::random_floats(rows * cols, 9);
  wb::DeviceBuffer<float> in(rows * cols), out(kBoxRows * kBoxCols);
  in.upload(values);
  const CUtensorMap tensor_map = column_major_map(in.data(), rows, cols, CU_TENSOR_MAP_SWIZZLE_NONE);
  wb::launch(tensor_copy_box, dim3(1), dim3(kThreads), 0, tensor_map, out.data(), 32, 0);
  const std::vector<float> box = out.download();
  for (int c = 0; c < kBoxCols; ++c) {
    for (int r = 0; r < kBoxRows; ++r) {
      const float expected = 32 + r < rows && c < cols ? values[static_cast<std::size_t>(32 + r + c * rows)] : 0.0f;
      ASSERT_EQ(box[static_cast<std::size_t>(r + c * kBoxRows)], expected) << "box element (" << r << ", " << c << ")";
    }
  }
  EXPECT_EQ(wb::sim::last_launch_stats().tensor_bytes, 4u * kBoxRows * kBoxCols);
}

TEST_F(SimMbarrier, TensorCopyLaysTheBoxOutWithTheSwizzle) {
  const int rows = 32, cols = 8;
  const std::vector<float> values = wb::grading::random_floats(rows * cols, 10);
  wb::DeviceBuffer<float> in(rows * cols), out(kBoxRows * kBoxCols);
  in.upload(values);
  const CUtensorMap tensor_map = column_major_map(in.data(), rows, cols, CU_TENSOR_MAP_SWIZZLE_128B);
  wb::launch(tensor_copy_box, dim3(1), dim3(kThreads), 0, tensor_map, out.data(), 0, 0);
  const std::vector<float> box = out.download();
  // Column c is one 128-byte line; its 16-byte chunk k lands at chunk k ^ (c % 8).
  for (int c = 0; c < cols; ++c) {
    for (int r = 0; r < rows; ++r) {
      const int word = c * kBoxRows + ((r / 4) ^ (c % 8)) * 4 + r % 4;
      ASSERT_EQ(box[static_cast<std::size_t>(word)], values[static_cast<std::size_t>(r + c * rows)])
          << "element (" << r << ", " << c << ")";
    }
  }
}

TEST_F(SimMbarrier, TensorMapRulesAreNamed) {
  wb::DeviceBuffer<float> in(100 * 8);
  const auto rule_broken = [&](int rows, CUtensorMapSwizzle swizzle, cuuint32_t inner_box) {
    CUtensorMap tensor_map;
    const cuuint64_t dims[2] = {static_cast<cuuint64_t>(rows), 8};
    const cuuint64_t strides[1] = {sizeof(float) * static_cast<cuuint64_t>(rows)};
    const cuuint32_t box[2] = {inner_box, 8};
    const cuuint32_t element_strides[2] = {1, 1};
    try {
      wb::encode_tensor_map_tiled(&tensor_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, in.data(), dims, strides, box,
                                  element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    } catch (const wb::Error& error) {
      EXPECT_EQ(error.kind(), wb::ErrorKind::tensor_map);
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_TRUE(contains(rule_broken(98, CU_TENSOR_MAP_SWIZZLE_NONE, 32), "globalStrides.0. is 392 bytes"));
  EXPECT_TRUE(contains(rule_broken(100, CU_TENSOR_MAP_SWIZZLE_128B, 64), "more than the 128-byte swizzle's span"));
  EXPECT_TRUE(contains(rule_broken(100, CU_TENSOR_MAP_SWIZZLE_NONE, 3), "it must be a multiple of 16 bytes"));
  EXPECT_TRUE(contains(rule_broken(100, CU_TENSOR_MAP_SWIZZLE_NONE, 512), "a box has 1 to 256 elements"));
  EXPECT_EQ(rule_broken(100, CU_TENSOR_MAP_SWIZZLE_128B, 32), "accepted");
}

}  // namespace
