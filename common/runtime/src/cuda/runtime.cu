// The workbook runtime's backend functions, for the GPU.
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>
#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>

#include "wb/buffer.hpp"
#include "wb/launch.hpp"
#include "wb/timer.hpp"

namespace wb {
namespace detail {

void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  const std::string what = std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                           cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
  // The one kernel fault the graders explain by kind on the GPU as in the simulator. The
  // GPU does not say which thread: the simulator does (the same grader, run there first).
  if (status == cudaErrorMisalignedAddress) {
    throw Error(what + ": a kernel accessed memory at an address that is not a multiple of the access's size "
                       "(a cp.async of 8 or 16 bytes, a float2 or float4)",
                ErrorKind::misaligned);
  }
  throw Error(what);
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

// Eight-byte words of the pattern over the aligned bulk; the last, partial word's bytes
// by one thread.
__global__ void fill_pattern_kernel(unsigned char* destination, std::size_t bytes,
                                    std::uint64_t eight_bytes) {
  auto* words = reinterpret_cast<std::uint64_t*>(destination);
  const std::size_t count = bytes / 8;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    words[i] = eight_bytes;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    for (std::size_t i = count * 8; i < bytes; ++i) {
      destination[i] = static_cast<unsigned char>(eight_bytes >> (8 * (i % 8)));
    }
  }
}

void fill_device_pattern(void* destination, std::size_t bytes, std::uint64_t eight_bytes) {
  if (bytes == 0) return;
  if (reinterpret_cast<std::uintptr_t>(destination) % 8 != 0) {  // fill on the host instead
    std::vector<unsigned char> host(bytes);
    poison::fill_repeating(host.data(), bytes, eight_bytes);
    copy_to_device(destination, host.data(), bytes);
    return;
  }
  const std::size_t words = std::max<std::size_t>(bytes / 8, 1);
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((words + 255) / 256, 4096));
  fill_pattern_kernel<<<blocks, 256>>>(static_cast<unsigned char*>(destination), bytes,
                                       eight_bytes);
  WB_CUDA_CHECK(cudaGetLastError());
  WB_CUDA_CHECK(cudaDeviceSynchronize());
}

void check_launch() { WB_CUDA_CHECK(cudaGetLastError()); }

void raise_shared_limit(const void* kernel, std::size_t shared_bytes) {
  WB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(shared_bytes)));
}

int resident_blocks(const void* kernel, int block_threads, std::size_t shared_bytes) {
  // Asked before every launch by host functions that size their grid with it: the occupancy
  // calculation takes longer than some launches, so each answer is kept (the device does
  // not change within a process).
  static std::mutex mutex;
  static std::map<std::tuple<const void*, int, std::size_t>, int> known;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(kernel, block_threads, shared_bytes);
  if (const auto found = known.find(key); found != known.end()) return found->second;
  // The occupancy of a kernel that the launch will allow more than 48 KB, not of one at
  // the default limit (which would say 0 blocks).
  if (shared_bytes > 48 * 1024) raise_shared_limit(kernel, shared_bytes);
  int device = 0, multiprocessors = 0, per_multiprocessor = 0;
  WB_CUDA_CHECK(cudaGetDevice(&device));
  WB_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  WB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, block_threads,
                                                              shared_bytes));
  return known[key] = std::max(1, multiprocessors * per_multiprocessor);
}

namespace {
LaunchRecord& launch_record() {
  static LaunchRecord record;
  return record;
}
}  // namespace

void note_launch(const void* kernel, dim3 grid, dim3 block, std::size_t shared_bytes) {
  LaunchRecord& record = launch_record();
  record.kernel = kernel;
  record.grid = grid;
  record.block = block;
  record.shared_bytes = shared_bytes;
}

}  // namespace detail

LaunchRecord last_launch() {
  LaunchRecord record = detail::launch_record();
  if (record.kernel == nullptr) return record;
  int device = 0;
  WB_CUDA_CHECK(cudaGetDevice(&device));
  WB_CUDA_CHECK(cudaDeviceGetAttribute(&record.multiprocessors, cudaDevAttrMultiProcessorCount, device));
  const int threads = static_cast<int>(record.block.x * record.block.y * record.block.z);
  record.blocks_per_sm =
      detail::resident_blocks(record.kernel, threads, record.shared_bytes) / std::max(1, record.multiprocessors);
  return record;
}

void synchronize() { WB_CUDA_CHECK(cudaDeviceSynchronize()); }

double median_milliseconds(const std::function<void()>& work, int warmups, int repetitions) {
  // WB_BENCH_RUNS=N: N timed runs and no warm-up, for a run that is watched rather than
  // timed (`make profile-chapterN` under Nsight Compute, which profiles the first).
  if (const char* runs = std::getenv("WB_BENCH_RUNS"); runs != nullptr && std::atoi(runs) > 0) {
    warmups = 0;
    repetitions = std::atoi(runs);
  }
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

bool hopper_available(std::string* reason) {
  // An attribute, not cudaGetDeviceProperties: the kernels' host functions ask before
  // every launch, and the properties take far longer to gather than a launch.
  int device = 0, major = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess) {
    cudaGetLastError();
    if (reason != nullptr) *reason = "needs sm_90: no usable GPU";
    return false;
  }
  if (major >= 9) return true;
  if (reason != nullptr) *reason = "needs sm_90: this GPU, " + device_description() + ", is older";
  return false;
}

bool wgmma_available(std::string* reason) {
  if (!hopper_available(reason)) return false;
  int device = 0, major = 0, minor = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  if (major == 9 && minor == 0) return true;
  if (reason != nullptr) {
    *reason = "needs sm_90a (wgmma and setmaxnreg, which compute capability 9.0 alone has): this GPU, " +
              device_description() + ", lacks them; the simulator runs the step";
  }
  return false;
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
