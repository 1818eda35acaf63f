// Chapter 7, the library way: the interface the skeleton and the solution both implement
// and the grader calls. Read it, but keep it as it is: the grader is compiled against it.
//
// Steps 1 and 2 redo chapters 1 and 6 with the CUDA C++ library's copies (library.cu);
// steps 3 and 4, Hopper's bulk copy and the tensor memory accelerator, redo chapter 1's copy
// and chapter 3's transpose with copies that complete on a cuda::barrier (hopper.cu).
#pragma once

namespace ch07 {

//! [interface]
// Step 1, chapter 1's copy: a block copies one 128x16 tile of a column-major array with
// 256 threads.
inline constexpr int kTileRows = 128;
inline constexpr int kTileCols = 16;
inline constexpr int kThreads = 256;

// Step 2, chapter 6's double-buffered convolution, 5 weights: a block walks tiles of
// 2048 outputs through a two-stage cuda::pipeline. The span of a tile in shared memory
// starts kSpanPad = 8 elements (32 bytes) before the tile, not kHalo = 2: a multiple of 4,
// so that the whole span is one copy of whole, aligned 16-byte vectors, and of 8, so that
// it starts on a 32-byte sector (4 elements, 16 bytes, made the kernel about 4% slower).
inline constexpr int kWidth = 5;
inline constexpr int kHalo = (kWidth - 1) / 2;  // 2
inline constexpr int kStreamTile = 2048;
inline constexpr int kStages = 2;
inline constexpr int kTilesPerBlock = 4;  // chapter 6's: a grid of many waves of short blocks
inline constexpr int kSpanPad = 8;  // the halo rounded up to a 32-byte sector
inline constexpr int kSpan = kStreamTile + 2 * kSpanPad;  // 2064

// Step 3, a bulk copy a tile: a block of kThreads walks kBlockTiles consecutive tiles of
// 1024 floats (4 KiB, a float4 a thread) through kStages stages; one thread loads each tile
// with one bulk copy that completes on its stage's cuda::barrier, and the block waits on
// that barrier.
inline constexpr int kBulkTile = 1024;
inline constexpr int kBlockTiles = 4;  // each stage used twice: phases of parity 0, then 1

// Step 4, the TMA: a block of 256 threads transposes one box of 32 rows x 64 columns of the
// column-major input, loaded by one tensor copy. A column of the box, 32 floats, is 128
// bytes: the span of the 128-byte swizzle that the tile's layout in shared memory follows.
inline constexpr int kBoxRows = 32;
inline constexpr int kBoxCols = 64;
inline constexpr int kBoxThreads = 256;
//! [interface]

// Step 1. Copies the column-major rows x cols float array `gmem_in` to `gmem_out` (device
// pointers) through shared memory, one tile a block. rows must be a multiple of 128 and
// cols of 16 (std::invalid_argument otherwise).
void copy_tiles(const float* gmem_in, float* gmem_out, int rows, int cols);

// Step 2. output[i] = sum over k < 5 of input[i + k - 2] * weights[k], zero outside the
// array, for a device array of n floats; n a positive multiple of 4, so that every copy
// is of whole 16-byte vectors (std::invalid_argument otherwise).
void convolve_pipelined(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n);

// Steps 3 and 4 need Hopper (sm_90) on a GPU; the simulator runs them anywhere. Each throws
// std::runtime_error on an older GPU (wb::hopper_available tells beforehand).

// Step 3. Copies the device array `gmem_in` of n floats to `gmem_out`; n a positive
// multiple of 4, so that every tile is whole 16-byte units (std::invalid_argument otherwise).
void copy_bulk(const float* gmem_in, float* gmem_out, int n);

// Step 4. Writes the transpose of the column-major rows x cols array `gmem_in` to
// `gmem_out`: the column-major cols x rows array with out(c, r) = in(r, c). rows a positive
// multiple of 4 (the TMA's rule: a column's stride is a multiple of 16 bytes), cols >= 1
// (std::invalid_argument otherwise).
void transpose_tma(const float* gmem_in, float* gmem_out, int rows, int cols);

}  // namespace ch07
