// bench-chapter8: each step's bf16 GEMM, C = A * B^T with float accumulation, beside
// cuBLAS's (cublasGemmEx, bf16 inputs, CUBLAS_COMPUTE_32F, on the tensor cores), all
// measured in this run on this GPU (median of 50 runs after 5 warm-ups), at 4096^3 and
// 8192^3, in TFLOP/s (2mnk flops) and percent of cuBLAS. Each result is compared with
// cuBLAS's (relative error in the Frobenius norm). In the simulator, speed means nothing:
// it prints the counters the grader judges instead.
#include <cstdio>
#include <string>
#include <vector>

#include "tensor.hpp"
#include "wb/grading/bench.hpp"
#include "wb/grading/gemm.hpp"
#include "wb/grading/random.hpp"
#include "wb/wb.cuh"
#if WB_BACKEND_CUDA
#include <cublas_v2.h>
#else
#include "wb/grading/technique.hpp"
#endif

namespace {

using GemmFunction = void (*)(const ch08::bf16*, const ch08::bf16*, float*, int, int, int);

struct Kernel {
  const char* name;
  GemmFunction run;
};

const Kernel kKernels[] = {
    {"step 1, mma.sync", ch08::gemm_mma},
    {"step 2, swizzled", ch08::gemm_mma_swizzled},
    {"step 3, TMA ring", ch08::gemm_mma_tma},
    {"step 4, wgmma", ch08::gemm_wgmma},
    {"step 5, specialized", ch08::gemm_wgmma_specialized},
};

// Random A and B in [-1, 1), as bf16 on the device.
struct Inputs {
  wb::DeviceBuffer<ch08::bf16> a, b;
  Inputs(int m, int n, int k) : a(std::size_t(m) * k), b(std::size_t(n) * k) {
    const auto seed = wb::grading::fresh_seed();
    wb::DeviceBuffer<float> floats_a(a.size()), floats_b(b.size());
    floats_a.upload(wb::grading::random_floats(a.size(), seed));
    floats_b.upload(wb::grading::random_floats(b.size(), seed + 1));
    ch08::round_to_bf16(floats_a.data(), a.data(), a.size());
    ch08::round_to_bf16(floats_b.data(), b.data(), b.size());
  }
};

}  // namespace

#if WB_BACKEND_CUDA

namespace {

void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw wb::Error(std::string(what) + " failed with cuBLAS status " + std::to_string(static_cast<int>(status)));
  }
}

bool bench_shape(const char* variant, const wb::grading::GemmShape& shape, cublasHandle_t handle) {
  const int m = shape.m, n = shape.n, k = shape.k;
  const double flops = 2.0 * m * n * static_cast<double>(k);
  const Inputs inputs(m, n, k);
  wb::DeviceBuffer<float> gmem_c(std::size_t(m) * n), gmem_cublas(std::size_t(m) * n);
  const float alpha = 1.0f, beta = 0.0f;
  // Column-major C (m,n) = A (m,k) * B^T, B stored (n,k): op(B) = transpose.
  const auto cublas_gemm = [&] {
    check_cublas(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &alpha, inputs.a.data(), CUDA_R_16BF, m,
                              inputs.b.data(), CUDA_R_16BF, n, &beta, gmem_cublas.data(), CUDA_R_32F, m,
                              CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx");
  };
  const double cublas_ms = wb::median_milliseconds(cublas_gemm, 5, 50);
  const std::vector<float> cublas_result = gmem_cublas.download();
  const std::vector<double> expected(cublas_result.begin(), cublas_result.end());
  const double cublas_tflops = flops / cublas_ms / 1e9;
  std::printf("%-9s %s [%s]\n  %-22s %6.1f TFLOP/s\n", variant, wb::grading::gemm_shape_text(shape).c_str(),
              wb::device_description().c_str(), "cuBLAS bf16 (FP32 acc.)", cublas_tflops);
  bool all_correct = true;
  for (const Kernel& kernel : kKernels) {
    gmem_c.poison();
    const double ms = wb::median_milliseconds(
        [&] { kernel.run(inputs.a.data(), inputs.b.data(), gmem_c.data(), m, n, k); }, 5, 50);
    const double error = wb::grading::relative_error(gmem_c.download(), expected);
    const bool correct = error <= wb::grading::kGemmTolerance;
    all_correct &= correct;
    const double tflops = flops / ms / 1e9;
    std::printf("  %-22s %6.1f TFLOP/s  %5.1f%% of cuBLAS  %s (error %.2g against cuBLAS)\n", kernel.name, tflops,
                100.0 * tflops / cublas_tflops, correct ? "result correct" : "RESULT WRONG: run check-chapter8 first",
                error);
  }
  return all_correct;
}

}  // namespace

int main() {
  const char* variant = WB_BENCH_VARIANT;  // "learner" or "solution"
  if (!wb::grading::gpu_for_bench(variant)) return 0;
  cublasHandle_t handle = nullptr;
  check_cublas(cublasCreate(&handle), "cublasCreate");
  bool all_correct = true;
  for (const wb::grading::GemmShape shape : {wb::grading::GemmShape{4096, 4096, 4096}, {8192, 8192, 8192}}) {
    all_correct &= bench_shape(variant, shape, handle);
  }
  cublasDestroy(handle);
  std::printf("  targets of the reference at 4096^3: step 1 >= 40%%, step 3 >= 50%%, step 5 >= 80%% of cuBLAS\n");
  return all_correct ? 0 : 1;
}

#else

int main() {
  const char* variant = WB_BENCH_VARIANT;
  const wb::grading::GemmShape shape{128, 128, 256};
  const auto [m, n, k] = shape;
  const Inputs inputs(m, n, k);
  wb::DeviceBuffer<float> gmem_c(std::size_t(m) * n);
  std::printf("%-9s %s in the simulator.\n", variant, wb::grading::gemm_shape_text(shape).c_str());
  for (const Kernel& kernel : kKernels) {
    gmem_c.poison();
    try {
      kernel.run(inputs.a.data(), inputs.b.data(), gmem_c.data(), m, n, k);
    } catch (const wb::Error& error) {
      std::printf("  %-20s failed: %s\n", kernel.name, error.what());
      continue;
    }
    const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
    std::printf("  %-20s %llu cp.async, %llu tensor copies, %llu barriers, %llu mbarrier waits, %llu ldmatrix (%llu "
                "matrices), %llu mma.sync; %s\n",
                kernel.name, static_cast<unsigned long long>(stats.cp_async_ops()),
                static_cast<unsigned long long>(stats.tensor_copies), static_cast<unsigned long long>(stats.barriers),
                static_cast<unsigned long long>(stats.mbarrier_waits),
                static_cast<unsigned long long>(stats.ldmatrix_calls),
                static_cast<unsigned long long>(stats.ldmatrix_matrices),
                static_cast<unsigned long long>(stats.mma_calls),
                wb::grading::describe_requests(stats, wb::sim::AccessKind::shared_load).c_str());
  }
  return 0;
}

#endif
