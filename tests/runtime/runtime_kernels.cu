// Kernels that exercise the runtime on both backends. Each host wrapper uploads, runs
// and downloads, so that the tests stay plain C++.
#include "runtime_kernels.hpp"

#include "wb/wb.cuh"

namespace runtime_test {
namespace {

__global__ void write_indices(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(blockIdx.x * 1000 + threadIdx.x);
}

constexpr unsigned kMaxThreads = 256;

__global__ void reverse_block(const float* in, float* out) {
  __shared__ float smem_values[kMaxThreads];
  const unsigned base = blockIdx.x * blockDim.x;
  smem_values[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();  // the element read below was written by another thread
  out[base + threadIdx.x] = smem_values[blockDim.x - 1 - threadIdx.x];
}

__global__ void reverse_block_dynamic(const float* in, float* out) {
  WB_DYNAMIC_SHARED(float, smem_values);
  const unsigned base = blockIdx.x * blockDim.x;
  smem_values[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = smem_values[blockDim.x - 1 - threadIdx.x];
}

template <int Bytes>
__global__ void async_copy_through_shared(const float* in, float* out) {
  constexpr int kFloats = Bytes / 4;
  __shared__ __align__(16) float smem_values[kMaxThreads * 4];
  const unsigned offset = threadIdx.x * kFloats;
  wb::cp_async_ca<Bytes>(&smem_values[offset], &in[offset]);
  wb::cp_async_wait_all();
  __syncthreads();
  // Read a neighbour's element: visible after its wait and the barrier.
  const unsigned neighbour = ((threadIdx.x + 1) % blockDim.x) * kFloats;
  for (int i = 0; i < kFloats; ++i) out[neighbour + i] = smem_values[neighbour + i];
}

__global__ void two_groups_wait_one(const float* in, float* out) {
  __shared__ __align__(16) float smem_values[8];
  wb::cp_async_ca<16>(&smem_values[0], &in[0]);
  wb::cp_async_commit();
  wb::cp_async_ca<16>(&smem_values[4], &in[4]);
  wb::cp_async_commit();
  wb::cp_async_wait<1>();  // the older group has landed; the newer may not have
  for (int i = 0; i < 4; ++i) out[i] = smem_values[i];
  wb::cp_async_wait<0>();
  for (int i = 4; i < 8; ++i) out[i] = smem_values[i];
}

__global__ void zero_fill(const float* in, float* out, int source_bytes) {
  __shared__ __align__(16) float smem_values[4];
  wb::cp_async_ca<16>(smem_values, in, source_bytes);
  wb::cp_async_wait_all();
  for (int i = 0; i < 4; ++i) out[i] = smem_values[i];
}

__global__ void do_nothing() {}

template <class T>
std::vector<T> run_copy_kernel(void (*kernel)(const T*, T*), const std::vector<T>& values,
                               unsigned blocks, unsigned threads, std::size_t shared = 0) {
  wb::DeviceBuffer<T> in(values.size()), out(values.size());
  in.upload(values);
  out.poison();
  wb::launch(kernel, dim3(blocks), dim3(threads), shared, in.data(), out.data());
  return out.download();
}

}  // namespace

std::vector<int> launch_indices(unsigned blocks, unsigned threads) {
  wb::DeviceBuffer<int> out(std::size_t{blocks} * threads);
  out.poison();
  wb::launch(write_indices, dim3(blocks), dim3(threads), 0, out.data());
  return out.download();
}

std::vector<float> reverse_in_blocks(const std::vector<float>& values, unsigned threads) {
  return run_copy_kernel(reverse_block, values, static_cast<unsigned>(values.size() / threads),
                         threads);
}

std::vector<float> reverse_in_dynamic_shared(const std::vector<float>& values, unsigned threads) {
  return run_copy_kernel(reverse_block_dynamic, values,
                         static_cast<unsigned>(values.size() / threads), threads,
                         threads * sizeof(float));
}

std::vector<float> async_round_trip(const std::vector<float>& values, int bytes) {
  const unsigned threads = static_cast<unsigned>(values.size() / static_cast<std::size_t>(bytes / 4));
  switch (bytes) {
    case 4:
      return run_copy_kernel(async_copy_through_shared<4>, values, 1, threads);
    case 8:
      return run_copy_kernel(async_copy_through_shared<8>, values, 1, threads);
    default:
      return run_copy_kernel(async_copy_through_shared<16>, values, 1, threads);
  }
}

std::vector<float> wait_one_reads_older_group(const std::vector<float>& values) {
  return run_copy_kernel(two_groups_wait_one, values, 1, 1);
}

std::vector<float> zero_filled_copy(const std::vector<float>& values, int source_bytes) {
  wb::DeviceBuffer<float> in(values.size()), out(4);
  in.upload(values);
  out.poison();
  wb::launch(zero_fill, dim3(1), dim3(1), 0, in.data(), out.data(), source_bytes);
  return out.download();
}

void launch_with_block_size(unsigned threads) {
  wb::launch(do_nothing, dim3(1), dim3(threads), 0);
  wb::synchronize();
}

}  // namespace runtime_test
