// The workbook runtime's backend functions, for the GPU.
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>
#include <algorithm>

#include "wb/buffer.hpp"
#include "wb/launch.hpp"
#include "wb/timer.hpp"

namespace wb {
namespace detail {

void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  throw Error(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
              cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

void* device_allocate(std::size_t bytes) {
  void* pointer = nullptr;
  WB_CUDA_CHECK(cudaMalloc(&pointer, bytes));
  return pointer;
}

void device_release(void* pointer) noexcept { cudaFree(pointer); }

void copy_to_device(void* destination, const void* source, std::size_t bytes) {
  WB_CUDA_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyHostToDevice));
}

void copy_to_host(void* destination, const void* source, std::size_t bytes) {
  WB_CUDA_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToHost));
}

__global__ void fill_words_kernel(std::uint32_t* words, std::size_t count, std::uint32_t pattern) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    words[i] = pattern;
  }
}

void fill_device_words(void* destination, std::size_t bytes, std::uint32_t pattern) {
  if (bytes % 4 != 0 || reinterpret_cast<std::uintptr_t>(destination) % 4 != 0) {
    std::vector<unsigned char> host(bytes);
    poison::fill(host.data(), bytes, pattern);
    copy_to_device(destination, host.data(), bytes);
    return;
  }
  const std::size_t count = bytes / 4;
  if (count == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 4096));
  fill_words_kernel<<<blocks, 256>>>(static_cast<std::uint32_t*>(destination), count, pattern);
  WB_CUDA_CHECK(cudaGetLastError());
  WB_CUDA_CHECK(cudaDeviceSynchronize());
}

void check_launch() { WB_CUDA_CHECK(cudaGetLastError()); }

void raise_shared_limit(const void* kernel, std::size_t shared_bytes) {
  WB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(shared_bytes)));
}

}  // namespace detail

void synchronize() { WB_CUDA_CHECK(cudaDeviceSynchronize()); }

double median_milliseconds(const std::function<void()>& work, int warmups, int repetitions) {
  for (int i = 0; i < warmups; ++i) work();
  synchronize();
  cudaEvent_t start, stop;
  WB_CUDA_CHECK(cudaEventCreate(&start));
  WB_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int i = 0; i < repetitions; ++i) {
    WB_CUDA_CHECK(cudaEventRecord(start));
    work();
    WB_CUDA_CHECK(cudaEventRecord(stop));
    WB_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    WB_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

bool gpu_available(std::string* reason) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    if (reason != nullptr) {
      *reason = status != cudaSuccess
                    ? std::string("no usable GPU: ") + cudaGetErrorString(status)
                    : std::string("no GPU found");
    }
    cudaGetLastError();  // clear the error so that it does not stick
    return false;
  }
  return true;
}

std::string device_description() {
  int device = 0;
  cudaDeviceProp properties{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
    return "unknown GPU";
  }
  return std::string(properties.name) + " (sm_" + std::to_string(properties.major) +
         std::to_string(properties.minor) + ")";
}

}  // namespace wb
