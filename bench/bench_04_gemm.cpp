// bench-chapter4: every step's GEMM, C = A * B^T, beside cuBLAS SGEMM without tensor
// cores (CUBLAS_PEDANTIC_MATH: plain FP32 FMAs, as ours), all measured in this run on
// this GPU (median of many runs after warm-up), at 2048x2048x256 (the seed's size) and
// 4096^3, in TFLOP/s (2mnk flops) and percent of cuBLAS. Each result is compared with
// cuBLAS's (relative error in the Frobenius norm). In the simulator, speed means
// nothing: it prints the counters the grader judges instead.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gemm.hpp"
#include "wb/grading/gemm.hpp"
#include "wb/grading/random.hpp"
#include "wb/grading/bench.hpp"
#include "wb/wb.cuh"
#if WB_BACKEND_CUDA
#include "wb/grading/cublas_sgemm.hpp"
#else
#include "wb/grading/technique.hpp"
#endif

namespace {

using GemmFunction = void (*)(const float*, const float*, float*, int, int, int);

struct Kernel {
  const char* name;
  GemmFunction run;
  int tile_k;  // the k-tile's depth
};

const Kernel kKernels[] = {
    {"step 1, shared", ch04::gemm_shared, ch04::kTileK},
    {"step 2, cp.async", ch04::gemm_async, ch04::kTileK},
    {"step 3, pipelined", ch04::gemm_pipelined, ch04::kTileK},
    {"step 4, registers", ch04::gemm_register_blocked, ch04::kTileK},
    {"step 5, double-buffered", ch04::gemm_double_buffered, ch04::kDeepTileK},
};

}  // namespace

#if WB_BACKEND_CUDA

int main() {
  const char* variant = WB_BENCH_VARIANT;  // "learner" or "solution"
  if (!wb::grading::gpu_for_bench(variant)) return 0;
  std::vector<wb::grading::GemmKernel> kernels;
  for (const Kernel& kernel : kKernels) kernels.push_back({kernel.name, kernel.run});
  bool all_correct = true;
  for (const wb::grading::GemmShape shape : {wb::grading::GemmShape{2048, 2048, 256}, {4096, 4096, 4096}}) {
    all_correct &= wb::grading::bench_gemms_beside_cublas(variant, shape, kernels, "check-chapter4");
  }
  std::printf("  targets of the reference at 4096^3: step 4 >= 80%% of cuBLAS, step 5 >= 95%% (on an H200)\n");
  return all_correct ? 0 : 1;
}

#else

int main() {
  const char* variant = WB_BENCH_VARIANT;
  const wb::grading::GemmShape shape{256, 256, 64};
  const auto [m, n, k] = shape;
  const auto seed = wb::grading::fresh_seed();
  const std::vector<float> a = wb::grading::random_floats(std::size_t(m) * k, seed);
  const std::vector<float> b = wb::grading::random_floats(std::size_t(n) * k, seed + 1);
  wb::DeviceBuffer<float> gmem_a(a.size()), gmem_b(b.size()), gmem_c(std::size_t(m) * n);
  gmem_a.upload(a);
  gmem_b.upload(b);
  const std::vector<double> reference = wb::grading::gemm_abt_reference(a, b, m, n, k);
  std::printf("%-9s %s in the simulator.\n", variant, wb::grading::gemm_shape_text(shape).c_str());
  for (const Kernel& kernel : kKernels) {
    gmem_c.poison();
    try {
      kernel.run(gmem_a.data(), gmem_b.data(), gmem_c.data(), m, n, k);
    } catch (const wb::Error& error) {
      std::printf("  %-20s failed: %s\n", kernel.name, error.what());
      continue;
    }
    const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
    const int k_tiles = (k + kernel.tile_k - 1) / kernel.tile_k;
    const double warp_fmas = static_cast<double>(stats.blocks) * ch04::kTileM * ch04::kTileN * k_tiles * kernel.tile_k / 32.0;
    const double copies_per_tile = stats.threads == 0 || stats.cp_async_ops() == 0
                                       ? 0.0
                                       : static_cast<double>(stats.cp_async_ops()) / double(stats.threads * k_tiles);
    const double tiles_in_flight = stats.waits == 0 || copies_per_tile == 0.0
                                       ? 0.0
                                       : double(stats.copies_in_flight_at_waits) / double(stats.waits) / copies_per_tile;
    const double error = wb::grading::relative_error(gmem_c.download(), reference);
    std::printf("  %-20s %llu cp.async, %llu barriers, %.2f tiles in flight at a wait; %.4f shared-load "
                "requests per warp FMA; %s; relative error %.2g (%s)\n",
                kernel.name, static_cast<unsigned long long>(stats.cp_async_ops()),
                static_cast<unsigned long long>(stats.barriers), tiles_in_flight,
                static_cast<double>(stats.of(wb::sim::AccessKind::shared_load).requests) / warp_fmas,
                wb::grading::describe_requests(stats, wb::sim::AccessKind::shared_load).c_str(), error,
                error <= wb::grading::kGemmTolerance ? "result correct" : "result WRONG");
  }
  return 0;
}

#endif
