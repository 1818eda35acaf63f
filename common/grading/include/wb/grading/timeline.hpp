// The main of a timeline program (timelines/timeline_0N_*.cpp, run by make
// timeline-chapterN): runs one step's kernel with wb::trace recording a sample of its
// blocks, and writes the recording for timeline_svg to draw.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace wb::grading {

// argv[1]: the file to write. `launch` runs the kernel once on data the program prepared;
// `title` names the step ("Chapter 6, step 2, double-buffered"). On a GPU it also prints
// the kernel's time in this trace build, with the recording off and on (median of 20
// after warm-up). Returns the program's exit code: 1 where the kernel failed, with why.
// `sim_copy_steps`: in the simulator, the steps a copy group takes to land (about the
// reference's work on one tile, so that its overlap shows; wb/trace.hpp).
int timeline_main(int argc, char** argv, const std::string& title, std::uint64_t sim_copy_steps,
                  const std::function<void()>& launch);

// The same for the chapters' two kinds of kernel, on fresh random data: a GEMM C = A * B^T
// (column-major, m x k and n x k: 2048 x 2048 x 1024 on a GPU, 256 x 256 x 64 in the
// simulator), and a 1-D convolution of `width` weights over n floats (2^26 on a GPU; in
// the simulator `sim_n`, enough for the sampled blocks).
// And a copy of a rows x cols column-major array (8192 x 8192 on a GPU, 256 x 64 in
// the simulator).
using CopyKernel = void (*)(const float* gmem_in, float* gmem_out, int rows, int cols);
int copy_timeline_main(int argc, char** argv, const std::string& title, std::uint64_t sim_copy_steps,
                       CopyKernel copy);
using GemmKernel = void (*)(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k);
int gemm_timeline_main(int argc, char** argv, const std::string& title, std::uint64_t sim_copy_steps,
                       GemmKernel gemm);
using ConvolutionKernel = void (*)(const float* gmem_in, const float* gmem_weights, float* gmem_out, int n);
int convolution_timeline_main(int argc, char** argv, const std::string& title, std::uint64_t sim_copy_steps,
                              int width, int sim_n, ConvolutionKernel convolve);

}  // namespace wb::grading
