// Chapter 6, halo convolution: output[i] = sum over k of input[i + k - halo] * weights[k],
// zero outside the array.
//
// A block computes a tile of consecutive outputs. Output i reads the inputs from
// i - halo to i + halo, so the tile needs its own inputs and `halo` more on each side:
// the span, input[tile_start - halo, tile_start + tile + halo). Each input of the span is
// read by up to `width` outputs: the span goes to shared memory once, with cp.async, and
// the outputs read it there. The span's elements that lie outside the array are zeros:
// a cp.async that reads 0 bytes writes a zero, so that the arithmetic needs no bounds.
// The weights are few and loaded with plain loads, while the span's copies travel.
//
// Step 1 computes one tile of 256 outputs a block, one output a thread. Step 2 makes
// the kernel stream: a block walks many tiles of 2048 outputs (8 a thread, two runs of 4
// neighbours, each stored as one 16-byte float4) with two buffers, issuing the next
// tile's copies before it waits for this tile's, so that a copy is always in flight while
// the block computes. Step 3 is step 2 with the width a template parameter, the halo and
// the shared arrays sized from it.
//
// Naming: gmem_ global memory, smem_ shared memory; spans are 1-D, their sizes in the
// comments.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "halo.hpp"
#include "wb/wb.cuh"

namespace ch06 {
namespace {

static_assert(kWidth % 2 == 1, "a centred kernel has an odd width");
static_assert(kTile % kThreads == 0 && kStreamTile % kThreads == 0,
              "the threads of a block cover a tile in whole passes");

// Steps 2 and 3 store 4 neighbouring outputs at once: one float4, 16 bytes.
constexpr int kVector = 4;
static_assert(kOutputsPerThread % kVector == 0, "a thread's outputs are whole float4s");

// ---------------------------------------------------------------------------------
// Given: the pieces around the holes.

// The number of tiles of `tile` outputs that cover n outputs (the last may be partial).
WB_HOST_DEVICE int tiles_of(int n, int tile) { return (n + tile - 1) / tile; }

//! [load span]
// Issues the copies of the span of the tile of Tile outputs that starts at output
// tile_start, input[tile_start - Halo, tile_start + Tile + Halo), into
// smem_span[0, Tile + 2 * Halo): smem_span[j] holds input[tile_start - Halo + j]. Elements
// outside the array [0, n) become zeros. The copies are only issued: the commit, the
// wait and the barrier are the caller's.
template <int Tile, int Halo>
__device__ void load_span_async(float* smem_span, const float* gmem_in, int n, int tile_start) {
  //! [step 1 hole]
  for (int j = threadIdx.x; j < Tile + 2 * Halo; j += kThreads) {
    const int index = tile_start - Halo + j;  // of the input
    const bool inside = index >= 0 && index < n;
    // Outside the array: 0 bytes read, a zero written (the source, never read, is gmem_in).
    wb::cp_async_ca<4>(&smem_span[j], inside ? gmem_in + index : gmem_in, inside ? 4 : 0);
  }
  //! [step 1 hole]
}
//! [load span]

// ---------------------------------------------------------------------------------
// The steps.

//! [step 1 kernel]
__global__ void convolve_tile_kernel(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n) {
  __shared__ float smem_span[kTile + 2 * kHalo];  // (260): input[tile_start - 2, tile_start + 258)
  __shared__ float smem_weights[kWidth];          // (5)

  const int tile_start = blockIdx.x * kTile;       // this block's first output
  const int out_index = tile_start + threadIdx.x;  // this thread's output; its inputs are
                                                   // smem_span[threadIdx.x, threadIdx.x + 5)
  //! [step 1 hole]
  load_span_async<kTile, kHalo>(smem_span, gmem_in, n, tile_start);
  wb::cp_async_commit();
  // The weights come with plain loads while the span's copies travel.
  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];
  wb::cp_async_wait<0>();  // this thread's copies have landed: visible to this thread only
  __syncthreads();         // everyone's copies and the weights are visible to all
  if (out_index < n) {
    float sum = 0.0f;
    WB_UNROLL
    for (int k = 0; k < kWidth; ++k) sum += smem_span[threadIdx.x + k] * smem_weights[k];
    gmem_out[out_index] = sum;
  }
  //! [step 1 hole]
}
//! [step 1 kernel]

//! [convolve tile]
// Steps 2 and 3: convolves the tile of kStreamTile outputs that starts at tile_start,
// whose span is smem_span, and stores the outputs that lie inside [0, n). Thread t
// computes 4 neighbouring outputs, 4t to 4t + 3 of the tile, and the 4 that lie 1024
// (kVector * kThreads) further on. A weight is read once for the thread's 8 outputs. Each
// 4 go out as one 16-byte store (a float4): a warp stores 512 consecutive bytes at once
// (on an H200, one float a store made the step a point or two slower: the page has the
// figures). Four outputs that cross n, or that do not start at a multiple of 16 bytes
// (never in a right kernel, whose tile_start is a multiple of kStreamTile), go one float
// at a time.
template <int Width>
__device__ void convolve_stream_tile(const float* smem_span, const float* smem_weights, float* gmem_out, int n,
                                     int tile_start) {
  constexpr int passes = kOutputsPerThread / kVector;  // 2
  float sums[passes][kVector] = {};
  WB_UNROLL
  for (int k = 0; k < Width; ++k) {
    const float weight = smem_weights[k];
    WB_UNROLL
    for (int pass = 0; pass < passes; ++pass) {
      WB_UNROLL
      for (int j = 0; j < kVector; ++j) {
        sums[pass][j] += smem_span[pass * kVector * kThreads + kVector * threadIdx.x + j + k] * weight;
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
// The grid is smaller than the number of tiles: block b computes the tiles b, b + gridDim.x,
// b + 2 * gridDim.x, ... Its i-th tile goes to buffer i % 2.
__global__ void convolve_double_buffered_kernel(const float* gmem_in, const float* gmem_weights, float* gmem_out,
                                                int n) {
  __shared__ float smem_span[kBuffers][kStreamTile + 2 * kHalo];  // 2 x (2052)
  __shared__ float smem_weights[kWidth];                          // (5)

  const int tiles = tiles_of(n, kStreamTile);
  //! [step 2 hole]
  // The first tile's copies in flight, the weights loaded meanwhile.
  load_span_async<kStreamTile, kHalo>(smem_span[0], gmem_in, n, blockIdx.x * kStreamTile);
  wb::cp_async_commit();
  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];
  int buffer = 0;
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, buffer ^= 1) {
    // The next tile's copies go into the other buffer, which everyone finished reading in
    // the previous iteration (the barrier at its end). Past the last tile the group is
    // empty: every iteration commits one, so wait<1> means the same in each.
    const int next_tile = tile + gridDim.x;
    if (next_tile < tiles) {
      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);
    }
    wb::cp_async_commit();
    wb::cp_async_wait<1>();  // this tile's group has landed; the next one's may still travel
    __syncthreads();         // everyone's copies of this tile, and the weights, visible to all
    convolve_stream_tile<kWidth>(smem_span[buffer], smem_weights, gmem_out, n, tile * kStreamTile);
    __syncthreads();  // everyone has read this buffer before the next iteration refills it
  }
  //! [step 2 hole]
}
//! [step 2 kernel]

//! [step 3 kernel]
template <int Width>
__global__ void convolve_width_kernel(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n) {
  static_assert(Width % 2 == 1, "a centred kernel has an odd width");
  static_assert(Width <= kStreamTile, "the span holds at most two tiles");
  constexpr int halo = halo_of(Width);                           // (Width - 1) / 2 on each side
  __shared__ float smem_span[kBuffers][kStreamTile + 2 * halo];  // 2 x (2048 + Width - 1)
  __shared__ float smem_weights[Width];                          // (Width)

  const int tiles = tiles_of(n, kStreamTile);
  //! [step 3 hole]
  load_span_async<kStreamTile, halo>(smem_span[0], gmem_in, n, blockIdx.x * kStreamTile);
  wb::cp_async_commit();
  // Any width, wider than a warp or than the block: a strided loop.
  for (int k = threadIdx.x; k < Width; k += kThreads) smem_weights[k] = gmem_weights[k];
  int buffer = 0;
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, buffer ^= 1) {
    const int next_tile = tile + gridDim.x;
    if (next_tile < tiles) {
      load_span_async<kStreamTile, halo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);
    }
    wb::cp_async_commit();
    wb::cp_async_wait<1>();
    __syncthreads();
    convolve_stream_tile<Width>(smem_span[buffer], smem_weights, gmem_out, n, tile * kStreamTile);
    __syncthreads();
  }
  //! [step 3 hole]
}
//! [step 3 kernel]

void require_size(const char* function, int n) {
  if (n <= 0) throw std::invalid_argument(std::string(function) + ": n must be at least 1 (" + std::to_string(n) + ")");
}

// Steps 2 and 3: kTilesPerBlock tiles a block, so that the grid is many waves of short
// blocks: where one block ends early, another takes its place (a grid of one wave, each
// block walking many tiles, leaves the SMs idle at its end).
dim3 streaming_grid(int n) {
  return dim3(static_cast<unsigned>((tiles_of(n, kStreamTile) + kTilesPerBlock - 1) / kTilesPerBlock));
}

}  // namespace

void convolve_tiles(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n) {
  require_size("convolve_tiles", n);
  const dim3 grid(static_cast<unsigned>(tiles_of(n, kTile)));
  wb::launch(convolve_tile_kernel, grid, dim3(kThreads), 0, gmem_in, gmem_weights, gmem_out, n);
}

void convolve_double_buffered(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n) {
  require_size("convolve_double_buffered", n);
  wb::launch(convolve_double_buffered_kernel, streaming_grid(n), dim3(kThreads), 0,
             gmem_in, gmem_weights, gmem_out, n);
}

template <int Width>
void convolve_width(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n) {
  require_size("convolve_width", n);
  wb::launch(convolve_width_kernel<Width>, streaming_grid(n), dim3(kThreads), 0,
             gmem_in, gmem_weights, gmem_out, n);
}

template void convolve_width<3>(const float*, const float*, float*, int);
template void convolve_width<5>(const float*, const float*, float*, int);
template void convolve_width<7>(const float*, const float*, float*, int);
template void convolve_width<9>(const float*, const float*, float*, int);
template void convolve_width<33>(const float*, const float*, float*, int);

}  // namespace ch06
