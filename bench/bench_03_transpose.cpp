// bench-chapter3: the padded transpose of step 3 (and step 1's naive one, for contrast)
// beside cudaMemcpy device to device, all measured in this run on this GPU (median of
// many runs after warm-up), counting bytes read plus bytes written. In the simulator,
// speed means nothing: it prints the sectors and wavefronts per request it counted.
#include <cstdio>
#include <vector>

#include "transpose.hpp"
#include "wb/grading/bench.hpp"
#include "wb/grading/random.hpp"
#include "wb/wb.cuh"
#if WB_BACKEND_SIM
#include "wb/grading/technique.hpp"
#endif

namespace {

bool transposed_exactly(const std::vector<float>& in, const std::vector<float>& out, int rows, int cols) {
  for (int col = 0; col < cols; ++col) {
    for (int row = 0; row < rows; ++row) {
      if (out[static_cast<std::size_t>(col) + static_cast<std::size_t>(row) * cols] !=
          in[static_cast<std::size_t>(row) + static_cast<std::size_t>(col) * rows]) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

int main() {
  const char* variant = WB_BENCH_VARIANT;  // "learner" or "solution"
#if WB_BACKEND_CUDA
  if (!wb::grading::gpu_for_bench(variant)) return 0;
  const int rows = 16384, cols = 8192;  // 2^27 floats, 512 MiB
  const std::size_t count = std::size_t{rows} * cols;
  const double bytes_moved = 2.0 * count * sizeof(float);  // read + write
  const std::vector<float> input = wb::grading::random_floats(count, wb::grading::fresh_seed());
  wb::DeviceBuffer<float> in(count), out(count);
  in.upload(input);
  const double memcpy_gbs = wb::grading::memcpy_d2d_gbs(in, out);
  const double naive_ms =
      wb::median_milliseconds([&] { ch03::transpose_naive(in.data(), out.data(), rows, cols); }, 5, 50);
  out.poison();
  const double padded_ms =
      wb::median_milliseconds([&] { ch03::transpose_padded(in.data(), out.data(), rows, cols); }, 5, 50);
  const bool correct = transposed_exactly(input, out.download(), rows, cols);
  const double padded_gbs = bytes_moved / padded_ms / 1e6;
  const double naive_gbs = bytes_moved / naive_ms / 1e6;
  std::printf("%-9s padded %6.0f GB/s  %5.1f%% of cudaMemcpy D2D (%4.0f GB/s, same run); naive %6.0f GB/s "
              "(%4.1f%%)  %s  [%s, %dx%d floats]\n",
              variant, padded_gbs, 100.0 * padded_gbs / memcpy_gbs, memcpy_gbs, naive_gbs,
              100.0 * naive_gbs / memcpy_gbs,
              correct ? "result correct" : "RESULT WRONG: run check-chapter3 first",
              wb::device_description().c_str(), rows, cols);
  // Of the padded transpose, the last kernel launched.
  std::printf("%s", wb::grading::bytes_in_flight("the padded transpose's tile, loaded before it is stored",
                                                 ch03::kTileRows * ch03::kTileCols * sizeof(float), memcpy_gbs)
                        .c_str());
  return correct ? 0 : 1;
#else
  const int rows = 1024, cols = 256;
  const std::size_t count = std::size_t{rows} * cols;
  const std::vector<float> input = wb::grading::random_floats(count, wb::grading::fresh_seed());
  wb::DeviceBuffer<float> in(count), out(count);
  in.upload(input);
  using wb::sim::AccessKind;
  ch03::transpose_naive(in.data(), out.data(), rows, cols);
  std::printf("%-9s %dx%d floats in the simulator.\n  naive: %s; %s\n", variant, rows, cols,
              wb::grading::describe_requests(wb::sim::last_launch_stats(), AccessKind::global_load).c_str(),
              wb::grading::describe_requests(wb::sim::last_launch_stats(), AccessKind::global_store).c_str());
  out.poison();
  ch03::transpose_padded(in.data(), out.data(), rows, cols);
  const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
  std::printf("  padded, stride %d: %s; %s; %s; %s; %s\n", ch03::transpose_padded_stride(),
              wb::grading::describe_requests(stats, AccessKind::cp_async_read).c_str(),
              wb::grading::describe_requests(stats, AccessKind::cp_async_write).c_str(),
              wb::grading::describe_requests(stats, AccessKind::shared_load).c_str(),
              wb::grading::describe_requests(stats, AccessKind::global_store).c_str(),
              transposed_exactly(input, out.download(), rows, cols) ? "result correct" : "result WRONG");
  return 0;
#endif
}
