// Chapter 2, padded shared memory: the same tile, a different shared layout.
//
// Step 1 copies the array as chapter 1 did, through a shared tile whose columns are 130
// floats apart instead of 128: the tile's layout is (128,16):(1,130), two padding rows
// under each column. The array is then larger than the tile (its cosize, 2078 floats,
// sizes it), and an element's offset in shared memory is no longer its index in the
// tile: the layout maps one to the other, in both directions of the copy.
//
// Step 2 reads a shared tile along its rows. Shared memory has 32 banks of 4 bytes; a
// warp's 32 reads are served at once only if they fall in 32 different banks (or on
// the same word). Element (row, col) lives at row + stride * col, in bank
// (row + stride * col) % 32: with stride 128 a whole row sits in one bank, and a warp
// reading 32 columns of a row is a 32-way conflict. The padding you choose fixes that.
//
// Naming: gmem_ global memory, smem_ shared memory; a *_layout maps (row, col) to an
// offset; shapes in the comments are (rows, cols).
#include <stdexcept>
#include <string>

#include "padded.hpp"
#include "wb/wb.cuh"

namespace ch02 {
namespace {

//! [layouts]
__device__ constexpr auto smem_layout = wb::col_major(Int<kTileRows>{}, Int<kTileCols>{}, Int<kPaddedStride>{});  // (128,16):(1,130)
__device__ constexpr auto tile_layout = wb::col_major(Int<kTileRows>{}, Int<kTileCols>{});     // (128,16):(1,128), no padding
__device__ constexpr auto thread_layout = wb::col_major(Int<kThreadRows>{}, Int<kThreadCols>{}); // (32,8):(1,32)
constexpr int kThreads = thread_layout.size();                                                   // 256
//! [layouts]

static_assert(smem_layout.size() == tile_layout.size() && smem_layout.cosize() == 2078,
              "the padded tile holds the same 2048 elements in 2078 floats: 2 unused under each "
              "column but the last");
static_assert(kTileRows % kThreadRows == 0 && kTileCols % kThreadCols == 0,
              "the thread layout must tile the block tile exactly");

//! [step 1 kernel]
__global__ void copy_tile_padded_kernel(const float* gmem_in, float* gmem_out, int rows,
                                        int cols) {
  __shared__ float smem_tile[smem_layout.cosize()];                  // (128,16) in 2078 floats

  // This block's tile: rows [tile_row, tile_row + 128), cols [tile_col, tile_col + 16).
  const int tile_row = blockIdx.x * kTileRows;
  const int tile_col = blockIdx.y * kTileCols;
  const auto gmem_layout = wb::col_major(rows, Int<kTileCols>{}, rows);  // (rows,16):(1,rows)
  const float* gmem_tile_in = gmem_in + tile_row + tile_col * rows;    // (128,16)
  float* gmem_tile_out = gmem_out + tile_row + tile_col * rows;        // (128,16)
  const wb::Coord thread_coord = thread_layout.coord(threadIdx.x);     // in (32,8)
  // How much of this tile lies inside the array: all of it except at the edges.
  const int valid_rows = rows - tile_row < kTileRows ? rows - tile_row : kTileRows;
  const int valid_cols = cols - tile_col < kTileCols ? cols - tile_col : kTileCols;

  //! [step 1 hole]
  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {
    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {
      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);
    }
  }
  wb::cp_async_wait_all();
  __syncthreads();
  for (int index = threadIdx.x; index < tile_layout.size(); index += kThreads) {
    const wb::Coord element = tile_layout.coord(index);
    if (element.row < valid_rows && element.col < valid_cols) {
      gmem_tile_out[gmem_layout(element.row, element.col)] =
          smem_tile[smem_layout(element.row, element.col)];
    }
  }
  //! [step 1 hole]
}
//! [step 1 kernel]

//! [padding]
// Step 2's choice: how many floats to leave unused after each 128-float column of the
// shared tile of column_sums_kernel below.
constexpr int column_sums_padding() {
  int padding = 0;  // the columns are then 128 + padding floats apart
  //! [step 2 hole]
  padding = 1;  // stride 129: column c starts in bank c % 32, a row spans all 32 banks
  //! [step 2 hole]
  return padding;
}
//! [padding]

// Step 2's copy_thread_layout (32,8):(1,32), sum_thread_layout (8,32):(32,1) and
// partial_sums_layout (8,32):(32,1) are in padded.hpp, which the book's figures draw
// from too.

static_assert(sum_thread_layout.size() == kThreads && kStripCols == 32,
              "a warp's 32 lanes read the 32 columns of one row");

//! [step 2 kernel]
// gmem_sums[c] = the sum of column c. A block sums a strip of 32 columns, one 128x32
// tile after the other: copied in like step 1's tiles, then read along its rows.
template <int Padding>
__global__ void column_sums_kernel(const float* gmem_in, float* gmem_sums, int rows, int cols) {
  constexpr auto smem_layout = wb::col_major(Int<kTileRows>{}, Int<kStripCols>{}, Int<kTileRows + Padding>{});  // (128,32):(1,128+Padding)
  __shared__ float smem_tile[smem_layout.cosize()];                    // (128,32), padded
  __shared__ float smem_partial_sums[partial_sums_layout.size()];      // (8,32): per warp and column

  // This block's strip: columns [strip_col, strip_col + 32), every row.
  const int strip_col = blockIdx.x * kStripCols;
  const int valid_cols = cols - strip_col < kStripCols ? cols - strip_col : kStripCols;
  const auto gmem_layout = wb::col_major(rows, Int<kStripCols>{}, rows);  // (rows,32):(1,rows)
  const float* gmem_strip = gmem_in + strip_col * rows;                 // (rows,32)
  const wb::Coord copy_coord = copy_thread_layout.coord(threadIdx.x);   // in (32,8)
  const wb::Coord sum_coord = sum_thread_layout.coord(threadIdx.x);     // in (8,32): (warp, lane)

  float sum = 0.0f;  // of column sum_coord.col, over the rows this thread reads
  for (int tile_row = 0; tile_row < rows; tile_row += kTileRows) {
    const int valid_rows = rows - tile_row < kTileRows ? rows - tile_row : kTileRows;
    // A warp copies 32 consecutive rows of one column: 32 banks in a row, at any stride.
    for (int col = copy_coord.col; col < valid_cols; col += kThreadCols) {
      for (int row = copy_coord.row; row < valid_rows; row += kThreadRows) {
        wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_strip[gmem_layout(tile_row + row, col)]);
      }
    }
    wb::cp_async_wait_all();
    __syncthreads();
    // Warp w reads the rows w, w + 8, w + 16, ...; its 32 lanes the 32 columns of each:
    // lane c reads the word row + stride * c, in bank (row + stride * c) % 32.
    if (sum_coord.col < valid_cols) {
      for (int row = sum_coord.row; row < valid_rows; row += kWarps) {
        sum += smem_tile[smem_layout(row, sum_coord.col)];
      }
    }
    __syncthreads();  // every warp has read this tile before the next one overwrites it
  }

  // Each column's 8 partial sums, one per warp, added up by the first warp.
  smem_partial_sums[partial_sums_layout(sum_coord.row, sum_coord.col)] = sum;
  __syncthreads();
  if (static_cast<int>(threadIdx.x) < valid_cols) {
    float total = 0.0f;
    for (int warp = 0; warp < kWarps; ++warp) {
      total += smem_partial_sums[partial_sums_layout(warp, threadIdx.x)];
    }
    gmem_sums[strip_col + threadIdx.x] = total;
  }
}
//! [step 2 kernel]

void require_shape(const char* function, int rows, int cols) {
  if (rows <= 0 || cols <= 0) {
    throw std::invalid_argument(std::string(function) + ": the array must not be empty (" +
                                std::to_string(rows) + "x" + std::to_string(cols) + ")");
  }
}

template <int Padding>
void launch_column_sums(const float* gmem_in, float* gmem_sums, int rows, int cols) {
  require_shape("column_sums", rows, cols);
  const dim3 grid((cols + kStripCols - 1) / kStripCols);
  wb::launch(column_sums_kernel<Padding>, grid, dim3(kThreads), 0, gmem_in, gmem_sums, rows,
             cols);
}

}  // namespace

void copy_tiles_padded(const float* gmem_in, float* gmem_out, int rows, int cols) {
  require_shape("copy_tiles_padded", rows, cols);
  const dim3 grid((rows + kTileRows - 1) / kTileRows, (cols + kTileCols - 1) / kTileCols);
  wb::launch(copy_tile_padded_kernel, grid, dim3(kThreads), 0, gmem_in, gmem_out, rows, cols);
}

void column_sums(const float* gmem_in, float* gmem_sums, int rows, int cols) {
  launch_column_sums<column_sums_padding()>(gmem_in, gmem_sums, rows, cols);
}

void column_sums_unpadded(const float* gmem_in, float* gmem_sums, int rows, int cols) {
  launch_column_sums<0>(gmem_in, gmem_sums, rows, cols);
}

int column_sums_stride() { return kTileRows + column_sums_padding(); }

}  // namespace ch02
