// Chapter 7, the library way: chapters 1 and 6 again, with the copies of the CUDA C++
// library instead of the workbook's cp.async wrappers.
//
// Step 1 is chapter 1's tile copy. cooperative_groups::memcpy_async(block, dst, src, bytes)
// is called by every thread of the block with the same arguments; the library splits the
// bytes over the threads and each issues its share as cp.async, then commits them. The
// copies are as wide as the call promises at compile time, never wider because the
// addresses happen to allow it: float pointers promise alignof(float), 4 bytes, and nvcc's
// code copies 4 bytes at a time. cuda::aligned_size_t<16>(bytes) promises that both
// addresses and the size are multiples of 16 (every column of the tile starts at a
// multiple of 512 bytes), and the copies are chapter 5's 16-byte ones.
// cooperative_groups::wait(block) is the wait of chapter 1 and its __syncthreads() in one
// call. A call copies one contiguous run: a column of the tile.
//
// Step 2 is chapter 6's double buffer, with a cuda::pipeline of two stages keeping the
// books: producer_acquire() takes a free stage (the library waits until every thread has
// released it), the copies go into it, producer_commit() closes it (the commit), and
// consumer_wait() waits for the oldest stage of every thread (the wait and the barrier);
// consumer_release() hands the stage back (the barrier at the end of chapter 6's loop).
// cuda::aligned_size_t<16> promises whole, aligned 16-byte vectors, so the span starts 8
// elements (32 bytes, a sector) before its tile: one copy covers a tile and both its halos.
//
// Naming: gmem_ global memory, smem_ shared memory; shapes in the comments.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "library.hpp"
#include "wb/wb.cuh"

namespace ch07 {
namespace {

namespace cg = cooperative_groups;
using wb::Int;
using Pipeline = cuda::pipeline<cuda::thread_scope_block>;

//! [layouts]
__device__ constexpr auto smem_layout = wb::col_major(Int<kTileRows>{}, Int<kTileCols>{});  // (128,16):(1,128)
//! [layouts]

// Steps 1 and 2 store kVector floats at once: one float4, 16 bytes.
constexpr int kVector = 4;

static_assert(kTileRows * sizeof(float) % 16 == 0, "each column of the tile is whole 16-byte vectors");
static_assert(kStreamTile % (kVector * kThreads) == 0, "the threads of a block cover a tile in whole passes of float4s");
static_assert(kSpanPad >= kHalo && kSpanPad % 4 == 0, "the span's pad holds the halo and keeps 16-byte alignment");

WB_HOST_DEVICE int tiles_of(int n, int tile) { return (n + tile - 1) / tile; }

//! [step 1 kernel]
__global__ void copy_tile_kernel(const float* gmem_in, float* gmem_out, int rows) {
  __shared__ __align__(16) float smem_tile[smem_layout.cosize()];  // (128,16)

  const cg::thread_block block = cg::this_thread_block();
  const int tile_row = blockIdx.x * kTileRows;
  const int tile_col = blockIdx.y * kTileCols;
  const auto gmem_layout = wb::col_major(rows, Int<kTileCols>{}, rows);  // (rows,16):(1,rows)
  const float* gmem_tile_in = gmem_in + tile_row + tile_col * rows;    // (128,16)
  float* gmem_tile_out = gmem_out + tile_row + tile_col * rows;        // (128,16)

  // TODO(step 1): copy each of the tile's 16 columns (128 contiguous floats each) into
  // smem_tile with one cg::memcpy_async over the block, its size a
  // cuda::aligned_size_t<16> for 16-byte copies, then cg::wait(block) (about 5 lines)

  // The store is chapter 1's: the tile as one flat column-major run, 4 floats (a 16-byte
  // float4 of one column) a thread at a time: coalesced, and mostly other threads' elements.
  for (int index = kVector * block.thread_rank(); index < smem_layout.size(); index += kVector * kThreads) {
    const wb::Coord element = smem_layout.coord(index);  // the first of 4 rows of one column
    *reinterpret_cast<float4*>(&gmem_tile_out[gmem_layout(element.row, element.col)]) =
        *reinterpret_cast<const float4*>(&smem_tile[smem_layout(element.row, element.col)]);
  }
}
//! [step 1 kernel]

//! [load span]
// Issues, into the pipeline's acquired stage, the copies of the span of the tile that starts
// at output tile_start: smem_span[j] holds input[tile_start - kSpanPad + j], j < kSpan.
// The part of the span inside [0, n) is two collective copies, split at tile_start: the
// tile with its right pad, then the left pad. tile_start is a multiple of 8 KiB, so each
// warp's 512 bytes of the first copy are 4 whole 128-byte lines, where one copy from 32
// bytes before the tile would spread every warp's share over 5. The rest of the span,
// before the array's start or after its end, is zeros, stored before the commit that
// publishes them.
__device__ inline void load_span_async(const cg::thread_block& block, Pipeline& pipeline, float* smem_span,
                                       const float* gmem_in, int n, int tile_start) {
  const int span_start = tile_start - kSpanPad;           // the input index of smem_span[0]
  const int first = span_start > 0 ? span_start : 0;                // the span's inputs inside
  const int last = span_start + kSpan < n ? span_start + kSpan : n;  // [0, n): [first, last)
  // TODO(step 2): two cuda::memcpy_async over the block into the acquired stage, each of
  // cuda::aligned_size_t<16> bytes: the inputs [tile_start, last) to smem_span + kSpanPad,
  // then, where the span starts before its tile (every tile but the array's first), the
  // inputs [first, tile_start) to their place in smem_span; then zeros in the rest of
  // smem_span, in the spans that have a rest (about 12 lines)
}
//! [load span]

//! [convolve tile]
// Convolves the tile that starts at tile_start from its span and stores the outputs inside
// [0, n), as chapter 6's convolve_stream_tile does: thread t computes the 4 neighbouring
// outputs 4t to 4t + 3 of the tile and the 4 that lie 1024 further on, and stores each 4
// as one 16-byte float4 (one float at a time where they cross n or, in a wrong kernel,
// do not start at a multiple of 16 bytes).
__device__ inline void convolve_tile(const float* smem_span, const float* smem_weights, float* gmem_out, int n,
                                     int tile_start) {
  constexpr int passes = kStreamTile / (kVector * kThreads);  // 2
  float sums[passes][kVector] = {};
  WB_UNROLL
  for (int k = 0; k < kWidth; ++k) {
    const float weight = smem_weights[k];
    WB_UNROLL
    for (int pass = 0; pass < passes; ++pass) {
      WB_UNROLL
      for (int j = 0; j < kVector; ++j) {
        // Output o reads input[o - kHalo + k], which is smem_span[o + kSpanPad - kHalo + k].
        const int output = pass * kVector * kThreads + kVector * threadIdx.x + j;  // in the tile
        sums[pass][j] += smem_span[output + kSpanPad - kHalo + k] * weight;
      }
    }
  }
  WB_UNROLL
  for (int pass = 0; pass < passes; ++pass) {
    const int out_index = tile_start + pass * kVector * kThreads + kVector * threadIdx.x;  // the first of 4
    float* gmem_outputs = gmem_out + out_index;
    if (out_index + kVector <= n && reinterpret_cast<std::uintptr_t>(gmem_outputs) % 16 == 0) {
      *reinterpret_cast<float4*>(gmem_outputs) = make_float4(sums[pass][0], sums[pass][1], sums[pass][2], sums[pass][3]);
    } else {
      WB_UNROLL
      for (int j = 0; j < kVector; ++j) {
        if (out_index + j < n) gmem_outputs[j] = sums[pass][j];
      }
    }
  }
}
//! [convolve tile]

//! [step 2 kernel]
// Block b computes the tiles b, b + gridDim.x, ...; its i-th tile goes to stage i % 2.
__global__ void convolve_pipelined_kernel(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n) {
  __shared__ __align__(16) float smem_span[kStages][kSpan];  // 2 x (2064)
  __shared__ float smem_weights[kWidth];                     // (5)
  WB_SHARED_LIBRARY_STATE
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> pipeline_state;

  const cg::thread_block block = cg::this_thread_block();
  Pipeline pipeline = cuda::make_pipeline(block, &pipeline_state);
  const int tiles = tiles_of(n, kStreamTile);
  // TODO(step 2): chapter 6's double buffer through the pipeline: acquire, load the first
  // tile, the weights, commit; then per tile: acquire, load the next tile into the other
  // stage, commit, consumer_wait, convolve_tile, consumer_release (about 16 lines)
}
//! [step 2 kernel]

}  // namespace

void copy_tiles(const float* gmem_in, float* gmem_out, int rows, int cols) {
  if (rows <= 0 || cols <= 0 || rows % kTileRows != 0 || cols % kTileCols != 0) {
    throw std::invalid_argument("copy_tiles: " + std::to_string(rows) + "x" + std::to_string(cols) +
                                " is not a multiple of the 128x16 tile");
  }
  const dim3 grid(rows / kTileRows, cols / kTileCols);
  wb::launch(copy_tile_kernel, grid, dim3(kThreads), 0, gmem_in, gmem_out, rows);
}

void convolve_pipelined(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n) {
  if (n <= 0 || n % 4 != 0) {
    throw std::invalid_argument("convolve_pipelined: n must be a positive multiple of 4 (" + std::to_string(n) + ")");
  }
  // kTilesPerBlock tiles a block, as chapter 6's step 2: many waves of short blocks.
  const dim3 grid(static_cast<unsigned>((tiles_of(n, kStreamTile) + kTilesPerBlock - 1) / kTilesPerBlock));
  wb::launch(convolve_pipelined_kernel, grid, dim3(kThreads), 0, gmem_in, gmem_weights, gmem_out, n);
}

}  // namespace ch07
