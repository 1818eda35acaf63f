// bench-chapter2: the column sums of step 2 with the padding chosen and without any, side
// by side on this GPU (median of many runs after warm-up), with the ratio. The sum loop
// reads each float of shared memory once: at stride 128 a warp's read takes 32
// wavefronts, and the kernel becomes bound by shared memory instead of by the global
// reads, which shows in the time. In the simulator, speed means nothing: it prints the
// wavefronts per request it counted instead.
#include <cmath>
#include <cstdio>
#include <vector>

#include "padded.hpp"
#include "wb/grading/bench.hpp"
#include "wb/grading/random.hpp"
#include "wb/wb.cuh"
#if WB_BACKEND_SIM
#include "wb/grading/technique.hpp"
#endif

namespace {

bool sums_close(const std::vector<float>& input, const std::vector<float>& sums, int rows, int cols) {
  for (int col = 0; col < cols; ++col) {
    double sum = 0;
    for (int row = 0; row < rows; ++row) sum += input[static_cast<std::size_t>(row) + static_cast<std::size_t>(col) * rows];
    if (!(std::abs(sum - sums[static_cast<std::size_t>(col)]) <= 1e-6 * rows)) return false;
  }
  return true;
}

}  // namespace

int main() {
  const char* variant = WB_BENCH_VARIANT;  // "learner" or "solution"
  const int stride = ch02::column_sums_stride();
#if WB_BACKEND_CUDA
  if (!wb::grading::gpu_for_bench(variant)) return 0;
  const int rows = 1 << 13, cols = 1 << 15;  // 2^28 floats, 1 GiB, 1024 strips of 32 columns
  const std::size_t count = std::size_t{rows} * cols;
  const double bytes_read = 1.0 * count * sizeof(float);
  const std::vector<float> input = wb::grading::random_floats(count, wb::grading::fresh_seed());
  wb::DeviceBuffer<float> in(count), sums(static_cast<std::size_t>(cols));
  in.upload(input);
  const double unpadded_ms = wb::median_milliseconds(
      [&] { ch02::column_sums_unpadded(in.data(), sums.data(), rows, cols); }, 5, 50);
  sums.poison();
  const double padded_ms =
      wb::median_milliseconds([&] { ch02::column_sums(in.data(), sums.data(), rows, cols); }, 5, 50);
  const bool correct = sums_close(input, sums.download(), rows, cols);
  std::printf("%-9s stride %d: %6.0f GB/s; stride 128: %6.0f GB/s; %.2fx  %s  [%s, %dx%d floats]\n",
              variant, stride, bytes_read / padded_ms / 1e6, bytes_read / unpadded_ms / 1e6,
              unpadded_ms / padded_ms, correct ? "result correct" : "RESULT WRONG: run check-chapter2 first",
              wb::device_description().c_str(), rows, cols);
  return correct ? 0 : 1;
#else
  const int rows = 1024, cols = 256;
  const std::size_t count = std::size_t{rows} * cols;
  const std::vector<float> input = wb::grading::random_floats(count, wb::grading::fresh_seed());
  wb::DeviceBuffer<float> in(count), sums(static_cast<std::size_t>(cols));
  in.upload(input);
  ch02::column_sums_unpadded(in.data(), sums.data(), rows, cols);
  const std::string unpadded =
      wb::grading::describe_requests(wb::sim::last_launch_stats(), wb::sim::AccessKind::shared_load);
  ch02::column_sums(in.data(), sums.data(), rows, cols);
  std::printf("%-9s %dx%d floats in the simulator, stride 128: %s\n%-9s stride %d: %s; %s\n", variant,
              rows, cols, unpadded.c_str(), "", stride,
              wb::grading::describe_requests(wb::sim::last_launch_stats(), wb::sim::AccessKind::shared_load).c_str(),
              sums_close(input, sums.download(), rows, cols) ? "result correct" : "result WRONG");
  return 0;
#endif
}
