// Kernels that use __half and __nv_bfloat16 on both backends: conversions, arithmetic,
// classification and pairs, one element a thread. The data travels as bit patterns
// (unsigned short), so that the host compares bits, not rounded floats.
#include "narrow_float_kernels.hpp"

#include "test_buffers.hpp"
#include "wb/wb.cuh"

namespace narrow_test {
namespace {

using runtime_test::poisoned;
using runtime_test::uploaded;

static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "__half is 16 bits");
static_assert(sizeof(__nv_bfloat16) == 2 && alignof(__nv_bfloat16) == 2, "bfloat16 is 16 bits");
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "__half2 is 32 bits");

// CUDA names each operation once per type (__float2half, __float2bfloat16, ...): the
// kernels below are written once, over these names.
template <class T>
struct Names;

template <>
struct Names<__half> {
  using Pair = __half2;
  __device__ static __half from_float(float x) { return __float2half(x); }
  __device__ static __half from_float_rn(float x) { return __float2half_rn(x); }
  __device__ static float to_float(__half x) { return __half2float(x); }
  __device__ static __half from_bits(unsigned short bits) { return __ushort_as_half(bits); }
  __device__ static unsigned short to_bits(__half x) { return __half_as_ushort(x); }
  __device__ static Pair pair(__half low, __half high) { return __halves2half2(low, high); }
  __device__ static __half low(Pair pair) { return __low2half(pair); }
  __device__ static __half high(Pair pair) { return __high2half(pair); }
  __device__ static Pair pair_from_floats(float x, float y) { return __floats2half2_rn(x, y); }
  __device__ static float2 pair_to_floats(Pair pair) { return __half22float2(pair); }
};

template <>
struct Names<__nv_bfloat16> {
  using Pair = __nv_bfloat162;
  __device__ static __nv_bfloat16 from_float(float x) { return __float2bfloat16(x); }
  __device__ static __nv_bfloat16 from_float_rn(float x) { return __float2bfloat16_rn(x); }
  __device__ static float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
  __device__ static __nv_bfloat16 from_bits(unsigned short bits) {
    return __ushort_as_bfloat16(bits);
  }
  __device__ static unsigned short to_bits(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }
  __device__ static Pair pair(__nv_bfloat16 low, __nv_bfloat16 high) {
    return __halves2bfloat162(low, high);
  }
  __device__ static __nv_bfloat16 low(Pair pair) { return __low2bfloat16(pair); }
  __device__ static __nv_bfloat16 high(Pair pair) { return __high2bfloat16(pair); }
  __device__ static Pair pair_from_floats(float x, float y) { return __floats2bfloat162_rn(x, y); }
  __device__ static float2 pair_to_floats(Pair pair) { return __bfloat1622float2(pair); }
};

constexpr unsigned kThreads = 128;

unsigned blocks_for(std::size_t count) {
  return static_cast<unsigned>((count + kThreads - 1) / kThreads);
}

__device__ int global_index() { return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); }

template <class T>
__global__ void narrow_kernel(const float* values, unsigned short* plain, unsigned short* rn,
                              int n) {
  const int i = global_index();
  if (i >= n) return;
  plain[i] = Names<T>::to_bits(Names<T>::from_float(values[i]));
  rn[i] = Names<T>::to_bits(Names<T>::from_float_rn(values[i]));
}

template <class T>
__global__ void widen_kernel(const unsigned short* bits, float* out, int n) {
  const int i = global_index();
  if (i < n) out[i] = Names<T>::to_float(Names<T>::from_bits(bits[i]));
}

template <class T>
__device__ T apply(Operation operation, T a, T b, T c) {
  using N = Names<T>;
  switch (operation) {
    case Operation::hadd: return __hadd(a, b);
    case Operation::hsub: return __hsub(a, b);
    case Operation::hmul: return __hmul(a, b);
    case Operation::hdiv: return __hdiv(a, b);
    case Operation::hfma: return __hfma(a, b, c);
    case Operation::plus: return a + b;
    case Operation::times: return a * b;
    case Operation::hadd2_low: return N::low(__hadd2(N::pair(a, c), N::pair(b, c)));
    case Operation::hfma2_high:
      return N::high(__hfma2(N::pair(c, a), N::pair(c, b), N::pair(c, c)));
    case Operation::hneg: return __hneg(a);
    case Operation::habs: return __habs(a);
  }
  return a;
}

template <class T>
__global__ void arithmetic_kernel(Operation operation, const unsigned short* a,
                                  const unsigned short* b, const unsigned short* c,
                                  unsigned short* out, int n) {
  using N = Names<T>;
  const int i = global_index();
  if (i >= n) return;
  out[i] = N::to_bits(apply(operation, N::from_bits(a[i]), N::from_bits(b[i]), N::from_bits(c[i])));
}

template <class T>
__global__ void classify_kernel(const unsigned short* bits, int* is_nan, int* is_inf, int n) {
  const int i = global_index();
  if (i >= n) return;
  const T value = Names<T>::from_bits(bits[i]);
  is_nan[i] = __hisnan(value) ? 1 : 0;
  is_inf[i] = __hisinf(value);
}

template <class T>
__global__ void pair_kernel(const float* x, const float* y, float2* out, int n) {
  const int i = global_index();
  if (i < n) out[i] = Names<T>::pair_to_floats(Names<T>::pair_from_floats(x[i], y[i]));
}

// Calls run(T{}) with T the CUDA type of `format`, for run to launch the kernel for T.
template <class Run>
auto for_format(Format format, Run&& run) {
  if (format == Format::half) return run(__half{});
  return run(__nv_bfloat16{});
}

}  // namespace

Narrowed narrow(Format format, const std::vector<float>& values) {
  const auto values_device = uploaded(values);
  auto plain = poisoned<unsigned short>(values.size()),
       rn = poisoned<unsigned short>(values.size());
  for_format(format, [&](auto type) {
    wb::launch(narrow_kernel<decltype(type)>, dim3(blocks_for(values.size())), dim3(kThreads), 0,
               values_device.data(), plain.data(), rn.data(), static_cast<int>(values.size()));
    return 0;
  });
  const std::vector<unsigned short> plain_bits = plain.download(), rn_bits = rn.download();
  return {{plain_bits.begin(), plain_bits.end()}, {rn_bits.begin(), rn_bits.end()}};
}

std::vector<float> widen(Format format, const std::vector<std::uint16_t>& bits) {
  const auto bits_device = uploaded(std::vector<unsigned short>(bits.begin(), bits.end()));
  auto out = poisoned<float>(bits.size());
  for_format(format, [&](auto type) {
    wb::launch(widen_kernel<decltype(type)>, dim3(blocks_for(bits.size())), dim3(kThreads), 0,
               bits_device.data(), out.data(), static_cast<int>(bits.size()));
    return 0;
  });
  return out.download();
}

std::vector<std::uint16_t> apply(Format format, Operation operation,
                                 const std::vector<std::uint16_t>& a,
                                 const std::vector<std::uint16_t>& b,
                                 const std::vector<std::uint16_t>& c) {
  using Bits = std::vector<unsigned short>;
  const auto a_device = uploaded(Bits(a.begin(), a.end()));
  const auto b_device = uploaded(Bits(b.begin(), b.end()));
  const auto c_device = uploaded(Bits(c.begin(), c.end()));
  auto out = poisoned<unsigned short>(a.size());
  for_format(format, [&](auto type) {
    wb::launch(arithmetic_kernel<decltype(type)>, dim3(blocks_for(a.size())), dim3(kThreads), 0,
               operation, a_device.data(), b_device.data(), c_device.data(), out.data(),
               static_cast<int>(a.size()));
    return 0;
  });
  const Bits result = out.download();
  return {result.begin(), result.end()};
}

Classified classify(Format format, const std::vector<std::uint16_t>& bits) {
  const auto bits_device = uploaded(std::vector<unsigned short>(bits.begin(), bits.end()));
  auto is_nan = poisoned<int>(bits.size()), is_inf = poisoned<int>(bits.size());
  for_format(format, [&](auto type) {
    wb::launch(classify_kernel<decltype(type)>, dim3(blocks_for(bits.size())), dim3(kThreads), 0,
               bits_device.data(), is_nan.data(), is_inf.data(), static_cast<int>(bits.size()));
    return 0;
  });
  return {is_nan.download(), is_inf.download()};
}

std::vector<float> pair_round_trip(Format format, const std::vector<float>& x,
                                   const std::vector<float>& y) {
  const auto x_device = uploaded(x), y_device = uploaded(y);
  auto out = poisoned<float>(2 * x.size());
  for_format(format, [&](auto type) {
    wb::launch(pair_kernel<decltype(type)>, dim3(blocks_for(x.size())), dim3(kThreads), 0,
               x_device.data(), y_device.data(), reinterpret_cast<float2*>(out.data()),
               static_cast<int>(x.size()));
    return 0;
  });
  return out.download();
}

}  // namespace narrow_test
