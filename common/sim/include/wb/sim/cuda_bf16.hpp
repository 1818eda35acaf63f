// CUDA's bfloat16 (cuda_bf16.h) for g++: __nv_bfloat16, __nv_bfloat162 and their
// conversions, exact IEEE round-to-nearest-even (see narrow_float.hpp).
//
//   __nv_bfloat16 b = __float2bfloat16(x);  // the top 16 bits of a float, rounded:
//                                           // sign, 8 exponent bits, 7 mantissa bits
//   float back = __bfloat162float(b);        // exact
// Included by cuda_shim.hpp; never include it directly.
#pragma once

#include "wb/sim/cuda_vector_types.hpp"
#include "wb/sim/narrow_float.hpp"

// The bits of a __nv_bfloat16, for building one from a known pattern.
struct __nv_bfloat16_raw {
  unsigned short x;
};

struct __nv_bfloat16
    : wb::sim::surface::NarrowFloat<__nv_bfloat16, wb::sim::surface::BFloat16Format> {
  using NarrowFloat::NarrowFloat;
  __nv_bfloat16() = default;
  __nv_bfloat16(__nv_bfloat16_raw raw)
      : __nv_bfloat16(wb::sim::surface::NarrowFloatBits::make<__nv_bfloat16>(raw.x)) {}
  operator __nv_bfloat16_raw() const { return {wb::sim::surface::NarrowFloatBits::get(*this)}; }
};
static_assert(sizeof(__nv_bfloat16) == 2 && alignof(__nv_bfloat16) == 2,
              "a __nv_bfloat16 is 16 bits, as in CUDA");

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __nv_bfloat162(__nv_bfloat16 x_, __nv_bfloat16 y_) : x(x_), y(y_) {}
};

using nv_bfloat16 = __nv_bfloat16;
using nv_bfloat162 = __nv_bfloat162;

template <>
inline constexpr bool wb::sim::surface::kIsNarrowFloat<__nv_bfloat16> = true;
template <>
inline constexpr bool wb::sim::surface::kIsNarrowPair<__nv_bfloat162> = true;

inline __nv_bfloat16 __float2bfloat16(float value) { return __nv_bfloat16(value); }
inline __nv_bfloat16 __float2bfloat16_rn(float value) { return __nv_bfloat16(value); }
inline __nv_bfloat16 __double2bfloat16(double value) { return __nv_bfloat16(value); }
inline __nv_bfloat16 __int2bfloat16_rn(int value) { return __nv_bfloat16(value); }
inline float __bfloat162float(__nv_bfloat16 value) { return static_cast<float>(value); }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 value) {
  return wb::sim::surface::NarrowFloatBits::get(value);
}
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short bits) {
  return wb::sim::surface::NarrowFloatBits::make<__nv_bfloat16>(bits);
}

inline __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) { return {x, y}; }
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 low, __nv_bfloat16 high) {
  return {low, high};
}
inline __nv_bfloat162 __floats2bfloat162_rn(float low, float high) {
  return {__nv_bfloat16(low), __nv_bfloat16(high)};
}
inline __nv_bfloat162 __float2bfloat162_rn(float value) {
  return {__nv_bfloat16(value), __nv_bfloat16(value)};
}
inline float2 __bfloat1622float2(__nv_bfloat162 pair) {
  return {__bfloat162float(pair.x), __bfloat162float(pair.y)};
}
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 pair) { return pair.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 pair) { return pair.y; }
