// Chapter 5, vectorized copies and alignment: the interface the skeleton and the solution
// both implement and the grader calls. Read it, but keep it as it is: the grader is
// compiled against it.
#pragma once

namespace ch05 {

// Steps 1 and 3: chapter 1's copy. A block copies one 128x16 tile of a column-major
// array through a shared tile with 256 threads.
inline constexpr int kTileRows = 128;
inline constexpr int kTileCols = 16;
inline constexpr int kThreads = 256;

// Step 1. Chapter 1's copy_tiles with 8-byte copies (two consecutive rows of a column in
// one cp.async), then with 16-byte copies (four rows). rows must be a multiple of 128
// and cols of 16 (std::invalid_argument otherwise).
void copy_tiles_8(const float* gmem_in, float* gmem_out, int rows, int cols);
void copy_tiles_16(const float* gmem_in, float* gmem_out, int rows, int cols);

// Step 2. Chapter 4's step 4, C = A * B^T (A m x k, B n x k, C m x n, column-major),
// with every tile of A and B copied by 16-byte cp.async. Any m, n, k >= 1; where m or
// n is no multiple of 4, the columns of A or B do not start at multiples of 16 bytes
// and that operand's tiles are copied 4 bytes at a time, as in chapter 4.
inline constexpr int kGemmTile = 128;   // bM = bN
inline constexpr int kGemmTileK = 16;   // bK: twice chapter 4's (see the book)
inline constexpr int kGemmStages = 3;
void gemm_copies_16(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k);

// Step 3. Copies `count` floats, any count >= 1, with 16-byte copies through a shared
// tile of kTailTile floats a block: the last tile is partial, and so may be its last
// quad (count no multiple of 4), whose 1 to 3 floats take 4-byte copies: no copy
// addresses a byte past the end of the input.
inline constexpr int kTailTile = 4 * kThreads;  // 1024 floats, one float4 per thread
void copy_any_length_16(const float* gmem_in, float* gmem_out, int count);

}  // namespace ch05
