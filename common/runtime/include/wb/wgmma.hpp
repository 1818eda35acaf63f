/// \file
/// Hopper's warpgroup MMA (sm_90a): `wgmma.mma_async`, which multiplies matrices that it
/// reads straight from shared memory, described by 64-bit matrix descriptors, into
/// accumulators held by the 128 threads of a warpgroup, asynchronously.
///
///     const std::uint64_t a = wb::matrix_descriptor(smem_a, leading_bytes, stride_bytes, wb::Swizzle::bytes128);
///     const std::uint64_t b = wb::matrix_descriptor(smem_b, leading_bytes, stride_bytes, wb::Swizzle::bytes128);
///     wb::wgmma_fence();                                     // before the first wgmma
///     wb::wgmma_m64n128k16_bf16(acc, a, b, true);            // acc (64 floats a thread) += A B, issued
///     wb::wgmma_commit_group();                              // the wgmmas so far form a group
///     wb::wgmma_wait_group<0>(acc);                          // every group done: acc holds the sum
///
/// m64n256k16 (128 floats a thread) is the same with N = 256. `setmaxnreg_increase<R>` and
/// `setmaxnreg_decrease<R>` move registers between warpgroups (a producer gives up what
/// the consumers' accumulators need).
///
/// **A warpgroup** is 4 consecutive warps whose first warp's index is a multiple of 4
/// (threads 128 g to 128 g + 127). Every thread of it executes the same wgmma with the
/// same descriptors. Warp w % 4 of the warpgroup computes rows 16 (w % 4) to 16 (w % 4) + 15
/// of the 64 x N product.
///
/// **The operands** are M x 16 of A and 16 x N of B in bf16, both *MN-major* here (the
/// wgmma's transposed forms, which only 16-bit types have): in shared memory, the 16-byte
/// chunks hold 8 consecutive elements along M (of A) or N (of B) at one k, which is the
/// layout the TMA writes for a box whose first dimension is the operand's rows. A
/// descriptor gives where the operand starts and how its pieces lie, in bytes:
///
///     bits  0-13  start address >> 4 (in the shared window)
///     bits 16-29  leading byte offset >> 4
///     bits 32-45  stride byte offset >> 4
///     bits 62-63  layout: 1 = 128-byte swizzle, 2 = 64-byte, 3 = 32-byte, 0 = none
///
/// With a swizzle of S bytes (S = 128, 64, 32), the operand is made of lines of S bytes,
/// one a k, each holding S / 2 consecutive elements along M or N; 8 lines (8 k) form an
/// atom of 8 S bytes whose 16-byte chunk c of line l sits at chunk c ^ (l % (S / 16)),
/// as the TMA's swizzle of S bytes writes it. Element (mn, k) is at
///
///     start + (mn % (S/2)) * 2 + (mn / (S/2)) * leading + (k % 8) * S + (k / 8) * stride
///
/// with the swizzle applied to that address (its bits 4-6 XORed with bits 7-9 for S =
/// 128): `leading` steps from one run of S / 2 elements along M or N to the next, `stride`
/// from 8 k to the next 8. With no swizzle, chunks of 8 elements: (mn % 8) * 2 +
/// (mn / 8) * stride + (k % 8) * 16 + (k / 8) * leading. Tiles under a swizzle start at a
/// multiple of 8 S bytes (1024 for the 128-byte swizzle), as the TMA's do.
///
/// **The accumulators**: thread t of warp w (g = t / 4, q = t % 4, of its lane t) holds,
/// for each 8 columns j of N, d[4 j + i] = D[16 (w % 4) + g + 8 (i / 2)][8 j + 2 q + i % 2],
/// mma.sync's C fragment repeated along N (N / 2 floats a thread).
///
/// **Asynchrony.** A wgmma is issued, not done: its accumulators hold nothing usable, and
/// its shared memory may still be read, until a wgmma_wait_group<N> leaves at most N of
/// the thread's committed groups in flight, that wgmma's among those done. So: fence
/// (wgmma_fence) before the first wgmma and whenever other code wrote the accumulators
/// since; commit the wgmmas issued (wgmma_commit_group); wait before the accumulators are
/// read and before the shared memory they read is released for a refill. Accumulating
/// wgmmas of one shape into the same accumulators need no wait between them.
///
/// In the simulator each call takes its call site too (default arguments). A wgmma reads
/// its operands' chunks at issue as shared loads of the kernel's line, and again at its
/// wait, where chunks that changed between the two are an error: shared memory refilled
/// while the tensor cores read it. Its accumulators hold the pending poison
/// (wb/poison.hpp) from its issue to its wait.
#pragma once

#include <cstdint>

#include "wb/backend.hpp"
#include "wb/site.hpp"  // WB_SITE_PARAMETERS, WB_SIM_INLINE

namespace wb {

/// The descriptor's layout: the swizzle the operand was written with (the TMA's
/// CU_TENSOR_MAP_SWIZZLE_128B is `bytes128`).
enum class Swizzle : unsigned { none = 0, bytes128 = 1, bytes64 = 2, bytes32 = 3 };

/// A descriptor's fields in bytes, as the tensor cores read them back (the simulator's
/// model and the graders decode descriptors with it).
struct MatrixDescriptorFields {
  std::uint32_t start;                ///< from the shared window's start
  std::uint32_t leading_byte_offset;
  std::uint32_t stride_byte_offset;
  Swizzle layout;
};

constexpr MatrixDescriptorFields decode_matrix_descriptor(std::uint64_t bits) {
  return {static_cast<std::uint32_t>(bits & 0x3FFFu) << 4, static_cast<std::uint32_t>(bits >> 16 & 0x3FFFu) << 4,
          static_cast<std::uint32_t>(bits >> 32 & 0x3FFFu) << 4, static_cast<Swizzle>(bits >> 62)};
}

namespace detail {
// setmaxnreg's operand: 24 to 256 registers, a multiple of 8.
template <int Registers>
inline constexpr bool kSetmaxnregCount = Registers >= 24 && Registers <= 256 && Registers % 8 == 0;
}  // namespace detail

#if WB_BACKEND_SIM

namespace detail {
// A 16-byte chunk of an operand, as the wgmma reads it, whatever type the tile holds.
struct __attribute__((may_alias, aligned(16))) WgmmaChunk {
  unsigned words[4];
};
}  // namespace detail

/// The descriptor of an operand that starts at `start` in shared memory (the simulator
/// checks what the hardware would silently drop: a start or an offset off 16 bytes).
WB_SIM_INLINE std::uint64_t matrix_descriptor(const void* start, std::uint32_t leading_byte_offset,
                                              std::uint32_t stride_byte_offset, Swizzle swizzle WB_SITE_PARAMETERS) {
  return sim::wgmma_descriptor(start, leading_byte_offset, stride_byte_offset, static_cast<unsigned>(swizzle),
                               WB_SITE);
}

WB_SIM_INLINE void wgmma_fence(WB_SITE_ONLY_PARAMETERS) { sim::wgmma_fence(WB_SITE); }
WB_SIM_INLINE void wgmma_commit_group(WB_SITE_ONLY_PARAMETERS) { sim::wgmma_commit(WB_SITE); }

// Each thread reads its share of the warp's chunks itself, in the kernel's instrumented
// code: bounds, copies in flight, races and stale poison are checked as for any load.
template <int N>
WB_SIM_INLINE void wgmma_m64nNk16_bf16(float (&d)[N / 2], std::uint64_t desc_a, std::uint64_t desc_b,
                                       bool accumulate WB_SITE_PARAMETERS) {
  static_assert(N == 64 || N == 128 || N == 256, "wgmma m64nNk16: N of 64, 128 or 256 here");
  const void* addresses[sim::kWgmmaMaxChunks];
  detail::WgmmaChunk chunks[sim::kWgmmaMaxChunks];
  const int count = sim::wgmma_chunks(desc_a, desc_b, N, addresses, WB_SITE);
  for (int i = 0; i < count; ++i) chunks[i] = *static_cast<const detail::WgmmaChunk*>(addresses[i]);
  sim::wgmma_issue(d, N, desc_a, desc_b, accumulate, chunks, WB_SITE);
}

/// D (64 x 128) = A (64 x 16) B (16 x 128) (+ D where `accumulate`), issued.
WB_SIM_INLINE void wgmma_m64n128k16_bf16(float (&d)[64], std::uint64_t desc_a, std::uint64_t desc_b,
                                         bool accumulate WB_SITE_PARAMETERS) {
  wgmma_m64nNk16_bf16<128>(d, desc_a, desc_b, accumulate, WB_SITE);
}

/// D (64 x 256) = A (64 x 16) B (16 x 256) (+ D where `accumulate`), issued.
WB_SIM_INLINE void wgmma_m64n256k16_bf16(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b,
                                         bool accumulate WB_SITE_PARAMETERS) {
  wgmma_m64nNk16_bf16<256>(d, desc_a, desc_b, accumulate, WB_SITE);
}

/// `setmaxnreg.inc` / `.dec`: the warpgroup's threads keep `Registers` registers each from
/// here on (a multiple of 8 from 24 to 256). Checked, not modelled: the simulator has no
/// register file.
template <int Registers>
WB_SIM_INLINE void setmaxnreg_increase(WB_SITE_ONLY_PARAMETERS) {
  static_assert(detail::kSetmaxnregCount<Registers>, "setmaxnreg: 24 to 256, a multiple of 8");
  sim::setmaxnreg(Registers, true, WB_SITE);
}
template <int Registers>
WB_SIM_INLINE void setmaxnreg_decrease(WB_SITE_ONLY_PARAMETERS) {
  static_assert(detail::kSetmaxnregCount<Registers>, "setmaxnreg: 24 to 256, a multiple of 8");
  sim::setmaxnreg(Registers, false, WB_SITE);
}

/// Waits until at most `Pending` of the thread's committed groups are in flight; the
/// accumulators named are then the wgmmas' results.
template <int Pending, int Size>
WB_SIM_INLINE void wgmma_wait_group(float (&)[Size] WB_SITE_PARAMETERS) {
  static_assert(Pending >= 0 && Pending <= 7, "wgmma.wait_group takes 0 to 7");
  const int completing = sim::wgmma_wait_begin(Pending, WB_SITE);
  for (int op = 0; op < completing; ++op) {
    const void* addresses[sim::kWgmmaMaxChunks];
    detail::WgmmaChunk chunks[sim::kWgmmaMaxChunks];
    const int count = sim::wgmma_front_chunks(addresses);
    for (int i = 0; i < count; ++i) chunks[i] = *static_cast<const detail::WgmmaChunk*>(addresses[i]);
    sim::wgmma_complete_front(chunks, WB_SITE);
  }
}

#else  // CUDA

#if defined(__CUDACC__)

// wgmma is sm_90a's own: the arch-specific features of compute capability 9.0 only.
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define WB_HAS_WGMMA 1
#else
#define WB_HAS_WGMMA 0
#endif

/// The descriptor of an operand that starts at `start` in shared memory.
__device__ __forceinline__ std::uint64_t matrix_descriptor(const void* start, std::uint32_t leading_byte_offset,
                                                           std::uint32_t stride_byte_offset, Swizzle swizzle) {
  const auto address = static_cast<std::uint32_t>(__cvta_generic_to_shared(start));
  return static_cast<std::uint64_t>((address & 0x3FFFFu) >> 4) |
         static_cast<std::uint64_t>((leading_byte_offset >> 4) & 0x3FFFu) << 16 |
         static_cast<std::uint64_t>((stride_byte_offset >> 4) & 0x3FFFu) << 32 |
         static_cast<std::uint64_t>(static_cast<unsigned>(swizzle)) << 62;
}

/// `wgmma.fence.sync.aligned`: the accumulators' earlier writes are ordered before the
/// wgmmas that follow.
__device__ __forceinline__ void wgmma_fence() {
#if WB_HAS_WGMMA
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
  __trap();
#endif
}

/// `wgmma.commit_group.sync.aligned`: the thread's wgmmas not yet in a group form one.
__device__ __forceinline__ void wgmma_commit_group() {
#if WB_HAS_WGMMA
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#else
  __trap();
#endif
}

/// `wgmma.wait_group.sync.aligned Pending`: at most `Pending` committed groups in flight
/// after it. The accumulators are passed so that the compiler reads them only after it.
template <int Pending, int Size>
__device__ __forceinline__ void wgmma_wait_group(float (&accumulators)[Size]) {
  static_assert(Pending >= 0 && Pending <= 7, "wgmma.wait_group takes 0 to 7");
#if WB_HAS_WGMMA
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
#pragma unroll
  for (int i = 0; i < Size; ++i) asm volatile("" : "+f"(accumulators[i])::"memory");
#else
  __trap();
#endif
}

#define WB_WGMMA_F8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), \
                       "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])

/// D (64 x 128) = A (64 x 16) B (16 x 128) (+ D where `accumulate`), both operands
/// MN-major (`wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16`, transposed A and B).
__device__ __forceinline__ void wgmma_m64n128k16_bf16(float (&d)[64], std::uint64_t desc_a, std::uint64_t desc_b,
                                                      bool accumulate) {
#if WB_HAS_WGMMA
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
      "%64, %65, p, 1, 1, 1, 1;\n}\n"
      : WB_WGMMA_F8(0), WB_WGMMA_F8(8), WB_WGMMA_F8(16), WB_WGMMA_F8(24), WB_WGMMA_F8(32), WB_WGMMA_F8(40),
        WB_WGMMA_F8(48), WB_WGMMA_F8(56)
      : "l"(desc_a), "l"(desc_b), "r"(static_cast<int>(accumulate)));
#else
  (void)d, (void)desc_a, (void)desc_b, (void)accumulate;
  __trap();
#endif
}

/// D (64 x 256) = A (64 x 16) B (16 x 256) (+ D where `accumulate`), both operands
/// MN-major (`wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16`, transposed A and B).
__device__ __forceinline__ void wgmma_m64n256k16_bf16(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b,
                                                      bool accumulate) {
#if WB_HAS_WGMMA
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
      "%128, %129, p, 1, 1, 1, 1;\n}\n"
      : WB_WGMMA_F8(0), WB_WGMMA_F8(8), WB_WGMMA_F8(16), WB_WGMMA_F8(24), WB_WGMMA_F8(32), WB_WGMMA_F8(40),
        WB_WGMMA_F8(48), WB_WGMMA_F8(56), WB_WGMMA_F8(64), WB_WGMMA_F8(72), WB_WGMMA_F8(80), WB_WGMMA_F8(88),
        WB_WGMMA_F8(96), WB_WGMMA_F8(104), WB_WGMMA_F8(112), WB_WGMMA_F8(120)
      : "l"(desc_a), "l"(desc_b), "r"(static_cast<int>(accumulate)));
#else
  (void)d, (void)desc_a, (void)desc_b, (void)accumulate;
  __trap();
#endif
}

#undef WB_WGMMA_F8

/// `setmaxnreg.inc.sync.aligned.u32 Registers`: the warpgroup's threads may use up to
/// `Registers` registers each from here on (24 to 256, a multiple of 8); they wait until
/// the registers are free.
template <int Registers>
__device__ __forceinline__ void setmaxnreg_increase() {
  static_assert(detail::kSetmaxnregCount<Registers>, "setmaxnreg: 24 to 256, a multiple of 8");
#if WB_HAS_WGMMA
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
#endif
}
/// `setmaxnreg.dec.sync.aligned.u32 Registers`: the warpgroup's threads give their
/// registers above `Registers` back, for the warpgroups that increase theirs.
template <int Registers>
__device__ __forceinline__ void setmaxnreg_decrease() {
  static_assert(detail::kSetmaxnregCount<Registers>, "setmaxnreg: 24 to 256, a multiple of 8");
#if WB_HAS_WGMMA
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
#endif
}

#endif  // __CUDACC__
#endif

}  // namespace wb
