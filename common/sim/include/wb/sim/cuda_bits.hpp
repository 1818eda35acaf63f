// CUDA's bit intrinsics for g++: reinterpreting a value's bits as another type, and
// counting bits. All exact, on both backends.
//
// The reinterpretations copy the bytes (memcpy, which compilers turn into a move
// between registers): a pointer cast would break C++'s aliasing rules.
// Included by cuda_shim.hpp; never include it directly.
#pragma once

#include <cstring>

namespace wb::sim::surface {
template <class To, class From>
inline To reinterpret_bits(From from) {
  static_assert(sizeof(To) == sizeof(From), "a reinterpretation keeps the size");
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}
}  // namespace wb::sim::surface

inline float __int_as_float(int x) { return wb::sim::surface::reinterpret_bits<float>(x); }
inline int __float_as_int(float x) { return wb::sim::surface::reinterpret_bits<int>(x); }
inline float __uint_as_float(unsigned int x) {
  return wb::sim::surface::reinterpret_bits<float>(x);
}
inline unsigned int __float_as_uint(float x) {
  return wb::sim::surface::reinterpret_bits<unsigned int>(x);
}
inline double __longlong_as_double(long long x) {
  return wb::sim::surface::reinterpret_bits<double>(x);
}
inline long long __double_as_longlong(double x) {
  return wb::sim::surface::reinterpret_bits<long long>(x);
}

// Set bits; leading zeros (32 or 64 for 0); the position of the lowest set bit counted
// from 1 (0 for 0); the bits in reverse order.
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
  unsigned int reversed = 0;
  for (int i = 0; i < 32; ++i, x >>= 1) reversed = (reversed << 1) | (x & 1u);
  return reversed;
}
