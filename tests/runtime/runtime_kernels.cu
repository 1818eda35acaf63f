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

// Where the dynamic part starts, past a static array of 16 bytes: its address modulo 128
// (out[0]), and a word of each part, so that neither is optimised away (out[1]).
__global__ void dynamic_shared_start(int* out) {
  __shared__ int smem_static[4];
  WB_DYNAMIC_SHARED(int, smem_dynamic);
  if (threadIdx.x < 4) smem_static[threadIdx.x] = 1;
  smem_dynamic[threadIdx.x] = 2;
  __syncthreads();
  if (threadIdx.x == 0) {
    out[0] = static_cast<int>(reinterpret_cast<unsigned long long>(smem_dynamic) % 128);
    out[1] = smem_static[3] + smem_dynamic[blockDim.x - 1];
  }
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

// Writes the whole cold buffer, in address order (each pass of the grid covers the next
// stretch): samples*stride elements hold the older group's values every `stride`
// elements, the next samples*stride the newer group's, the rest zeros. What is written
// last stays in L2; the samples, written first, have been evicted to DRAM by then.
__global__ void fill_cold_buffer(float* cold, std::size_t count, std::size_t stride,
                                 const float* older, const float* newer, std::size_t samples) {
  const std::size_t step = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += step) {
    const std::size_t sample = i / stride;
    float value = 0.0f;
    if (i % stride == 0 && sample < samples) value = older[sample];
    if (i % stride == 0 && sample >= samples && sample < 2 * samples) {
      value = newer[sample - samples];
    }
    cold[i] = value;
  }
}

constexpr unsigned kGroupThreads = 128;

template <int Pending>
__global__ void sentinel_then_two_groups(const float* cold, std::size_t stride, std::size_t samples,
                                         float* older_out, float* newer_out) {
  __shared__ __align__(16) float smem_older[kGroupThreads];
  __shared__ __align__(16) float smem_newer[kGroupThreads];
  const unsigned t = threadIdx.x;
  const std::size_t k = std::size_t{blockIdx.x} * blockDim.x + t;
  smem_older[t] = kSentinel;  // still there at a read means: the copy had not landed
  smem_newer[t] = kSentinel;
  wb::cp_async_ca<4>(&smem_older[t], &cold[k * stride]);
  wb::cp_async_commit();  // the older group
  wb::cp_async_ca<4>(&smem_newer[t], &cold[(samples + k) * stride]);
  wb::cp_async_commit();  // the newer group
  wb::cp_async_wait<Pending>();
  older_out[k] = smem_older[t];  // at once: the copy has had no time beyond what the wait gave
  wb::cp_async_wait<0>();
  newer_out[k] = smem_newer[t];
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

int dynamic_shared_misalignment() {
  wb::DeviceBuffer<int> out(2);
  out.poison();
  wb::launch(dynamic_shared_start, dim3(1), dim3(32), 32 * sizeof(int), out.data());
  const std::vector<int> words = out.download();
  if (words[1] != 3) throw wb::Error("dynamic_shared_start: the shared words read back wrong");
  return words[0];
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

GroupReads wait_then_read_older_group(const std::vector<float>& older,
                                      const std::vector<float>& newer, int pending) {
  // 256 MiB on the GPU, five times its L2; the simulator has no cache to defeat.
  const std::size_t cold_count =
      wb::backend == wb::Backend::cuda ? std::size_t{64} << 20 : std::size_t{1} << 18;
  const std::size_t samples = older.size();
  const std::size_t stride = cold_count / 4 / samples;  // both groups' samples in the first half
  wb::DeviceBuffer<float> older_values(samples), newer_values(samples), cold(cold_count);
  older_values.upload(older);
  newer_values.upload(newer);
  // Enough threads to fill a GPU; the simulator runs fewer, longer threads faster.
  const unsigned fill_blocks = wb::backend == wb::Backend::cuda ? 1024 : 16;
  wb::launch(fill_cold_buffer, dim3(fill_blocks), dim3(256), 0, cold.data(), cold_count, stride,
             older_values.data(), newer_values.data(), samples);
  wb::DeviceBuffer<float> older_out(samples), newer_out(samples);
  older_out.poison();
  newer_out.poison();
  const dim3 grid(static_cast<unsigned>(samples / kGroupThreads)), block(kGroupThreads);
  if (pending == 1) {
    wb::launch(sentinel_then_two_groups<1>, grid, block, 0, cold.data(), stride, samples,
               older_out.data(), newer_out.data());
  } else {
    wb::launch(sentinel_then_two_groups<2>, grid, block, 0, cold.data(), stride, samples,
               older_out.data(), newer_out.data());
  }
  return {older_out.download(), newer_out.download()};
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
