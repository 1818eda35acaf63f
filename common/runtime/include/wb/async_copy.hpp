/// \file
/// Asynchronous copies from global to shared memory (cp.async, sm_80 and newer).
///
/// A thread issues copies, closes them into a group with `cp_async_commit()`, and later
/// waits until at most N of its groups are still in flight with `cp_async_wait<N>()`.
/// Only then may it read what those copies wrote; and only its own copies: another
/// thread's copies are visible after that thread waited AND a `__syncthreads()`.
///
///     wb::cp_async_ca<4>(&smem_tile[i], &gmem_tile[i]);  // 4, 8 or 16 bytes, through L1
///     wb::cp_async_cg(&smem_tile[i], &gmem_tile[i]);     // 16 bytes, bypassing L1
///     wb::cp_async(&smem_tile[i], &gmem_tile[i]);        // sizeof(T) bytes (.cg for 16)
///     wb::cp_async_commit();
///     wb::cp_async_wait<0>();                            // or wb::cp_async_wait_all()
///
/// A copy may read fewer bytes than it writes (`src_bytes`): the rest of the destination
/// is zero-filled, which is how a tile at the edge of an array pads itself.
/// Both addresses must be aligned to the copy size. cp.async needs sm_80 or newer; a
/// build for an older GPU stops with an error.
///
/// In the simulator each call also takes its call site (default arguments the caller
/// never writes), so that an error names the kernel's line.
#pragma once

#include "wb/backend.hpp"
#include "wb/site.hpp"  // WB_SITE_PARAMETERS, WB_SIM_INLINE
#include "wb/trace.hpp"  // WB_TRACE_NOTE: events of a trace build (make timeline-chapterN)

namespace wb {

#if WB_BACKEND_SIM

template <int Bytes>
WB_SIM_INLINE void cp_async_ca(void* shared_dst, const void* global_src WB_SITE_PARAMETERS) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async.ca copies 4, 8 or 16 bytes");
  sim::cp_async(shared_dst, global_src, Bytes, Bytes, sim::CacheLevel::all, WB_SITE);
}

template <int Bytes>
WB_SIM_INLINE void cp_async_ca(void* shared_dst, const void* global_src, int src_bytes WB_SITE_PARAMETERS) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async.ca copies 4, 8 or 16 bytes");
  sim::cp_async(shared_dst, global_src, Bytes, src_bytes, sim::CacheLevel::all, WB_SITE, true);
}

WB_SIM_INLINE void cp_async_cg(void* shared_dst, const void* global_src WB_SITE_PARAMETERS) {
  sim::cp_async(shared_dst, global_src, 16, 16, sim::CacheLevel::global, WB_SITE);
}

WB_SIM_INLINE void cp_async_cg(void* shared_dst, const void* global_src, int src_bytes WB_SITE_PARAMETERS) {
  sim::cp_async(shared_dst, global_src, 16, src_bytes, sim::CacheLevel::global, WB_SITE, true);
}

WB_SIM_INLINE void cp_async_commit(WB_SITE_ONLY_PARAMETERS) { sim::cp_async_commit(WB_SITE); }

template <int PendingGroups>
WB_SIM_INLINE void cp_async_wait(WB_SITE_ONLY_PARAMETERS) {
  static_assert(PendingGroups >= 0, "cp_async_wait<N> takes N >= 0");
  sim::cp_async_wait(PendingGroups, WB_SITE);
}

WB_SIM_INLINE void cp_async_wait_all(WB_SITE_ONLY_PARAMETERS) { sim::cp_async_wait_all(WB_SITE); }

template <class T>
WB_SIM_INLINE void cp_async(T* shared_dst, const T* global_src WB_SITE_PARAMETERS) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "wb::cp_async copies an element of 4, 8 or 16 bytes");
  sim::cp_async(shared_dst, global_src, sizeof(T), sizeof(T),
                sizeof(T) == 16 ? sim::CacheLevel::global : sim::CacheLevel::all, WB_SITE);
}

#else  // CUDA

#if defined(__CUDACC__)

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "cp.async needs sm_80 (Ampere) or newer: set CMAKE_CUDA_ARCHITECTURES to 80 or above"
#endif

/// Issues one copy of `Bytes` (4, 8 or 16) bytes from `global_src` to `shared_dst`,
/// cached in L1 (`cp.async.ca.shared.global`), and returns at once.
///
/// Without a source size, the plain form: the copy reads all its bytes. With one, the
/// form that reads src_bytes and zero-fills the rest; it takes a register and its
/// instruction costs more (measured in a GEMM's tile loads: about 4% of the kernel's
/// speed), so the plain form is what a whole tile's copies use.
template <int Bytes>
__device__ __forceinline__ void cp_async_ca(void* shared_dst, const void* global_src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async.ca copies 4, 8 or 16 bytes");
  const unsigned shared_address = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(shared_address), "l"(global_src), "n"(Bytes)
               : "memory");
}

/// Issues one copy of `Bytes` bytes to `shared_dst` that reads only the first
/// `src_bytes` (0 to `Bytes`) from `global_src` and fills the rest with zeros: a copy
/// with 0 reads nothing and writes zeros, the padding past an array's end.
template <int Bytes>
__device__ __forceinline__ void cp_async_ca(void* shared_dst, const void* global_src, int src_bytes) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async.ca copies 4, 8 or 16 bytes");
  const unsigned shared_address = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(shared_address),
               "l"(global_src), "n"(Bytes), "r"(src_bytes)
               : "memory");
}

/// Issues one 16-byte copy from `global_src` to `shared_dst` that bypasses L1
/// (`cp.async.cg.shared.global`): data read once need not displace what L1 holds.
__device__ __forceinline__ void cp_async_cg(void* shared_dst, const void* global_src) {
  const unsigned shared_address = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address), "l"(global_src) : "memory");
}

/// Issues one 16-byte copy past L1 that reads only the first `src_bytes` (0 to 16) from
/// `global_src` and fills the rest of `shared_dst` with zeros.
__device__ __forceinline__ void cp_async_cg(void* shared_dst, const void* global_src, int src_bytes) {
  const unsigned shared_address = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address),
               "l"(global_src), "r"(src_bytes)
               : "memory");
}

/// Closes the copies this thread issued since its last commit into a group
/// (`cp.async.commit_group`); `cp_async_wait<N>()` counts groups.
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
  WB_TRACE_NOTE(trace::Event::commit, 0);
}

/// Waits until at most `PendingGroups` of this thread's committed groups are still in
/// flight (`cp.async.wait_group N`): every older group has landed, and this thread may
/// read what it copied. Other threads' copies need a `__syncthreads()` after their waits.
template <int PendingGroups>
__device__ __forceinline__ void cp_async_wait() {
  static_assert(PendingGroups >= 0, "cp_async_wait<N> takes N >= 0");
  WB_TRACE_NOTE(trace::Event::wait_begins, PendingGroups);
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PendingGroups) : "memory");
  WB_TRACE_NOTE(trace::Event::wait_ends, 0);
}

/// Commits this thread's copies and waits until every one of them has landed
/// (`cp.async.wait_all`).
__device__ __forceinline__ void cp_async_wait_all() {
  WB_TRACE_NOTE(trace::Event::commit, 0);
  WB_TRACE_NOTE(trace::Event::wait_begins, 0);
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  WB_TRACE_NOTE(trace::Event::wait_ends, 0);
}

/// Issues one copy of one element of `T` (4, 8 or 16 bytes): cp_async_ca for 4 and 8,
/// cp_async_cg for 16.
template <class T>
__device__ __forceinline__ void cp_async(T* shared_dst, const T* global_src) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "wb::cp_async copies an element of 4, 8 or 16 bytes");
  if constexpr (sizeof(T) == 16) {
    cp_async_cg(shared_dst, global_src);
  } else {
    cp_async_ca<sizeof(T)>(shared_dst, global_src);
  }
}

#endif  // __CUDACC__
#endif

}  // namespace wb
