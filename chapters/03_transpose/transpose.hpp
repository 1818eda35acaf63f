// Chapter 3, transpose: the interface the skeleton and the solution both implement and
// the grader calls, and the layouts the kernels and the book's figures share. Read it,
// but keep it as it is: the grader is compiled against it.
#pragma once

#include "wb/layout.hpp"

namespace ch03 {

// The shapes: a block transposes one 256x16 tile of the input with 256 threads,
// arranged 32x8 to copy the tile in and 16x16 to write it out. 256 rows, where 64 would
// do for the banks and the coalescing: the copy in then reads each column of the tile as
// one run of 1 KB, not 256 bytes, which the H200 needs to come near cudaMemcpy (chapter
// 3's page, "Measured speed").
inline constexpr int kTileRows = 256;
inline constexpr int kTileCols = 16;
inline constexpr int kLoadThreadRows = 32;
inline constexpr int kLoadThreadCols = 8;
inline constexpr int kStoreThreadRows = 16;
inline constexpr int kStoreThreadCols = 16;

using wb::Int;  // the layouts below, and the chapter's kernel file, write Int<N>

// The unpadded tile and the two thread layouts, defined here once for the kernels of
// transpose.cu and the book's figures (book/figures/ch03_transpose.cpp);
// WB_DEVICE_CONSTANT (__device__ under nvcc) so that device code may use them.
//! [layouts]
WB_DEVICE_CONSTANT constexpr auto smem_layout = wb::col_major(Int<kTileRows>{}, Int<kTileCols>{});      // (256,16):(1,256)
WB_DEVICE_CONSTANT constexpr auto load_thread_layout = wb::col_major(Int<kLoadThreadRows>{}, Int<kLoadThreadCols>{});     // (32,8):(1,32)
WB_DEVICE_CONSTANT constexpr auto store_thread_layout = wb::col_major(Int<kStoreThreadRows>{}, Int<kStoreThreadCols>{});  // (16,16):(1,16)
constexpr int kThreads = load_thread_layout.size();                                                        // 256
//! [layouts]

// Each function writes the transpose of the column-major rows x cols float array
// `gmem_in` to `gmem_out` (both device pointers): the column-major cols x rows array with
// out(c, r) = in(r, c).

// Step 1. Without shared memory, for any rows, cols >= 1.
void transpose_naive(const float* gmem_in, float* gmem_out, int rows, int cols);

// Step 2. Through shared memory with cp.async; rows a multiple of 256 and cols a multiple
// of 16 (std::invalid_argument otherwise).
void transpose_tiles(const float* gmem_in, float* gmem_out, int rows, int cols);

// Step 3. Through a padded shared tile, conflict-free both ways, for any rows, cols >= 1.
void transpose_padded(const float* gmem_in, float* gmem_out, int rows, int cols);

// The distance in floats between two columns of step 3's shared tile: 256 plus the
// padding chosen in step 3 (the grader draws its bank maps).
int transpose_padded_stride();

}  // namespace ch03
