// What the simulator sees of every access (the kernels are instrumented): static
// shared memory starts each block undefined, as on a GPU; a cp.async destination must
// be the block's shared memory; an access past the end of the dynamic shared memory or
// of a device allocation fails the launch naming the thread and the source line; a
// thread that issues copies without end is stopped with the line and the count.
#include <string>
#include <vector>

#include "sim_test_support.hpp"
#include "wb/grading/random.hpp"

namespace {

using sim_test::contains;
using sim_test::kernel_error_of;
using wb::poison::bits_of;
using wb::poison::matches;
using SimMemory = sim_test::SimTest;

constexpr unsigned kThreads = 64;

// Thread i reads word i of a shared array before anyone writes it, then writes it.
// Every block must read poison: nothing of an earlier block may survive.
__global__ void read_then_write_shared(float* out) {
  __shared__ float smem_values[kThreads];
  out[blockIdx.x * blockDim.x + threadIdx.x] = smem_values[threadIdx.x];
  smem_values[threadIdx.x] = static_cast<float>(blockIdx.x + 1);
}

__device__ float device_variable[4];

__global__ void copy_into_device_variable(const float* in) {
  wb::cp_async_ca<16>(device_variable, in);
  wb::cp_async_wait_all();
}

// A 16-byte copy at float `offset` of a dynamic buffer of the launch's size.
__global__ void copy_into_dynamic_at(const float* in, int offset) {
  WB_DYNAMIC_SHARED(float, smem_buffer);
  wb::cp_async_ca<16>(&smem_buffer[offset], in);
  wb::cp_async_wait_all();
}

// Stores the line of its store first, so that the test knows which line to expect.
__global__ void store_into_dynamic_at(int offset, int* line) {
  WB_DYNAMIC_SHARED(float, smem_buffer);
  *line = __LINE__ + 1;
  smem_buffer[offset] = 1.0f;
}

__global__ void store_past_the_end(float* out, int count, int* line) {
  *line = __LINE__ + 1;
  out[count + static_cast<int>(threadIdx.x)] = 1.0f;
}

// A load one element before the array, as a loop counted from 1 that starts at 0 makes.
__global__ void load_before_the_start(const float* in, float* out, int* line) {
  *line = __LINE__ + 1;
  out[threadIdx.x] = in[static_cast<int>(threadIdx.x) - 1];
}

// A loop that never advances, like the typo that grew a process to 24 GB (`row + 32`
// for `row += 32`).
__global__ void copies_without_end(const float* in, int* line) {
  __shared__ float smem_values[32];
  for (int row = 0; row < 32; row += 0) {  // never advances
    *line = __LINE__ + 1;
    wb::cp_async(&smem_values[row], &in[row]);
  }
  wb::cp_async_wait_all();
}

TEST_F(SimMemory, StaticSharedMemoryStartsEveryBlockPoisoned) {
  constexpr unsigned kBlocks = 40;
  wb::DeviceBuffer<float> out(kBlocks * kThreads);
  for (int launch = 0; launch < 2; ++launch) {  // nothing survives a launch either
    out.poison();
    wb::launch(read_then_write_shared, dim3(kBlocks), dim3(kThreads), 0, out.data());
    const std::vector<float> result = out.download();
    for (std::size_t i = 0; i < result.size(); ++i) {
      ASSERT_TRUE(matches(bits_of(result[i]), wb::poison::stale))
          << "launch " << launch << ", element " << i << " read shared memory before "
          << "its block wrote it: expected the stale poison, got " << result[i];
    }
  }
}

TEST_F(SimMemory, CopyIntoADeviceVariableIsRejected) {
  wb::DeviceBuffer<float> in(4);
  const std::string message = kernel_error_of(
      [&] { wb::launch(copy_into_device_variable, dim3(1), dim3(1), 0, in.data()); });
  EXPECT_TRUE(contains(message, "is not the block's shared memory")) << message;
}

TEST_F(SimMemory, CopyPastTheEndOfDynamicSharedMemoryNamesOffsetAndSize) {
  wb::DeviceBuffer<float> in(4);
  const std::string message = kernel_error_of([&] {
    wb::launch(copy_into_dynamic_at, dim3(1), dim3(1), 64, in.data(), 14);
  });
  EXPECT_TRUE(contains(message, R"(bytes \[56, 72\) of the dynamic shared memory \(64 bytes)"))
      << message;
  EXPECT_TRUE(contains(message, "past its end")) << message;
  // Inside the buffer the same copy is fine.
  wb::launch(copy_into_dynamic_at, dim3(1), dim3(1), 64, in.data(), 12);
}

TEST_F(SimMemory, StorePastTheEndOfDynamicSharedMemoryNamesTheLine) {
  wb::DeviceBuffer<int> line(1);
  const std::string message = kernel_error_of([&] {
    wb::launch(store_into_dynamic_at, dim3(1), dim3(1), 64, 16, line.data());
  });
  EXPECT_TRUE(contains(message, "test_memory_checks.cpp:" + std::to_string(line.download()[0])))
      << message;
  EXPECT_TRUE(contains(message, R"(bytes \[64, 68\) of the dynamic shared memory.*past its end)"))
      << message;
}

TEST_F(SimMemory, StorePastTheEndOfAnAllocationNamesTheLineAndTheElement) {
  wb::DeviceBuffer<float> out(100);
  wb::DeviceBuffer<int> line(1);
  const std::string message = kernel_error_of([&] {
    wb::launch(store_past_the_end, dim3(1), dim3(4), 0, out.data(), 100, line.data());
  });
  EXPECT_TRUE(contains(message, "test_memory_checks.cpp:" + std::to_string(line.download()[0])))
      << message;
  EXPECT_TRUE(contains(message, R"(a store of 4 bytes at bytes \[400, 404\) of a device allocation of 400 bytes: past its end)"))
      << message;
  EXPECT_TRUE(contains(message, R"(thread \(0,0,0\))")) << message;
}

// Below an allocation lies the guard of another one, or nothing: either way element -1 is
// named as before its start, never as far past another array's end.
TEST_F(SimMemory, LoadBeforeTheStartOfAnAllocationNamesElementMinusOne) {
  wb::DeviceBuffer<float> below(100), in(100), out(4);
  wb::DeviceBuffer<int> line(1);
  const std::string message = kernel_error_of([&] {
    wb::launch(load_before_the_start, dim3(1), dim3(4), 0, in.data(), out.data(), line.data());
  });
  EXPECT_TRUE(contains(message, "test_memory_checks.cpp:" + std::to_string(line.download()[0]))) << message;
  EXPECT_TRUE(contains(message, R"(a load of 4 bytes at bytes \[-4, 0\) of a device allocation of 400 bytes: before its start \(element -1 of 100)"))
      << message;
}

TEST_F(SimMemory, CopiesWithoutEndStopWithTheLineAndTheCount) {
  wb::DeviceBuffer<float> in(32);
  wb::DeviceBuffer<int> line(1);
  const std::string message = kernel_error_of(
      [&] { wb::launch(copies_without_end, dim3(1), dim3(1), 0, in.data(), line.data()); });
  EXPECT_TRUE(contains(message, "test_memory_checks.cpp:" + std::to_string(line.download()[0])))
      << message;
  EXPECT_TRUE(contains(message, "issued 4096 copies that it has not waited for")) << message;
}

}  // namespace
