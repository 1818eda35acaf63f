// The findings and models of a 1-D convolution with a halo (wb/grading/convolution.hpp):
// where the wrong outputs lie in their tiles and in the array (a tile's edges: the halo;
// the array's ends: the zeros; the last partial tile: the tile count; the first or last
// tile of every block, read in flight: a commit), what they hold (the input itself: the
// seed's pass-through edges), and the mistakes modelled on the same input and weights
// (every output shifted by an index; the weights reversed; the ends clamped).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "wb/grading/convolution.hpp"
#include "wb/grading/diagnosis/diagnosis.hpp"

namespace wb::grading {

// A failing run: what went in, what came out, and how far an output may be off.
struct ConvolutionRun {
  const ConvolutionCheck& check;
  const std::vector<float>& input;
  const std::vector<float>& weights;
  const std::vector<float>& output;
  const std::vector<double>& reference;
  double allowed;        // |output - reference| allowed
  std::uint64_t blocks;  // the launch's grid, where the simulator tells it (0: unknown)
#if WB_BACKEND_SIM
  const sim::LaunchStats* stats = nullptr;  // the launch's record, where the simulator ran it
#endif
};

// Whether every output is within `run.allowed` of `model`.
bool reproduces(const ConvolutionRun& run, const std::vector<double>& model);

// Adds the convolution's findings and models to `diagnosis`, in the order they are
// tried. `run` must outlive the diagnosis.
void add_convolution_findings(Diagnosis& diagnosis, const ConvolutionRun& run);

}  // namespace wb::grading
