// CUDA's fast-math intrinsics for g++.
//
// On the GPU these are hardware approximations (the special function unit): __expf is
// off by a few ulp and more for large arguments, __sinf and __cosf are only accurate in
// [-pi, pi], __fdividef returns 0 for divisors above 2^126. Here they are computed with
// the exact C library functions. So a result can differ between the backends in its
// last bits, or more: compare with a tolerance, never with ==.
// Included by cuda_shim.hpp; never include it directly.
#pragma once

#include <cmath>

inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* sine, float* cosine) {
  *sine = std::sin(x);
  *cosine = std::cos(x);
}
inline float __powf(float base, float exponent) { return std::pow(base, exponent); }
inline float __fdividef(float a, float b) { return a / b; }
