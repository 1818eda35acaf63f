// Grading a 1-D convolution with a halo, output[i] = sum over k < width of
// input[i + k - halo] * weights[k], halo = (width - 1) / 2, zero outside the array: one
// run on fresh random input and weights, the output poisoned with guard bands around it,
// then (1) nothing written outside the output, (2) every output within a tolerance of a
// double-precision reference, with the wrong outputs located by tile and the pattern
// named (only the tiles' edges: the halo; only the array's ends: the zeros; every output
// shifted: an index; the weights reversed; the last partial tile never written; the
// seed's pass-through edges), and (3) in the simulator, the step's technique.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "wb/grading/step.hpp"
#include "wb/wb.cuh"

namespace wb::grading {

// An output may differ from the double reference by this much times the sum of the
// weights' magnitudes: a float sum of `width` products is off by at most about
// width * 6e-8 times that (2e-6 at width 33), and a missing product is off by its size.
inline constexpr double kConvolutionTolerance = 1e-5;

struct ConvolutionCheck {
  Step step;
  int n;      // elements of the input and the output
  int width;  // weights
  int tile;   // outputs of a block's tile, to locate mismatches and name edge patterns
  // The elements a block's span starts before its tile (-1: the halo, (width - 1) / 2).
  int span_pad = -1;
  // Other tiles' sizes in the chapter, with their names ({256, "step 1's tiles, kTile"}),
  // so that a start counted in them is named.
  std::vector<std::pair<int, std::string>> other_tile_sizes;
  // Whether a span is copied as one range clipped to the array (chapter 7's library copy),
  // not element by element with zeros outside.
  bool span_copied_clipped = false;
  // Launches the learner's kernel on device pointers.
  std::function<void(const float* gmem_in, const float* gmem_weights, float* gmem_out)> run;
  // Whether the step loads through cp.async (if it issued none, the report says so).
  bool uses_cp_async = true;
  // Appended to every failure of this case: what the case adds (a width wider than a warp).
  std::string note;
  // A cause proven before this run, by runs of the same kernel that passed where this one
  // differs in one thing only (another width): the likely cause of any failure here, before
  // what the run itself shows. Empty: none.
  std::string proven_cause;
  // The likely cause when outputs hold the poison of a copy still in flight, in the
  // step's words (a buffer index, a wait); empty: the generic one.
  std::string in_flight_cause;
  // The N of the step's cp_async_wait<N> (-1: none taught, or several), against which the
  // simulator's record of a copy read in flight is read (diagnosis/in_flight.hpp) where
  // neither cause above fits.
  int step_wait = -1;
  // For a grid whose block b walks the tiles b, b + gridDim.x, ... (steps that stream
  // several tiles a block): the cause when the in-flight outputs lie in each block's
  // first tile only (its copies joined the next tile's group: a commit missing before
  // the loop), and when they lie in each block's last tile only (no group committed in
  // the last iteration, so the wait let the last tile's group travel on). Empty: not
  // named. Recognised in the simulator, which knows the grid and poisons copies in flight.
  std::string first_tile_in_flight_cause;
  std::string last_tile_in_flight_cause;
  // For those steps: the spans' buffers, the i-th tile of a block going to buffer i % buffers
  // and committed as the block's i-th group (0: not a streaming step). A copy touched in
  // flight is then read against them: a buffer that starts inside the one before it.
  int buffers = 0;
#if WB_BACKEND_SIM
  std::function<::testing::AssertionResult(const sim::LaunchStats&)> technique;
  std::function<void(const sim::LaunchStats&)> on_success;
#endif
};

// One run under the schedule named by `configuration`.
void check_convolution(const ConvolutionCheck& check, const std::string& configuration);

// check_convolution for each size, under each schedule, stopping at the first failure.
void check_convolution_sizes(const std::vector<int>& sizes,
                             const std::function<ConvolutionCheck(int n)>& make);

// The reference in double precision. `shift` centres output i at i + shift, and
// `reversed` applies the weights in reverse order, `clamped` repeats the end elements
// instead of zeros (the mistakes the report recognises).
std::vector<double> convolution_reference(const std::vector<float>& input, const std::vector<float>& weights,
                                          int shift = 0, bool reversed = false, bool clamped = false);

// "16461 elements, 5 weights (halo 2)"
std::string convolution_text(int n, int width);

}  // namespace wb::grading
