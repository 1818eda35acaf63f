#include "wb/grading/timeline.hpp"

#include <cstdio>
#include <exception>

#include "recording_file.hpp"
#include "wb/grading/random.hpp"
#include "wb/trace.hpp"
#include "wb/wb.cuh"

namespace wb::grading {

namespace {

// A few blocks: on a GPU, likely on different SMs; in the simulator, enough to see one
// block's warps beside another's.
constexpr unsigned kSampleBlocks = backend == Backend::sim ? 2 : 4;

}  // namespace

int timeline_main(int argc, char** argv, const std::string& title, std::uint64_t sim_copy_steps,
                  const std::function<void()>& launch) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s RECORDING_FILE\n", argv[0]);
    return 2;
  }
  try {
#if WB_BACKEND_CUDA
    const double untraced_ms = median_milliseconds(launch, 3, 20);
    trace::start(kSampleBlocks);
    const double traced_ms = median_milliseconds(launch, 0, 20);
    trace::stop();
    std::printf("  %s: %.3f ms a launch in the trace build, %.3f ms while recording (median of 20)\n", title.c_str(),
                untraced_ms, traced_ms);
#endif
    trace::start(kSampleBlocks, sim_copy_steps);
    launch();
    synchronize();
    timeline::write_recording(argv[1], {title, trace::stop()});
  } catch (const std::exception& error) {
    trace::stop();
    std::printf("  %s: the kernel failed, so there is no timeline to draw: %s\n  Run check-chapter first.\n",
                title.c_str(), error.what());
    return 1;
  }
  return 0;
}

int copy_timeline_main(int argc, char** argv, const std::string& title, std::uint64_t sim_copy_steps,
                       CopyKernel copy) {
  const bool gpu = backend == Backend::cuda;
  const int rows = gpu ? 8192 : 256, cols = gpu ? 8192 : 64;
  DeviceBuffer<float> gmem_in(static_cast<std::size_t>(rows) * cols), gmem_out(gmem_in.size());
  gmem_in.upload(random_floats(gmem_in.size(), fresh_seed()));
  return timeline_main(argc, argv, title, sim_copy_steps, [&] { copy(gmem_in.data(), gmem_out.data(), rows, cols); });
}

int gemm_timeline_main(int argc, char** argv, const std::string& title, std::uint64_t sim_copy_steps,
                       GemmKernel gemm) {
  const bool gpu = backend == Backend::cuda;
  const int m = gpu ? 2048 : 256, n = m, k = gpu ? 1024 : 64;
  const auto seed = fresh_seed();
  DeviceBuffer<float> gmem_a(static_cast<std::size_t>(m) * k), gmem_b(static_cast<std::size_t>(n) * k),
      gmem_c(static_cast<std::size_t>(m) * n);
  gmem_a.upload(random_floats(gmem_a.size(), seed));
  gmem_b.upload(random_floats(gmem_b.size(), seed + 1));
  return timeline_main(argc, argv, title, sim_copy_steps,
                       [&] { gemm(gmem_a.data(), gmem_b.data(), gmem_c.data(), m, n, k); });
}

int convolution_timeline_main(int argc, char** argv, const std::string& title, std::uint64_t sim_copy_steps,
                              int width, int sim_n, ConvolutionKernel convolve) {
  const int n = backend == Backend::cuda ? 1 << 26 : sim_n;
  const auto seed = fresh_seed();
  DeviceBuffer<float> gmem_in(static_cast<std::size_t>(n)), gmem_out(static_cast<std::size_t>(n)),
      gmem_weights(static_cast<std::size_t>(width));
  gmem_in.upload(random_floats(gmem_in.size(), seed));
  gmem_weights.upload(random_floats(gmem_weights.size(), seed + 1));
  return timeline_main(argc, argv, title, sim_copy_steps,
                       [&] { convolve(gmem_in.data(), gmem_weights.data(), gmem_out.data(), n); });
}

}  // namespace wb::grading
