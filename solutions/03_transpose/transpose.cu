// Chapter 3, transpose: out(c, r) = in(r, c), both arrays column-major.
//
// Read a column-major array down its columns and the reads are coalesced; write the
// transpose down ITS columns and the writes are too; but one thread cannot do both, as
// an element's neighbours in the input are far apart in the output. Step 1 shows the
// price: reads coalesced, each warp's 32 writes in 32 different places.
//
// Steps 2 and 3 go through shared memory. A block copies a 256x16 tile in with cp.async,
// its 256 threads seen as 32x8 (a warp on 32 consecutive rows of one column: coalesced,
// as in chapter 1). Then it rereads the tile through the TRANSPOSED layout,
// smem_layout.transpose(): the same floats seen as a 16x256 tile, element (r, c) of
// which is the tile's (c, r), exactly the output's tile. The threads are now 16x16: a
// warp writes 2 output columns of 16 consecutive floats, 64 contiguous bytes each.
// The transposed read walks the shared tile across its columns, 16 of them at a time:
// at stride 256 they all fall in the same bank. Step 3 pads the tile.
//
// Naming: gmem_ global memory, smem_ shared memory; a *_layout maps (row, col) to an
// offset; shapes in the comments are (rows, cols).
#include <stdexcept>
#include <string>

#include "transpose.hpp"
#include "wb/wb.cuh"

namespace ch03 {
namespace {

// The layouts smem_layout (256,16):(1,256), load_thread_layout (32,8):(1,32) and
// store_thread_layout (16,16):(1,16), and kThreads, are in transpose.hpp, which the
// book's figures draw from too.

static_assert(store_thread_layout.size() == kThreads, "both thread layouts are the block's 256 threads");
static_assert(kTileRows % kLoadThreadRows == 0 && kTileCols % kLoadThreadCols == 0 &&
                  kTileCols % kStoreThreadRows == 0 && kTileRows % kStoreThreadCols == 0,
              "each thread layout must tile its view of the tile exactly");

//! [step 1 kernel]
__global__ void transpose_naive_kernel(const float* gmem_in, float* gmem_out, int rows, int cols) {
  // This block's tile of the input: rows [tile_row, tile_row + 256), cols [tile_col,
  // tile_col + 16); in the output it is rows [tile_col, ...), cols [tile_row, ...).
  // blockIdx.x counts the tiles along the input's columns (grid_of says why).
  const int tile_row = blockIdx.y * kTileRows;
  const int tile_col = blockIdx.x * kTileCols;
  const auto gmem_in_layout = wb::col_major(rows, Int<kTileCols>{}, rows);   // (rows,16):(1,rows)
  const auto gmem_out_layout = wb::col_major(Int<kTileCols>{}, Int<kTileRows>{}, cols);  // (16,256):(1,cols)
  const float* gmem_tile_in = gmem_in + tile_row + tile_col * rows;        // (256,16)
  float* gmem_tile_out = gmem_out + tile_col + tile_row * cols;            // (16,256)
  const wb::Coord thread_coord = load_thread_layout.coord(threadIdx.x);    // in (32,8)
  const int valid_rows = rows - tile_row < kTileRows ? rows - tile_row : kTileRows;
  const int valid_cols = cols - tile_col < kTileCols ? cols - tile_col : kTileCols;

  //! [step 1 hole]
  for (int col = thread_coord.col; col < valid_cols; col += kLoadThreadCols) {
    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {
      gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];
    }
  }
  //! [step 1 hole]
}
//! [step 1 kernel]

//! [step 2 kernel]
__global__ void transpose_tile_kernel(const float* gmem_in, float* gmem_out, int rows, int cols) {
  __shared__ float smem_tile[smem_layout.cosize()];                      // (256,16)
  constexpr auto smem_transposed = smem_layout.transpose();               // (16,256):(256,1)

  const int tile_row = blockIdx.y * kTileRows;
  const int tile_col = blockIdx.x * kTileCols;
  const auto gmem_in_layout = wb::col_major(rows, Int<kTileCols>{}, rows);   // (rows,16):(1,rows)
  const auto gmem_out_layout = wb::col_major(Int<kTileCols>{}, Int<kTileRows>{}, cols);  // (16,256):(1,cols)
  const float* gmem_tile_in = gmem_in + tile_row + tile_col * rows;        // (256,16)
  float* gmem_tile_out = gmem_out + tile_col + tile_row * cols;            // (16,256)
  const wb::Coord load_coord = load_thread_layout.coord(threadIdx.x);      // in (32,8)
  const wb::Coord store_coord = store_thread_layout.coord(threadIdx.x);    // in (16,16)

  //! [step 2 hole]
  for (int col = load_coord.col; col < kTileCols; col += kLoadThreadCols) {
    for (int row = load_coord.row; row < kTileRows; row += kLoadThreadRows) {
      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_in_layout(row, col)]);
    }
  }
  wb::cp_async_wait_all();
  __syncthreads();
  for (int col = store_coord.col; col < kTileRows; col += kStoreThreadCols) {
    for (int row = store_coord.row; row < kTileCols; row += kStoreThreadRows) {
      gmem_tile_out[gmem_out_layout(row, col)] = smem_tile[smem_transposed(row, col)];
    }
  }
  //! [step 2 hole]
}
//! [step 2 kernel]

//! [padding]
// Step 3's choice: how many floats to leave unused after each 256-float column of the
// shared tile, so that both the copy in and the transposed read are conflict-free.
constexpr int transpose_padding() {
  int padding = 0;  // the columns are then 256 + padding floats apart
  //! [step 3 hole]
  padding = 2;  // stride 258: column c starts in bank 2c % 32; a 16x16 warp fills all 32
  //! [step 3 hole]
  return padding;
}
__device__ constexpr auto padded_smem_layout =
    wb::col_major(Int<kTileRows>{}, Int<kTileCols>{}, Int<kTileRows + transpose_padding()>{});  // (256,16):(1,256+padding)
//! [padding]

//! [step 3 kernel]
__global__ void transpose_padded_kernel(const float* gmem_in, float* gmem_out, int rows, int cols) {
  __shared__ float smem_tile[padded_smem_layout.cosize()];               // (256,16), padded
  constexpr auto smem_transposed = padded_smem_layout.transpose();        // (16,256):(256+padding,1)

  const int tile_row = blockIdx.y * kTileRows;
  const int tile_col = blockIdx.x * kTileCols;
  const auto gmem_in_layout = wb::col_major(rows, Int<kTileCols>{}, rows);   // (rows,16):(1,rows)
  const auto gmem_out_layout = wb::col_major(Int<kTileCols>{}, Int<kTileRows>{}, cols);  // (16,256):(1,cols)
  const float* gmem_tile_in = gmem_in + tile_row + tile_col * rows;        // (256,16)
  float* gmem_tile_out = gmem_out + tile_col + tile_row * cols;            // (16,256)
  const wb::Coord load_coord = load_thread_layout.coord(threadIdx.x);      // in (32,8)
  const wb::Coord store_coord = store_thread_layout.coord(threadIdx.x);    // in (16,16)
  // How much of this tile lies inside the input: all of it except at the edges.
  const int valid_rows = rows - tile_row < kTileRows ? rows - tile_row : kTileRows;
  const int valid_cols = cols - tile_col < kTileCols ? cols - tile_col : kTileCols;

  //! [step 3 hole]
  for (int col = load_coord.col; col < valid_cols; col += kLoadThreadCols) {
    for (int row = load_coord.row; row < valid_rows; row += kLoadThreadRows) {
      wb::cp_async(&smem_tile[padded_smem_layout(row, col)], &gmem_tile_in[gmem_in_layout(row, col)]);
    }
  }
  wb::cp_async_wait_all();
  __syncthreads();
  for (int col = store_coord.col; col < valid_rows; col += kStoreThreadCols) {
    for (int row = store_coord.row; row < valid_cols; row += kStoreThreadRows) {
      gmem_tile_out[gmem_out_layout(row, col)] = smem_tile[smem_transposed(row, col)];
    }
  }
  //! [step 3 hole]
}
//! [step 3 kernel]

void require_shape(const char* function, int rows, int cols) {
  if (rows <= 0 || cols <= 0) {
    throw std::invalid_argument(std::string(function) + ": the array must not be empty (" +
                                std::to_string(rows) + "x" + std::to_string(cols) + ")");
  }
}

// x over the tiles along the input's columns, y down its rows. The GPU starts blocks in
// the order of blockIdx.x first, so blocks that run side by side write neighbouring 64-byte
// pieces of the same output columns, and the output leaves in long runs. With x down the
// rows, blocks side by side write the same 16 rows of different output columns, 64 bytes
// a column, and at 16384x8192 the kernel ran about 4% slower on the H100.
dim3 grid_of(int rows, int cols) {
  return dim3((cols + kTileCols - 1) / kTileCols, (rows + kTileRows - 1) / kTileRows);
}

}  // namespace

void transpose_naive(const float* gmem_in, float* gmem_out, int rows, int cols) {
  require_shape("transpose_naive", rows, cols);
  wb::launch(transpose_naive_kernel, grid_of(rows, cols), dim3(kThreads), 0, gmem_in, gmem_out,
             rows, cols);
}

void transpose_tiles(const float* gmem_in, float* gmem_out, int rows, int cols) {
  if (rows <= 0 || cols <= 0 || rows % kTileRows != 0 || cols % kTileCols != 0) {
    throw std::invalid_argument("transpose_tiles: " + std::to_string(rows) + "x" +
                                std::to_string(cols) +
                                " is not a multiple of the 256x16 tile (step 3 handles that)");
  }
  wb::launch(transpose_tile_kernel, grid_of(rows, cols), dim3(kThreads), 0, gmem_in, gmem_out,
             rows, cols);
}

void transpose_padded(const float* gmem_in, float* gmem_out, int rows, int cols) {
  require_shape("transpose_padded", rows, cols);
  wb::launch(transpose_padded_kernel, grid_of(rows, cols), dim3(kThreads), 0, gmem_in, gmem_out,
             rows, cols);
}

int transpose_padded_stride() { return kTileRows + transpose_padding(); }

}  // namespace ch03
