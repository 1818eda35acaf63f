// Chapter 2, padded shared memory: the interface the skeleton and the solution both
// implement and the grader calls, and step 2's layouts, which the kernels and the book's
// figures share. Read it, but keep it as it is: the grader is compiled against it.
#pragma once

#include "wb/layout.hpp"

namespace ch02 {

// Step 1, the starting shapes: a block copies one 128x16 tile with 256 threads arranged
// 32x8, through a shared tile whose columns are 130 floats apart (two padding rows).
inline constexpr int kTileRows = 128;
inline constexpr int kTileCols = 16;
inline constexpr int kThreadRows = 32;
inline constexpr int kThreadCols = 8;
inline constexpr int kPaddedStride = 130;

// Step 2: a block sums a strip of 32 columns, 128 rows at a time; its 8 warps read the
// shared tile along its rows, a warp's 32 lanes on the 32 columns of one row.
inline constexpr int kStripCols = 32;
inline constexpr int kWarps = 8;

using wb::Int;  // the layouts below, and the chapter's kernel file, write Int<N>

// Step 2's layouts, defined here once for column_sums_kernel in padded.cu and the book's
// figures (book/figures/ch02_padded.cpp); WB_DEVICE_CONSTANT (__device__ under nvcc) so
// that device code may use them.
//! [step 2 layouts]
WB_DEVICE_CONSTANT constexpr auto copy_thread_layout = wb::col_major(Int<kThreadRows>{}, Int<kThreadCols>{});  // (32,8):(1,32)
WB_DEVICE_CONSTANT constexpr auto sum_thread_layout = wb::row_major(Int<kWarps>{}, Int<kStripCols>{});       // (8,32):(32,1)
WB_DEVICE_CONSTANT constexpr auto partial_sums_layout = wb::row_major(Int<kWarps>{}, Int<kStripCols>{});     // (8,32):(32,1)
//! [step 2 layouts]

// Step 1. Copies the column-major rows x cols float array `gmem_in` to `gmem_out` (both
// device pointers) through the padded shared tile, for any rows, cols >= 1.
void copy_tiles_padded(const float* gmem_in, float* gmem_out, int rows, int cols);

// Step 2. gmem_sums[c] = the sum of column c of the column-major rows x cols array
// `gmem_in`, for any rows, cols >= 1, with the padding chosen in step 2.
void column_sums(const float* gmem_in, float* gmem_sums, int rows, int cols);

// The same kernel with no padding (columns 128 floats apart): the "before" that the
// grader and bench-chapter2 compare step 2 with.
void column_sums_unpadded(const float* gmem_in, float* gmem_sums, int rows, int cols);

// The distance in floats between two columns of step 2's shared tile: 128 plus the
// padding chosen in step 2 (the grader draws its bank map).
int column_sums_stride();

}  // namespace ch02
