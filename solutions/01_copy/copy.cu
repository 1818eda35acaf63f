// Chapter 1, copy: global -> shared with cp.async, wait, shared -> global.
//
// Each block copies one 128x16 tile of a column-major array. Its 256 threads, seen as a
// 32x8 column-major thread layout, issue one cp.async per element into a shared tile:
// thread (r, c) copies the elements (r + 32*i, c + 8*j), 4x2 of them. A warp is 32
// consecutive rows of one column, 128 contiguous bytes: coalesced.
//
// cp.async returns at once; the copy lands later. cp_async_wait makes a thread's OWN
// copies visible to itself. The store below walks the tile in another order, so each
// thread stores elements that other threads copied: those become visible only after
// every thread has waited, which is what the __syncthreads() after the wait ensures.
//
// Naming: gmem_ global memory, smem_ shared memory; a *_layout maps (row, col) to an
// offset; shapes in the comments are (rows, cols).
#include <stdexcept>
#include <string>

#include "copy.hpp"
#include "wb/wb.cuh"

namespace ch01 {
namespace {

// The layouts smem_layout (128,16):(1,128) and thread_layout (32,8):(1,32), and kThreads,
// are in copy.hpp, which the book's figures draw from too.

static_assert(kTileRows % kThreadRows == 0 && kTileCols % kThreadCols == 0,
              "the thread layout must tile the block tile exactly");

// Step 1 stores 4 floats at once: 4 consecutive rows of one column, 16 bytes.
constexpr int kVector = 4;
static_assert(kTileRows % kVector == 0 && smem_layout.size() % (kVector * kThreads) == 0,
              "a float4 never straddles two columns, and the threads store the tile in whole passes");

//! [step 1 kernel]
__global__ void copy_tile_kernel(const float* gmem_in, float* gmem_out, int rows) {
  __shared__ __align__(16) float smem_tile[smem_layout.cosize()];    // (128,16)

  // This block's tile: rows [tile_row, tile_row + 128), cols [tile_col, tile_col + 16).
  const int tile_row = blockIdx.x * kTileRows;
  const int tile_col = blockIdx.y * kTileCols;
  const auto gmem_layout = wb::col_major(rows, Int<kTileCols>{}, rows);  // (rows,16):(1,rows)
  const float* gmem_tile_in = gmem_in + tile_row + tile_col * rows;    // (128,16)
  float* gmem_tile_out = gmem_out + tile_row + tile_col * rows;        // (128,16)
  const wb::Coord thread_coord = thread_layout.coord(threadIdx.x);     // in (32,8)

  //! [step 1 hole]
  for (int col = thread_coord.col; col < kTileCols; col += kThreadCols) {
    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {
      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);
    }
  }
  wb::cp_async_wait_all();
  __syncthreads();
  //! [step 1 hole]

  // The store walks the tile as one flat column-major run of 2048 floats, 4 at a time:
  // thread t stores the offsets 4t to 4t + 3 as one 16-byte float4, then 1024 further on.
  // A warp stores 512 contiguous bytes at once: coalesced, and mostly other threads'
  // elements. Four floats of one column stay in that column (128 rows, a multiple of 4)
  // and start at a multiple of 16 bytes in both arrays (rows is a multiple of 128), as a
  // float4 needs: chapter 5 says why. Step 2's arrays have any shape: it stores floats.
  for (int index = kVector * threadIdx.x; index < smem_layout.size(); index += kVector * kThreads) {
    const wb::Coord element = smem_layout.coord(index);  // the first of 4 rows of one column
    *reinterpret_cast<float4*>(&gmem_tile_out[gmem_layout(element.row, element.col)]) =
        *reinterpret_cast<const float4*>(&smem_tile[smem_layout(element.row, element.col)]);
  }
}
//! [step 1 kernel]

//! [step 2 kernel]
__global__ void copy_tile_any_shape_kernel(const float* gmem_in, float* gmem_out, int rows,
                                           int cols) {
  __shared__ float smem_tile[smem_layout.cosize()];                  // (128,16)

  const int tile_row = blockIdx.x * kTileRows;
  const int tile_col = blockIdx.y * kTileCols;
  const auto gmem_layout = wb::col_major(rows, Int<kTileCols>{}, rows);
  const float* gmem_tile_in = gmem_in + tile_row + tile_col * rows;
  float* gmem_tile_out = gmem_out + tile_row + tile_col * rows;
  const wb::Coord thread_coord = thread_layout.coord(threadIdx.x);
  // How much of this tile lies inside the array: all of it except at the edges.
  const int valid_rows = rows - tile_row < kTileRows ? rows - tile_row : kTileRows;
  const int valid_cols = cols - tile_col < kTileCols ? cols - tile_col : kTileCols;

  //! [step 2 hole]
  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {
    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {
      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);
    }
  }
  wb::cp_async_wait_all();
  __syncthreads();
  //! [step 2 hole]

  for (int index = threadIdx.x; index < smem_layout.size(); index += kThreads) {
    const wb::Coord element = smem_layout.coord(index);
    if (element.row < valid_rows && element.col < valid_cols) {
      gmem_tile_out[gmem_layout(element.row, element.col)] =
          smem_tile[smem_layout(element.row, element.col)];
    }
  }
}
//! [step 2 kernel]

}  // namespace

void copy_tiles(const float* gmem_in, float* gmem_out, int rows, int cols) {
  if (rows <= 0 || cols <= 0 || rows % kTileRows != 0 || cols % kTileCols != 0) {
    throw std::invalid_argument("copy_tiles: " + std::to_string(rows) + "x" +
                                std::to_string(cols) +
                                " is not a multiple of the 128x16 tile (step 2 handles that)");
  }
  const dim3 grid(rows / kTileRows, cols / kTileCols);
  wb::launch(copy_tile_kernel, grid, dim3(kThreads), 0, gmem_in, gmem_out, rows);
}

void copy_tiles_any_shape(const float* gmem_in, float* gmem_out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) {
    throw std::invalid_argument("copy_tiles_any_shape: the array must not be empty");
  }
  const dim3 grid((rows + kTileRows - 1) / kTileRows, (cols + kTileCols - 1) / kTileCols);
  wb::launch(copy_tile_any_shape_kernel, grid, dim3(kThreads), 0, gmem_in, gmem_out, rows,
             cols);
}

}  // namespace ch01
