// Kernels that use CUDA's atomics and fences on both backends. Many threads of many
// blocks hit the same word, so in the simulator the blocks' OS threads really contend:
// a lost update would show as a wrong total. The counters live in small structs in
// device memory, uploaded with their starting values and downloaded after the launch.
#include "atomic_kernels.hpp"

#include <climits>
#include <type_traits>

#include "test_buffers.hpp"
#include "wb/wb.cuh"

namespace atomic_test {
namespace {

using runtime_test::poisoned;
using runtime_test::uploaded;

__device__ int global_index() { return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); }

// Counters a kernel updates: one struct, uploaded with its start values, downloaded after.
template <class Counters>
class DeviceCounters {
  static_assert(std::is_trivially_copyable_v<Counters>, "counters are plain data");

 public:
  explicit DeviceCounters(const Counters& start) : buffer_(1) { buffer_.upload({start}); }
  Counters* data() { return buffer_.data(); }
  Counters download() const { return buffer_.download().front(); }

 private:
  wb::DeviceBuffer<Counters> buffer_;
};

struct SumCounters {
  int int_sum;
  unsigned int uint_sum;
  unsigned long long ull_sum;
  float float_sum;
  double double_sum;
  int int_difference;
  unsigned int uint_difference;
};

__global__ void sums_kernel(const int* values, SumCounters* counters, int* block_sums) {
  __shared__ int smem_block_sum;
  if (threadIdx.x == 0) smem_block_sum = 0;
  __syncthreads();
  const int v = values[global_index()];
  atomicAdd(&counters->int_sum, v);
  atomicAdd(&counters->uint_sum, static_cast<unsigned int>(v));
  atomicAdd(&counters->ull_sum, static_cast<unsigned long long>(v) << 32);
  atomicAdd(&counters->float_sum, static_cast<float>(v));
  atomicAdd(&counters->double_sum, v / 4.0);
  atomicSub(&counters->int_difference, v);
  atomicSub(&counters->uint_difference, static_cast<unsigned int>(v));
  atomicAdd(&smem_block_sum, v);  // shared memory: the block's threads only
  __syncthreads();
  if (threadIdx.x == 0) block_sums[blockIdx.x] = smem_block_sum;
}

struct ExchangeSlots {
  int int_slot;
  unsigned int uint_slot;
  float float_slot;
  unsigned long long ull_slot;
};

__global__ void exchanges_kernel(ExchangeSlots* slots, int* int_taken, unsigned int* uint_taken,
                                 float* float_taken, unsigned long long* ull_taken) {
  const int i = global_index();
  int_taken[i] = atomicExch(&slots->int_slot, i);
  uint_taken[i] = atomicExch(&slots->uint_slot, static_cast<unsigned int>(i));
  float_taken[i] = atomicExch(&slots->float_slot, static_cast<float>(i));
  ull_taken[i] = atomicExch(&slots->ull_slot, static_cast<unsigned long long>(i));
}

__global__ void extremes_kernel(const long long* values, Extremes* extremes) {
  const long long v = values[global_index()];
  atomicMin(&extremes->int_min, static_cast<int>(v));
  atomicMax(&extremes->int_max, static_cast<int>(v));
  atomicMin(&extremes->uint_min, static_cast<unsigned int>(v));
  atomicMax(&extremes->uint_max, static_cast<unsigned int>(v));
  atomicMin(&extremes->ll_min, v);
  atomicMax(&extremes->ll_max, v);
  atomicMin(&extremes->ull_min, static_cast<unsigned long long>(v));
  atomicMax(&extremes->ull_max, static_cast<unsigned long long>(v));
}

// *address += value through atomicCAS: read, compute, swap if nobody wrote meanwhile,
// else retry from what they wrote. Returns the old value, as atomicAdd would.
template <class T>
__device__ T cas_add(T* address, T value) {
  // A swap of 0 for 0 reads the word atomically (a plain read would race with the
  // other blocks' swaps).
  T old = atomicCAS(address, T{0}, T{0});
  T assumed;
  do {
    assumed = old;
    old = atomicCAS(address, assumed, static_cast<T>(assumed + value));
  } while (old != assumed);
  return old;
}

struct CasCounters {
  int int_sum;
  unsigned int uint_sum;
  unsigned long long ull_sum;
};

__global__ void cas_sums_kernel(const int* values, CasCounters* counters,
                                unsigned short* block_counts) {
  __shared__ unsigned short smem_counts[2];
  if (threadIdx.x < 2) smem_counts[threadIdx.x] = 0;
  __syncthreads();
  const int v = values[global_index()];
  cas_add(&counters->int_sum, v);
  cas_add(&counters->uint_sum, static_cast<unsigned int>(v));
  cas_add(&counters->ull_sum, static_cast<unsigned long long>(v));
  cas_add(&smem_counts[threadIdx.x % 2], static_cast<unsigned short>(1));
  __syncthreads();
  if (threadIdx.x < 2) block_counts[2 * blockIdx.x + threadIdx.x] = smem_counts[threadIdx.x];
}

__global__ void bitwise_kernel(const unsigned int* values, BitwiseResults* results) {
  const unsigned int v = values[global_index()];
  const unsigned long long wide = v * 0x9E3779B97F4A7C15ull;
  atomicAnd(&results->int_and, static_cast<int>(v | 0x0F0F0F0Fu));
  atomicOr(&results->int_or, static_cast<int>(v & 0x00FF00FFu));
  atomicXor(&results->int_xor, static_cast<int>(v));
  atomicAnd(&results->uint_and, v | 0x0F0F0F0Fu);
  atomicOr(&results->uint_or, v & 0x00FF00FFu);
  atomicXor(&results->uint_xor, v);
  atomicAnd(&results->ull_and, wide | 0x0F0F0F0F0F0F0F0Full);
  atomicOr(&results->ull_or, wide & 0x00FF00FF00FF00FFull);
  atomicXor(&results->ull_xor, wide);
}

struct WrappingCounters {
  unsigned int up;
  unsigned int down;
};

__global__ void wrapping_kernel(WrappingCounters* counters, unsigned int limit,
                                unsigned int* inc_taken, unsigned int* dec_taken) {
  const int i = global_index();
  inc_taken[i] = atomicInc(&counters->up, limit);
  dec_taken[i] = atomicDec(&counters->down, limit);
}

__global__ void last_block_sum_kernel(const int* values, int* partials, unsigned int* tickets,
                                      LastBlockSum* result) {
  __shared__ int smem_sum;
  __shared__ bool smem_is_last;
  if (threadIdx.x == 0) smem_sum = 0;
  __syncthreads();
  atomicAdd(&smem_sum, values[global_index()]);
  __threadfence_block();  // the block's additions before the barrier (which orders them too)
  __syncthreads();
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = smem_sum;
    __threadfence();  // the partial is visible to every block before the ticket is taken
    // Counts 0 .. gridDim.x - 1, then wraps to 0: ready for the next launch.
    const unsigned int ticket = atomicInc(tickets, gridDim.x - 1);
    smem_is_last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (smem_is_last && threadIdx.x == 0) {
    __threadfence();  // the partials published before their tickets are now visible
    const volatile int* published = partials;  // read memory, not a stale register
    long long total = 0;
    for (unsigned int block = 0; block < gridDim.x; ++block) total += published[block];
    result->total = total;
    atomicAdd(&result->last_blocks, 1);
    __threadfence_system();  // the result before anything the host might read later
  }
}

unsigned blocks_of(std::size_t count, unsigned threads) {
  return static_cast<unsigned>(count / threads);
}

}  // namespace

Sums atomic_sums(const std::vector<int>& values, unsigned threads) {
  const unsigned blocks = blocks_of(values.size(), threads);
  const auto values_device = uploaded(values);
  DeviceCounters<SumCounters> counters(SumCounters{});
  auto block_sums = poisoned<int>(blocks);
  wb::launch(sums_kernel, dim3(blocks), dim3(threads), 0, values_device.data(), counters.data(),
             block_sums.data());
  const SumCounters c = counters.download();
  return {c.int_sum,    c.uint_sum,       c.ull_sum,         c.float_sum,
          c.double_sum, c.int_difference, c.uint_difference, block_sums.download()};
}

Exchanges atomic_exchanges(unsigned blocks, unsigned threads) {
  const std::size_t n = std::size_t{blocks} * threads;
  DeviceCounters<ExchangeSlots> slots(ExchangeSlots{-1, 0xFFFFFFFFu, -1.0f, ~0ull});
  auto int_taken = poisoned<int>(n);
  auto uint_taken = poisoned<unsigned int>(n);
  auto float_taken = poisoned<float>(n);
  auto ull_taken = poisoned<unsigned long long>(n);
  wb::launch(exchanges_kernel, dim3(blocks), dim3(threads), 0, slots.data(), int_taken.data(),
             uint_taken.data(), float_taken.data(), ull_taken.data());
  const ExchangeSlots left = slots.download();
  return {int_taken.download(),   left.int_slot,   uint_taken.download(), left.uint_slot,
          float_taken.download(), left.float_slot, ull_taken.download(),  left.ull_slot};
}

Extremes atomic_extremes(const std::vector<long long>& values, unsigned threads) {
  const auto values_device = uploaded(values);
  DeviceCounters<Extremes> extremes(
      Extremes{INT_MAX, INT_MIN, UINT_MAX, 0u, LLONG_MAX, LLONG_MIN, ULLONG_MAX, 0ull});
  wb::launch(extremes_kernel, dim3(blocks_of(values.size(), threads)), dim3(threads), 0,
             values_device.data(), extremes.data());
  return extremes.download();
}

CasSums atomic_cas_sums(const std::vector<int>& values, unsigned threads) {
  const unsigned blocks = blocks_of(values.size(), threads);
  const auto values_device = uploaded(values);
  DeviceCounters<CasCounters> counters(CasCounters{});
  auto block_counts = poisoned<unsigned short>(2 * std::size_t{blocks});
  wb::launch(cas_sums_kernel, dim3(blocks), dim3(threads), 0, values_device.data(), counters.data(),
             block_counts.data());
  const CasCounters c = counters.download();
  return {c.int_sum, c.uint_sum, c.ull_sum, block_counts.download()};
}

BitwiseResults atomic_bitwise(const std::vector<unsigned int>& values, unsigned threads) {
  const auto values_device = uploaded(values);
  DeviceCounters<BitwiseResults> results(BitwiseResults{-1, 0, 0, ~0u, 0u, 0u, ~0ull, 0ull, 0ull});
  wb::launch(bitwise_kernel, dim3(blocks_of(values.size(), threads)), dim3(threads), 0,
             values_device.data(), results.data());
  return results.download();
}

WrappingCounts atomic_wrapping_counters(unsigned blocks, unsigned threads, unsigned int limit,
                                        unsigned int start) {
  const std::size_t n = std::size_t{blocks} * threads;
  DeviceCounters<WrappingCounters> counters(WrappingCounters{start, start});
  auto inc_taken = poisoned<unsigned int>(n), dec_taken = poisoned<unsigned int>(n);
  wb::launch(wrapping_kernel, dim3(blocks), dim3(threads), 0, counters.data(), limit,
             inc_taken.data(), dec_taken.data());
  const WrappingCounters ends = counters.download();
  return {inc_taken.download(), ends.up, dec_taken.download(), ends.down};
}

LastBlockSum fence_then_last_block_sums(const std::vector<int>& values, unsigned threads) {
  const unsigned blocks = blocks_of(values.size(), threads);
  const auto values_device = uploaded(values);
  auto partials = poisoned<int>(blocks);
  DeviceCounters<unsigned int> tickets(0u);
  DeviceCounters<LastBlockSum> result(LastBlockSum{0, 0});
  wb::launch(last_block_sum_kernel, dim3(blocks), dim3(threads), 0, values_device.data(),
             partials.data(), tickets.data(), result.data());
  return result.download();
}

}  // namespace atomic_test
