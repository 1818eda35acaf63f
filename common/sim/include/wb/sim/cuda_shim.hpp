// The CUDA language surface, for g++: what a kernel file needs to compile as plain C++
// and run in the CPU simulator.
//
// Each CUDA thread of a block runs on a fiber of its own; the fibers of one block all
// run on one OS thread. That is what makes the mapping below valid:
//   __shared__            -> a static thread_local: one copy per OS thread, so one copy
//                            per block in flight, shared by that block's fibers (the
//                            simulator poisons it for every block: see SharedMemory in
//                            common/sim/src/worker.hpp);
//   threadIdx, blockIdx   -> thread_local values the scheduler sets at every resume;
//   __syncthreads()       -> a switch back to the block's scheduler, which releases the
//                            fibers once all of them wait at the same call site.
// The rest of the surface lives in headers of its own, one idea each: vector types,
// math functions and the fast intrinsics, bit intrinsics, atomics, fences, and the
// 16-bit float types (cuda_fp16.hpp, cuda_bf16.hpp).
// Included by <wb/wb.cuh> when WB_BACKEND_SIM is defined; never include it directly.
#pragma once

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "wb/sim/cuda_atomics.hpp"
#include "wb/sim/cuda_bf16.hpp"
#include "wb/sim/cuda_bits.hpp"
#include "wb/sim/cuda_fast_math.hpp"
#include "wb/sim/cuda_fences.hpp"
#include "wb/sim/cuda_fp16.hpp"
#include "wb/sim/cuda_math.hpp"
#include "wb/sim/cuda_vector_types.hpp"
#include "wb/sim/cuda_warp.hpp"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __grid_constant__  // a const kernel parameter kept in the parameter space (a tensor map)
// `used` keeps g++ from folding reads of a __shared__ array that the file never writes
// into constant zeros: on a GPU it holds garbage, and the simulator poisons it.
#define __shared__ __attribute__((used)) static thread_local
#define __constant__
#define __align__(n) __attribute__((aligned(n)))

// `assert` in a kernel raises an error that fails the launch (and so one test), with
// the block, the thread and the line, instead of aborting the whole program.
#undef assert
#define assert(condition) \
  ((condition) ? void(0) : ::wb::sim::kernel_assert_failed(#condition, __FILE__, __LINE__))

extern thread_local uint3 threadIdx;
extern thread_local uint3 blockIdx;
extern thread_local dim3 blockDim;
extern thread_local dim3 gridDim;
constexpr int warpSize = 32;

namespace wb::sim {
[[noreturn]] void kernel_assert_failed(const char* condition, const char* file, int line);
void sync_block(const char* file, int line);
}  // namespace wb::sim

// The call site travels with the barrier so that a mismatch can name the lines.
inline void __syncthreads(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  ::wb::sim::sync_block(file, line);
}

// A load through the read-only data cache on the GPU; a plain load here. Inlined in every
// build type (as the vector types' make_* functions are): at -O0 a call's result stored
// to memory would reach the simulator as no access at all, or as one of this header's.
template <class T>
inline __attribute__((always_inline)) T __ldg(const T* pointer) {
  return *pointer;
}

// A streaming store (st.global.cs) on the GPU, a hint to the caches; a plain store here.
// The value by reference: a float4 passed by value would be loaded in two or four parts
// (the host's calling convention), and the simulator would count a 16-byte read of
// shared memory as 4-byte ones.
template <class T>
inline __attribute__((always_inline)) void __stcs(T* pointer, const T& value) {
  *pointer = value;
}
