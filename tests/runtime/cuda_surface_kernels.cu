// Kernels that use CUDA's math surface on both backends: what nvcc gives a kernel for
// free (min, max, make_float4, __expf, __popc, ...) must compile and mean the same in
// the simulator. One thread an element; the host wrappers upload, poison, run, download.
#include "cuda_surface_kernels.hpp"

#include "test_buffers.hpp"
#include "wb/wb.cuh"

namespace surface_test {
namespace {

using runtime_test::poisoned;
using runtime_test::uploaded;

// The layout CUDA gives the vector types, which a vectorized copy relies on.
static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "float2 is 8 bytes, aligned to 8");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3 is 12 bytes, aligned to 4");
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4 is 16 bytes, aligned to 16");
static_assert(sizeof(int4) == 16 && alignof(int4) == 16, "int4 is 16 bytes, aligned to 16");
static_assert(sizeof(uint2) == 8 && alignof(uint2) == 8, "uint2 is 8 bytes, aligned to 8");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16,
              "double2 is 16 bytes, aligned to 16");

constexpr unsigned kThreads = 128;

unsigned blocks_for(std::size_t count) {
  return static_cast<unsigned>((count + kThreads - 1) / kThreads);
}

__device__ int global_index() { return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); }

template <class T>
__global__ void min_max_kernel(const T* a, const T* b, T* out_min, T* out_max, int n) {
  const int i = global_index();
  if (i >= n) return;
  out_min[i] = min(a[i], b[i]);  // unqualified, as a learner writes it: CUDA's overload
  out_max[i] = max(a[i], b[i]);
}

__global__ void min_max_mixed_kernel(const int* a, const unsigned int* b, unsigned int* out_min,
                                     unsigned int* out_max, int n) {
  const int i = global_index();
  if (i >= n) return;
  out_min[i] = min(a[i], b[i]);
  out_max[i] = max(a[i], b[i]);
}

struct VectorOutputs {
  float2* float2s;
  float3* float3s;
  float4* float4s;
  double2* double2s;
  int2* int2s;
  int3* int3s;
  int4* int4s;
  uint2* uint2s;
  uint3* uint3s;
  uint4* uint4s;
};

__global__ void build_vectors_kernel(const float* in, VectorOutputs out, int n) {
  const int i = global_index();
  if (i >= n) return;
  const float x = in[i];
  const int k = static_cast<int>(x * 1000.0f);
  const auto u = static_cast<unsigned int>(k);
  out.float2s[i] = make_float2(x, 2 * x);  // one 8-byte store
  out.float3s[i] = make_float3(x, 2 * x, 3 * x);
  out.float4s[i] = make_float4(x, 2 * x, 3 * x, 4 * x);  // one 16-byte store
  out.double2s[i] = make_double2(x, 2.0 * x);
  out.int2s[i] = make_int2(k, k + 1);
  out.int3s[i] = make_int3(k, k + 1, k + 2);
  out.int4s[i] = make_int4(k, k + 1, k + 2, k + 3);
  out.uint2s[i] = make_uint2(u, u + 1);
  out.uint3s[i] = make_uint3(u, u + 1, u + 2);
  out.uint4s[i] = make_uint4(u, u + 1, u + 2, u + 3);
}

__device__ float apply(FloatIntrinsic which, float a, float b, float c) {
  switch (which) {
    case FloatIntrinsic::rsqrtf: return rsqrtf(a);
    case FloatIntrinsic::fdividef: return __fdividef(a, b);
    case FloatIntrinsic::expf: return __expf(a);
    case FloatIntrinsic::exp10f: return __exp10f(a);
    case FloatIntrinsic::logf: return __logf(a);
    case FloatIntrinsic::log2f: return __log2f(a);
    case FloatIntrinsic::log10f: return __log10f(a);
    case FloatIntrinsic::sinf: return __sinf(a);
    case FloatIntrinsic::cosf: return __cosf(a);
    case FloatIntrinsic::tanf: return __tanf(a);
    case FloatIntrinsic::sincosf_sine:
    case FloatIntrinsic::sincosf_cosine: {
      float sine, cosine;
      __sincosf(a, &sine, &cosine);
      return which == FloatIntrinsic::sincosf_sine ? sine : cosine;
    }
    case FloatIntrinsic::powf: return __powf(a, b);
    case FloatIntrinsic::saturatef: return __saturatef(a);
    case FloatIntrinsic::frcp_rn: return __frcp_rn(a);
    case FloatIntrinsic::fsqrt_rn: return __fsqrt_rn(a);
    case FloatIntrinsic::fadd_rn: return __fadd_rn(a, b);
    case FloatIntrinsic::fsub_rn: return __fsub_rn(a, b);
    case FloatIntrinsic::fmul_rn: return __fmul_rn(a, b);
    case FloatIntrinsic::fdiv_rn: return __fdiv_rn(a, b);
    case FloatIntrinsic::fmaf_rn: return __fmaf_rn(a, b, c);
    case FloatIntrinsic::fmaf: return fmaf(a, b, c);
    case FloatIntrinsic::negate_through_int_bits:
      return __int_as_float(__float_as_int(a) ^ static_cast<int>(0x80000000u));
    case FloatIntrinsic::abs_through_uint_bits:
      return __uint_as_float(__float_as_uint(a) & 0x7FFFFFFFu);
    case FloatIntrinsic::float2int_rn: return static_cast<float>(__float2int_rn(a));
    case FloatIntrinsic::float2int_rz: return static_cast<float>(__float2int_rz(a));
  }
  return 0.0f;
}

__global__ void float_intrinsic_kernel(FloatIntrinsic which, const float* a, const float* b,
                                       const float* c, float* out, int n) {
  const int i = global_index();
  if (i < n) out[i] = apply(which, a[i], b[i], c[i]);
}

__device__ unsigned int apply(BitIntrinsic which, unsigned int x, unsigned int y) {
  const unsigned long long wide = static_cast<unsigned long long>(x) << 32 | y;
  const auto signed_x = static_cast<int>(x);
  const auto signed_wide = static_cast<long long>(wide);
  switch (which) {
    case BitIntrinsic::popc: return static_cast<unsigned int>(__popc(x));
    case BitIntrinsic::popcll: return static_cast<unsigned int>(__popcll(wide));
    case BitIntrinsic::clz: return static_cast<unsigned int>(__clz(signed_x));
    case BitIntrinsic::clzll: return static_cast<unsigned int>(__clzll(signed_wide));
    case BitIntrinsic::ffs: return static_cast<unsigned int>(__ffs(signed_x));
    case BitIntrinsic::ffsll: return static_cast<unsigned int>(__ffsll(signed_wide));
    case BitIntrinsic::brev: return __brev(x);
    case BitIntrinsic::double_bits_round_trip: {
      const auto bits =
          static_cast<unsigned long long>(__double_as_longlong(__longlong_as_double(signed_wide)));
      return static_cast<unsigned int>(bits >> 32) ^ static_cast<unsigned int>(bits);
    }
  }
  return 0;
}

__global__ void bit_intrinsic_kernel(BitIntrinsic which, const unsigned int* x,
                                     const unsigned int* y, unsigned int* out, int n) {
  const int i = global_index();
  if (i < n) out[i] = apply(which, x[i], y[i]);
}

// Poisoned device buffers of `count` vectors of V, downloaded as their components.
template <class Component, class V>
struct VectorOutput {
  static_assert(sizeof(V) % sizeof(Component) == 0, "a vector is a whole number of components");
  explicit VectorOutput(std::size_t count)
      : buffer(poisoned<Component>(count * sizeof(V) / sizeof(Component))) {}
  V* data() { return reinterpret_cast<V*>(buffer.data()); }
  std::vector<Component> components() const { return buffer.download(); }
  wb::DeviceBuffer<Component> buffer;
};

}  // namespace

template <class T>
MinMax<T> min_max(const std::vector<T>& a, const std::vector<T>& b) {
  const auto a_device = uploaded(a), b_device = uploaded(b);
  auto out_min = poisoned<T>(a.size()), out_max = poisoned<T>(a.size());
  wb::launch(min_max_kernel<T>, dim3(blocks_for(a.size())), dim3(kThreads), 0, a_device.data(),
             b_device.data(), out_min.data(), out_max.data(), static_cast<int>(a.size()));
  return {out_min.download(), out_max.download()};
}

template MinMax<int> min_max(const std::vector<int>&, const std::vector<int>&);
template MinMax<unsigned int> min_max(const std::vector<unsigned int>&,
                                      const std::vector<unsigned int>&);
template MinMax<long long> min_max(const std::vector<long long>&, const std::vector<long long>&);
template MinMax<unsigned long long> min_max(const std::vector<unsigned long long>&,
                                            const std::vector<unsigned long long>&);
template MinMax<float> min_max(const std::vector<float>&, const std::vector<float>&);
template MinMax<double> min_max(const std::vector<double>&, const std::vector<double>&);

MinMax<unsigned int> min_max_mixed(const std::vector<int>& a, const std::vector<unsigned int>& b) {
  const auto a_device = uploaded(a);
  const auto b_device = uploaded(b);
  auto out_min = poisoned<unsigned int>(a.size()), out_max = poisoned<unsigned int>(a.size());
  wb::launch(min_max_mixed_kernel, dim3(blocks_for(a.size())), dim3(kThreads), 0, a_device.data(),
             b_device.data(), out_min.data(), out_max.data(), static_cast<int>(a.size()));
  return {out_min.download(), out_max.download()};
}

VectorComponents build_vectors(const std::vector<float>& in) {
  const std::size_t n = in.size();
  const auto in_device = uploaded(in);
  VectorOutput<float, float2> float2s(n);
  VectorOutput<float, float3> float3s(n);
  VectorOutput<float, float4> float4s(n);
  VectorOutput<double, double2> double2s(n);
  VectorOutput<int, int2> int2s(n);
  VectorOutput<int, int3> int3s(n);
  VectorOutput<int, int4> int4s(n);
  VectorOutput<unsigned int, uint2> uint2s(n);
  VectorOutput<unsigned int, uint3> uint3s(n);
  VectorOutput<unsigned int, uint4> uint4s(n);
  const VectorOutputs out{float2s.data(), float3s.data(), float4s.data(), double2s.data(),
                          int2s.data(),   int3s.data(),   int4s.data(),   uint2s.data(),
                          uint3s.data(),  uint4s.data()};
  wb::launch(build_vectors_kernel, dim3(blocks_for(n)), dim3(kThreads), 0, in_device.data(), out,
             static_cast<int>(n));
  return {float2s.components(), float3s.components(), float4s.components(), double2s.components(),
          int2s.components(),   int3s.components(),   int4s.components(),   uint2s.components(),
          uint3s.components(),  uint4s.components()};
}

std::vector<float> apply_float_intrinsic(FloatIntrinsic which, const std::vector<float>& a,
                                         const std::vector<float>& b, const std::vector<float>& c) {
  const auto a_device = uploaded(a), b_device = uploaded(b), c_device = uploaded(c);
  auto out = poisoned<float>(a.size());
  wb::launch(float_intrinsic_kernel, dim3(blocks_for(a.size())), dim3(kThreads), 0, which,
             a_device.data(), b_device.data(), c_device.data(), out.data(),
             static_cast<int>(a.size()));
  return out.download();
}

std::vector<unsigned int> apply_bit_intrinsic(BitIntrinsic which,
                                              const std::vector<unsigned int>& x,
                                              const std::vector<unsigned int>& y) {
  const auto x_device = uploaded(x), y_device = uploaded(y);
  auto out = poisoned<unsigned int>(x.size());
  wb::launch(bit_intrinsic_kernel, dim3(blocks_for(x.size())), dim3(kThreads), 0, which,
             x_device.data(), y_device.data(), out.data(), static_cast<int>(x.size()));
  return out.download();
}

}  // namespace surface_test
