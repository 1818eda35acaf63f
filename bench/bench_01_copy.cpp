// bench-chapter1: the copy kernel's bandwidth beside cudaMemcpy device to device, both
// measured in this run on this GPU (median of many runs after warm-up), counting bytes
// read plus bytes written. In the simulator, speed means nothing: it prints what the
// kernel did instead (the simulator's counters).
#include <cstdio>
#include <vector>

#include "copy.hpp"
#include "wb/grading/bench.hpp"
#include "wb/grading/random.hpp"
#include "wb/wb.cuh"

namespace {

bool copied_exactly(const wb::DeviceBuffer<float>& in, const wb::DeviceBuffer<float>& out) {
  return in.download() == out.download();
}

}  // namespace

int main() {
  const char* variant = WB_BENCH_VARIANT;  // "learner" or "solution"
#if WB_BACKEND_CUDA
  if (!wb::grading::gpu_for_bench(variant)) return 0;
  const int rows = 1 << 14, cols = 1 << 14;  // 2^28 floats, 1 GiB
  const std::size_t count = std::size_t{rows} * cols;
  const double bytes_moved = 2.0 * count * sizeof(float);  // read + write
  wb::DeviceBuffer<float> in(count), out(count);
  in.upload(wb::grading::random_floats(count, wb::grading::fresh_seed()));
  out.poison();

  const double memcpy_gbs = wb::grading::memcpy_d2d_gbs(in, out);
  out.poison();
  const double kernel_ms =
      wb::median_milliseconds([&] { ch01::copy_tiles(in.data(), out.data(), rows, cols); }, 5, 50);
  const bool correct = copied_exactly(in, out);
  const double kernel_gbs = bytes_moved / kernel_ms / 1e6;
  std::printf("%-9s %6.0f GB/s  %5.1f%% of cudaMemcpy D2D (%4.0f GB/s, same run)  %s  [%s, %dx%d floats]\n",
              variant, kernel_gbs, 100.0 * kernel_gbs / memcpy_gbs, memcpy_gbs,
              correct ? "result correct" : "RESULT WRONG: run check-chapter1 first",
              wb::device_description().c_str(), rows, cols);
  std::printf("%s", wb::grading::bytes_in_flight("its tile, all copies issued before the wait",
                                                 ch01::kTileRows * ch01::kTileCols * sizeof(float), memcpy_gbs)
                        .c_str());
  return correct ? 0 : 1;
#else
  const int rows = 1024, cols = 256;
  const std::size_t count = std::size_t{rows} * cols;
  wb::DeviceBuffer<float> in(count), out(count);
  in.upload(wb::grading::random_floats(count, wb::grading::fresh_seed()));
  out.poison();
  ch01::copy_tiles(in.data(), out.data(), rows, cols);
  const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
  std::printf("%-9s %dx%d floats in the simulator: %llu blocks, %llu cp.async (4 B: %llu, "
              "8 B: %llu, 16 B: %llu), %llu bytes through cp.async, %llu waits, %llu barriers; %s\n",
              variant, rows, cols, static_cast<unsigned long long>(stats.blocks),
              static_cast<unsigned long long>(stats.cp_async_ops()),
              static_cast<unsigned long long>(stats.cp_async_4),
              static_cast<unsigned long long>(stats.cp_async_8),
              static_cast<unsigned long long>(stats.cp_async_16),
              static_cast<unsigned long long>(stats.cp_async_bytes),
              static_cast<unsigned long long>(stats.waits),
              static_cast<unsigned long long>(stats.barriers),
              copied_exactly(in, out) ? "result correct" : "result WRONG");
  return 0;
#endif
}
