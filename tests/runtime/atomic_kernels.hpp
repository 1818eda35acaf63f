// Kernels that use CUDA's atomics and fences on either backend, many threads of many
// blocks on the same words, with host wrappers so that the tests stay plain C++.
// Every result is exact whatever the order the threads ran in: that is what the tests
// check.
#pragma once

#include <cstdint>
#include <vector>

namespace atomic_test {

// One thread for each of `values`, in blocks of `threads`; each adds its value v into
// one counter of each type (int v, unsigned v, unsigned long long v << 32, float v,
// double v / 4), subtracts it from an int and an unsigned counter starting at 0, and
// adds it into its block's counter in shared memory.
struct Sums {
  int int_sum;
  unsigned int uint_sum;
  unsigned long long ull_sum;
  float float_sum;
  double double_sum;
  int int_difference;
  unsigned int uint_difference;
  std::vector<int> block_sums;  // from the shared-memory counters
};
Sums atomic_sums(const std::vector<int>& values, unsigned threads);

// Each of blocks x threads threads exchanges its global index into one word of each type
// (initially -1, 0xFFFFFFFF, -1.0f, ~0ull) and keeps what it took out.
struct Exchanges {
  std::vector<int> int_taken;
  int int_left;
  std::vector<unsigned int> uint_taken;
  unsigned int uint_left;
  std::vector<float> float_taken;
  float float_left;
  std::vector<unsigned long long> ull_taken;
  unsigned long long ull_left;
};
Exchanges atomic_exchanges(unsigned blocks, unsigned threads);

// atomicMin and atomicMax of `values` over all threads, as int, unsigned int, long long
// and unsigned long long (each value converted as static_cast does).
struct Extremes {
  int int_min, int_max;
  unsigned int uint_min, uint_max;
  long long ll_min, ll_max;
  unsigned long long ull_min, ull_max;
};
Extremes atomic_extremes(const std::vector<long long>& values, unsigned threads);

// Additions written as atomicCAS loops, the way to build any atomic the hardware lacks:
// of every value into an int, an unsigned and an unsigned long long counter, and of 1
// into one of two 16-bit counters in shared memory per block (threadIdx.x % 2).
struct CasSums {
  int int_sum;
  unsigned int uint_sum;
  unsigned long long ull_sum;
  std::vector<unsigned short> block_counts;  // two per block
};
CasSums atomic_cas_sums(const std::vector<int>& values, unsigned threads);

// atomicAnd of (v | 0x0F0F0F0F), atomicOr of (v & 0x00FF00FF), atomicXor of v over all
// values v, on int (v as int), unsigned int, and unsigned long long (v * 0x9E3779B97F4A7C15,
// wrapping); the counters start at all ones, 0 and 0.
struct BitwiseResults {
  int int_and, int_or, int_xor;
  unsigned int uint_and, uint_or, uint_xor;
  unsigned long long ull_and, ull_or, ull_xor;
};
BitwiseResults atomic_bitwise(const std::vector<unsigned int>& values, unsigned threads);

// blocks x threads threads each call atomicInc(&up, limit) and atomicDec(&down, limit)
// once, both counters starting at `start`; what each thread took out, and the ends.
struct WrappingCounts {
  std::vector<unsigned int> inc_taken;
  unsigned int inc_final;
  std::vector<unsigned int> dec_taken;
  unsigned int dec_final;
};
WrappingCounts atomic_wrapping_counters(unsigned blocks, unsigned threads, unsigned int limit,
                                        unsigned int start);

// The last-block pattern, which needs the fences: each block sums its slice of `values`
// in shared memory, stores the partial sum, __threadfence(), then takes a ticket with
// atomicInc; the block that takes the last ticket adds up all the partials.
struct LastBlockSum {
  long long total;  // as the last block computed it
  int last_blocks;  // how many blocks found they were last (must be 1)
};
LastBlockSum fence_then_last_block_sums(const std::vector<int>& values, unsigned threads);

}  // namespace atomic_test
