// Chapter 6, halo convolution: the interface the skeleton and the solution both implement
// and the grader calls. Read it, but keep it as it is: the grader is compiled against it.
#pragma once

#include "wb/layout.hpp"  // WB_HOST_DEVICE

namespace ch06 {

//! [interface]
// The convolution, for a float array `input` of n elements and `width` weights:
//
//   output[i] = sum over k < width of input[i + k - halo] * weights[k],  halo = (width - 1) / 2
//
// with input[j] = 0 for j < 0 and j >= n (zero padding at both ends of the array). An
// output needs the `halo` inputs on each side of its own: the tile of outputs a block
// computes needs its tile of inputs plus a halo on each side, the span.
WB_HOST_DEVICE constexpr int halo_of(int width) { return (width - 1) / 2; }

// The seed's configuration: 5 weights, 16384 elements, tiles of 256 outputs, 256
// threads a block (one output each in step 1).
inline constexpr int kWidth = 5;
inline constexpr int kHalo = halo_of(kWidth);  // 2
inline constexpr int kTile = 256;
inline constexpr int kThreads = 256;
inline constexpr int kSeedSize = 16384;

// Steps 2 and 3: a block walks many tiles, each of kStreamTile outputs (8 a thread), two
// spans in shared memory at once: one computed, the next one in flight.
inline constexpr int kStreamTile = 2048;
inline constexpr int kOutputsPerThread = kStreamTile / kThreads;  // 8
inline constexpr int kBuffers = 2;
// Each block of steps 2 and 3 walks this many tiles: enough for the copies of one to
// travel while another is computed, few enough that the grid is many waves of blocks.
inline constexpr int kTilesPerBlock = 4;
//! [interface]

// Each function convolves the device array gmem_in (n floats) with the device array
// gmem_weights and writes the n outputs to gmem_out. Any n >= 1 (std::invalid_argument
// otherwise).

// Step 1. One tile a block: the span through cp.async, the weights with plain loads
// while the copies travel. kWidth weights.
void convolve_tiles(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n);

// Step 2. A block walks its tiles with two buffers: the next tile's span loads while this
// one is computed. kWidth weights.
void convolve_double_buffered(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n);

// Step 3. Step 2 for a width given at compile time (odd), the halo sized from it. Defined
// for the widths 3, 5, 7, 9 and 33 (wider than a warp).
template <int Width>
void convolve_width(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n);

}  // namespace ch06
