// Kernels that use CUDA's math surface (min and max, vector types, float and bit
// intrinsics) on either backend, with host wrappers so that the tests stay plain C++.
// Each wrapper uploads its inputs, poisons its outputs, runs one kernel and downloads.
#pragma once

#include <cstdint>
#include <vector>

namespace surface_test {

template <class T>
struct MinMax {
  std::vector<T> min;
  std::vector<T> max;
};

// min(a[i], b[i]) and max(a[i], b[i]) in a kernel, for T = int, unsigned int, long long,
// unsigned long long, float and double: CUDA's overload for the pair.
template <class T>
MinMax<T> min_max(const std::vector<T>& a, const std::vector<T>& b);

// min(a[i], b[i]) with an int and an unsigned argument: CUDA's mixed overload, which
// compares as unsigned.
MinMax<unsigned int> min_max_mixed(const std::vector<int>& a, const std::vector<unsigned int>& b);

// What a thread stores when it builds each vector type from x = in[i] with make_*:
// float2 (x, 2x), float3 (x, 2x, 3x), float4 (x, 2x, 3x, 4x), double2 (x, 2x), and from
// k = int(x * 1000): int2/int3/int4 (k, k+1, ...), uint2/uint3/uint4 (k, k+1, ...) as
// unsigned. Each array holds the vectors' components in order.
struct VectorComponents {
  std::vector<float> float2s, float3s, float4s;
  std::vector<double> double2s;
  std::vector<int> int2s, int3s, int4s;
  std::vector<unsigned int> uint2s, uint3s, uint4s;
};
VectorComponents build_vectors(const std::vector<float>& in);

// The float intrinsics, each applied to arguments (a, b, c) in a kernel.
enum class FloatIntrinsic {
  rsqrtf,
  fdividef,
  expf,
  exp10f,
  logf,
  log2f,
  log10f,
  sinf,
  cosf,
  tanf,
  sincosf_sine,
  sincosf_cosine,
  powf,
  saturatef,
  frcp_rn,
  fsqrt_rn,
  fadd_rn,
  fsub_rn,
  fmul_rn,
  fdiv_rn,
  fmaf_rn,
  fmaf,
  negate_through_int_bits,  // __int_as_float(__float_as_int(a) ^ sign bit)
  abs_through_uint_bits,    // __uint_as_float(__float_as_uint(a) & ~sign bit)
  float2int_rn,             // as a float
  float2int_rz,             // as a float
};
std::vector<float> apply_float_intrinsic(FloatIntrinsic which, const std::vector<float>& a,
                                         const std::vector<float>& b, const std::vector<float>& c);

// The bit intrinsics, each applied to x (and, for the 64-bit ones, to x << 32 | y).
enum class BitIntrinsic { popc, popcll, clz, clzll, ffs, ffsll, brev, double_bits_round_trip };
std::vector<unsigned int> apply_bit_intrinsic(BitIntrinsic which,
                                              const std::vector<unsigned int>& x,
                                              const std::vector<unsigned int>& y);

}  // namespace surface_test
