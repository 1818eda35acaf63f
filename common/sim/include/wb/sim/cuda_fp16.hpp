// CUDA's half precision (cuda_fp16.h) for g++: __half, __half2 and their conversions,
// exact IEEE round-to-nearest-even (see narrow_float.hpp for what that means here).
//
//   __half h = __float2half(x);      // 16 bits: sign, 5 exponent bits, 10 mantissa bits
//   float back = __half2float(h);     // exact
// Included by cuda_shim.hpp; never include it directly.
#pragma once

#include "wb/sim/cuda_vector_types.hpp"
#include "wb/sim/narrow_float.hpp"

// The bits of a __half, for building one from a known pattern.
struct __half_raw {
  unsigned short x;
};

struct __half : wb::sim::surface::NarrowFloat<__half, wb::sim::surface::HalfFormat> {
  using NarrowFloat::NarrowFloat;
  __half() = default;
  __half(__half_raw raw) : __half(wb::sim::surface::NarrowFloatBits::make<__half>(raw.x)) {}
  operator __half_raw() const { return {wb::sim::surface::NarrowFloatBits::get(*this)}; }
};
static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "a __half is 16 bits, as in CUDA");

// Two halves in one 32-bit word, the unit of the GPU's paired half instructions.
struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  __half2(__half x_, __half y_) : x(x_), y(y_) {}
};

using half = __half;
using half2 = __half2;

template <>
inline constexpr bool wb::sim::surface::kIsNarrowFloat<__half> = true;
template <>
inline constexpr bool wb::sim::surface::kIsNarrowPair<__half2> = true;

inline __half __float2half(float value) { return __half(value); }
inline __half __float2half_rn(float value) { return __half(value); }
inline __half __double2half(double value) { return __half(value); }
inline __half __int2half_rn(int value) { return __half(value); }
inline float __half2float(__half value) { return static_cast<float>(value); }
inline unsigned short __half_as_ushort(__half value) {
  return wb::sim::surface::NarrowFloatBits::get(value);
}
inline __half __ushort_as_half(unsigned short bits) {
  return wb::sim::surface::NarrowFloatBits::make<__half>(bits);
}

inline __half2 make_half2(__half x, __half y) { return {x, y}; }
inline __half2 __halves2half2(__half low, __half high) { return {low, high}; }
inline __half2 __floats2half2_rn(float low, float high) { return {__half(low), __half(high)}; }
inline __half2 __float2half2_rn(float value) { return {__half(value), __half(value)}; }
inline float2 __half22float2(__half2 pair) { return {__half2float(pair.x), __half2float(pair.y)}; }
inline __half __low2half(__half2 pair) { return pair.x; }
inline __half __high2half(__half2 pair) { return pair.y; }
