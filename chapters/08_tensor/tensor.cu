// Chapter 8, tensor cores: chapter 4's pipeline feeding mma.sync, then the stages laid out
// for the TMA, then filled by it.
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
// Step 2 keeps the kernel and changes where a stage keeps an element: instead of rows
// padded apart, lines of 128 bytes whose 16-byte chunks are swizzled, the layout the TMA
// writes. Step 3 fills those stages with the TMA, a ring of stages each guarded by a
// full and an empty barrier, so that a copy needs no thread but one and no wait but the
// mbarrier's.
//
// The file is built for sm_90a (Hopper): step 3's tensor copies are Hopper's, steps 4 and
// 5's wgmma sm_90a's own, and the host functions refuse a GPU that lacks them. Naming:
// gmem_ global memory, smem_ shared memory; shapes (rows, columns) in the comments.
#include <cuda/barrier>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "tensor.hpp"
#include "wb/tensor_core.hpp"
#include "wb/tensor_map.hpp"
#include "wb/wgmma.hpp"
#include "wb/wb.cuh"

namespace ch08 {
namespace {

using Barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

constexpr int kChunk = 8;  // bf16 in a 16-byte copy, and in a row of an ldmatrix matrix
constexpr int kWarps = kThreads / 32;
static_assert(kTileM == kTileN, "A's and B's tiles share one shape and one loader");
static_assert(kWarpsM * kWarpsN == kWarps, "a warp per part of the tile");
static_assert(kWarpgroups * 64 == kTileM, "a warpgroup per 64 rows of the tile");
static_assert(kTileK % kMmaK == 0, "a k-tile is whole mma steps");
static_assert((kRowStride * 2) % 16 == 0, "every row of a stage starts on a 16-byte boundary");
static_assert(kLineElements * 2 == 128 && kTileM == 2 * kLineElements, "a k-row is two 128-byte lines");

void require_hopper(const char* function) {
  std::string reason;
  if (!wb::hopper_available(&reason)) throw std::runtime_error(std::string(function) + ": " + reason);
}

// Steps 4 and 5 need sm_90a's wgmma and setmaxnreg: compute capability 9.0 alone.
void require_wgmma(const char* function) {
  std::string reason;
  if (!wb::wgmma_available(&reason)) throw std::runtime_error(std::string(function) + ": " + reason);
}

// ---------------------------------------------------------------------------------
// Where a stage keeps an operand's element (kk, element): k-row kk below kTileK, element
// (along m for A, n for B) below kTileM. Offsets in bf16 from the tile's start.

//! [padded stage]
// Step 1: one row of kRowStride (136) bf16 a k-row, 8 of them padding.
struct PaddedStage {
  static constexpr int kTileElements = kTileK * kRowStride;  // one operand's k-tile: (64,136)
  WB_HOST_DEVICE int operator()(int kk, int element) const { return kk * kRowStride + element; }
};
//! [padded stage]

//! [swizzled stage]
// Step 2: a k-row's 128 elements are two lines of kLineElements (64 bf16, 128 bytes). The
// tile is half 0's kTileK lines (elements 0-63 of each k-row, in k order), then half 1's:
// the two boxes of 64 x kTileK that the TMA brings. Within a line, the 16-byte chunk c
// (elements 8c to 8c + 7) sits at chunk c ^ (kk % 8), the 128-byte swizzle: the 8 k-rows
// an ldmatrix matrix reads are 8 lines, 128 bytes apart, all in the same banks unswizzled;
// swizzled, chunk c of each is in another 4 banks. The indices are unsigned: the kernels
// compute this for every copy and every ldmatrix row, and an unsigned divided by 64 is one
// shift where a signed int takes four instructions (it rounds toward zero): on the H200,
// signed indices cost step 2 a fifth of its speed.
WB_HOST_DEVICE inline int swizzled(unsigned kk, unsigned element) {
  int line = kk;             // which 128-byte line of the tile
  int chunk = element / 8;   // which 16-byte chunk of the line
  // TODO(step 2): put the element in the TMA's layout: its 128-byte line (half 0's kTileK lines, then
  // half 1's, one a k-row) and its 16-byte chunk within that line, swizzled by the line's k-row
  // (about 2 lines)
  return line * kLineElements + chunk * kChunk + element % kChunk;
}

struct SwizzledStage {
  static constexpr int kTileElements = kTileK * kTileM;  // one operand's k-tile: (64,128), no padding
  WB_HOST_DEVICE int operator()(int kk, int element) const { return swizzled(kk, element); }
};
//! [swizzled stage]

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
// the operand's row tile_row + r at k = k0 + kk, goes to smem_tile[at(kk, r)] (the
// stage's layout: kk * kRowStride + r in step 1). 16-byte copies of 8 bf16 along r, two a
// thread; rows is a multiple of 8, so a copy is wholly inside the operand or wholly
// outside it, where it reads nothing and writes zeros.
template <class StageLayout>
__device__ inline void load_tile_async(bf16* smem_tile, StageLayout at, const bf16* gmem_operand, int rows, int k,
                                       int tile_row, int k0) {
  constexpr int chunks_per_k = kTileM / kChunk;  // 16
  for (int chunk = threadIdx.x; chunk < kTileK * chunks_per_k; chunk += kThreads) {
    const int kk = chunk / chunks_per_k;
    const int r = chunk % chunks_per_k * kChunk;
    const bool inside = tile_row + r < rows && k0 + kk < k;
    const bf16* src = inside ? gmem_operand + static_cast<std::size_t>(k0 + kk) * rows + tile_row + r : gmem_operand;
    wb::cp_async_cg(&smem_tile[at(kk, r)], src, inside ? 16 : 0);
  }
}
//! [load tile]

//! [warp mma]
// One k-tile of the warp's part of C: for each 16 of K, the warp's 4 fragments of A
// (16x16 each) and 8 of B (16x8 each) from the stage, then the 32 mma.sync that multiply
// every pair into acc. The warp's part starts at (warp_m, warp_n) of the block's tile.
// lane / 8 says which of an ldmatrix.x4's four matrices the lane gives a row of, lane % 8
// which row. Element (k-row, element) of a tile is at smem_a[at(k-row, element)].
template <class StageLayout>
__device__ inline void warp_mma_k_tile(const bf16* smem_a, const bf16* smem_b, StageLayout at, int warp_m,
                                       int warp_n, int lane, float (&acc)[kWarpMmasM][kWarpMmasN][4]) {
  WB_UNROLL
  for (int kk = 0; kk < kTileK; kk += kMmaK) {
    // TODO(step 1): for this 16 of K (k rows kk to kk + 15 of the stage), load the warp's 4 fragments
    // of A (rows warp_m + 16 i, 16x16 each) and its 8 of B (columns warp_n + 8 j, 16x8 each) with
    // ldmatrix, each lane giving the address of one stage row, &smem_a[at(k row, element)]
    // (lane / 8: which matrix, lane % 8: which row), then multiply every pair into acc[i][j] with
    // wb::mma_m16n8k16_bf16 (about 30 lines)
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
// tile k_tile + kStages - 1, and multiplies tile k_tile. The stages (102 KB in step 1's
// layout) are dynamic shared memory: static __shared__ arrays may not exceed 48 KB a block.
// Steps 1 and 2 run this same kernel, each with its stage layout.
template <class StageLayout>
__global__ void __launch_bounds__(kThreads) gemm_mma_kernel(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c,
                                                            int m, int n, int k) {
  constexpr int kTileElements = StageLayout::kTileElements;
  WB_DYNAMIC_SHARED(bf16, smem);  // kStages x (A's k-tile, B's k-tile)
  const auto smem_a = [&](int stage) { return smem + stage * 2 * kTileElements; };
  const auto smem_b = [&](int stage) { return smem + stage * 2 * kTileElements + kTileElements; };
  const int tile_m = blockIdx.x * kTileM;
  const int tile_n = blockIdx.y * kTileN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_m = warp / kWarpsN * kWarpTileM;  // the warp's part: rows warp_m.., columns warp_n..
  const int warp_n = warp % kWarpsN * kWarpTileN;
  const int k_tiles = (k + kTileK - 1) / kTileK;

  const auto load_stage = [&](int k_tile) {
    if (k_tile < k_tiles) {
      const int stage = k_tile % kStages;
      load_tile_async(smem_a(stage), StageLayout{}, gmem_a, m, k, tile_m, k_tile * kTileK);
      load_tile_async(smem_b(stage), StageLayout{}, gmem_b, n, k, tile_n, k_tile * kTileK);
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
    warp_mma_k_tile(smem_a(stage), smem_b(stage), StageLayout{}, warp_m, warp_n, lane, acc);
  }
  wb::cp_async_wait<0>();
  store_accumulators(gmem_c, m, n, tile_m, tile_n, warp_m, warp_n, lane, acc);
}
//! [step 1 kernel]

// ---------------------------------------------------------------------------------
// Step 3

constexpr int kBoxElements = kTileK * kLineElements;            // a box: 64 x kTileK bf16, 4 KB
constexpr int kRingTileElements = SwizzledStage::kTileElements;  // an operand's k-tile: two boxes
constexpr int kStageBytes = static_cast<int>(sizeof(bf16)) * 2 * kRingTileElements;  // A's and B's: 32 KB
constexpr int kSwizzleAlignment = 1024;  // the 128-byte swizzle repeats every 8 lines from here

// The first address of the dynamic shared memory that is a multiple of kSwizzleAlignment:
// where the ring's stages start (the launch adds kSwizzleAlignment bytes for it).
__device__ inline bf16* swizzle_aligned(unsigned char* smem_bytes) {
  const auto unaligned = reinterpret_cast<std::uintptr_t>(smem_bytes);
  return reinterpret_cast<bf16*>(smem_bytes + (kSwizzleAlignment - unaligned % kSwizzleAlignment) % kSwizzleAlignment);
}

// The barriers exist for the copy engine once initialised: thread 0 initialises each and
// makes that visible to the asynchronous proxy, which the copies complete on
// (fence.proxy.async); the block's barrier then orders it before every other use.
__device__ inline void init_ring(Barrier* full, Barrier* empty, int warps) {
  if (threadIdx.x == 0) {
    for (int stage = 0; stage < kRingStages; ++stage) {
      init(&full[stage], 1);       // one arrival a phase: the producer's, with the bytes it expects
      init(&empty[stage], warps);  // one a warp, once the warp has read the stage
    }
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
}

//! [load stage tma]
// The producer's half of a stage (thread 0 only): the stage's four boxes, each one tensor
// copy of 64 x kTileK bf16 at (row tile_row + 64 half, k0) of its operand's map, into
// the box's place in the stage (A's tile at smem_stage, B's after it; each tile half 0's
// box, then half 1's), and the arrival on the stage's full barrier with the bytes the
// four copies bring: whole boxes, even where a box lies partly or wholly outside its
// operand (the TMA writes zeros there).
__device__ inline void load_stage_tma(bf16* smem_stage, const CUtensorMap& map_a, const CUtensorMap& map_b,
                                      int tile_m, int tile_n, int k0, Barrier& full) {
  bf16* const smem_a = smem_stage;
  bf16* const smem_b = smem_stage + kRingTileElements;
  // TODO(step 3): the stage's four tensor copies (cde::cp_async_bulk_tensor_2d_global_to_shared): A's
  // and B's two halves, each a box of 64 x kTileK at (tile row + 64 half, k0) into its place in the
  // stage, completing on `full`; then thread 0's arrival on `full` with the bytes they bring
  // (about 8 lines)
}
//! [load stage tma]

//! [mma sync tiles]
// Step 3's arithmetic: step 1's, each of the 4 warps multiplying its 64x64 part of the
// tile with ldmatrix and mma.sync from the swizzled stage.
struct MmaSyncTiles {
  static constexpr int kBlockThreads = kThreads;
  using Accumulators = float[kWarpMmasM][kWarpMmasN][4];
  int warp_m, warp_n, lane;  // the warp's part: rows warp_m.., columns warp_n..; the thread's lane

  __device__ MmaSyncTiles()
      : warp_m(static_cast<int>(threadIdx.x) / 32 / kWarpsN * kWarpTileM),
        warp_n(static_cast<int>(threadIdx.x) / 32 % kWarpsN * kWarpTileN),
        lane(static_cast<int>(threadIdx.x) % 32) {}

  __device__ void multiply(const bf16* smem_a, const bf16* smem_b, Accumulators& acc) const {
    warp_mma_k_tile(smem_a, smem_b, SwizzledStage{}, warp_m, warp_n, lane, acc);
  }
  __device__ void store(float* gmem_c, int m, int n, int tile_m, int tile_n, const Accumulators& acc) const {
    store_accumulators(gmem_c, m, n, tile_m, tile_n, warp_m, warp_n, lane, acc);
  }
};
//! [mma sync tiles]

//! [step 3 kernel]
// A ring of kRingStages stages: k-tile t lives in stage t % kRingStages, and it is that
// stage's use t / kRingStages, so its barriers' phase of that number, whose parity the
// waits name. Thread 0 fills every stage before the loop; each iteration, every warp
// waits for its stage's full phase, multiplies the tile, and releases the stage on its
// empty barrier (lane 0 for the warp, once the warp's reads are done); thread 0 then
// waits for the stage's empty phase, every warp's release, and refills it with tile
// t + kRingStages. The stages, 96 KB, are dynamic shared memory, from its first address
// that is a multiple of 1024 (the swizzle's pattern starts there). Steps 3 and 4 run
// this same kernel, each with its arithmetic (Tiles: its threads, its accumulators, how
// it multiplies a stage and stores C).
template <class Tiles>
__global__ void __launch_bounds__(Tiles::kBlockThreads)
    gemm_tma_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                    float* gmem_c, int m, int n, int k) {
  WB_DYNAMIC_SHARED(unsigned char, smem_bytes);  // kSwizzleAlignment + kRingStages x kStageBytes
  bf16* const smem = swizzle_aligned(smem_bytes);
  const auto smem_stage = [&](int stage) { return smem + stage * 2 * kRingTileElements; };
  WB_SHARED_LIBRARY_STATE
  __shared__ Barrier full[kRingStages];   // full[s]: the copies of stage s's tile have landed
  __shared__ Barrier empty[kRingStages];  // empty[s]: every warp is done reading stage s

  init_ring(full, empty, Tiles::kBlockThreads / 32);
  const int tile_m = blockIdx.x * kTileM;
  const int tile_n = blockIdx.y * kTileN;
  const int lane = threadIdx.x % 32;
  const int k_tiles = (k + kTileK - 1) / kTileK;
  const Tiles tiles;

  if (threadIdx.x == 0) {
    for (int stage = 0; stage < kRingStages && stage < k_tiles; ++stage) {
      load_stage_tma(smem_stage(stage), map_a, map_b, tile_m, tile_n, stage * kTileK, full[stage]);
    }
  }
  typename Tiles::Accumulators acc = {};
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
    const int stage = k_tile % kRingStages;
    const bool parity = (k_tile / kRingStages) % 2;  // this use of the stage: its barriers' phase's parity
    bf16* const smem_a = smem_stage(stage);
    bf16* const smem_b = smem_stage(stage) + kRingTileElements;
    // TODO(step 3): wait until the copies of this stage's tile have landed: the full barrier's phase
    // of this use of the stage (about 1 line)
    tiles.multiply(smem_a, smem_b, acc);
    // TODO(step 3): release the stage once the warp has read it (one arrival a warp on its empty
    // barrier), and let thread 0 refill it with tile k_tile + kRingStages once every warp has released
    // it (about 6 lines)
  }
  tiles.store(gmem_c, m, n, tile_m, tile_n, acc);
}
//! [step 3 kernel]

// ---------------------------------------------------------------------------------
// Step 4

constexpr int kLineBytes = kLineElements * static_cast<int>(sizeof(bf16));  // 128
constexpr int kBoxBytes = kBoxElements * static_cast<int>(sizeof(bf16));    // 8 KB: kTileK lines

//! [k slice descriptor]
// The descriptor of 16 k-rows of an operand's tile in a ring stage, from k-row kk: what a
// wgmma reads of it. The tile is MN-major (a line of 128 bytes holds 64 consecutive
// elements along m or n, at one k) and swizzled in 128 bytes, as the TMA wrote it: element
// (e, kk) of a box at line kk, so k-row kk starts kk lines (kk x 128 bytes) into the tile.
// From one run of 64 elements along m or n to the next is from one box to the next (the
// leading byte offset); from 8 k-rows to the next 8 is 8 lines (the stride byte offset).
__device__ inline std::uint64_t k_slice_descriptor(const bf16* smem_tile, int kk) {
  std::uint64_t descriptor = 0;
  // TODO(step 4): the descriptor of the 16 k-rows from kk of this operand's tile: its start, the
  // leading byte offset (from one run of 64 elements along m or n to the next: one box to the
  // next), the stride byte offset (from 8 k-rows to the next 8) and the stage's swizzle, through
  // wb::matrix_descriptor (about 2 lines)
  return descriptor;
}
//! [k slice descriptor]

//! [warpgroup store]
// A warpgroup's 64 x N accumulators into C, its first row at `first_row`: thread t of warp
// w holds, for each 8 columns j, acc[4 j + e]: row 16 (w % 4) + t / 4 (+ 8 for e >= 2) of
// the 64, column 8 j + 2 (t % 4) + e % 2. Elements outside C are not stored.
template <int Size>
__device__ inline void store_warpgroup_accumulators(float* gmem_c, int m, int n, int first_row, int tile_n,
                                                    const float (&acc)[Size]) {
  const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
  const int row0 = first_row + threadIdx.x / 32 % 4 * 16 + g;
  WB_UNROLL
  for (int j = 0; j < Size / 4; ++j) {
    WB_UNROLL
    for (int e = 0; e < 4; ++e) {
      const int row = row0 + (e / 2) * 8;
      const int col = tile_n + j * kMmaN + 2 * q + e % 2;
      if (row < m && col < n) gmem_c[row + static_cast<std::size_t>(col) * m] = acc[4 * j + e];
    }
  }
}
//! [warpgroup store]

//! [wgmma tiles]
// Step 4's arithmetic: kWarpgroups warpgroups, each 64 rows of the tile (A's box
// `warpgroup`) by its 128 columns (both of B's boxes), one wgmma m64n128k16 a 16 of K.
// The accumulators are the warpgroup's 64x128, 64 floats a thread.
struct WgmmaTiles {
  static constexpr int kBlockThreads = kWarpgroups * 128;
  using Accumulators = float[kTileN / 2];
  int warpgroup;  // rows 64 warpgroup.. of the tile

  __device__ WgmmaTiles() : warpgroup(static_cast<int>(threadIdx.x) / 128) {}

  __device__ void multiply(const bf16* smem_a, const bf16* smem_b, Accumulators& acc) const {
    // TODO(step 4): the k-tile's products: fence, one wgmma m64n128k16 for each 16 of K (A's box of
    // this warpgroup, both of B's), commit them as a group and wait for it, so that the
    // accumulators hold the sums and the stage may be released (about 8 lines)
  }

  __device__ void store(float* gmem_c, int m, int n, int tile_m, int tile_n, const Accumulators& acc) const {
    store_warpgroup_accumulators(gmem_c, m, n, tile_m + warpgroup * 64, tile_n, acc);
  }
};
//! [wgmma tiles]

void require_shape(const char* function, int m, int n, int k) {
  if (m <= 0 || n <= 0 || k <= 0 || m % 8 != 0 || n % 8 != 0) {
    throw std::invalid_argument(std::string(function) + ": m and n must be positive multiples of 8 and k positive (" +
                                std::to_string(m) + ", " + std::to_string(n) + ", " + std::to_string(k) + ")");
  }
}

dim3 tile_grid(int m, int n) { return dim3((m + kTileM - 1) / kTileM, (n + kTileN - 1) / kTileN); }

//! [operand map]
// The tensor map of a column-major operand of `rows` rows (m for A, n for B) and k
// columns: dimension 0 its rows (contiguous), dimension 1 k, a column 2 rows bytes apart
// (a multiple of 16, since rows is a multiple of 8); the box 64 rows by kTileK, 128 bytes
// by kTileK lines, swizzled in 128 bytes. Outside the operand the TMA writes zeros.
CUtensorMap operand_map(const bf16* gmem_operand, int rows, int k) {
  CUtensorMap map;
  const cuuint64_t global_dims[2] = {static_cast<cuuint64_t>(rows), static_cast<cuuint64_t>(k)};
  const cuuint64_t global_strides[1] = {sizeof(bf16) * static_cast<cuuint64_t>(rows)};
  const cuuint32_t box_dims[2] = {kLineElements, kTileK};
  const cuuint32_t element_strides[2] = {1, 1};
  wb::encode_tensor_map_tiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<bf16*>(gmem_operand),
                              global_dims, global_strides, box_dims, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                              CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}
//! [operand map]

// ---------------------------------------------------------------------------------
// Step 5

constexpr int kWideTileElements = (kTileM + kWideTileN) * kTileK;  // a stage: A's 128 x 64, B's 256 x 64
constexpr int kWideStageBytes = static_cast<int>(sizeof(bf16)) * kWideTileElements;  // 48 KB
constexpr int kConsumerWarps = 4 * kConsumerWarpgroups;
constexpr int kSpecializedThreads = 128 * (1 + kConsumerWarpgroups);  // the producer's warpgroup, then the consumers'
constexpr int kProducerRegisters = 40;   // what one thread issuing copies needs
constexpr int kConsumerRegisters = 232;  // 128 accumulators and the loop's
static_assert(128 * kProducerRegisters + 128 * kConsumerWarpgroups * kConsumerRegisters <= 65536,
              "the warpgroups' registers fit the SM's 64K");

//! [load wide stage]
// The producer's fill of a stage: A's two boxes, B's four (64 x kTileK each, at their
// places along m or n), then the arrival with the stage's bytes.
__device__ inline void load_wide_stage(bf16* smem_stage, const CUtensorMap& map_a, const CUtensorMap& map_b,
                                       int tile_m, int tile_n, int k0, Barrier& full) {
  bf16* const smem_b = smem_stage + kTileM * kTileK;
  for (int box = 0; box < kTileM / kLineElements; ++box) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(smem_stage + box * kBoxElements, &map_a,
                                                  tile_m + box * kLineElements, k0, full);
  }
  for (int box = 0; box < kWideTileN / kLineElements; ++box) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(smem_b + box * kBoxElements, &map_b,
                                                  tile_n + box * kLineElements, k0, full);
  }
  (void)cuda::device::barrier_arrive_tx(full, 1, kWideStageBytes);
}
//! [load wide stage]

//! [step 5 kernel]
// Warp specialization: the producer's warpgroup gives its registers back and one of its
// threads keeps the ring of kWideStages stages full, waiting only for a stage's release
// before its refill; each consumer warpgroup takes the registers, waits for a stage's
// copies, issues its four wgmmas, and keeps that group in flight while it waits for the
// previous k-tile's, whose stage it then releases. One block an SM: 192 KB of stages.
__global__ void __launch_bounds__(kSpecializedThreads, 1)
    gemm_specialized_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                            float* gmem_c, int m, int n, int k) {
  WB_DYNAMIC_SHARED(unsigned char, smem_bytes);  // kSwizzleAlignment + kWideStages x kWideStageBytes
  bf16* const smem = swizzle_aligned(smem_bytes);
  const auto smem_stage = [&](int stage) { return smem + stage * kWideTileElements; };
  WB_SHARED_LIBRARY_STATE
  __shared__ Barrier full[kWideStages];   // full[s]: the copies of stage s's tile have landed
  __shared__ Barrier empty[kWideStages];  // empty[s]: every consumer warp is done with stage s

  if (threadIdx.x == 0) {
    for (int stage = 0; stage < kWideStages; ++stage) {
      init(&full[stage], 1);
      init(&empty[stage], kConsumerWarps);
    }
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  const int tile_m = blockIdx.x * kTileM;
  const int tile_n = blockIdx.y * kWideTileN;
  const int k_tiles = (k + kTileK - 1) / kTileK;
  const int warpgroup = threadIdx.x / 128;

  if (warpgroup == 0) {
    wb::setmaxnreg_decrease<kProducerRegisters>();
    // TODO(step 5): the producer (thread 0 of warpgroup 0 only): for every k-tile, wait for its
    // stage's release from the use before (empty barrier, from the second use of a stage on),
    // then fill the stage with load_wide_stage (about 8 lines)
    return;
  }
  wb::setmaxnreg_increase<kConsumerRegisters>();
  const int consumer = warpgroup - 1;  // rows 64 consumer.. of the tile
  const int lane = threadIdx.x % 32;
  float acc[kWideTileN / 2] = {};
  // TODO(step 5): the consumer's loop over the k-tiles: wait for the stage's copies, fence, one
  // wgmma m64n256k16 for each 16 of K (this warpgroup's box of A, all of B), commit, wait
  // until only this k-tile's group is in flight, and release the previous k-tile's stage (one
  // arrival a warp, lane 0 after a __syncwarp()); after the loop, wait for the last group
  // (about 16 lines)
  store_warpgroup_accumulators(gmem_c, m, n, tile_m + consumer * 64, tile_n, acc);
}
//! [step 5 kernel]

// Steps 3 and 4: the operands' tensor maps, and the ring's kernel with the step's Tiles.
template <class Tiles>
void launch_ring(const char* function, const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k) {
  require_shape(function, m, n, k);
  require_hopper(function);
  const CUtensorMap map_a = operand_map(gmem_a, m, k);
  const CUtensorMap map_b = operand_map(gmem_b, n, k);
  const std::size_t shared_bytes = kSwizzleAlignment + static_cast<std::size_t>(kStageBytes) * kRingStages;
  wb::launch(gemm_tma_kernel<Tiles>, tile_grid(m, n), dim3(Tiles::kBlockThreads), shared_bytes, map_a, map_b,
             gmem_c, m, n, k);
}

}  // namespace

void round_to_bf16(const float* gmem_in, bf16* gmem_out, std::size_t count) {
  if (count == 0) return;
  require_hopper("round_to_bf16");
  const unsigned blocks = static_cast<unsigned>((count + 255) / 256);
  wb::launch(round_to_bf16_kernel, dim3(blocks), dim3(256), 0, gmem_in, gmem_out, count);
}

int swizzled_offset(int kk, int element) { return swizzled(kk, element); }

void gemm_mma(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k) {
  require_shape("gemm_mma", m, n, k);
  require_hopper("gemm_mma");
  const std::size_t shared_bytes = sizeof(bf16) * 2 * PaddedStage::kTileElements * kStages;
  wb::launch(gemm_mma_kernel<PaddedStage>, tile_grid(m, n), dim3(kThreads), shared_bytes, gmem_a, gmem_b, gmem_c,
             m, n, k);
}

void gemm_mma_swizzled(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k) {
  require_shape("gemm_mma_swizzled", m, n, k);
  require_hopper("gemm_mma_swizzled");
  const std::size_t shared_bytes = sizeof(bf16) * 2 * SwizzledStage::kTileElements * kStages;
  wb::launch(gemm_mma_kernel<SwizzledStage>, tile_grid(m, n), dim3(kThreads), shared_bytes, gmem_a, gmem_b,
             gmem_c, m, n, k);
}

void gemm_mma_tma(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k) {
  launch_ring<MmaSyncTiles>("gemm_mma_tma", gmem_a, gmem_b, gmem_c, m, n, k);
}

void gemm_wgmma(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k) {
  require_wgmma("gemm_wgmma");
  launch_ring<WgmmaTiles>("gemm_wgmma", gmem_a, gmem_b, gmem_c, m, n, k);
}

void gemm_wgmma_specialized(const bf16* gmem_a, const bf16* gmem_b, float* gmem_c, int m, int n, int k) {
  require_shape("gemm_wgmma_specialized", m, n, k);
  require_wgmma("gemm_wgmma_specialized");
  const CUtensorMap map_a = operand_map(gmem_a, m, k);
  const CUtensorMap map_b = operand_map(gmem_b, n, k);
  const std::size_t shared_bytes = kSwizzleAlignment + static_cast<std::size_t>(kWideStageBytes) * kWideStages;
  const dim3 grid((m + kTileM - 1) / kTileM, (n + kWideTileN - 1) / kWideTileN);
  wb::launch(gemm_specialized_kernel, grid, dim3(kSpecializedThreads), shared_bytes, map_a, map_b, gmem_c, m, n, k);
}

}  // namespace ch08
