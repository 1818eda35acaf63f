// bench-chapter7: the library's copies beside what they replace, all measured in this run on
// this GPU (median of 50 runs after 5 warm-ups), counting one read and one write of the
// array: step 1 (cooperative_groups::memcpy_async) beside cudaMemcpy device to device at
// 2^28 floats, and step 2 (cuda::pipeline) beside chapter 6's step 2, its hand-written
// double buffer, at 2^28 floats; on Hopper, step 3 (bulk copies) beside cudaMemcpy at 2^28
// floats and step 4 (the TMA transpose) beside chapter 3's step 3, its padded cp.async
// transpose, and beside cudaMemcpy of as many floats, at 16384x8192. Results are checked on a
// sample. In the simulator, speed means nothing: it prints the library's counters instead.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "halo.hpp"
#include "library.hpp"
#include "transpose.hpp"
#include "wb/grading/bench.hpp"
#include "wb/grading/convolution.hpp"
#include "wb/grading/random.hpp"
#include "wb/wb.cuh"

namespace {

using Convolution = void (*)(const float*, const float*, float*, int);

// Outputs at both ends and every 4093rd between against the double-precision sum.
bool convolution_correct(const std::vector<float>& input, const std::vector<float>& weights,
                         const std::vector<float>& output) {
  const long long n = static_cast<long long>(input.size());
  const int halo = (ch07::kWidth - 1) / 2;
  for (long long i = 0; i < n; i += (i < 4096 || i >= n - 4096) ? 1 : 4093) {
    double sum = 0.0, scale = 0.0;
    for (int k = 0; k < ch07::kWidth; ++k) {
      const auto weight = static_cast<double>(weights[static_cast<std::size_t>(k)]);
      scale += std::abs(weight);
      const long long index = i + k - halo;
      if (index >= 0 && index < n) sum += static_cast<double>(input[static_cast<std::size_t>(index)]) * weight;
    }
    const double got = output[static_cast<std::size_t>(i)];
    if (std::isnan(got) || std::abs(got - sum) > wb::grading::kConvolutionTolerance * scale) return false;
  }
  return true;
}

bool copy_correct(const std::vector<float>& input, const std::vector<float>& output) {
  for (std::size_t i = 0; i < input.size(); i += 997) {
    if (output[i] != input[i]) return false;
  }
  return output.back() == input.back();
}

// out(c, r) == in(r, c) for every 997th output of a rows x cols transpose, and the last
// (`output` may be longer: the rest is not looked at).
bool transpose_correct(const std::vector<float>& input, const std::vector<float>& output, int rows, int cols) {
  const std::size_t count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  const auto correct = [&](std::size_t out) {
    const std::size_t c = out % static_cast<std::size_t>(cols), r = out / static_cast<std::size_t>(cols);
    return output[out] == input[r + c * static_cast<std::size_t>(rows)];
  };
  for (std::size_t out = 0; out < count; out += 997) {
    if (!correct(out)) return false;
  }
  return correct(count - 1);
}

}  // namespace

int main() {
  const char* variant = WB_BENCH_VARIANT;  // "learner" or "solution"
#if WB_BACKEND_CUDA
  if (!wb::grading::gpu_for_bench(variant)) return 0;
  const int rows = 1 << 14, cols = 1 << 14, n = rows * cols;  // 2^28 floats, 1 GiB, as in chapter 1
  const int transpose_rows = 1 << 14, transpose_cols = 1 << 13;  // 2^27 floats, as in chapter 3
#else
  const int rows = 1024, cols = 32, n = rows * cols;
  const int transpose_rows = 256, transpose_cols = 128;
#endif
  const double bytes_moved = 2.0 * n * sizeof(float);
  const auto seed = wb::grading::fresh_seed();
  const std::vector<float> input = wb::grading::random_floats(static_cast<std::size_t>(n), seed);
  const std::vector<float> weights = wb::grading::random_floats(ch07::kWidth, seed + 1);
  wb::DeviceBuffer<float> gmem_in(input.size()), gmem_out(input.size()), gmem_weights(weights.size());
  gmem_in.upload(input);
  gmem_weights.upload(weights);
  const auto copy = [&] { ch07::copy_tiles(gmem_in.data(), gmem_out.data(), rows, cols); };
  const auto convolve = [&](Convolution run) { run(gmem_in.data(), gmem_weights.data(), gmem_out.data(), n); };
  const auto bulk_copy = [&] { ch07::copy_bulk(gmem_in.data(), gmem_out.data(), n); };
  using Transpose = void (*)(const float*, float*, int, int);
  const auto transpose = [&](Transpose run) { run(gmem_in.data(), gmem_out.data(), transpose_rows, transpose_cols); };
#if WB_BACKEND_CUDA
  // A step still a skeleton (or wrong enough to fail a CUDA call) stops the table with
  // what failed, as check-chapter7 would say it, rather than ending the program unexplained.
  try {
    const auto gbs = [&](double ms) { return bytes_moved / ms / 1e6; };
    const double memcpy_gbs = wb::grading::memcpy_d2d_gbs(gmem_in, gmem_out);
    std::printf("%-9s %d floats [%s]\n  cudaMemcpy D2D                          %6.0f GB/s\n", variant, n,
                wb::device_description().c_str(), memcpy_gbs);
    gmem_out.poison();
    const double copy_gbs = gbs(wb::median_milliseconds(copy, 5, 50));
    // Each step's bytes in flight, asked right after its runs (the next launch replaces the record).
    const auto in_flight = [&](const char* what, int floats, double baseline_gbs) {
      return wb::grading::bytes_in_flight(what, static_cast<double>(floats) * sizeof(float), baseline_gbs);
    };
    const std::string copy_in_flight =
        in_flight("its tile, all copies issued before the wait", ch07::kTileRows * ch07::kTileCols, memcpy_gbs);
    const bool copy_ok = copy_correct(input, gmem_out.download());
    std::printf("  step 1, cg::memcpy_async copy            %6.0f GB/s  %5.1f%% of cudaMemcpy D2D  %s\n", copy_gbs,
                100.0 * copy_gbs / memcpy_gbs, copy_ok ? "result correct" : "RESULT WRONG: run check-chapter7 first");
    std::printf("%s", copy_in_flight.c_str());
    gmem_out.poison();
    const double halo_gbs = gbs(wb::median_milliseconds([&] { convolve(ch06::convolve_double_buffered); }, 5, 50));
    const std::string halo_in_flight =
        in_flight("the next tile's span, while this one is computed", ch06::kStreamTile + 2 * ch06::kHalo, memcpy_gbs);
    const bool halo_ok = convolution_correct(input, weights, gmem_out.download());
    gmem_out.poison();
    const double pipeline_gbs = gbs(wb::median_milliseconds([&] { convolve(ch07::convolve_pipelined); }, 5, 50));
    const std::string pipeline_in_flight =
        in_flight("the next tile's span, while this one is computed", ch07::kSpan, memcpy_gbs);
    const bool pipeline_ok = convolution_correct(input, weights, gmem_out.download());
    std::printf("  chapter 6, step 2 (reference)           %6.0f GB/s  %5.1f%% of cudaMemcpy D2D  %s\n", halo_gbs,
                100.0 * halo_gbs / memcpy_gbs, halo_ok ? "result correct" : "RESULT WRONG");
    std::printf("%s", halo_in_flight.c_str());
    std::printf("  step 2, cuda::pipeline convolution      %6.0f GB/s  %5.1f%% of cudaMemcpy D2D, %5.1f%% of "
                "chapter 6's  %s\n",
                pipeline_gbs, 100.0 * pipeline_gbs / memcpy_gbs, 100.0 * pipeline_gbs / halo_gbs,
                pipeline_ok ? "result correct" : "RESULT WRONG: run check-chapter7 first");
    std::printf("%s", pipeline_in_flight.c_str());
    if (std::string no_hopper; !wb::hopper_available(&no_hopper)) {
      std::printf("  steps 3 and 4, Hopper's bulk copies and TMA: skipped: %s\n", no_hopper.c_str());
      return copy_ok && halo_ok && pipeline_ok ? 0 : 1;
    }
    gmem_out.poison();
    const double bulk_gbs = gbs(wb::median_milliseconds(bulk_copy, 5, 50));
    const std::string bulk_in_flight = in_flight("its stages' tiles, at most", ch07::kStages * ch07::kBulkTile, memcpy_gbs);
    const bool bulk_ok = copy_correct(input, gmem_out.download());
    std::printf("  step 3, bulk copies on a cuda::barrier   %6.0f GB/s  %5.1f%% of cudaMemcpy D2D  %s\n", bulk_gbs,
                100.0 * bulk_gbs / memcpy_gbs, bulk_ok ? "result correct" : "RESULT WRONG: run check-chapter7 first");
    std::printf("%s", bulk_in_flight.c_str());
    const std::size_t transpose_array_bytes = sizeof(float) * static_cast<std::size_t>(transpose_rows) * transpose_cols;
    const double transpose_bytes = 2.0 * static_cast<double>(transpose_array_bytes);  // read once, written once
    const auto transpose_gbs = [&](double ms) { return transpose_bytes / ms / 1e6; };
    // The transposes' baseline is the copy of as many bytes as they move, as in chapter 3's
    // bench: 2^27 floats, not the 2^28 of the copies above.
    const double transpose_memcpy_gbs = wb::grading::memcpy_d2d_gbs(gmem_in, gmem_out, transpose_array_bytes);
    gmem_out.poison();
    const double padded_gbs = transpose_gbs(wb::median_milliseconds([&] { transpose(ch03::transpose_padded); }, 5, 50));
    const std::string padded_in_flight =
        in_flight("its tile, loaded before it is stored", ch03::kTileRows * ch03::kTileCols, transpose_memcpy_gbs);
    const bool padded_ok = transpose_correct(input, gmem_out.download(), transpose_rows, transpose_cols);
    gmem_out.poison();
    const double tma_gbs = transpose_gbs(wb::median_milliseconds([&] { transpose(ch07::transpose_tma); }, 5, 50));
    const std::string tma_in_flight =
        in_flight("its box, loaded before it is stored", ch07::kBoxRows * ch07::kBoxCols, transpose_memcpy_gbs);
    const bool tma_ok = transpose_correct(input, gmem_out.download(), transpose_rows, transpose_cols);
    std::printf("  %dx%d transpose, %d floats:\n  cudaMemcpy D2D, the same floats          %6.0f GB/s\n", transpose_rows,
                transpose_cols, transpose_rows * transpose_cols, transpose_memcpy_gbs);
    std::printf("  chapter 3, step 3 (reference)           %6.0f GB/s  %5.1f%% of cudaMemcpy D2D  %s\n", padded_gbs,
                100.0 * padded_gbs / transpose_memcpy_gbs, padded_ok ? "result correct" : "RESULT WRONG");
    std::printf("%s", padded_in_flight.c_str());
    std::printf("  step 4, TMA transpose                    %6.0f GB/s  %5.1f%% of cudaMemcpy D2D, %5.1f%% of "
                "chapter 3's  %s\n",
                tma_gbs, 100.0 * tma_gbs / transpose_memcpy_gbs, 100.0 * tma_gbs / padded_gbs,
                tma_ok ? "result correct" : "RESULT WRONG: run check-chapter7 first");
    std::printf("%s", tma_in_flight.c_str());
    return copy_ok && halo_ok && pipeline_ok && bulk_ok && padded_ok && tma_ok ? 0 : 1;
  } catch (const wb::Error& error) {
    std::printf("  stopped: %s\n  Run check-chapter7 first: every step must pass before its speed means "
                "anything.\n", error.what());
    return 1;
  }
#else
  static_cast<void>(bytes_moved);
  std::printf("%-9s %d floats (%dx%d for step 1) in the simulator.\n", variant, n, rows, cols);
  const auto report = [](const char* name, bool correct) {
    const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
    std::printf("  %-30s %llu blocks; %llu library calls issuing %llu cp.async (%llu of 16 bytes); %llu group "
                "waits; pipeline: %llu acquires, %llu commits, %llu waits (%.2f stages committed at each), "
                "%llu releases; %llu barriers; %s\n",
                name, static_cast<unsigned long long>(stats.blocks),
                static_cast<unsigned long long>(stats.library_copies),
                static_cast<unsigned long long>(stats.library_cp_async),
                static_cast<unsigned long long>(stats.cp_async_16), static_cast<unsigned long long>(stats.group_waits),
                static_cast<unsigned long long>(stats.pipeline_acquires),
                static_cast<unsigned long long>(stats.pipeline_commits),
                static_cast<unsigned long long>(stats.pipeline_waits),
                stats.pipeline_waits == 0 ? 0.0
                                          : static_cast<double>(stats.pipeline_stages_at_waits) /
                                                static_cast<double>(stats.pipeline_waits),
                static_cast<unsigned long long>(stats.pipeline_releases),
                static_cast<unsigned long long>(stats.barriers), correct ? "result correct" : "result WRONG");
  };
  try {
    gmem_out.poison();
    copy();
    report("step 1, cg::memcpy_async", copy_correct(input, gmem_out.download()));
    gmem_out.poison();
    convolve(ch07::convolve_pipelined);
    report("step 2, cuda::pipeline", convolution_correct(input, weights, gmem_out.download()));
    const auto report_hopper = [](const char* name, bool correct) {
      const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
      std::printf("  %-30s %llu blocks; %llu bulk copies (%llu bytes), %llu tensor copies (%llu bytes); mbarrier: "
                  "%llu arrivals, %llu phases, %llu waits; %llu barriers; %s\n",
                  name, static_cast<unsigned long long>(stats.blocks),
                  static_cast<unsigned long long>(stats.bulk_copies), static_cast<unsigned long long>(stats.bulk_bytes),
                  static_cast<unsigned long long>(stats.tensor_copies),
                  static_cast<unsigned long long>(stats.tensor_bytes),
                  static_cast<unsigned long long>(stats.mbarrier_arrivals),
                  static_cast<unsigned long long>(stats.mbarrier_phases),
                  static_cast<unsigned long long>(stats.mbarrier_waits),
                  static_cast<unsigned long long>(stats.barriers), correct ? "result correct" : "result WRONG");
    };
    gmem_out.poison();
    bulk_copy();
    report_hopper("step 3, bulk copies", copy_correct(input, gmem_out.download()));
    gmem_out.poison();
    transpose(ch07::transpose_tma);
    report_hopper("step 4, TMA transpose",
                  transpose_correct(input, gmem_out.download(), transpose_rows, transpose_cols));
  } catch (const wb::Error& error) {
    std::printf("  failed: %s\n", error.what());
  }
  return 0;
#endif
}
