// cp.async in the simulator: "copy late, poison early" makes a read before the wait
// fail every time; wait<N> lands all but the newest N groups; a copy with a bad address
// fails at issue with a message that says what is wrong with it.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "sim_test_support.hpp"
#include "wb/grading/random.hpp"

namespace {

using sim_test::contains;
using sim_test::kernel_error_of;
using wb::poison::bits_of;
using wb::poison::matches;
using SimAsyncCopy = sim_test::SimTest;

// out[0..3]: the destination read before the wait; out[4..7]: read after it.
__global__ void read_before_and_after_wait(const float* in, float* out) {
  __shared__ __align__(16) float smem_values[4];
  wb::cp_async_ca<16>(smem_values, in);
  wb::cp_async_commit();
  for (int i = 0; i < 4; ++i) out[i] = smem_values[i];
  wb::cp_async_wait<0>();
  for (int i = 0; i < 4; ++i) out[4 + i] = smem_values[i];
}

// Two groups, then wait<1>: out[0..3] the older group's destination, out[4..7] the
// newer one's.
__global__ void read_after_wait_one(const float* in, float* out) {
  __shared__ __align__(16) float smem_values[8];
  wb::cp_async_ca<16>(&smem_values[0], &in[0]);
  wb::cp_async_commit();
  wb::cp_async_ca<16>(&smem_values[4], &in[4]);
  wb::cp_async_commit();
  wb::cp_async_wait<1>();
  for (int i = 0; i < 8; ++i) out[i] = smem_values[i];
  wb::cp_async_wait_all();  // nothing left in flight at the end of the kernel
}

// Copies 16 bytes from `source` (wherever it points) into shared memory.
__global__ void copy_16_from(const float* source) {
  __shared__ __align__(16) float smem_values[4];
  wb::cp_async_ca<16>(smem_values, source);
  wb::cp_async_wait_all();
}

// A 16-byte copy into shared memory one float past a 16-byte boundary; it stores the
// destination address first, for the message check.
__global__ void copy_16_misaligned(const float* in, std::uintptr_t* destination) {
  __shared__ __align__(16) float smem_values[8];
  *destination = reinterpret_cast<std::uintptr_t>(&smem_values[1]);
  wb::cp_async_ca<16>(&smem_values[1], in);
  wb::cp_async_wait_all();
}

// A 16-byte copy from a local array of the kernel: on the GPU, a register or local
// memory address that cp.async cannot read.
__global__ void copy_16_from_the_stack() {
  __shared__ __align__(16) float smem_values[4];
  __align__(16) float local_values[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  wb::cp_async_ca<16>(smem_values, local_values);
  wb::cp_async_wait_all();
}

std::string hex(std::uintptr_t address) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%" PRIxPTR, address);
  return text;
}

TEST_F(SimAsyncCopy, ReadBeforeWaitSeesInFlightPoisonAndAfterWaitTheData) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  const std::vector<float> values = wb::grading::random_floats(4, seed);
  wb::DeviceBuffer<float> in(4), out(8);
  in.upload(values);
  out.poison();
  wb::launch(read_before_and_after_wait, dim3(1), dim3(1), 0, in.data(), out.data());
  const std::vector<float> result = out.download();
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(matches(bits_of(result[i]), wb::poison::in_flight))
        << "element " << i << " read before the wait should be the in_flight poison, is "
        << result[i];
    EXPECT_EQ(result[4 + i], values[i]) << "element " << i << " read after the wait";
  }
}

TEST_F(SimAsyncCopy, WaitOneLeavesExactlyTheNewestGroupInFlight) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  const std::vector<float> values = wb::grading::random_floats(8, seed);
  wb::DeviceBuffer<float> in(8), out(8);
  in.upload(values);
  out.poison();
  wb::launch(read_after_wait_one, dim3(1), dim3(1), 0, in.data(), out.data());
  const std::vector<float> result = out.download();
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(result[i], values[i]) << "element " << i << " of the older group has landed";
    EXPECT_TRUE(matches(bits_of(result[4 + i]), wb::poison::in_flight))
        << "element " << i << " of the newest group should still be in flight, is "
        << result[4 + i];
  }
}

TEST_F(SimAsyncCopy, MisalignedCopyNamesTheAddressAndTheAlignment) {
  wb::DeviceBuffer<float> in(4);
  wb::DeviceBuffer<std::uintptr_t> destination(1);
  const std::string message = kernel_error_of([&] {
    wb::launch(copy_16_misaligned, dim3(1), dim3(1), 0, in.data(), destination.data());
  });
  const std::string address = hex(destination.download()[0]);
  EXPECT_TRUE(contains(message, address + " is not 16-byte aligned"))
      << "the destination " << address << " and the alignment it lacks, in: " << message;

  // The source must be aligned too.
  const std::string source_message = kernel_error_of([&] {
    wb::launch(copy_16_from, dim3(1), dim3(1), 0, in.data() + 1);
  });
  EXPECT_TRUE(contains(source_message, "global source " +
                                           hex(reinterpret_cast<std::uintptr_t>(in.data() + 1)) +
                                           " is not 16-byte aligned"))
      << source_message;
}

TEST_F(SimAsyncCopy, CopyFromHostMemoryIsRejected) {
  // Device and host buffers interleaved, as in a test that forgot an upload: the heap
  // tends to place each host vector right after the device buffer before it, which must
  // still read as host memory, not as an overrun of that device buffer.
  std::vector<wb::DeviceBuffer<float>> device_buffers;
  std::vector<std::vector<float>> host_buffers;
  for (int i = 0; i < 8; ++i) {
    device_buffers.emplace_back(4);
    host_buffers.emplace_back(4, 1.0f);
  }
  for (const std::vector<float>& host_values : host_buffers) {
    const std::string message = kernel_error_of(
        [&] { wb::launch(copy_16_from, dim3(1), dim3(1), 0, host_values.data()); });
    EXPECT_TRUE(contains(message, "not in any device allocation.*host pointer"))
        << "the source " << host_values.data() << " is host memory, in: " << message;
  }
}

TEST_F(SimAsyncCopy, CopyFromTheKernelStackIsRejected) {
  const std::string message =
      kernel_error_of([] { wb::launch(copy_16_from_the_stack, dim3(1), dim3(1), 0); });
  EXPECT_TRUE(contains(message, "is a local variable of the kernel, not device memory"))
      << message;
}

TEST_F(SimAsyncCopy, CopyPastTheEndOfAnAllocationIsRejected) {
  wb::DeviceBuffer<float> in(6);  // 24 bytes: a 16-byte copy at float 4 reads 8 too many
  const std::string message =
      kernel_error_of([&] { wb::launch(copy_16_from, dim3(1), dim3(1), 0, in.data() + 4); });
  EXPECT_TRUE(contains(message, R"(reads bytes \[16, 32\) of a device allocation of 24 bytes)"))
      << message;
  EXPECT_TRUE(contains(message, "past its end")) << message;
}

}  // namespace
