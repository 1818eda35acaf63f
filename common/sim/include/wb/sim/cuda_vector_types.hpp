// CUDA's vector types for g++, with the size and alignment nvcc gives them (so a
// float4 load is one 16-byte access on both backends, and a struct of them has the
// same layout), and the make_* functions that build them.
//
// The 3-component types are not over-aligned in CUDA (float3 is 12 bytes, aligned to
// 4): only the 2- and 4-component ones are. double2 is 16 bytes, aligned to 16.
// The make_* functions are inlined in every build type: at -O0 (Debug) the store of a
// called function's result is not instrumented, and the simulator would not see it.
// Included by cuda_shim.hpp; never include it directly.
#pragma once

struct uint3 {
  unsigned int x, y, z;
};
struct int3 {
  int x, y, z;
};
struct float3 {
  float x, y, z;
};

// nvcc's 2- and 4-component types are aggregates, and a store of braces into one
// (`*p = {a, b, c, d}`, `= float4{a, b, c, d}`) is one vector store in its PTX
// (st.v4.f32). g++ would store an aggregate's braces field by field, four 4-byte accesses
// that the simulator would count as such; with a constructor, the braces build a temporary
// that is copied as one access of the type's width. Braces with fewer values set the rest
// to zero, as an aggregate's do (`float4 v = {0}`); default construction stays trivial
// (`float4 v;` is uninitialised, `float4 v{}` zero), and the types trivially copyable.
#define WB_VECTOR_TYPE_2(name, element, alignment)                                                   \
  struct alignas(alignment) name {                                                                   \
    element x, y;                                                                                    \
    name() = default;                                                                                \
    constexpr __attribute__((always_inline)) name(element x_, element y_ = 0) : x(x_), y(y_) {}     \
  }
#define WB_VECTOR_TYPE_4(name, element)                                                              \
  struct alignas(16) name {                                                                          \
    element x, y, z, w;                                                                              \
    name() = default;                                                                                \
    constexpr __attribute__((always_inline)) name(element x_, element y_ = 0, element z_ = 0,       \
                                                  element w_ = 0)                                    \
        : x(x_), y(y_), z(z_), w(w_) {}                                                              \
  }
WB_VECTOR_TYPE_2(float2, float, 8);
WB_VECTOR_TYPE_4(float4, float);
WB_VECTOR_TYPE_2(int2, int, 8);
WB_VECTOR_TYPE_4(int4, int);
WB_VECTOR_TYPE_2(uint2, unsigned int, 8);
WB_VECTOR_TYPE_4(uint4, unsigned int);
WB_VECTOR_TYPE_2(double2, double, 16);
#undef WB_VECTOR_TYPE_2
#undef WB_VECTOR_TYPE_4

// A launch's grid or block: components not given are 1.
struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1)
      : x(x_), y(y_), z(z_) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};

constexpr __attribute__((always_inline)) float2 make_float2(float x, float y) { return {x, y}; }
constexpr __attribute__((always_inline)) float3 make_float3(float x, float y, float z) { return {x, y, z}; }
constexpr __attribute__((always_inline)) float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
constexpr __attribute__((always_inline)) int2 make_int2(int x, int y) { return {x, y}; }
constexpr __attribute__((always_inline)) int3 make_int3(int x, int y, int z) { return {x, y, z}; }
constexpr __attribute__((always_inline)) int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
constexpr __attribute__((always_inline)) uint2 make_uint2(unsigned int x, unsigned int y) { return {x, y}; }
constexpr __attribute__((always_inline)) uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return {x, y, z}; }
constexpr __attribute__((always_inline)) uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) {
  return {x, y, z, w};
}
constexpr __attribute__((always_inline)) double2 make_double2(double x, double y) { return {x, y}; }
