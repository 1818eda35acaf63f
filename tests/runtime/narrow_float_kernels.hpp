// Kernels that use CUDA's 16-bit floats (__half, __nv_bfloat16 and their pairs) on
// either backend, with host wrappers that speak in bit patterns (std::uint16_t), so that
// the tests compare exactly and stay plain C++.
#pragma once

#include <cstdint>
#include <vector>

namespace narrow_test {

enum class Format { half, bfloat16 };

// Each value converted in a kernel by both of CUDA's conversions to the format
// (__float2half and __float2half_rn, or __float2bfloat16 and __float2bfloat16_rn).
struct Narrowed {
  std::vector<std::uint16_t> plain;
  std::vector<std::uint16_t> rn;
};
Narrowed narrow(Format format, const std::vector<float>& values);

// Each bit pattern, taken as the format, converted to float in a kernel.
std::vector<float> widen(Format format, const std::vector<std::uint16_t>& bits);

// The arithmetic of the format on a[i], b[i], c[i] (bit patterns) in a kernel, each
// result as bits: the intrinsics, the operators, and the paired (x2) intrinsics.
enum class Operation {
  hadd,
  hsub,
  hmul,
  hdiv,
  hfma,
  plus,
  times,
  hadd2_low,
  hfma2_high,
  hneg,
  habs
};
std::vector<std::uint16_t> apply(Format format, Operation operation,
                                 const std::vector<std::uint16_t>& a,
                                 const std::vector<std::uint16_t>& b,
                                 const std::vector<std::uint16_t>& c);

// __hisnan and __hisinf of each pattern, as 1/0 and -1/0/1.
struct Classified {
  std::vector<int> is_nan;
  std::vector<int> is_inf;
};
Classified classify(Format format, const std::vector<std::uint16_t>& bits);

// Pairs built from floats: __floats2half2_rn(x, y) taken apart again with
// __half22float2 (or the bfloat16 forms): x', y' for every (x, y), interleaved.
std::vector<float> pair_round_trip(Format format, const std::vector<float>& x,
                                   const std::vector<float>& y);

}  // namespace narrow_test
