// Chapter 5, vectorized copies and alignment.
//
// A cp.async copies 4, 8 or 16 bytes, and both of its addresses, the shared destination
// and the global source, must be multiples of its size. One 16-byte copy moves what four
// 4-byte copies move, with a quarter of the instructions: the wider the copy, the fewer
// instructions per byte, and the less a kernel spends issuing its loads.
//
// Step 1 copies chapter 1's 128x16 tiles with 8-byte and then 16-byte copies, each
// thread taking 2 or 4 consecutive rows of a column at once. The shared tiles are
// padded, as the seed's were: a padded tile is where wide copies break. Step 2 puts
// 16-byte copies into chapter 4's GEMM, whose cheaper loads pay for a deeper k-tile.
// Step 3 copies an array of any length with 16-byte copies: the last quad may hold fewer
// than 4 floats, and is copied float by float, never addressing past the array's end.
//
// Naming: gmem_ global memory, smem_ shared memory; a *_layout maps (row, col) to an
// offset; shapes in the comments are (rows, cols).
#include <stdexcept>
#include <string>

#include "vector.hpp"
#include "wb/wb.cuh"

namespace ch05 {
namespace {

using wb::Int;

//! [layouts]
// Step 1's shared tiles. Column c of a column-major tile padded by `pad` floats starts
// at byte c * (128 + pad) * 4: a multiple of 8 for every c when pad is even, of 16 when
// pad is a multiple of 4. The seed's +1 puts column 1 at byte 516: fine for 4-byte
// copies, misaligned for 8 and 16.
constexpr int kPad8 = 2;   // the smallest padding 8-byte copies allow (0 aside)
constexpr int kPad16 = 4;  // the smallest padding 16-byte copies allow (0 aside)
__device__ constexpr auto smem_8_layout = wb::col_major(Int<kTileRows>{}, Int<kTileCols>{}, Int<kTileRows + kPad8>{});    // (128,16):(1,130)
__device__ constexpr auto smem_16_layout = wb::col_major(Int<kTileRows>{}, Int<kTileCols>{}, Int<kTileRows + kPad16>{});  // (128,16):(1,132)
// The threads over the tile's vectors: a column holds 64 pairs or 32 quads of floats,
// and a warp copies 32 consecutive vectors of one column: 256 or 512 contiguous bytes.
__device__ constexpr auto thread_8_layout = wb::col_major(Int<kTileRows / 2>{}, Int<kThreads / (kTileRows / 2)>{});   // (64,4)
__device__ constexpr auto thread_16_layout = wb::col_major(Int<kTileRows / 4>{}, Int<kThreads / (kTileRows / 4)>{});  // (32,8)
//! [layouts]

static_assert(thread_8_layout.size() == kThreads && thread_16_layout.size() == kThreads,
              "each thread layout is the block's 256 threads");
static_assert(kTileCols % thread_8_layout.cols == 0 && kTileCols % thread_16_layout.cols == 0,
              "the threads' columns tile the tile's 16 columns exactly");

// ---------------------------------------------------------------------------------
// Given: the pieces around the holes.

// Stores a (128,16) shared tile to the column-major array, one float a thread, walking
// the tile as one flat column-major run: coalesced, and mostly other threads' copies.
template <class SmemLayout>
__device__ void store_tile(const float* smem_tile, SmemLayout smem_layout, float* gmem_tile, int ld) {
  for (int index = threadIdx.x; index < kTileRows * kTileCols; index += kThreads) {
    const int row = index % kTileRows;
    const int col = index / kTileRows;
    gmem_tile[row + col * ld] = smem_tile[smem_layout(row, col)];
  }
}

//! [step 1 kernels]
__global__ void copy_tile_8_kernel(const float* gmem_in, float* gmem_out, int rows) {
  __shared__ __align__(16) float smem_tile[smem_8_layout.cosize()];  // (128,16), padded by kPad8

  const int tile_row = blockIdx.x * kTileRows;
  const int tile_col = blockIdx.y * kTileCols;
  const float* gmem_tile_in = gmem_in + tile_row + tile_col * rows;  // (128,16):(1,rows)
  float* gmem_tile_out = gmem_out + tile_row + tile_col * rows;      // (128,16):(1,rows)
  const wb::Coord thread_coord = thread_8_layout.coord(threadIdx.x);  // in (64,4): pair, column

  //! [step 1a hole]
  const int row = 2 * thread_coord.row;  // the pair's first row
  for (int col = thread_coord.col; col < kTileCols; col += thread_8_layout.cols) {
    wb::cp_async_ca<8>(&smem_tile[smem_8_layout(row, col)], &gmem_tile_in[row + col * rows]);
  }
  wb::cp_async_commit();
  wb::cp_async_wait<0>();
  __syncthreads();  // every thread has waited: the whole tile is visible to all
  //! [step 1a hole]

  store_tile(smem_tile, smem_8_layout, gmem_tile_out, rows);
}

__global__ void copy_tile_16_kernel(const float* gmem_in, float* gmem_out, int rows) {
  __shared__ __align__(16) float smem_tile[smem_16_layout.cosize()];  // (128,16), padded by kPad16

  const int tile_row = blockIdx.x * kTileRows;
  const int tile_col = blockIdx.y * kTileCols;
  const float* gmem_tile_in = gmem_in + tile_row + tile_col * rows;    // (128,16):(1,rows)
  float* gmem_tile_out = gmem_out + tile_row + tile_col * rows;        // (128,16):(1,rows)
  const wb::Coord thread_coord = thread_16_layout.coord(threadIdx.x);  // in (32,8): quad, column

  //! [step 1b hole]
  const int row = 4 * thread_coord.row;  // the quad's first row
  for (int col = thread_coord.col; col < kTileCols; col += thread_16_layout.cols) {
    wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)], &gmem_tile_in[row + col * rows]);
  }
  wb::cp_async_commit();
  wb::cp_async_wait<0>();
  __syncthreads();
  //! [step 1b hole]

  store_tile(smem_tile, smem_16_layout, gmem_tile_out, rows);
}
//! [step 1 kernels]

// ---------------------------------------------------------------------------------
// Step 2: chapter 4's step 4 (a 128x128 tile of C a block, 3 stages, one barrier per
// k-tile, each thread an 8x8 micro-tile in registers), its tile loads 16 bytes wide and
// its k-tiles 16 deep instead of 8: with a quarter of the copy instructions, a deeper
// tile halves the barriers and waits per FMA for the same 48 KiB of shared memory.

//! [gemm layouts]
// Unpadded: every column starts at a multiple of 512 bytes, and a quarter-warp's 8
// float4 reads of a column are 8 consecutive float4, conflict-free (chapter 4). A
// padding would have to be a multiple of 4 floats to keep the columns 16-byte aligned.
__device__ constexpr auto smem_gemm_layout = wb::col_major(Int<kGemmTile>{}, Int<kGemmTileK>{});  // (128,16):(1,128)
// Copying: the 256 threads as (32,8), over the tile's (32,16) quads (a warp copies 32
// consecutive quads, 512 bytes, of one column; each thread two columns), or over its
// (128,16) floats for the 4-byte fallback.
__device__ constexpr auto gemm_copy_layout = wb::col_major(Int<32>{}, Int<8>{});  // (32,8)
// Computing: 16x16 threads, each owning rows micro_row(r, i) and columns micro_row(c, j).
__device__ constexpr auto gemm_thread_layout = wb::col_major(Int<16>{}, Int<16>{});  // (16,16)
constexpr int kMicro = 8;  // a thread's 8x8 elements of C: 2x2 blocks of 4x4
//! [gemm layouts]

static_assert(gemm_copy_layout.size() == kThreads && gemm_thread_layout.size() == kThreads,
              "the GEMM's thread layouts are the block's 256 threads");
static_assert(kGemmTile == 4 * gemm_copy_layout.rows && kGemmTileK % gemm_copy_layout.cols == 0,
              "the copying threads tile the tile's quads exactly");

__device__ constexpr int micro_row(int thread_row, int i) { return (i / 4) * 64 + thread_row * 4 + i % 4; }

__device__ int valid_extent(int extent, int start, int tile) { return extent - start < tile ? extent - start : tile; }

// The fallback: one 4-byte copy an element, zeros outside the array (chapter 4's load).
__device__ void load_tile_4(float* smem_tile, const float* gmem_tile, int ld, int valid_rows, int valid_k) {
  const wb::Coord thread_coord = gemm_copy_layout.coord(threadIdx.x);
  for (int col = thread_coord.col; col < kGemmTileK; col += gemm_copy_layout.cols) {
    for (int row = thread_coord.row; row < kGemmTile; row += gemm_copy_layout.rows) {
      const bool inside = row < valid_rows && col < valid_k;
      wb::cp_async_ca<4>(&smem_tile[smem_gemm_layout(row, col)], inside ? &gmem_tile[row + col * ld] : gmem_tile,
                         inside ? 4 : 0);
    }
  }
}

//! [step 2 loads]
// Copies the (128,16) tile at gmem_tile (column-major, `ld` rows, a multiple of 4) into
// smem_tile, one 16-byte cp.async per quad, two a thread. The tile lies wholly inside
// the array: no bounds, no predicates (they would cost more instructions than the copy).
__device__ void load_whole_tile_16(float* smem_tile, const float* gmem_tile, int ld) {
  const wb::Coord thread_coord = gemm_copy_layout.coord(threadIdx.x);  // in (32,8): quad, first column
  //! [step 2a hole]
  // The thread's first quad, found once; the loop from 0 then adds constants only, and
  // unrolls into two copies (from thread_coord.col it would keep its loop and branches).
  float* smem_quad = smem_tile + smem_gemm_layout(4 * thread_coord.row, thread_coord.col);
  const float* gmem_quad = gmem_tile + 4 * thread_coord.row + thread_coord.col * ld;
  WB_UNROLL
  for (int col = 0; col < kGemmTileK; col += gemm_copy_layout.cols) {
    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * ld);
  }
  //! [step 2a hole]
}

// The same for a tile at an edge of the array: quads at rows past valid_rows or columns
// past valid_k read nothing and become zeros. With ld and the tile's first row multiples
// of 4, so is valid_rows: a quad lies wholly inside the array or wholly outside it.
__device__ void load_tile_16(float* smem_tile, const float* gmem_tile, int ld, int valid_rows, int valid_k) {
  const wb::Coord thread_coord = gemm_copy_layout.coord(threadIdx.x);  // in (32,8): quad, first column
  //! [step 2b hole]
  const int row = 4 * thread_coord.row;
  for (int col = thread_coord.col; col < kGemmTileK; col += gemm_copy_layout.cols) {
    const bool inside = row < valid_rows && col < valid_k;
    wb::cp_async_cg(&smem_tile[smem_gemm_layout(row, col)], inside ? &gmem_tile[row + col * ld] : gmem_tile,
                    inside ? 16 : 0);
  }
  //! [step 2b hole]
}
//! [step 2 loads]

// One operand's k-tile: 16-byte copies where its columns start at multiples of 16 bytes
// (in_quads: its leading dimension a multiple of 4), the unbounded ones for a whole
// tile; else chapter 4's 4-byte copies. Only edge tiles come here: kept out of line
// (__noinline__), their code stays out of the k-loop, whose registers ptxas then assigns
// with fewer bank conflicts among the FMAs' operands (measured: 5% faster on an H100).
__device__ __noinline__ void load_operand_tile(float* smem_tile, const float* gmem_tile, int ld, int valid_rows,
                                               int valid_k, bool in_quads) {
  if (!in_quads) {
    load_tile_4(smem_tile, gmem_tile, ld, valid_rows, valid_k);
  } else if (valid_rows == kGemmTile && valid_k == kGemmTileK) {
    load_whole_tile_16(smem_tile, gmem_tile, ld);
  } else {
    load_tile_16(smem_tile, gmem_tile, ld, valid_rows, valid_k);
  }
}

// acc += this stage's A tile times its B tile: per kk, the thread's 8 values of A and 8
// of B read as float4 into registers, then 64 FMAs (chapter 4, step 4).
__device__ void multiply_stage(float (&acc)[kMicro][kMicro], const float* smem_a_stage, const float* smem_b_stage,
                               wb::Coord thread_coord) {
  WB_UNROLL
  for (int kk = 0; kk < kGemmTileK; ++kk) {
    float a_frag[kMicro];
    float b_frag[kMicro];
    WB_UNROLL
    for (int v = 0; v < kMicro; v += 4) {
      const float4 a4 = *reinterpret_cast<const float4*>(&smem_a_stage[smem_gemm_layout(micro_row(thread_coord.row, v), kk)]);
      a_frag[v] = a4.x, a_frag[v + 1] = a4.y, a_frag[v + 2] = a4.z, a_frag[v + 3] = a4.w;
    }
    WB_UNROLL
    for (int v = 0; v < kMicro; v += 4) {  // A's two float4, then B's: the order ptxas schedules best
      const float4 b4 = *reinterpret_cast<const float4*>(&smem_b_stage[smem_gemm_layout(micro_row(thread_coord.col, v), kk)]);
      b_frag[v] = b4.x, b_frag[v + 1] = b4.y, b_frag[v + 2] = b4.z, b_frag[v + 3] = b4.w;
    }
    WB_UNROLL
    for (int i = 0; i < kMicro; ++i) {
      WB_UNROLL
      for (int j = 0; j < kMicro; ++j) acc[i][j] += a_frag[i] * b_frag[j];
    }
  }
}

//! [step 2 kernel]
__global__ void __launch_bounds__(kThreads) gemm_copies_16_kernel(const float* gmem_a, const float* gmem_b,
                                                                   float* gmem_c, int m, int n, int k) {
  __shared__ __align__(16) float smem_a[kGemmStages][smem_gemm_layout.cosize()];  // kGemmStages x (128,16)
  __shared__ __align__(16) float smem_b[kGemmStages][smem_gemm_layout.cosize()];  // kGemmStages x (128,16): 48 KiB in all

  const int tile_m = blockIdx.x * kGemmTile;
  const int tile_n = blockIdx.y * kGemmTile;
  const int valid_m = valid_extent(m, tile_m, kGemmTile);
  const int valid_n = valid_extent(n, tile_n, kGemmTile);
  const float* gmem_a_rows = gmem_a + tile_m;         // (128,k):(1,m)
  const float* gmem_b_rows = gmem_b + tile_n;         // (128,k):(1,n)
  float* gmem_c_tile = gmem_c + tile_m + tile_n * m;  // (128,128):(1,m)
  const wb::Coord thread_coord = gemm_thread_layout.coord(threadIdx.x);
  float acc[kMicro][kMicro] = {};
  const int k_tiles = (k + kGemmTileK - 1) / kGemmTileK;
  // Column p of A starts at byte 4 * m * p: 16-byte aligned for every p only if m is a
  // multiple of 4. Otherwise that operand takes 4-byte copies.
  const bool a_in_quads = m % 4 == 0;
  const bool b_in_quads = n % 4 == 0;

  // Most k-tiles of most blocks are whole, and both operands aligned: that path first,
  // straight, with nothing to decide per operand.
  const bool whole_block = valid_m == kGemmTile && valid_n == kGemmTile && a_in_quads && b_in_quads;
  auto load_stage = [&](int k_tile, int stage) {
    if (k_tile < k_tiles) {
      const int k0 = k_tile * kGemmTileK;
      const int valid_k = valid_extent(k, k0, kGemmTileK);
      if (whole_block && valid_k == kGemmTileK) {
        load_whole_tile_16(smem_a[stage], gmem_a_rows + k0 * m, m);
        load_whole_tile_16(smem_b[stage], gmem_b_rows + k0 * n, n);
      } else {
        load_operand_tile(smem_a[stage], gmem_a_rows + k0 * m, m, valid_m, valid_k, a_in_quads);
        load_operand_tile(smem_b[stage], gmem_b_rows + k0 * n, n, valid_n, valid_k, b_in_quads);
      }
    }
    wb::cp_async_commit();
  };
  for (int stage = 0; stage < kGemmStages - 1; ++stage) load_stage(stage, stage);

  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
    wb::cp_async_wait<kGemmStages - 2>();
    __syncthreads();  // tile k_tile visible to all; the stage read last iteration free
    load_stage(k_tile + kGemmStages - 1, (k_tile + kGemmStages - 1) % kGemmStages);
    multiply_stage(acc, smem_a[k_tile % kGemmStages], smem_b[k_tile % kGemmStages], thread_coord);
  }
  wb::cp_async_wait<0>();

  WB_UNROLL
  for (int i = 0; i < kMicro; ++i) {
    WB_UNROLL
    for (int j = 0; j < kMicro; ++j) {
      const int row = micro_row(thread_coord.row, i);
      const int col = micro_row(thread_coord.col, j);
      if (row < valid_m && col < valid_n) gmem_c_tile[row + col * m] = acc[i][j];
    }
  }
}
//! [step 2 kernel]

// ---------------------------------------------------------------------------------
// Step 3: any length.

//! [step 3 kernel]
__global__ void copy_any_length_16_kernel(const float* gmem_in, float* gmem_out, int count) {
  __shared__ __align__(16) float smem_tile[kTailTile];  // 1024 floats: one quad a thread

  const int tile_start = blockIdx.x * kTailTile;
  const int valid = valid_extent(count, tile_start, kTailTile);  // floats of this tile in the array
  const float* gmem_tile_in = gmem_in + tile_start;
  float* gmem_tile_out = gmem_out + tile_start;

  //! [step 3 hole]
  const int first = 4 * threadIdx.x;  // this thread's quad: floats [first, first + 4) of the tile
  if (first + 4 <= valid) {
    wb::cp_async_cg(&smem_tile[first], &gmem_tile_in[first]);
  } else {
    // The array's last quad, when count is no multiple of 4, holds 1 to 3 floats: a
    // 16-byte copy would address bytes past the end of the array. Float by float.
    for (int index = first; index < valid; ++index) wb::cp_async_ca<4>(&smem_tile[index], &gmem_tile_in[index]);
  }
  wb::cp_async_commit();
  wb::cp_async_wait<0>();
  __syncthreads();
  //! [step 3 hole]

  // Coalesced stores of the valid floats, mostly other threads' copies.
  for (int index = threadIdx.x; index < valid; index += kThreads) gmem_tile_out[index] = smem_tile[index];
}
//! [step 3 kernel]

void require_tiles(const char* function, int rows, int cols) {
  if (rows <= 0 || cols <= 0 || rows % kTileRows != 0 || cols % kTileCols != 0) {
    throw std::invalid_argument(std::string(function) + ": " + std::to_string(rows) + "x" + std::to_string(cols) +
                                " is not a multiple of the 128x16 tile");
  }
}

}  // namespace

void copy_tiles_8(const float* gmem_in, float* gmem_out, int rows, int cols) {
  require_tiles("copy_tiles_8", rows, cols);
  wb::launch(copy_tile_8_kernel, dim3(rows / kTileRows, cols / kTileCols), dim3(kThreads), 0, gmem_in, gmem_out,
             rows);
}

void copy_tiles_16(const float* gmem_in, float* gmem_out, int rows, int cols) {
  require_tiles("copy_tiles_16", rows, cols);
  wb::launch(copy_tile_16_kernel, dim3(rows / kTileRows, cols / kTileCols), dim3(kThreads), 0, gmem_in, gmem_out,
             rows);
}

void gemm_copies_16(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k) {
  if (m <= 0 || n <= 0 || k <= 0) {
    throw std::invalid_argument("gemm_copies_16: m, n and k must be at least 1 (" + std::to_string(m) + ", " +
                                std::to_string(n) + ", " + std::to_string(k) + ")");
  }
  const dim3 grid((m + kGemmTile - 1) / kGemmTile, (n + kGemmTile - 1) / kGemmTile);
  wb::launch(gemm_copies_16_kernel, grid, dim3(kThreads), 0, gmem_a, gmem_b, gmem_c, m, n, k);
}

void copy_any_length_16(const float* gmem_in, float* gmem_out, int count) {
  if (count <= 0) throw std::invalid_argument("copy_any_length_16: count must be at least 1");
  wb::launch(copy_any_length_16_kernel, dim3((count + kTailTile - 1) / kTailTile), dim3(kThreads), 0, gmem_in,
             gmem_out, count);
}

}  // namespace ch05
