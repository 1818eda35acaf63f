// Chapter 4, async GEMM: C = A * B^T, all three column-major, A (m,k), B (n,k), C (m,n).
//
// A block computes one (128,128) tile of C. It walks K in steps of 8: for each k-tile it
// brings the (128,8) tile of A and the (128,8) tile of B into shared memory, and every
// thread adds their product into its part of C. Each element of A and B read from
// global memory is then used 128 times from shared memory.
//
// Step 1 loads the tiles with plain assignments: the baseline. Step 2 loads them with
// cp.async: issue, wait, barrier, read, and a second barrier before the next tile
// overwrites this one. Step 3 keeps kStages tiles in shared memory and loads ahead:
// while tile k is computed, tiles k+1 and k+2 are in flight. Step 4 keeps the pipeline
// and computes faster: each thread reads its 8 values of A and 8 of B once per k, as
// float4, and does its 64 FMAs on registers; one barrier per k-tile instead of two, and
// the copies of whole tiles without bounds checks. Step 5 walks K 16 at a time and reads
// the fragments of the next k while the FMAs of this one run (double buffering).
//
// Every step takes any m, n, k: the tiles at the bottom and right edges of C and the
// last k-tile may be partial. Their loads fill what lies outside A or B with zeros
// (a cp.async that reads 0 bytes writes zeros), so that the compute loops need no
// bounds; the stores of C check them.
//
// Naming: gmem_ global memory, smem_ shared memory; a *_layout maps (row, col) to an
// offset; shapes in the comments are (rows, cols).
#include <stdexcept>
#include <string>

#include "gemm.hpp"
#include "wb/wb.cuh"

namespace ch04 {
namespace {

using wb::Int;

//! [layouts]
// The seed's shared tiles: column-major, padded by one float.
__device__ constexpr auto smem_a_layout = wb::col_major(Int<kTileM>{}, Int<kTileK>{}, Int<kTileM + 1>{});  // (128,8):(1,129)
__device__ constexpr auto smem_b_layout = wb::col_major(Int<kTileN>{}, Int<kTileK>{}, Int<kTileN + 1>{});  // (128,8):(1,129)
// Step 4 reads 4 consecutive rows as one float4: its columns must start at multiples
// of 16 bytes, which +1 breaks (chapter 5's subject). Nothing here conflicts unpadded.
__device__ constexpr auto smem_a4_layout = wb::col_major(Int<kTileM>{}, Int<kTileK>{});  // (128,8):(1,128)
__device__ constexpr auto smem_b4_layout = wb::col_major(Int<kTileN>{}, Int<kTileK>{});  // (128,8):(1,128)
// Step 5's deeper k-tiles, unpadded as step 4's.
__device__ constexpr auto smem_a16_layout = wb::col_major(Int<kTileM>{}, Int<kDeepTileK>{});  // (128,16):(1,128)
__device__ constexpr auto smem_b16_layout = wb::col_major(Int<kTileN>{}, Int<kDeepTileK>{});  // (128,16):(1,128)
__device__ constexpr auto load_thread_layout = wb::col_major(Int<kLoadThreadRows>{}, Int<kLoadThreadCols>{});  // (32,8):(1,32)
__device__ constexpr auto compute_thread_layout = wb::col_major(Int<kThreadRows>{}, Int<kThreadCols>{});     // (16,16):(1,16)
constexpr int kThreads = compute_thread_layout.size();                                                       // 256
//! [layouts]

static_assert(load_thread_layout.size() == kThreads, "both thread layouts are the block's 256 threads");
static_assert(kTileM % kLoadThreadRows == 0 && kTileN % kLoadThreadRows == 0 && kTileK % kLoadThreadCols == 0 &&
                  kDeepTileK % kLoadThreadCols == 0,
              "the 32x8 copying threads must tile a (128,8) and a (128,16) tile exactly");
static_assert(kTileM % kThreadRows == 0 && kTileN % kThreadCols == 0,
              "the 16x16 computing threads must tile the (128,128) tile of C exactly");
static_assert(kStages >= 2, "a pipeline needs at least two stages");
static_assert(kMicroM % kVector == 0 && kMicroN % kVector == 0 && kTileM % (kVector * kThreadRows) == 0,
              "step 4's micro-tile is made of whole float4 fragments");

// ---------------------------------------------------------------------------------
// Given: the pieces around the holes.

// How much of a tile lies inside the array: `tile` elements from `start`, of `extent`.
__device__ int valid_extent(int extent, int start, int tile) {
  return extent - start < tile ? extent - start : tile;
}

//! [load tiles]
// Copies the (128,8) tile whose first element is gmem_tile (a column-major array with
// `ld` rows) into smem_tile with plain loads and stores; elements outside the array
// (row >= valid_rows or col >= valid_k) become 0. Each thread copies 4 elements. (The
// loaders walk their layout's columns: step 5 gives them (128,16) tiles, 8 elements a
// thread.)
template <class SmemLayout>
__device__ void load_tile_sync(float* smem_tile, SmemLayout smem_layout, const float* gmem_tile, int ld,
                               int valid_rows, int valid_k) {
  const wb::Coord thread_coord = load_thread_layout.coord(threadIdx.x);  // in (32,8)
  for (int col = thread_coord.col; col < smem_layout.cols; col += kLoadThreadCols) {
    for (int row = thread_coord.row; row < kTileM; row += kLoadThreadRows) {
      const bool inside = row < valid_rows && col < valid_k;
      smem_tile[smem_layout(row, col)] = inside ? gmem_tile[row + col * ld] : 0.0f;
    }
  }
}

// The same with cp.async: each copy reads 4 bytes inside the array, 0 bytes outside it
// (and then writes a zero; its source, never read, is the tile's first element). The
// copies are only issued: commit, wait and barrier are the caller's.
template <class SmemLayout>
__device__ void load_tile_async(float* smem_tile, SmemLayout smem_layout, const float* gmem_tile, int ld,
                                int valid_rows, int valid_k) {
  const wb::Coord thread_coord = load_thread_layout.coord(threadIdx.x);  // in (32,8)
  for (int col = thread_coord.col; col < smem_layout.cols; col += kLoadThreadCols) {
    for (int row = thread_coord.row; row < kTileM; row += kLoadThreadRows) {
      const bool inside = row < valid_rows && col < valid_k;
      wb::cp_async_ca<4>(&smem_tile[smem_layout(row, col)], inside ? &gmem_tile[row + col * ld] : gmem_tile,
                         inside ? 4 : 0);
    }
  }
}

// Step 4: a tile that lies wholly inside A or B needs no bounds, and most tiles do (all
// but those of the last row or column of blocks, and the last k-tile). The bounds of
// load_tile_async cost more instructions than the copy itself: here each thread finds
// its first element once, and the rest are constant offsets from it.
template <class SmemLayout>
__device__ void load_whole_tile_async(float* smem_tile, SmemLayout smem_layout, const float* gmem_tile, int ld) {
  const wb::Coord thread_coord = load_thread_layout.coord(threadIdx.x);  // in (32,8)
  float* smem_thread = smem_tile + smem_layout(thread_coord.row, thread_coord.col);
  const float* gmem_thread = gmem_tile + thread_coord.row + thread_coord.col * ld;
  WB_UNROLL
  for (int col = 0; col < smem_layout.cols; col += kLoadThreadCols) {
    WB_UNROLL
    for (int row = 0; row < kTileM; row += kLoadThreadRows) {
      wb::cp_async_ca<4>(smem_thread + smem_layout(row, col), gmem_thread + row + col * ld);
    }
  }
}
//! [load tiles]

// Steps 1 to 3: the thread at thread_coord (r, c) of the 16x16 layout owns the elements
// (r + 16i, c + 16j) of the block's tile of C, i and j from 0 to 7: acc[i][j].
__device__ void store_strided(float* gmem_c_tile, int ldc, int valid_m, int valid_n, wb::Coord thread_coord,
                              const float (&acc)[kMicroM][kMicroN]) {
  for (int i = 0; i < kMicroM; ++i) {
    for (int j = 0; j < kMicroN; ++j) {
      const int row = thread_coord.row + i * kThreadRows;
      const int col = thread_coord.col + j * kThreadCols;
      if (row < valid_m && col < valid_n) gmem_c_tile[row + col * ldc] = acc[i][j];
    }
  }
}

// Step 4: the thread at thread_coord (r, c) owns C(micro_row(r, i), micro_col(c, j)):
// acc[i][j]. The loops are unrolled so that acc, indexed by constants only, stays in
// registers (an array indexed at run time would go to local memory).
__device__ void store_micro_tile(float* gmem_c_tile, int ldc, int valid_m, int valid_n, wb::Coord thread_coord,
                                 const float (&acc)[kMicroM][kMicroN]) {
  WB_UNROLL
  for (int i = 0; i < kMicroM; ++i) {
    WB_UNROLL
    for (int j = 0; j < kMicroN; ++j) {
      const int row = micro_row(thread_coord.row, i);
      const int col = micro_col(thread_coord.col, j);
      if (row < valid_m && col < valid_n) gmem_c_tile[row + col * ldc] = acc[i][j];
    }
  }
}

// ---------------------------------------------------------------------------------
// The steps.

//! [step 1 kernel]
__global__ void gemm_shared_kernel(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k) {
  __shared__ float smem_a[smem_a_layout.cosize()];  // (128,8)
  __shared__ float smem_b[smem_b_layout.cosize()];  // (128,8)

  // This block's tile of C: rows [tile_m, tile_m + 128), columns [tile_n, tile_n + 128).
  const int tile_m = blockIdx.x * kTileM;
  const int tile_n = blockIdx.y * kTileN;
  const int valid_m = valid_extent(m, tile_m, kTileM);
  const int valid_n = valid_extent(n, tile_n, kTileN);
  const float* gmem_a_rows = gmem_a + tile_m;      // (128,k):(1,m), rows of A for this tile
  const float* gmem_b_rows = gmem_b + tile_n;      // (128,k):(1,n), rows of B for this tile
  float* gmem_c_tile = gmem_c + tile_m + tile_n * m;  // (128,128):(1,m)
  const wb::Coord thread_coord = compute_thread_layout.coord(threadIdx.x);  // in (16,16)
  float acc[kMicroM][kMicroN] = {};                 // C(r + 16i, c + 16j) of this tile

  const int k_tiles = (k + kTileK - 1) / kTileK;
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
    const int k0 = k_tile * kTileK;                // the tiles are columns [k0, k0 + 8) of A and B
    const int valid_k = valid_extent(k, k0, kTileK);
    // TODO(step 1): load this k-tile of A and of B into smem_a and smem_b with load_tile_sync, let the
    // block see them, add their product into acc (thread_coord's elements: rows r + 16i, columns c + 16j),
    // and keep the next k-tile from overwriting them too early (about 14 lines)
  }
  store_strided(gmem_c_tile, m, valid_m, valid_n, thread_coord, acc);
}
//! [step 1 kernel]

//! [step 2 kernel]
__global__ void gemm_async_kernel(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k) {
  __shared__ float smem_a[smem_a_layout.cosize()];  // (128,8)
  __shared__ float smem_b[smem_b_layout.cosize()];  // (128,8)

  const int tile_m = blockIdx.x * kTileM;
  const int tile_n = blockIdx.y * kTileN;
  const int valid_m = valid_extent(m, tile_m, kTileM);
  const int valid_n = valid_extent(n, tile_n, kTileN);
  const float* gmem_a_rows = gmem_a + tile_m;      // (128,k):(1,m)
  const float* gmem_b_rows = gmem_b + tile_n;      // (128,k):(1,n)
  float* gmem_c_tile = gmem_c + tile_m + tile_n * m;  // (128,128):(1,m)
  const wb::Coord thread_coord = compute_thread_layout.coord(threadIdx.x);  // in (16,16)
  float acc[kMicroM][kMicroN] = {};

  const int k_tiles = (k + kTileK - 1) / kTileK;
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
    const int k0 = k_tile * kTileK;
    const int valid_k = valid_extent(k, k0, kTileK);
    // TODO(step 2): as step 1, but with load_tile_async: the copies committed, waited for and made
    // visible to the whole block before anyone reads them (about 16 lines)
  }
  store_strided(gmem_c_tile, m, valid_m, valid_n, thread_coord, acc);
}
//! [step 2 kernel]

//! [step 3 kernel]
__global__ void gemm_pipelined_kernel(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n,
                                      int k) {
  __shared__ float smem_a[kStages][smem_a_layout.cosize()];  // kStages x (128,8)
  __shared__ float smem_b[kStages][smem_b_layout.cosize()];  // kStages x (128,8)

  const int tile_m = blockIdx.x * kTileM;
  const int tile_n = blockIdx.y * kTileN;
  const int valid_m = valid_extent(m, tile_m, kTileM);
  const int valid_n = valid_extent(n, tile_n, kTileN);
  const float* gmem_a_rows = gmem_a + tile_m;      // (128,k):(1,m)
  const float* gmem_b_rows = gmem_b + tile_n;      // (128,k):(1,n)
  float* gmem_c_tile = gmem_c + tile_m + tile_n * m;  // (128,128):(1,m)
  const wb::Coord thread_coord = compute_thread_layout.coord(threadIdx.x);  // in (16,16)
  float acc[kMicroM][kMicroN] = {};
  const int k_tiles = (k + kTileK - 1) / kTileK;

  // Issues the copies of k-tile `k_tile` into stage `stage`, and commits them as one
  // group. Past the last k-tile it commits an empty group, so that every thread always
  // has the same number of groups and wait<kStages - 2> means the same everywhere.
  auto load_stage = [&](int k_tile, int stage) {
    if (k_tile < k_tiles) {
      const int k0 = k_tile * kTileK;
      const int valid_k = valid_extent(k, k0, kTileK);
      load_tile_async(smem_a[stage], smem_a_layout, gmem_a_rows + k0 * m, m, valid_m, valid_k);
      load_tile_async(smem_b[stage], smem_b_layout, gmem_b_rows + k0 * n, n, valid_n, valid_k);
    }
    wb::cp_async_commit();
  };

  // The prologue: the first kStages - 1 tiles in flight.
  for (int stage = 0; stage < kStages - 1; ++stage) load_stage(stage, stage);

  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
    // TODO(step 3): wait for tile k_tile (kStages - 2 groups may stay in flight), put tile
    // k_tile + kStages - 1 in flight with load_stage, let the block see tile k_tile, add its product
    // from stage k_tile % kStages into acc, and keep that stage from being refilled while it is read
    // (about 16 lines)
  }
  wb::cp_async_wait<0>();  // the empty groups of the last iterations
  store_strided(gmem_c_tile, m, valid_m, valid_n, thread_coord, acc);
}
//! [step 3 kernel]

//! [step 4 kernel]
__global__ void __launch_bounds__(kThreads) gemm_register_blocked_kernel(const float* gmem_a, const float* gmem_b,
                                                                         float* gmem_c, int m, int n, int k) {
  __shared__ __align__(16) float smem_a[kStages][smem_a4_layout.cosize()];  // kStages x (128,8), unpadded
  __shared__ __align__(16) float smem_b[kStages][smem_b4_layout.cosize()];  // kStages x (128,8), unpadded

  const int tile_m = blockIdx.x * kTileM;
  const int tile_n = blockIdx.y * kTileN;
  const int valid_m = valid_extent(m, tile_m, kTileM);
  const int valid_n = valid_extent(n, tile_n, kTileN);
  const float* gmem_a_rows = gmem_a + tile_m;      // (128,k):(1,m)
  const float* gmem_b_rows = gmem_b + tile_n;      // (128,k):(1,n)
  float* gmem_c_tile = gmem_c + tile_m + tile_n * m;  // (128,128):(1,m)
  const wb::Coord thread_coord = compute_thread_layout.coord(threadIdx.x);  // in (16,16)
  float acc[kMicroM][kMicroN] = {};  // C(micro_row(r, i), micro_col(c, j)) of this tile: 64 registers
  const int k_tiles = (k + kTileK - 1) / kTileK;

  const bool whole_block = valid_m == kTileM && valid_n == kTileN;
  // As step 3's, with the whole tiles copied without bounds.
  auto load_stage = [&](int k_tile, int stage) {
    if (k_tile < k_tiles) {
      const int k0 = k_tile * kTileK;
      const int valid_k = valid_extent(k, k0, kTileK);
      if (whole_block && valid_k == kTileK) {
        load_whole_tile_async(smem_a[stage], smem_a4_layout, gmem_a_rows + k0 * m, m);
        load_whole_tile_async(smem_b[stage], smem_b4_layout, gmem_b_rows + k0 * n, n);
      } else {
        load_tile_async(smem_a[stage], smem_a4_layout, gmem_a_rows + k0 * m, m, valid_m, valid_k);
        load_tile_async(smem_b[stage], smem_b4_layout, gmem_b_rows + k0 * n, n, valid_n, valid_k);
      }
    }
    wb::cp_async_commit();
  };
  for (int stage = 0; stage < kStages - 1; ++stage) load_stage(stage, stage);

  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
    // TODO(step 4): step 3's pipeline with one barrier per k-tile: wait, barrier, then load_stage
    // (the barrier also freed the stage read last iteration); for each kk read this thread's 8 values
    // of A (rows micro_row(thread_coord.row, i)) and 8 of B (rows micro_col(thread_coord.col, j)) of
    // column kk as float4 from the stage into registers, then do its 64 FMAs on them (about 30 lines)
  }
  wb::cp_async_wait<0>();
  store_micro_tile(gmem_c_tile, m, valid_m, valid_n, thread_coord, acc);
}
//! [step 4 kernel]

//! [step 5 fragments]
// Step 5 reads a column's fragments in two places, before its loop and inside it: step
// 4's float4 reads of column kk of a stage, as a function (inlined: the arrays stay in
// registers).
__device__ __forceinline__ void read_fragments(const float* smem_a_stage, const float* smem_b_stage, int kk,
                                               wb::Coord thread_coord, float (&a_frag)[kMicroM],
                                               float (&b_frag)[kMicroN]) {
  // TODO(step 5): step 4's reads of column kk, from these stages and through smem_a16_layout and
  // smem_b16_layout: this thread's 8 values of A and 8 of B as 4 float4 into a_frag, b_frag (about 10 lines)
}

// The 64 FMAs of one column: acc += a_frag x b_frag, on registers. wb::note_fmas()
// tells the simulator, which sees no arithmetic, where they run: the grader checks that
// the next column's reads come before them.
__device__ __forceinline__ void multiply_fragments(float (&acc)[kMicroM][kMicroN], const float (&a_frag)[kMicroM],
                                                   const float (&b_frag)[kMicroN]) {
  wb::note_fmas();
  WB_UNROLL
  for (int i = 0; i < kMicroM; ++i) {
    WB_UNROLL
    for (int j = 0; j < kMicroN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
  }
}
//! [step 5 fragments]

//! [step 5 kernel]
__global__ void __launch_bounds__(kThreads) gemm_double_buffered_kernel(const float* gmem_a, const float* gmem_b,
                                                                        float* gmem_c, int m, int n, int k) {
  __shared__ __align__(16) float smem_a[kStages][smem_a16_layout.cosize()];  // kStages x (128,16): 24 KB
  __shared__ __align__(16) float smem_b[kStages][smem_b16_layout.cosize()];  // 24 KB: 48 KB in all

  const int tile_m = blockIdx.x * kTileM;
  const int tile_n = blockIdx.y * kTileN;
  const int valid_m = valid_extent(m, tile_m, kTileM);
  const int valid_n = valid_extent(n, tile_n, kTileN);
  const float* gmem_a_rows = gmem_a + tile_m;      // (128,k):(1,m)
  const float* gmem_b_rows = gmem_b + tile_n;      // (128,k):(1,n)
  float* gmem_c_tile = gmem_c + tile_m + tile_n * m;  // (128,128):(1,m)
  const wb::Coord thread_coord = compute_thread_layout.coord(threadIdx.x);  // in (16,16)
  float acc[kMicroM][kMicroN] = {};
  const int k_tiles = (k + kDeepTileK - 1) / kDeepTileK;

  const bool whole_block = valid_m == kTileM && valid_n == kTileN;
  // Step 4's, with (128,16) tiles.
  auto load_stage = [&](int k_tile, int stage) {
    if (k_tile < k_tiles) {
      const int k0 = k_tile * kDeepTileK;
      const int valid_k = valid_extent(k, k0, kDeepTileK);
      if (whole_block && valid_k == kDeepTileK) {
        load_whole_tile_async(smem_a[stage], smem_a16_layout, gmem_a_rows + k0 * m, m);
        load_whole_tile_async(smem_b[stage], smem_b16_layout, gmem_b_rows + k0 * n, n);
      } else {
        load_tile_async(smem_a[stage], smem_a16_layout, gmem_a_rows + k0 * m, m, valid_m, valid_k);
        load_tile_async(smem_b[stage], smem_b16_layout, gmem_b_rows + k0 * n, n, valid_n, valid_k);
      }
    }
    wb::cp_async_commit();
  };

  // TODO(step 5): load all kStages stages, wait for tile 0 and read its column 0's fragments into
  // a_frag[0], b_frag[0] (double-buffered: float a_frag[2][kMicroM], b_frag[2][kMicroN]). Then for each
  // k-tile and each kk: at the last kk of a tile, wait (tile k_tile + 1 landed), barrier, and refill this
  // stage with tile k_tile + kStages; read column kk + 1's fragments (the next tile's column 0 at the
  // last kk) into buffer (kk + 1) % 2, then the 64 FMAs on buffer kk % 2 with
  // multiply_fragments(acc, a_frag[kk % 2], b_frag[kk % 2]) (about 30 lines)
  wb::cp_async_wait<0>();
  store_micro_tile(gmem_c_tile, m, valid_m, valid_n, thread_coord, acc);
}
//! [step 5 kernel]

void require_shape(const char* function, int m, int n, int k) {
  if (m <= 0 || n <= 0 || k <= 0) {
    throw std::invalid_argument(std::string(function) + ": m, n and k must be at least 1 (" +
                                std::to_string(m) + ", " + std::to_string(n) + ", " + std::to_string(k) + ")");
  }
}

dim3 grid_of(int m, int n) { return dim3((m + kTileM - 1) / kTileM, (n + kTileN - 1) / kTileN); }

}  // namespace

void gemm_shared(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k) {
  require_shape("gemm_shared", m, n, k);
  wb::launch(gemm_shared_kernel, grid_of(m, n), dim3(kThreads), 0, gmem_a, gmem_b, gmem_c, m, n, k);
}

void gemm_async(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k) {
  require_shape("gemm_async", m, n, k);
  wb::launch(gemm_async_kernel, grid_of(m, n), dim3(kThreads), 0, gmem_a, gmem_b, gmem_c, m, n, k);
}

void gemm_pipelined(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k) {
  require_shape("gemm_pipelined", m, n, k);
  wb::launch(gemm_pipelined_kernel, grid_of(m, n), dim3(kThreads), 0, gmem_a, gmem_b, gmem_c, m, n, k);
}

void gemm_register_blocked(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k) {
  require_shape("gemm_register_blocked", m, n, k);
  wb::launch(gemm_register_blocked_kernel, grid_of(m, n), dim3(kThreads), 0, gmem_a, gmem_b, gmem_c, m, n, k);
}

void gemm_double_buffered(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k) {
  require_shape("gemm_double_buffered", m, n, k);
  wb::launch(gemm_double_buffered_kernel, grid_of(m, n), dim3(kThreads), 0, gmem_a, gmem_b, gmem_c, m, n, k);
}

}  // namespace ch04
