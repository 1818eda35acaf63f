// Chapter 1, copy: the interface the skeleton and the solution both implement and the
// grader calls, and the layouts the kernels and the book's figures share. Read it, but
// keep it as it is: the grader is compiled against it.
#pragma once

#include "wb/layout.hpp"

namespace ch01 {

// The seed's shapes: a block copies one 128x16 tile with 256 threads arranged 32x8.
inline constexpr int kTileRows = 128;
inline constexpr int kTileCols = 16;
inline constexpr int kThreadRows = 32;
inline constexpr int kThreadCols = 8;

using wb::Int;  // the layouts below, and the chapter's kernel file, write Int<N>

// Compile-time layouts (the kernels recompile if they change), defined here once for
// the kernels of copy.cu and the book's figures (book/figures/ch01_copy.cpp);
// WB_DEVICE_CONSTANT (__device__ under nvcc) so that device code may use them too.
//! [layouts]
WB_DEVICE_CONSTANT constexpr auto smem_layout = wb::col_major(Int<kTileRows>{}, Int<kTileCols>{});     // (128,16):(1,128)
WB_DEVICE_CONSTANT constexpr auto thread_layout = wb::col_major(Int<kThreadRows>{}, Int<kThreadCols>{}); // (32,8):(1,32)
constexpr int kThreads = thread_layout.size();                                                           // 256
//! [layouts]

// Step 1. Copies the column-major rows x cols float array `gmem_in` to `gmem_out`
// (both device pointers) through shared memory, one tile a block. rows must be a
// multiple of 128 and cols a multiple of 16 (std::invalid_argument otherwise).
void copy_tiles(const float* gmem_in, float* gmem_out, int rows, int cols);

// Step 2. The same copy for any rows, cols >= 1: the tiles at the bottom and right
// edges are partial, and no thread may read or write outside the arrays.
void copy_tiles_any_shape(const float* gmem_in, float* gmem_out, int rows, int cols);

}  // namespace ch01
