/// \file
/// The tensor cores' warp-wide instructions (sm_80 and newer): `ldmatrix`, which loads
/// 8x8 matrices of 16-bit elements from shared memory straight into the fragments a warp's
/// lanes hold, and `mma.sync` m16n8k16 on bf16 with float accumulation.
///
///     unsigned a[4], b[2];
///     wb::ldmatrix_x4(a, &smem_a[row * kStrideA + column]);        // A: 16x16, row-major
///     wb::ldmatrix_x2_trans(b, &smem_b[k * kStrideB + n0]);        // B: 16x8, stored k-major
///     wb::mma_m16n8k16_bf16(acc, a, b, acc);                       // acc (4 floats) += A B
///
/// Both are `.sync.aligned`: every lane of the warp executes the same call, none having
/// returned; the warp waits until all 32 have arrived. In the simulator a lane that never
/// arrives, or one at another call, is an error that names the lanes and where they are.
///
/// **ldmatrix** (`ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16`). Each lane
/// gives the shared-memory address of one row of a matrix: 8 elements of 16 bits, 16
/// bytes, at an address that is a multiple of 16. Lanes 8m to 8m+7 give rows 0 to 7 of
/// matrix m; .x1 reads the addresses of lanes 0-7, .x2 of lanes 0-15, .x4 of all 32 (the
/// other lanes' addresses are not used, and may be anything). The rows need not be
/// contiguous: each is wherever its lane says, which is what lets a padded or swizzled
/// tile be read without bank conflicts. Lane t receives one 32-bit register per matrix,
/// its first element in the low half (with g = t / 4, q = t % 4):
///
///     regs[m] = { M_m[g][2q], M_m[g][2q + 1] }        // row g, columns 2q and 2q + 1
///     .trans:   { M_m[2q][g], M_m[2q + 1][g] }        // the transpose: column g of the rows as stored
///
/// so four consecutive lanes hold one row (one column with .trans). The .x4 load of a
/// 16x16 tile whose lanes give rows (t % 8) + 8 ((t / 8) % 2) at column 8 (t / 16) fills
/// exactly the A fragment of mma m16n8k16 below; the .x2.trans load of a 16x8 tile stored
/// k-major (row k holds B's row k: its 8 columns, 16 bytes) whose lanes 0-15 give rows
/// k = 0 to 15 fills its B fragment.
///
/// **mma** (`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`). D = A B + C with
/// A 16x16 and B 16x8 in bf16, C and D 16x8 in float. Each lane holds fragments, a
/// register of a bf16 pair holding the lower column (of A) or row (of B) in its low half
/// (g = lane / 4, q = lane % 4):
///
///     a[0] = A[g][2q, 2q+1]        a[1] = A[g+8][2q, 2q+1]
///     a[2] = A[g][2q+8, 2q+9]      a[3] = A[g+8][2q+8, 2q+9]
///     b[0] = B[2q, 2q+1][g]        b[1] = B[2q+8, 2q+9][g]
///     c[0], c[1] = C[g][2q], C[g][2q+1]      c[2], c[3] = C[g+8][2q], C[g+8][2q+1]
///
/// and d as c. The products are exact; how the hardware adds them is its own (the PTX ISA
/// does not say), so a GPU's result may differ from a double-precision one in the last
/// bits of a float: compare with a tolerance. `d` may be `c` (an accumulator).
///
/// In the simulator each call also takes its call site (default arguments the caller never
/// writes), and each lane's row is read as a 16-byte shared load of the kernel's line, so
/// a row out of its array, a race on it and bank conflicts are seen as for any load.
#pragma once

#include "wb/backend.hpp"
#include "wb/site.hpp"  // WB_SITE_PARAMETERS, WB_SIM_INLINE

namespace wb {

#if WB_BACKEND_SIM

namespace detail {
// One row of an 8x8 matrix as ldmatrix reads it: 16 bytes in one access, whatever type the
// tile was stored as (bf16, or 16-byte vectors), hence may_alias.
struct __attribute__((may_alias, aligned(16))) LdmatrixRow {
  unsigned words[4];
};
}  // namespace detail

// The simulator's ldmatrix: the lanes that give a row read it here, in the kernel's own
// (instrumented) code, then meet the warp, which hands each its fragments.
template <int Matrices, bool Transposed>
WB_SIM_INLINE void ldmatrix_m8n8(unsigned (&regs)[Matrices], const void* smem_row WB_SITE_PARAMETERS) {
  static_assert(Matrices == 1 || Matrices == 2 || Matrices == 4, "ldmatrix loads 1, 2 or 4 matrices");
  detail::LdmatrixRow row{};
  if (sim::ldmatrix_gives_row(Matrices, Transposed, smem_row, WB_SITE)) {
    row = *static_cast<const detail::LdmatrixRow*>(smem_row);
  }
  sim::ldmatrix(Matrices, Transposed, &row, regs, WB_SITE);
}

WB_SIM_INLINE void ldmatrix_x1(unsigned (&regs)[1], const void* smem_row WB_SITE_PARAMETERS) {
  ldmatrix_m8n8<1, false>(regs, smem_row, WB_SITE);
}
WB_SIM_INLINE void ldmatrix_x2(unsigned (&regs)[2], const void* smem_row WB_SITE_PARAMETERS) {
  ldmatrix_m8n8<2, false>(regs, smem_row, WB_SITE);
}
WB_SIM_INLINE void ldmatrix_x4(unsigned (&regs)[4], const void* smem_row WB_SITE_PARAMETERS) {
  ldmatrix_m8n8<4, false>(regs, smem_row, WB_SITE);
}
WB_SIM_INLINE void ldmatrix_x1_trans(unsigned (&regs)[1], const void* smem_row WB_SITE_PARAMETERS) {
  ldmatrix_m8n8<1, true>(regs, smem_row, WB_SITE);
}
WB_SIM_INLINE void ldmatrix_x2_trans(unsigned (&regs)[2], const void* smem_row WB_SITE_PARAMETERS) {
  ldmatrix_m8n8<2, true>(regs, smem_row, WB_SITE);
}
WB_SIM_INLINE void ldmatrix_x4_trans(unsigned (&regs)[4], const void* smem_row WB_SITE_PARAMETERS) {
  ldmatrix_m8n8<4, true>(regs, smem_row, WB_SITE);
}

WB_SIM_INLINE void mma_m16n8k16_bf16(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2],
                                     const float (&c)[4] WB_SITE_PARAMETERS) {
  sim::mma_m16n8k16_bf16(d, a, b, c, WB_SITE);
}

#else  // CUDA

#if defined(__CUDACC__)

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "mma.sync on bf16 needs sm_80 (Ampere) or newer: set CMAKE_CUDA_ARCHITECTURES to 80 or above"
#endif

// The ldmatrix forms take the row's address in the shared window (32 bits), as cp.async's
// destination does. "memory": the asm reads shared memory the compiler cannot see, so the
// stores that filled the tile must not move past it.

/// Loads one 8x8 matrix (`ldmatrix.sync.aligned.m8n8.x1.shared.b16`): lanes 0-7 give its rows.
__device__ __forceinline__ void ldmatrix_x1(unsigned (&regs)[1], const void* smem_row) {
  const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(smem_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(regs[0]) : "r"(row) : "memory");
}

/// Loads two 8x8 matrices (`ldmatrix.sync.aligned.m8n8.x2.shared.b16`): lanes 0-15 give their rows.
__device__ __forceinline__ void ldmatrix_x2(unsigned (&regs)[2], const void* smem_row) {
  const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(smem_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(regs[0]), "=r"(regs[1])
               : "r"(row)
               : "memory");
}

/// Loads four 8x8 matrices (`ldmatrix.sync.aligned.m8n8.x4.shared.b16`): every lane gives a row.
__device__ __forceinline__ void ldmatrix_x4(unsigned (&regs)[4], const void* smem_row) {
  const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(smem_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(regs[0]), "=r"(regs[1]), "=r"(regs[2]), "=r"(regs[3])
               : "r"(row)
               : "memory");
}

/// Loads one 8x8 matrix transposed (`ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16`).
__device__ __forceinline__ void ldmatrix_x1_trans(unsigned (&regs)[1], const void* smem_row) {
  const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(smem_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(regs[0]) : "r"(row) : "memory");
}

/// Loads two 8x8 matrices transposed (`ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16`).
__device__ __forceinline__ void ldmatrix_x2_trans(unsigned (&regs)[2], const void* smem_row) {
  const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(smem_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(regs[0]), "=r"(regs[1])
               : "r"(row)
               : "memory");
}

/// Loads four 8x8 matrices transposed (`ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16`).
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&regs)[4], const void* smem_row) {
  const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(smem_row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(regs[0]), "=r"(regs[1]), "=r"(regs[2]), "=r"(regs[3])
               : "r"(row)
               : "memory");
}

/// D = A B + C on the tensor cores (`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`),
/// in the fragments drawn at the top of this file. Registers only: no memory clobber.
__device__ __forceinline__ void mma_m16n8k16_bf16(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2],
                                                  const float (&c)[4]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]),
        "f"(c[3]));
}

#endif  // __CUDACC__
#endif

}  // namespace wb
