// CUDA's global math functions for g++: min and max, and the intrinsics that are
// correctly rounded on the GPU, so they are exact here too.
//
// min and max are plain global functions in CUDA, not std templates, with an overload
// for each pair of argument types (crt/math_functions.hpp). We declare the same set, so
// that a call compiles on one backend exactly when it compiles on the other and means
// the same: a signed and an unsigned argument compare as unsigned (min(-1, 1u) is 1u,
// as C++'s usual conversions would have it), float and double go through fmin/fmax
// (a NaN argument loses to a number). Being non-templates, they win over std::min
// where a learner writes `using namespace std;`.
// Included by cuda_shim.hpp; never include it directly.
#pragma once

#include <climits>
#include <cmath>
#include <type_traits>

namespace wb::sim::surface {

template <class Result, class A, class B>
inline Result smaller(A a, B b) {
  const Result x = static_cast<Result>(a), y = static_cast<Result>(b);
  if constexpr (std::is_floating_point_v<Result>) {
    return std::fmin(x, y);
  } else {
    return y < x ? y : x;
  }
}

template <class Result, class A, class B>
inline Result larger(A a, B b) {
  const Result x = static_cast<Result>(a), y = static_cast<Result>(b);
  if constexpr (std::is_floating_point_v<Result>) {
    return std::fmax(x, y);
  } else {
    return y > x ? y : x;
  }
}

}  // namespace wb::sim::surface

// One min and one max for each pair of argument types CUDA has, with its result type.
#define WB_SIM_MIN_MAX(Result, A, B)                                                \
  inline Result min(A a, B b) { return ::wb::sim::surface::smaller<Result>(a, b); } \
  inline Result max(A a, B b) { return ::wb::sim::surface::larger<Result>(a, b); }
WB_SIM_MIN_MAX(int, int, int)
WB_SIM_MIN_MAX(unsigned int, unsigned int, unsigned int)
WB_SIM_MIN_MAX(unsigned int, int, unsigned int)
WB_SIM_MIN_MAX(unsigned int, unsigned int, int)
WB_SIM_MIN_MAX(long, long, long)
WB_SIM_MIN_MAX(unsigned long, unsigned long, unsigned long)
WB_SIM_MIN_MAX(unsigned long, long, unsigned long)
WB_SIM_MIN_MAX(unsigned long, unsigned long, long)
WB_SIM_MIN_MAX(long long, long long, long long)
WB_SIM_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
WB_SIM_MIN_MAX(unsigned long long, long long, unsigned long long)
WB_SIM_MIN_MAX(unsigned long long, unsigned long long, long long)
WB_SIM_MIN_MAX(float, float, float)
WB_SIM_MIN_MAX(double, double, double)
WB_SIM_MIN_MAX(double, float, double)
WB_SIM_MIN_MAX(double, double, float)
#undef WB_SIM_MIN_MAX

// The named forms CUDA also has.
inline unsigned int umin(unsigned int a, unsigned int b) { return min(a, b); }
inline unsigned int umax(unsigned int a, unsigned int b) { return max(a, b); }
inline long long llmin(long long a, long long b) { return min(a, b); }
inline long long llmax(long long a, long long b) { return max(a, b); }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

using std::fmaf;

// rsqrtf is approximate on the GPU (2 ulp); here 1/sqrt, rounded twice.
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }

// The _rn intrinsics round to nearest even, as IEEE float arithmetic on the CPU does;
// on the GPU they also forbid nvcc to fuse a multiply and an add into one FMA.
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }

// Clamps to [+0, 1]; NaN gives +0, as on the GPU.
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f); }

// Float to int, rounded to nearest even (_rn) or toward zero (_rz). As the GPU's cvt
// does, values out of range saturate and NaN gives 0 (a C++ cast would be undefined).
namespace wb::sim::surface {
inline int saturating_int(float rounded) {
  if (std::isnan(rounded)) return 0;
  if (rounded >= 2147483648.0f) return INT_MAX;
  if (rounded < -2147483648.0f) return INT_MIN;
  return static_cast<int>(rounded);
}
}  // namespace wb::sim::surface
inline int __float2int_rn(float x) { return wb::sim::surface::saturating_int(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return wb::sim::surface::saturating_int(std::trunc(x)); }
