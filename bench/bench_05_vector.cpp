// bench-chapter5: the copies of 4, 8 and 16 bytes beside cudaMemcpy device to device, at
// 2^28 floats, counting bytes read plus bytes written; then the GEMM with 16-byte copies
// beside chapter 4's final step and cuBLAS SGEMM without tensor cores at 4096^3. All in
// one run on this GPU, each the median of many runs after warm-up. In the simulator,
// speed means nothing: it prints the copies by width, per KiB moved, as it counted them.
#include <cstdio>
#include <string>
#include <vector>

#include "copy.hpp"  // chapter 1's 4-byte copy (the reference), for comparison
#include "gemm.hpp"  // chapter 4's final step (the reference), for comparison
#include "vector.hpp"
#include "wb/grading/bench.hpp"
#include "wb/grading/gemm.hpp"
#include "wb/grading/random.hpp"
#include "wb/wb.cuh"
#if WB_BACKEND_CUDA
#include "wb/grading/cublas_sgemm.hpp"
#endif

namespace {

using CopyRun = void (*)(const float*, float*, int rows, int cols);

struct Copy {
  const char* name;
  int copy_bytes;  // the width of each cp.async
  CopyRun run;
  int tile_floats;  // what a block copies before its wait
};

// Step 3's copy takes a length; run as one long column.
void copy_any_length(const float* gmem_in, float* gmem_out, int rows, int cols) {
  ch05::copy_any_length_16(gmem_in, gmem_out, rows * cols);
}

const Copy kCopies[] = {
    {"chapter 1, 4-byte copies", 4, ch01::copy_tiles, ch01::kTileRows * ch01::kTileCols},
    {"step 1, 8-byte copies", 8, ch05::copy_tiles_8, ch05::kTileRows * ch05::kTileCols},
    {"step 1, 16-byte copies", 16, ch05::copy_tiles_16, ch05::kTileRows * ch05::kTileCols},
    {"step 3, 16-byte, any length", 16, copy_any_length, ch05::kTailTile},
};

bool copied_exactly(const wb::DeviceBuffer<float>& in, const wb::DeviceBuffer<float>& out) {
  return in.download() == out.download();
}

}  // namespace

#if WB_BACKEND_CUDA

int main() {
  const char* variant = WB_BENCH_VARIANT;  // "learner" or "solution"
  if (!wb::grading::gpu_for_bench(variant)) return 0;
  bool all_correct = true;

  const int rows = 1 << 14, cols = 1 << 14;  // 2^28 floats, 1 GiB
  const std::size_t count = std::size_t{rows} * cols;
  const double bytes_moved = 2.0 * count * sizeof(float);
  wb::DeviceBuffer<float> in(count), out(count);
  in.upload(wb::grading::random_floats(count, wb::grading::fresh_seed()));
  const double memcpy_gbs = wb::grading::memcpy_d2d_gbs(in, out);
  std::printf("%-9s copies of %dx%d floats [%s]\n  cudaMemcpy D2D                %6.0f GB/s\n", variant, rows, cols,
              wb::device_description().c_str(), memcpy_gbs);
  for (const Copy& copy : kCopies) {
    out.poison();
    const double ms = wb::median_milliseconds([&] { copy.run(in.data(), out.data(), rows, cols); }, 5, 50);
    const std::string in_flight = wb::grading::bytes_in_flight(
        "its tile, all copies issued before the wait", copy.tile_floats * sizeof(float), memcpy_gbs);
    const bool correct = copied_exactly(in, out);
    all_correct &= correct;
    const double gbs = bytes_moved / ms / 1e6;
    // One cp.async a thread per `copy_bytes`: a warp instruction per 32 of them.
    std::printf("  %-28s %6.0f GB/s  %5.1f%% of cudaMemcpy  %2d cp.async warp instructions per KiB  %s\n", copy.name,
                gbs, 100.0 * gbs / memcpy_gbs, 1024 / copy.copy_bytes / 32,
                correct ? "result correct" : "RESULT WRONG: run check-chapter5 first");
    std::printf("%s", in_flight.c_str());
  }
  std::printf("  target of step 1's 16-byte copy: >= 97%% of cudaMemcpy\n");

  all_correct &= wb::grading::bench_gemms_beside_cublas(
      variant, {4096, 4096, 4096},
      {{"chapter 4, step 4 (4 bytes)", ch04::gemm_register_blocked}, {"step 2, 16-byte copies", ch05::gemm_copies_16}},
      "check-chapter5");
  std::printf("  target of step 2 on an H200: >= 95%% of cuBLAS at 4096^3\n");
  return all_correct ? 0 : 1;
}

#else

int main() {
  const char* variant = WB_BENCH_VARIANT;
  const int rows = 1024, cols = 64;
  const std::size_t count = std::size_t{rows} * cols;
  const double kib = static_cast<double>(count * sizeof(float)) / 1024.0;
  wb::DeviceBuffer<float> in(count), out(count);
  in.upload(wb::grading::random_floats(count, wb::grading::fresh_seed()));
  std::printf("%-9s %dx%d floats in the simulator: cp.async per KiB moved, as counted\n", variant, rows, cols);
  for (const Copy& copy : kCopies) {
    out.poison();
    copy.run(in.data(), out.data(), rows, cols);
    const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
    std::printf("  %-28s 4 B: %6.1f  8 B: %6.1f  16 B: %6.1f per KiB (thread copies; a warp instruction is 32)  %s\n",
                copy.name, static_cast<double>(stats.cp_async_4) / kib, static_cast<double>(stats.cp_async_8) / kib,
                static_cast<double>(stats.cp_async_16) / kib, copied_exactly(in, out) ? "result correct" : "result WRONG");
  }
  return 0;
}

#endif
