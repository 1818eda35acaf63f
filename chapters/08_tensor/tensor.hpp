// Chapter 8, tensor cores: the interface the skeleton and the solution both implement and
// the grader calls. Read it, but keep it as it is: the grader is compiled against it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ch08 {

//! [interface]
// A bf16 value as the kernels hold it: its 16 bits, the top half of the float it rounds
// (sign, the float's 8-bit exponent, 7 bits of mantissa). The copies and ldmatrix move
// bits; only the tensor cores read them as numbers.
using bf16 = std::uint16_t;

// The shapes. A block computes one 128x128 tile of C, walking K 64 at a time, its 4 warps
// arranged 2x2 over the tile, each warp owning a 64x64 part of it: 4 x 8 tiles of 16x8,
// one mma.sync m16n8k16 each per 16 of K.
inline constexpr int kTileM = 128;  // bM
inline constexpr int kTileN = 128;  // bN
inline constexpr int kTileK = 64;   // bK
inline constexpr int kThreads = 128;
inline constexpr int kWarpsM = 2;
inline constexpr int kWarpsN = 2;
inline constexpr int kWarpTileM = kTileM / kWarpsM;  // 64
inline constexpr int kWarpTileN = kTileN / kWarpsN;  // 64
inline constexpr int kMmaM = 16;
inline constexpr int kMmaN = 8;
inline constexpr int kMmaK = 16;
inline constexpr int kWarpMmasM = kWarpTileM / kMmaM;  // 4 tiles of 16 rows
inline constexpr int kWarpMmasN = kWarpTileN / kMmaN;  // 8 tiles of 8 columns
// Shared stages of the pipeline, as in chapter 4's step 3 (its k-tiles were 32 deep; these
// are 64, twice the work between two waits and two barriers).
inline constexpr int kStages = 3;
// A stage holds a k-tile of A and one of B, each kTileK rows of 128 bf16 (the rows of the
// operand for one k: contiguous in global memory), every row padded by 8 bf16: 272 bytes
// apart, so that the 8 rows an ldmatrix matrix reads fall in 8 different groups of 4 banks.
inline constexpr int kRowPad = 8;
inline constexpr int kRowStride = kTileM + kRowPad;  // 136 bf16 from one k to the next

// gmem_out[i] = gmem_in[i] rounded to the nearest bf16 (ties to even), on the device.
void round_to_bf16(const float* gmem_in, bf16* gmem_out, std::size_t count);

// Step 1: C = A * B^T on the tensor cores, for column-major arrays on the device: A is
// m x k and B is n x k in bf16, C is m x n in float: C(i, j) = sum over p of A(i, p) *
// B(j, p), the products exact and summed in float. m and n multiples of 8, any k >= 1
// (std::invalid_argument otherwise); the arrays 16-byte aligned, as cudaMalloc's are.
void gemm_mma(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k);

// Step 2: the stages without padding. A k-tile of an operand is two halves of 64 of its
// rows (elements 0-63 of every k-row, then 64-127), each kTileK lines of 128 bytes, one a
// k-row, their 16-byte chunks swizzled: the layout of the box of 64 x kTileK bf16 that
// the TMA writes with a 128-byte swizzle, which step 3 uses.
inline constexpr int kLineElements = 64;  // bf16 in a 128-byte line, the swizzle's span

// Where step 2's layout puts element (kk, element) of an operand's k-tile (k-row kk below
// kTileK, element below kTileM), in bf16 from the tile's start: the grader reads the
// layout through it.
int swizzled_offset(int kk, int element);

// Step 2: gemm_mma's product and contract, its stages in the swizzled layout.
void gemm_mma_swizzled(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k);

// Step 3: kRingStages stages of that layout, each filled by the TMA (four tensor copies:
// A's and B's two halves) and guarded by two barriers, full (the copies have landed) and
// empty (every warp has read the stage). Same product and contract; a Hopper GPU (sm_90).
inline constexpr int kRingStages = 3;
void gemm_mma_tma(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k);

// Step 4: step 3's ring, its stages multiplied by wgmma straight from shared memory:
// kWarpgroups warpgroups of 128 threads, each 64 rows of the tile by its 128 columns, one
// wgmma m64n128k16 a 16 of K, reading the stage through matrix descriptors. Same product
// and contract; a Hopper GPU with sm_90a's instructions.
inline constexpr int kWarpgroups = 2;
void gemm_wgmma(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k);

// Step 5: warp specialization. A block computes a 128x256 tile: warpgroup 0 is the
// producer (one thread issues the TMA's copies into a ring of kWideStages stages and
// waits only for their release), warpgroups 1 and 2 the consumers (64 rows each by the
// 256 columns, one wgmma m64n256k16 a 16 of K, a k-tile's group kept in flight while the
// next is issued). setmaxnreg moves registers from the producer to the consumers. Same
// product and contract.
inline constexpr int kWideTileN = 256;
inline constexpr int kWideStages = 4;
inline constexpr int kConsumerWarpgroups = 2;
void gemm_wgmma_specialized(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k);
//! [interface]

}  // namespace ch08
