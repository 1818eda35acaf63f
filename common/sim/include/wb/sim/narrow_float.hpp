// The 16-bit floating-point types of CUDA (__half, __nv_bfloat16) for g++: their
// formats, exact conversions, and the arithmetic both types share.
//
// A format is IEEE 754 binary with E exponent bits and M mantissa bits: half is (5, 10),
// bfloat16 (8, 7). Narrowing rounds to nearest, ties to even, as the GPU's cvt.rn does,
// through subnormals and up to infinity; a NaN becomes the canonical NaN 0x7FFF, as
// NVIDIA's own conversions give it. Widening to float is exact; a NaN keeps its payload
// (a GPU may return a canonical NaN instead: test a NaN with isnan, never by its bits).
// Arithmetic is done in double and rounded once to the 16-bit format, which gives the
// correctly rounded result the GPU's half instructions give: a double holds every sum,
// difference and product of two 16-bit values exactly, and a quotient with more than
// twice the format's precision plus two bits, which makes rounding it twice harmless.
// Included by cuda_fp16.hpp and cuda_bf16.hpp; never include it directly.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace wb::sim::surface {

template <int ExponentBits, int MantissaBits>
struct NarrowFormat {
  static constexpr int kBias = (1 << (ExponentBits - 1)) - 1;
  static constexpr int kMinExponent = 1 - kBias;  // of a normal number
  static constexpr int kMaxExponent = kBias;
  static constexpr std::uint32_t kImplicitBit = 1u << MantissaBits;
  static constexpr std::uint32_t kMantissaMask = kImplicitBit - 1;
  static constexpr std::uint32_t kExponentMask = ((1u << ExponentBits) - 1) << MantissaBits;
  static constexpr std::uint32_t kSignBit = 1u << (ExponentBits + MantissaBits);
  static constexpr std::uint16_t kCanonicalNaN = 0x7FFF;

  // The format's bits for (-1)^negative * significand * 2^exponent, an exact value,
  // rounded to nearest even.
  static std::uint16_t round(bool negative, std::uint64_t significand, int exponent) {
    const std::uint32_t sign = negative ? kSignBit : 0u;
    if (significand == 0) return static_cast<std::uint16_t>(sign);
    const int top = 63 - __builtin_clzll(significand);  // the highest set bit
    // The exponent of the result's leading digit: the value's own, or the subnormals'.
    int scale = std::max(exponent + top, kMinExponent);
    // How many low bits of the significand fall below the result's last digit.
    const int dropped = scale - MantissaBits - exponent;
    std::uint64_t kept = 0;
    if (dropped <= 0) {
      kept = significand << -dropped;  // fits: nothing to round
    } else if (dropped <= top + 1) {   // further down, the value is below half a unit
      kept = dropped == 64 ? 0 : significand >> dropped;
      const std::uint64_t rest =
          dropped == 64 ? significand : significand & ((std::uint64_t{1} << dropped) - 1);
      const std::uint64_t half_unit = std::uint64_t{1} << (dropped - 1);
      if (rest > half_unit || (rest == half_unit && (kept & 1u) != 0)) ++kept;
    }
    if (kept >> (MantissaBits + 1) != 0) {  // rounding up carried into a new digit
      kept >>= 1;
      ++scale;
    }
    if (scale > kMaxExponent) return static_cast<std::uint16_t>(sign | kExponentMask);
    if (kept < kImplicitBit) return static_cast<std::uint16_t>(sign | kept);  // subnormal
    const auto biased = static_cast<std::uint32_t>(scale + kBias);
    return static_cast<std::uint16_t>(sign | biased << MantissaBits |
                                      (static_cast<std::uint32_t>(kept) & kMantissaMask));
  }

  static std::uint16_t from_float(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const bool negative = (bits >> 31) != 0;
    const std::uint32_t exponent = bits >> 23 & 0xFFu, mantissa = bits & 0x7FFFFFu;
    if (exponent == 0xFFu) return special(negative, mantissa != 0);
    if (exponent == 0) return round(negative, mantissa, -149);
    return round(negative, mantissa | 0x800000u, static_cast<int>(exponent) - 150);
  }

  static std::uint16_t from_double(double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const bool negative = (bits >> 63) != 0;
    const std::uint64_t exponent = bits >> 52 & 0x7FFu, mantissa = bits & 0xFFFFFFFFFFFFFull;
    if (exponent == 0x7FFu) return special(negative, mantissa != 0);
    if (exponent == 0) return round(negative, mantissa, -1074);
    return round(negative, mantissa | 0x10000000000000ull, static_cast<int>(exponent) - 1075);
  }

  template <class Integer>
  static std::uint16_t from_integer(Integer value) {
    const bool negative = value < 0;
    // The magnitude in unsigned arithmetic, where the most negative value has one too.
    const auto magnitude = static_cast<std::uint64_t>(value);
    return round(negative, negative ? std::uint64_t{0} - magnitude : magnitude, 0);
  }

  static float to_float(std::uint16_t bits) {
    const bool negative = (bits & kSignBit) != 0;
    const std::uint32_t exponent = (bits & kExponentMask) >> MantissaBits;
    const std::uint32_t mantissa = bits & kMantissaMask;
    if (exponent == kExponentMask >> MantissaBits) {
      const std::uint32_t wide =
          (negative ? 0x80000000u : 0u) | 0x7F800000u | mantissa << (23 - MantissaBits);
      float result;
      std::memcpy(&result, &wide, sizeof result);
      return result;
    }
    const std::uint32_t significand = exponent == 0 ? mantissa : mantissa | kImplicitBit;
    const int scale = (exponent == 0 ? kMinExponent : static_cast<int>(exponent) - kBias);
    const float magnitude = std::ldexp(static_cast<float>(significand), scale - MantissaBits);
    return negative ? -magnitude : magnitude;
  }

 private:
  static std::uint16_t special(bool negative, bool is_nan) {
    if (is_nan) return kCanonicalNaN;
    return static_cast<std::uint16_t>((negative ? kSignBit : 0u) | kExponentMask);
  }
};

using HalfFormat = NarrowFormat<5, 10>;
using BFloat16Format = NarrowFormat<8, 7>;

// a * b + c with a single rounding, for 16-bit operands (exact in float): the product
// is exact in double, the sum is rounded to double "to odd" (a truncated result gets
// its last bit set), which keeps the final rounding to 16 bits correct.
inline double fused_multiply_add_to_odd(float a, float b, float c) {
  const double product = static_cast<double>(a) * b, addend = c;
  double sum = product + addend;
  // The rounding error of the sum, exactly (Knuth's two-sum).
  const double product_part = sum - addend, addend_part = sum - product_part;
  const double error = (product - product_part) + (addend - addend_part);
  std::uint64_t bits;
  std::memcpy(&bits, &sum, sizeof bits);
  if (error != 0.0 && (bits & 1u) == 0) {
    sum = std::nextafter(sum, error > 0.0 ? HUGE_VAL : -HUGE_VAL);
  }
  return sum;
}

// What __half and __nv_bfloat16 have in common: 16 bits of storage, the conversions to
// and from the built-in types (implicit, as in CUDA), arithmetic and comparisons.
// `Derived` is the CUDA type itself, so that a __half plus a __half is a __half.
template <class Derived, class Format>
class alignas(2) NarrowFloat;

// The bits of a 16-bit float, for the intrinsics that reinterpret them (__half_as_ushort
// and the like); kept out of the types themselves, which CUDA gives no such member.
struct NarrowFloatBits {
  template <class Derived, class Format>
  static std::uint16_t get(const NarrowFloat<Derived, Format>& value) {
    return value.bits_;
  }
  template <class Derived>
  static Derived make(std::uint16_t bits) {
    Derived value;
    set(value, bits);
    return value;
  }

 private:
  template <class Derived, class Format>
  static void set(NarrowFloat<Derived, Format>& value, std::uint16_t bits) {
    value.bits_ = bits;
  }
};

template <class Derived, class Format>
class alignas(2) NarrowFloat {
 public:
  NarrowFloat() = default;
  NarrowFloat(float value) : bits_(Format::from_float(value)) {}
  NarrowFloat(double value) : bits_(Format::from_double(value)) {}
  NarrowFloat(short value) : bits_(Format::from_integer(value)) {}
  NarrowFloat(unsigned short value) : bits_(Format::from_integer(value)) {}
  NarrowFloat(int value) : bits_(Format::from_integer(value)) {}
  NarrowFloat(unsigned int value) : bits_(Format::from_integer(value)) {}
  NarrowFloat(long value) : bits_(Format::from_integer(value)) {}
  NarrowFloat(unsigned long value) : bits_(Format::from_integer(value)) {}
  NarrowFloat(long long value) : bits_(Format::from_integer(value)) {}
  NarrowFloat(unsigned long long value) : bits_(Format::from_integer(value)) {}

  operator float() const { return Format::to_float(bits_); }

  friend Derived operator+(Derived a, Derived b) { return Derived(wide(a) + wide(b)); }
  friend Derived operator-(Derived a, Derived b) { return Derived(wide(a) - wide(b)); }
  friend Derived operator*(Derived a, Derived b) { return Derived(wide(a) * wide(b)); }
  friend Derived operator/(Derived a, Derived b) { return Derived(wide(a) / wide(b)); }
  friend Derived& operator+=(Derived& a, Derived b) { return a = a + b; }
  friend Derived& operator-=(Derived& a, Derived b) { return a = a - b; }
  friend Derived& operator*=(Derived& a, Derived b) { return a = a * b; }
  friend Derived& operator/=(Derived& a, Derived b) { return a = a / b; }
  friend Derived operator+(Derived a) { return a; }
  friend Derived operator-(Derived a) {  // flips the sign bit only, NaN included
    return NarrowFloatBits::make<Derived>(
        static_cast<std::uint16_t>(NarrowFloatBits::get(a) ^ Format::kSignBit));
  }
  friend bool operator==(Derived a, Derived b) { return wide(a) == wide(b); }
  friend bool operator!=(Derived a, Derived b) { return wide(a) != wide(b); }
  friend bool operator<(Derived a, Derived b) { return wide(a) < wide(b); }
  friend bool operator>(Derived a, Derived b) { return wide(a) > wide(b); }
  friend bool operator<=(Derived a, Derived b) { return wide(a) <= wide(b); }
  friend bool operator>=(Derived a, Derived b) { return wide(a) >= wide(b); }

 private:
  friend struct NarrowFloatBits;
  static double wide(Derived value) { return static_cast<float>(value); }

  std::uint16_t bits_;
};

// The operations CUDA spells as intrinsics (__hadd, __hfma, __hisnan, ...), for either
// 16-bit type.
template <class T>
T fused_multiply_add(T a, T b, T c) {
  return T(fused_multiply_add_to_odd(static_cast<float>(a), static_cast<float>(b),
                                     static_cast<float>(c)));
}

template <class Derived, class Format>
bool is_nan(const NarrowFloat<Derived, Format>& value) {
  const std::uint32_t bits = NarrowFloatBits::get(value);
  return (bits & Format::kExponentMask) == Format::kExponentMask &&
         (bits & Format::kMantissaMask) != 0;
}

template <class Derived, class Format>
bool is_inf(const NarrowFloat<Derived, Format>& value) {
  const std::uint32_t bits = NarrowFloatBits::get(value);
  return (bits & Format::kExponentMask) == Format::kExponentMask &&
         (bits & Format::kMantissaMask) == 0;
}

template <class Derived, class Format>
Derived absolute(const NarrowFloat<Derived, Format>& value) {
  return NarrowFloatBits::make<Derived>(
      static_cast<std::uint16_t>(NarrowFloatBits::get(value) & ~Format::kSignBit));
}

}  // namespace wb::sim::surface

// The intrinsics CUDA declares alike for __half and __nv_bfloat16 (and for their pairs,
// __half2 and __nv_bfloat162), written once. cuda_fp16.hpp and cuda_bf16.hpp mark
// their types as 16-bit floats and pairs of them.
namespace wb::sim::surface {
template <class T>
inline constexpr bool kIsNarrowFloat = false;
template <class T>
inline constexpr bool kIsNarrowPair = false;
}  // namespace wb::sim::surface

#define WB_SIM_NARROW(T) \
  template <class T, class = std::enable_if_t<wb::sim::surface::kIsNarrowFloat<T>>>
#define WB_SIM_NARROW_PAIR(P) \
  template <class P, class = std::enable_if_t<wb::sim::surface::kIsNarrowPair<P>>>

WB_SIM_NARROW(T) inline T __hadd(T a, T b) { return a + b; }
WB_SIM_NARROW(T) inline T __hsub(T a, T b) { return a - b; }
WB_SIM_NARROW(T) inline T __hmul(T a, T b) { return a * b; }
WB_SIM_NARROW(T) inline T __hdiv(T a, T b) { return a / b; }
WB_SIM_NARROW(T) inline T __hfma(T a, T b, T c) {
  return wb::sim::surface::fused_multiply_add(a, b, c);
}
WB_SIM_NARROW(T) inline T __hneg(T a) { return -a; }
WB_SIM_NARROW(T) inline T __habs(T a) { return wb::sim::surface::absolute(a); }
WB_SIM_NARROW(T) inline bool __hisnan(T a) { return wb::sim::surface::is_nan(a); }
// -1 for minus infinity, 1 for plus infinity, 0 otherwise, as in CUDA.
WB_SIM_NARROW(T) inline int __hisinf(T a) {
  return wb::sim::surface::is_inf(a) ? (static_cast<float>(a) < 0.0f ? -1 : 1) : 0;
}

WB_SIM_NARROW_PAIR(P) inline P __hadd2(P a, P b) { return P(a.x + b.x, a.y + b.y); }
WB_SIM_NARROW_PAIR(P) inline P __hsub2(P a, P b) { return P(a.x - b.x, a.y - b.y); }
WB_SIM_NARROW_PAIR(P) inline P __hmul2(P a, P b) { return P(a.x * b.x, a.y * b.y); }
WB_SIM_NARROW_PAIR(P) inline P __hfma2(P a, P b, P c) {
  return P(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
WB_SIM_NARROW_PAIR(P) inline float __low2float(P pair) { return static_cast<float>(pair.x); }
WB_SIM_NARROW_PAIR(P) inline float __high2float(P pair) { return static_cast<float>(pair.y); }
#undef WB_SIM_NARROW
#undef WB_SIM_NARROW_PAIR
