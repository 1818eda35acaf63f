// A plain vector load or store (a float2 or float4 through reinterpret_cast) at an address
// that is not a multiple of its width fails as it does on a GPU (cudaErrorMisalignedAddress),
// as ErrorKind::misaligned naming the line, the thread, the block, the address and the
// alignment required; in global and in shared memory alike.
#include <string>
#include <vector>

#include "sim_test_support.hpp"

namespace {

using SimMisalignedVectors = sim_test::SimTest;
using sim_test::contains;
using sim_test::kernel_failure_of;
using sim_test::KernelFailure;

// Each thread loads the float4 that starts `offset` floats into its quad of `in`.
__global__ void load_float4_at(const float* in, float* out, int offset) {
  const float4 quad = *reinterpret_cast<const float4*>(&in[4 * threadIdx.x + offset]);
  out[threadIdx.x] = quad.x + quad.y + quad.z + quad.w;
}

// Each thread stores a float2 at float 2 * threadIdx.x + offset of a shared array.
__global__ void store_float2_in_shared_at(float* out, int offset) {
  __shared__ __align__(16) float smem_pairs[80];
  const float base = static_cast<float>(threadIdx.x);
  *reinterpret_cast<float2*>(&smem_pairs[2 * threadIdx.x + offset]) = make_float2(base, base + 1.0f);
  __syncthreads();
  out[threadIdx.x] = smem_pairs[threadIdx.x];
}

TEST_F(SimMisalignedVectors, AFloat4LoadFromGlobalMemoryOffByOneFloatFails) {
  wb::DeviceBuffer<float> in(4 * 32 + 4), out(32);
  in.upload(std::vector<float>(4 * 32 + 4, 1.0f));
  wb::launch(load_float4_at, dim3(1), dim3(32), 0, in.data(), out.data(), 0);  // aligned: fine
  const KernelFailure failure =
      kernel_failure_of([&] { wb::launch(load_float4_at, dim3(2), dim3(32), 0, in.data(), out.data(), 1); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::misaligned);
  EXPECT_TRUE(contains(failure.message,
                       "^tests/sim/test_misaligned_vectors.cpp:1[89]: block \\([01],0,0\\), thread \\([0-9]+,0,0\\): "
                       "a load of 16 bytes \\(a float4, one instruction\\) at 0x[0-9a-f]+, which is not 16-byte "
                       "aligned \\(address % 16 == 4; it is byte [0-9]+, float element [0-9]+, of its device "
                       "allocation\\)"))
      << failure.message;
}

TEST_F(SimMisalignedVectors, AFloat2StoreToSharedMemoryOffByOneFloatFails) {
  wb::DeviceBuffer<float> out(32);
  wb::launch(store_float2_in_shared_at, dim3(1), dim3(32), 0, out.data(), 2);  // aligned: fine
  const KernelFailure failure =
      kernel_failure_of([&] { wb::launch(store_float2_in_shared_at, dim3(1), dim3(32), 0, out.data(), 1); });
  EXPECT_EQ(failure.kind, wb::ErrorKind::misaligned);
  EXPECT_TRUE(contains(failure.message,
                       "^tests/sim/test_misaligned_vectors.cpp:27: block \\(0,0,0\\), thread \\([0-9]+,0,0\\): "
                       "a store of 8 bytes \\(a float2, one instruction\\) at 0x[0-9a-f]+, which is not 8-byte "
                       "aligned \\(address % 8 == 4; it is bytes \\[[0-9]+, [0-9]+\\) of the __shared__ variable "
                       "smem_pairs"))
      << failure.message;
}

}  // namespace
