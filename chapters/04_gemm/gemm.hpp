// Chapter 4, async GEMM: the interface the skeleton and the solution both implement and
// the grader calls. Read it, but keep it as it is: the grader is compiled against it.
#pragma once

#include "wb/layout.hpp"  // WB_HOST_DEVICE

namespace ch04 {

// The shapes. A block computes one 128x128 tile of C, walking K 8 at a time: the tile
// of A it needs is (128,8), that of B (128,8) too. Its 256 threads copy those tiles
// arranged 32x8, and compute arranged 16x16, each thread owning 8x8 elements of C.
inline constexpr int kTileM = 128;  // bM
inline constexpr int kTileN = 128;  // bN
inline constexpr int kTileK = 8;    // bK
inline constexpr int kLoadThreadRows = 32;
inline constexpr int kLoadThreadCols = 8;
inline constexpr int kThreadRows = 16;
inline constexpr int kThreadCols = 16;
inline constexpr int kMicroM = kTileM / kThreadRows;  // 8 rows of C per thread
inline constexpr int kMicroN = kTileN / kThreadCols;  // 8 columns of C per thread
// Steps 3 and 4: shared stages of the pipeline (tiles of A and B in shared memory at once).
inline constexpr int kStages = 3;
// Step 4: a thread reads its fragments of A and B as float4, 4 consecutive rows at once.
inline constexpr int kVector = 4;
// Step 5: a k-tile twice as deep, (128,16), half as many barriers and waits per k.
inline constexpr int kDeepTileK = 16;

//! [micro tile]
// Step 4's micro-tile: the thread at (r, c) of the 16x16 thread layout owns 2x2 blocks of
// 4x4 elements of the block's tile of C: rows micro_row(r, i), columns micro_col(c, j),
// i and j from 0 to 7. Each block's 4 rows are one float4 of a column of a shared tile.
WB_HOST_DEVICE constexpr int micro_row(int thread_row, int i) {
  return (i / kVector) * kVector * kThreadRows + thread_row * kVector + i % kVector;
}
WB_HOST_DEVICE constexpr int micro_col(int thread_col, int j) {
  return (j / kVector) * kVector * kThreadCols + thread_col * kVector + j % kVector;
}
//! [micro tile]

// Each function computes C = A * B^T for column-major float arrays on the device:
// A is m x k, B is n x k, C is m x n: C(i, j) = sum over p of A(i, p) * B(j, p).
// Any m, n, k >= 1 (std::invalid_argument otherwise).

// Step 1. Tiles through shared memory with plain loads: the baseline.
void gemm_shared(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k);

// Step 2. The tiles loaded with cp.async, one tile at a time.
void gemm_async(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k);

// Step 3. A kStages-deep pipeline: the loads of the next tiles in flight while one is
// computed.
void gemm_pipelined(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k);

// Step 4. Step 3's pipeline, each thread's 8x8 part of C in registers, its fragments of
// A and B read once per k as float4.
void gemm_register_blocked(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n,
                           int k);

// Step 5. Step 4 with (128,16) k-tiles and its fragments double-buffered in registers:
// those of column kk + 1 read while the FMAs of column kk run.
void gemm_double_buffered(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k);

}  // namespace ch04
