// A shared index outside its array, on every path, is ErrorKind::shared_out_of_bounds
// naming the array, the offset and its size (a cp.async's destination_not_shared, with the
// same words): a read far before the start of the dynamic shared memory (checked before
// it is made, so it cannot fault), a copy there, and a vector read that
// runs past the end of a __shared__ array into whatever follows it (the next stage of a
// buffer, where it would otherwise be judged as an access of that array), and an index
// below a stage array that lands in another kernel's array (all kernels' __shared__
// arrays lie side by side in the simulator, where a GPU gives each kernel its own).
#include <string>
#include <vector>

#include "sim_test_support.hpp"

namespace {

using SimSharedBounds = sim_test::SimTest;
using sim_test::contains;
using sim_test::kernel_failure_of;
using sim_test::KernelFailure;

constexpr int kSpanFloats = 256;
constexpr std::size_t kDynamicBytes = 2 * kSpanFloats * sizeof(float);  // two spans

// The dynamic shared memory as two spans; the read is `offset` floats from the second's start.
__global__ void read_around_a_dynamic_span(float* out, int offset) {
  WB_DYNAMIC_SHARED(float, smem_buffer);
  const float* smem_second_span = smem_buffer + kSpanFloats;  // (256)
  smem_buffer[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = smem_second_span[offset];
}

// A 16-byte copy into the second span, `offset` floats from its start.
__global__ void copy_around_a_dynamic_span(const float* in, int offset) {
  WB_DYNAMIC_SHARED(float, smem_buffer);
  wb::cp_async_ca<16>(smem_buffer + kSpanFloats + offset, in);
  wb::cp_async_wait_all();
}

// Two stages of a buffer; a float4 read at stage 0's element `first` (4: its last two
// floats and the 8 bytes after its end). Declared in this order, g++ puts smem_stage1 right
// after smem_stage0, so the read runs into the next stage, where it used to pass unseen as
// a read of that stage; the test accepts padding there too.
__global__ void float4_read_past_a_stage(float* out, int first) {
  __shared__ float smem_stage1[6];
  __shared__ __align__(16) float smem_stage0[6];
  if (threadIdx.x < 6) {
    smem_stage0[threadIdx.x] = 1.0f;
    smem_stage1[threadIdx.x] = 2.0f;
  }
  __syncthreads();
  const float4 quad = *reinterpret_cast<const float4*>(&smem_stage0[first]);
  out[threadIdx.x] = quad.x + quad.y + quad.z + quad.w;
}

// Two stages of 64 floats; the stage is `stage`, -1 as `(i - 1) % 2` makes it at i = 0.
__global__ void copy_into_a_stage(const float* in, int stage) {
  __shared__ __align__(16) float smem_stages[2][64];
  wb::cp_async_ca<4>(&smem_stages[stage][threadIdx.x], in + threadIdx.x);
  wb::cp_async_wait_all();
}

__global__ void store_into_a_stage(float* out, int stage) {
  __shared__ float smem_stages[2][64];
  smem_stages[stage][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = smem_stages[stage][threadIdx.x];
}

// Declared after the two above, so that g++ puts its array below theirs (it lays a file's
// thread-local variables out last first): a negative stage of theirs lands in it.
__global__ void another_kernels_tile(float* out) {
  __shared__ float smem_other_tile[1024];
  smem_other_tile[threadIdx.x] = 1.0f;
  out[threadIdx.x] = smem_other_tile[threadIdx.x];
}

// A __device__ helper with an array of its own, not inlined: the kernel that calls it
// reaches the array through the helper's code, which is the kernel's shared memory.
[[gnu::noinline]] __device__ float through_a_helpers_array(float value) {
  __shared__ float smem_helper[64];
  smem_helper[threadIdx.x] = value;
  __syncthreads();
  return smem_helper[(threadIdx.x + 1) % blockDim.x];
}

__global__ void call_a_helper_with_an_array(float* out) { out[threadIdx.x] = through_a_helpers_array(1.0f); }

TEST_F(SimSharedBounds, AStageIndexOfMinusOneIntoAnotherKernelsArrayIsCaught) {
  wb::DeviceBuffer<float> in(64);
  wb::DeviceBuffer<float> out(64);
  in.poison();
  for (const bool copy : {true, false}) {
    SCOPED_TRACE(copy ? "a cp.async" : "a store");
    const KernelFailure failure = kernel_failure_of([&] {
      if (copy) wb::launch(copy_into_a_stage, dim3(1), dim3(64), 0, in.data(), -1);
      if (!copy) wb::launch(store_into_a_stage, dim3(1), dim3(64), 0, out.data(), -1);
    });
    EXPECT_EQ(failure.kind, copy ? wb::ErrorKind::destination_not_shared : wb::ErrorKind::shared_out_of_bounds);
    EXPECT_TRUE(contains(failure.message,
                         "at element -[0-9]+ of this kernel's smem_stages, which has 128 floats \\(512 "
                         "bytes\\): [0-9]+ floats before its start, outside this kernel's shared memory.*"
                         "An index into smem_stages below 0. Is an index negative: a stage or a row "
                         "computed as \\(i - 1\\) % n"))
        << failure.message;
    // The simulator's neighbour in memory, another kernel's array, is not the mistake.
    EXPECT_FALSE(contains(failure.message, "another kernel|another_kernels_tile|smem_other_tile"))
        << failure.message;
  }
  // Each kernel's own stages, and its neighbours', are its own to use.
  wb::launch(another_kernels_tile, dim3(1), dim3(64), 0, out.data());
  wb::launch(copy_into_a_stage, dim3(1), dim3(64), 0, in.data(), 1);
  wb::launch(store_into_a_stage, dim3(1), dim3(64), 0, out.data(), 0);
}

TEST_F(SimSharedBounds, AHelpersOwnArrayIsTheKernelsSharedMemory) {
  wb::DeviceBuffer<float> out(64);
  wb::launch(call_a_helper_with_an_array, dim3(2), dim3(64), 0, out.data());
  EXPECT_EQ(out.download(), std::vector<float>(64, 1.0f));
}

TEST_F(SimSharedBounds, AReadFarBeforeTheDynamicSharedMemoryNamesItsOffsetAndSize) {
  wb::DeviceBuffer<float> out(32);
  // 16 KiB before the start, past the guard band; then 512 KiB before, where the worker's
  // heap may end (a read there faulted before it was checked).
  for (const int offset : {-kSpanFloats - 4096, -kSpanFloats - (1 << 17)}) {
    SCOPED_TRACE("offset " + std::to_string(offset));
    const KernelFailure failure = kernel_failure_of([&] {
      wb::launch(read_around_a_dynamic_span, dim3(1), dim3(32), kDynamicBytes, out.data(), offset);
    });
    EXPECT_EQ(failure.kind, wb::ErrorKind::shared_out_of_bounds);
    const long long byte = 4LL * (kSpanFloats + offset);
    EXPECT_TRUE(contains(failure.message, "test_shared_bounds.cpp:30: block \\(0,0,0\\), thread \\(0,0,0\\): "
                                          "a load of 4 bytes covers bytes \\[" + std::to_string(byte) + ", " +
                                              std::to_string(byte + 4) +
                                              "\\) of the dynamic shared memory \\(2048 bytes, as "
                                              "launched\\): before its start"))
        << failure.message;
  }
}

TEST_F(SimSharedBounds, AReadPastTheEndOfTheDynamicSharedMemoryBeyondItsGuardIsCaught) {
  wb::DeviceBuffer<float> out(32);
  const KernelFailure failure = kernel_failure_of([&] {
    wb::launch(read_around_a_dynamic_span, dim3(1), dim3(32), kDynamicBytes, out.data(), 4 * kSpanFloats);
  });
  EXPECT_EQ(failure.kind, wb::ErrorKind::shared_out_of_bounds);
  EXPECT_TRUE(contains(failure.message, "a load of 4 bytes covers bytes \\[5120, 5124\\) of the dynamic shared "
                                        "memory \\(2048 bytes, as launched\\): past its end"))
      << failure.message;
}

TEST_F(SimSharedBounds, ACopyFarBeforeTheDynamicSharedMemoryNamesItsOffsetAndSize) {
  wb::DeviceBuffer<float> in(4);
  in.poison();
  const KernelFailure failure = kernel_failure_of([&] {
    wb::launch(copy_around_a_dynamic_span, dim3(1), dim3(1), kDynamicBytes, in.data(), -kSpanFloats - 4096);
  });
  EXPECT_EQ(failure.kind, wb::ErrorKind::destination_not_shared);
  EXPECT_TRUE(contains(failure.message, "the shared destination covers bytes \\[-16384, -16368\\) of the dynamic "
                                        "shared memory \\(2048 bytes, as launched\\): before its start"))
      << failure.message;
}

TEST_F(SimSharedBounds, AVectorReadPastTheEndOfAStageNamesTheArrayAndItsSize) {
  wb::DeviceBuffer<float> out(32);
  const KernelFailure failure =
      kernel_failure_of([&] { wb::launch(float4_read_past_a_stage, dim3(1), dim3(32), 0, out.data(), 4); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::shared_out_of_bounds);
  // Whatever the linker put after smem_stage0: padding, or smem_stage1.
  EXPECT_TRUE(contains(failure.message,
                       "test_shared_bounds.cpp:52: block \\(0,0,0\\), thread \\(0,0,0\\): a load of 16 bytes "
                       "(at bytes \\[16, 32\\) of the __shared__ array smem_stage0, which has 24 bytes: past its "
                       "end|covers the end of one array and the start of the next: bytes \\[16, 24\\) of the "
                       "__shared__ array smem_stage0, which has 24 bytes, and bytes \\[0, 8\\) of the __shared__ "
                       "array smem_stage1, which has 24 bytes)"))
      << failure.message;
}

}  // namespace
