// bench-chapter6: every step's convolution beside cudaMemcpy device to device, all
// measured in this run on this GPU (median of many runs after warm-up) at 2^28 floats,
// counting one read and one write of the array (the halo's extra reads and the weights
// are not counted: they are what the kernel costs beyond a copy). Each result is checked
// against a double-precision reference on a sample of outputs, the array's ends and
// tile edges among them. In the simulator, speed means nothing: it prints the counters
// the grader judges instead.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "halo.hpp"
#include "wb/grading/bench.hpp"
#include "wb/grading/convolution.hpp"
#include "wb/grading/random.hpp"
#include "wb/wb.cuh"
#if WB_BACKEND_SIM
#include "wb/grading/technique.hpp"
#endif

namespace {

using Convolution = void (*)(const float*, const float*, float*, int);

struct Kernel {
  const char* name;
  Convolution run;
  int width;
  int span_outputs;  // the outputs of the span in flight: one tile (step 1), the next one (steps 2 and 3)
};

const Kernel kKernels[] = {
    {"step 1, one tile a block", ch06::convolve_tiles, ch06::kWidth, ch06::kTile},
    {"step 2, double-buffered", ch06::convolve_double_buffered, ch06::kWidth, ch06::kStreamTile},
    {"step 3, width 3", ch06::convolve_width<3>, 3, ch06::kStreamTile},
    {"step 3, width 5", ch06::convolve_width<5>, 5, ch06::kStreamTile},
    {"step 3, width 9", ch06::convolve_width<9>, 9, ch06::kStreamTile},
    {"step 3, width 33", ch06::convolve_width<33>, 33, ch06::kStreamTile},
};

// Output i against the double-precision sum, zero outside the array.
bool output_correct(const std::vector<float>& input, const std::vector<float>& weights, const std::vector<float>& output,
                    long long i) {
  const long long n = static_cast<long long>(input.size());
  const int width = static_cast<int>(weights.size()), halo = ch06::halo_of(width);
  double sum = 0.0, scale = 0.0;
  for (int k = 0; k < width; ++k) {
    scale += std::abs(static_cast<double>(weights[static_cast<std::size_t>(k)]));
    const long long index = i + k - halo;
    if (index >= 0 && index < n) {
      sum += static_cast<double>(input[static_cast<std::size_t>(index)]) * weights[static_cast<std::size_t>(k)];
    }
  }
  const double got = output[static_cast<std::size_t>(i)];
  return !std::isnan(got) && std::abs(got - sum) <= wb::grading::kConvolutionTolerance * scale;
}

// The first and last 4096 outputs, and every 4093rd (a prime: it visits every offset in
// a tile) in between.
bool sample_correct(const std::vector<float>& input, const std::vector<float>& weights,
                    const std::vector<float>& output) {
  const long long n = static_cast<long long>(input.size());
  for (long long i = 0; i < n; i += (i < 4096 || i >= n - 4096) ? 1 : 4093) {
    if (!output_correct(input, weights, output, i)) return false;
  }
  return true;
}

}  // namespace

int main() {
  const char* variant = WB_BENCH_VARIANT;  // "learner" or "solution"
#if WB_BACKEND_CUDA
  if (!wb::grading::gpu_for_bench(variant)) return 0;
  const int n = 1 << 28;  // 2^28 floats, 1 GiB
  const double bytes_moved = 2.0 * n * sizeof(float);  // one read and one write of the array
  const auto seed = wb::grading::fresh_seed();
  const std::vector<float> input = wb::grading::random_floats(static_cast<std::size_t>(n), seed);
  const std::vector<float> weights = wb::grading::random_floats(64, seed + 1);
  wb::DeviceBuffer<float> gmem_in(input.size()), gmem_out(input.size()), gmem_weights(weights.size());
  gmem_in.upload(input);
  gmem_weights.upload(weights);
  const double memcpy_gbs = wb::grading::memcpy_d2d_gbs(gmem_in, gmem_out);
  std::printf("%-9s %d floats [%s]\n  cudaMemcpy D2D             %6.0f GB/s\n", variant, n,
              wb::device_description().c_str(), memcpy_gbs);
  bool all_correct = true;
  for (const Kernel& kernel : kKernels) {
    gmem_out.poison();
    const double ms =
        wb::median_milliseconds([&] { kernel.run(gmem_in.data(), gmem_weights.data(), gmem_out.data(), n); }, 5, 50);
    const bool streamed = kernel.span_outputs == ch06::kStreamTile;
    const std::string in_flight = wb::grading::bytes_in_flight(
        streamed ? "the next tile's span, while this one is computed" : "its span, then nothing while it computes",
        (kernel.span_outputs + 2 * ch06::halo_of(kernel.width)) * sizeof(float), memcpy_gbs);
    const std::vector<float> kernel_weights(weights.begin(), weights.begin() + kernel.width);
    const bool correct = sample_correct(input, kernel_weights, gmem_out.download());
    all_correct &= correct;
    const double gbs = bytes_moved / ms / 1e6;
    std::printf("  %-26s %6.0f GB/s  %5.1f%% of cudaMemcpy D2D  %s\n", kernel.name, gbs, 100.0 * gbs / memcpy_gbs,
                correct ? "result correct" : "RESULT WRONG: run check-chapter6 first");
    std::printf("%s", in_flight.c_str());
  }
  std::printf("  target of the reference's step 2 on an H200: >= 96%% of cudaMemcpy D2D\n");
  return all_correct ? 0 : 1;
#else
  const int n = 40960 + 333;
  const auto seed = wb::grading::fresh_seed();
  const std::vector<float> input = wb::grading::random_floats(static_cast<std::size_t>(n), seed);
  const std::vector<float> weights = wb::grading::random_floats(64, seed + 1);
  wb::DeviceBuffer<float> gmem_in(input.size()), gmem_out(input.size()), gmem_weights(weights.size());
  gmem_in.upload(input);
  gmem_weights.upload(weights);
  std::printf("%-9s %d floats in the simulator.\n", variant, n);
  for (const Kernel& kernel : kKernels) {
    gmem_out.poison();
    try {
      kernel.run(gmem_in.data(), gmem_weights.data(), gmem_out.data(), n);
    } catch (const wb::Error& error) {
      std::printf("  %-26s failed: %s\n", kernel.name, error.what());
      continue;
    }
    const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
    const double waits = stats.waits == 0 ? 1.0 : static_cast<double>(stats.waits);
    const std::vector<float> kernel_weights(weights.begin(), weights.begin() + kernel.width);
    const bool correct = sample_correct(input, kernel_weights, gmem_out.download());
    std::printf("  %-26s %llu blocks, %llu cp.async (%llu bytes read), %llu waits finding %.2f copies in flight "
                "and leaving %.2f, %llu barriers; %s; %s; %s\n",
                kernel.name, static_cast<unsigned long long>(stats.blocks),
                static_cast<unsigned long long>(stats.cp_async_ops()),
                static_cast<unsigned long long>(stats.cp_async_bytes), static_cast<unsigned long long>(stats.waits),
                static_cast<double>(stats.copies_in_flight_at_waits) / waits,
                static_cast<double>(stats.copies_in_flight_after_waits) / waits,
                static_cast<unsigned long long>(stats.barriers),
                wb::grading::describe_requests(stats, wb::sim::AccessKind::cp_async_read).c_str(),
                wb::grading::describe_requests(stats, wb::sim::AccessKind::global_store).c_str(),
                correct ? "result correct" : "result WRONG");
  }
  return 0;
#endif
}
