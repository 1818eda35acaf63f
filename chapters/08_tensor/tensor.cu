// Chapter 8, tensor cores: chapter 4's pipeline feeding mma.sync.
//
// Step 1 is chapter 4's step 3 (kStages stages of cp.async tiles, one wait and one
// barrier a k-tile) with the arithmetic on the tensor cores: each warp multiplies 16x16
// pieces of A by 16x8 pieces of B with mma.sync.m16n8k16, bf16 in, float out, its
// operands in registers laid out as the instruction's fragments, which ldmatrix loads
// from shared memory a whole warp at a time: each lane gives the address of one row of
// an 8x8 matrix, and receives its two elements of each matrix's fragment.
//
// A and B are column-major, so a k-tile of either is kTileK rows of the operand's
// contiguous dimension (m for A, n for B): row kk of a stage holds the operand's 128
// elements for k = k0 + kk. The fragments want the transpose (A's row i, B's column j,
// along k), which is what ldmatrix's .trans form hands out.
//
// Naming: gmem_ global memory, smem_ shared memory; shapes (rows, columns) in the comments.
#include <cstring>
#include <stdexcept>
#include <string>

#include "tensor.hpp"
#include "wb/tensor_core.hpp"
#include "wb/wb.cuh"

namespace ch08 {
namespace {

constexpr int kStageElements = kTileK * kRowStride;  // one operand's k-tile: (32,136) bf16
constexpr int kChunk = 8;                            // bf16 in a 16-byte copy
static_assert(kTileM == kTileN, "A's and B's tiles share one shape and one loader");
static_assert(kWarpsM * kWarpsN * 32 == kThreads, "a warp per part of the tile");
static_assert(kTileK % kMmaK == 0, "a k-tile is whole mma steps");
static_assert((kRowStride * 2) % 16 == 0, "every row of a stage starts on a 16-byte boundary");

// ---------------------------------------------------------------------------------
// Rounding the inputs, outside the GEMM

__global__ void round_to_bf16_kernel(const float* gmem_in, bf16* gmem_out, std::size_t count) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  std::uint32_t bits;
  std::memcpy(&bits, &gmem_in[i], sizeof bits);
  bits += 0x7FFFu + ((bits >> 16) & 1u);  // to nearest, ties to even
  gmem_out[i] = static_cast<bf16>(bits >> 16);
}

// ---------------------------------------------------------------------------------
// Step 1

//! [load tile]
// Issues the copies of one operand's k-tile into smem_tile: element (r, kk) of the tile,
// the operand's row tile_row + r at k = k0 + kk, goes to smem_tile[kk * kRowStride + r].
// 16-byte copies of 8 bf16 along r, two a thread; rows is a multiple of 8, so a copy is
// wholly inside the operand or wholly outside it, where it reads nothing and writes zeros.
__device__ inline void load_tile_async(bf16* smem_tile, const bf16* gmem_operand, int rows, int k, int tile_row,
                                       int k0) {
  constexpr int chunks_per_k = kTileM / kChunk;  // 16
  for (int chunk = threadIdx.x; chunk < kTileK * chunks_per_k; chunk += kThreads) {
    const int kk = chunk / chunks_per_k;
    const int r = chunk % chunks_per_k * kChunk;
    const bool inside = tile_row + r < rows && k0 + kk < k;
    const bf16* src = inside ? gmem_operand + static_cast<std::size_t>(k0 + kk) * rows + tile_row + r : gmem_operand;
    wb::cp_async_cg(&smem_tile[kk * kRowStride + r], src, inside ? 16 : 0);
  }
}
//! [load tile]

//! [warp mma]
// One k-tile of the warp's part of C: for each 16 of K, the warp's 4 fragments of A
// (16x16 each) and 4 of B (16x8 each) from the stage, then the 16 mma.sync that multiply
// every pair into acc. The warp's part starts at (warp_m, warp_n) of the block's tile.
// lane / 8 says which of an ldmatrix.x4's four matrices the lane gives a row of, lane % 8
// which row.
__device__ inline void warp_mma_k_tile(const bf16* smem_a, const bf16* smem_b, int warp_m, int warp_n, int lane,
                                       float (&acc)[kWarpMmasM][kWarpMmasN][4]) {
  WB_UNROLL
  for (int kk = 0; kk < kTileK; kk += kMmaK) {
    // TODO(step 1): for this 16 of K (k rows kk to kk + 15 of the stage), load the warp's 4 fragments
    // of A (rows warp_m + 16 i, 16x16 each) and its 4 of B (columns warp_n + 8 j, 16x8 each) with
    // ldmatrix, each lane giving the address of one stage row (lane / 8: which matrix, lane % 8:
    // which row), then multiply every pair into acc[i][j] with wb::mma_m16n8k16_bf16
    // (about 30 lines)
  }
}
//! [warp mma]

//! [store accumulators]
// The warp's part of C from its accumulators: acc[i][j] is the 16x8 tile at rows
// warp_m + 16 i, columns warp_n + 8 j of the block's tile, laid out as mma.sync's C
// fragment: lane t holds (t / 4, 2 (t % 4)), (t / 4, 2 (t % 4) + 1), and the same
// 8 rows further down. Elements outside C are not stored.
__device__ inline void store_accumulators(float* gmem_c, int m, int n, int tile_m, int tile_n, int warp_m,
                                          int warp_n, int lane, const float (&acc)[kWarpMmasM][kWarpMmasN][4]) {
  // TODO(step 1): store each accumulator element of the warp's part of C, acc[i][j][e], to its row
  // and column of C (column-major, leading dimension m), those inside m x n only
  // (about 12 lines)
}
//! [store accumulators]

//! [step 1 kernel]
// Chapter 4's step 3 pipeline: kStages - 1 k-tiles in flight before the loop; each
// iteration waits for tile k_tile, meets the block (tile k_tile visible to all, and
// everyone done with the stage read in the previous iteration), refills that stage with
// tile k_tile + kStages - 1, and multiplies tile k_tile. The stages, 52 KB, are dynamic
// shared memory: static __shared__ arrays may not exceed 48 KB a block.
__global__ void __launch_bounds__(kThreads) gemm_mma_kernel(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c,
                                                            int m, int n, int k) {
  WB_DYNAMIC_SHARED(bf16, smem);  // kStages x (A's (32,136), B's (32,136))
  const auto smem_a = [&](int stage) { return smem + stage * 2 * kStageElements; };
  const auto smem_b = [&](int stage) { return smem + stage * 2 * kStageElements + kStageElements; };
  const int tile_m = blockIdx.x * kTileM;
  const int tile_n = blockIdx.y * kTileN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_m = warp / kWarpsN * kWarpTileM;  // the warp's part: rows warp_m.., columns warp_n..
  const int warp_n = warp % kWarpsN * kWarpTileN;
  const int k_tiles = (k + kTileK - 1) / kTileK;

  const auto load_stage = [&](int k_tile) {
    if (k_tile < k_tiles) {
      const int stage = k_tile % kStages;
      load_tile_async(smem_a(stage), gmem_a, m, k, tile_m, k_tile * kTileK);
      load_tile_async(smem_b(stage), gmem_b, n, k, tile_n, k_tile * kTileK);
    }
    wb::cp_async_commit();  // a group a k-tile, empty past the last: the wait counts stay right
  };

  float acc[kWarpMmasM][kWarpMmasN][4] = {};
  for (int k_tile = 0; k_tile < kStages - 1; ++k_tile) load_stage(k_tile);
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
    wb::cp_async_wait<kStages - 2>();  // tile k_tile has landed; the kStages - 2 after it may not
    __syncthreads();
    load_stage(k_tile + kStages - 1);  // into the stage read in the previous iteration
    const int stage = k_tile % kStages;
    warp_mma_k_tile(smem_a(stage), smem_b(stage), warp_m, warp_n, lane, acc);
  }
  wb::cp_async_wait<0>();
  store_accumulators(gmem_c, m, n, tile_m, tile_n, warp_m, warp_n, lane, acc);
}
//! [step 1 kernel]

}  // namespace

void round_to_bf16(const float* gmem_in, bf16* gmem_out, std::size_t count) {
  if (count == 0) return;
  const unsigned blocks = static_cast<unsigned>((count + 255) / 256);
  wb::launch(round_to_bf16_kernel, dim3(blocks), dim3(256), 0, gmem_in, gmem_out, count);
}

void gemm_mma(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k) {
  if (m <= 0 || n <= 0 || k <= 0 || m % 8 != 0 || n % 8 != 0) {
    throw std::invalid_argument("gemm_mma: m and n must be positive multiples of 8 and k positive (" +
                                std::to_string(m) + ", " + std::to_string(n) + ", " + std::to_string(k) + ")");
  }
  const dim3 grid((m + kTileM - 1) / kTileM, (n + kTileN - 1) / kTileN);
  const std::size_t shared_bytes = sizeof(bf16) * 2 * kStageElements * kStages;
  wb::launch(gemm_mma_kernel, grid, dim3(kThreads), shared_bytes, gmem_a, gmem_b, gmem_c, m, n, k);
}

}  // namespace ch08
