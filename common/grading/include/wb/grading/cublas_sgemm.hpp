// cuBLAS SGEMM without tensor cores, the yardstick of the GEMM benches: C = A * B^T with
// A (m,k), B (n,k), C (m,n) column-major floats, as the chapters' kernels compute it.
// CUBLAS_PEDANTIC_MATH keeps cuBLAS to plain FP32 FMAs, as ours. GPU benches only: the
// bench target links CUDA::cublas. bench_gemms_beside_cublas is the GEMM benches' one
// measuring loop.
#pragma once

#if WB_BACKEND_CUDA
#include <cublas_v2.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "wb/grading/gemm.hpp"
#include "wb/grading/random.hpp"
#include "wb/wb.cuh"

namespace wb::grading {

class PedanticSgemm {
 public:
  PedanticSgemm() {
    check(cublasCreate(&handle_), "cublasCreate");
    check(cublasSetMathMode(handle_, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode(CUBLAS_PEDANTIC_MATH)");
  }
  ~PedanticSgemm() { cublasDestroy(handle_); }
  PedanticSgemm(const PedanticSgemm&) = delete;
  PedanticSgemm& operator=(const PedanticSgemm&) = delete;

  void operator()(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k) const {
    const float alpha = 1.0f, beta = 0.0f;
    // Column-major C (m,n) = A (m,k) * B^T, B stored (n,k): op(B) = transpose.
    check(cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &alpha, gmem_a, m, gmem_b, n, &beta, gmem_c, m),
          "cublasSgemm");
  }

 private:
  static void check(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
      throw wb::Error(std::string(what) + " failed with cuBLAS status " + std::to_string(static_cast<int>(status)));
    }
  }
  cublasHandle_t handle_ = nullptr;
};

struct GemmKernel {
  const char* name;
  void (*run)(const float* gmem_a, const float* gmem_b, float* gmem_c, int m, int n, int k);
};

// Times cuBLAS and then each kernel at `shape` on fresh random A and B (each the median of
// 50 runs after 5 warm-ups, C poisoned before each kernel), checks each result against
// cuBLAS's, and prints a line per kernel: TFLOP/s, percent of cuBLAS, right or wrong
// (`check_target` names what to run when wrong). Returns whether every result is right.
inline bool bench_gemms_beside_cublas(const char* variant, const GemmShape& shape,
                                      const std::vector<GemmKernel>& kernels, const char* check_target) {
  // Plain names, not a structured binding: a lambda below captures them, which nvcc
  // accepts only from C++20 on for bindings.
  const int m = shape.m, n = shape.n, k = shape.k;
  const double flops = 2.0 * m * n * static_cast<double>(k);
  const auto seed = fresh_seed();
  DeviceBuffer<float> gmem_a(std::size_t(m) * k), gmem_b(std::size_t(n) * k), gmem_c(std::size_t(m) * n),
      gmem_cublas(std::size_t(m) * n);
  gmem_a.upload(random_floats(gmem_a.size(), seed));
  gmem_b.upload(random_floats(gmem_b.size(), seed + 1));
  const PedanticSgemm cublas_sgemm;
  const double cublas_ms =
      median_milliseconds([&] { cublas_sgemm(gmem_a.data(), gmem_b.data(), gmem_cublas.data(), m, n, k); }, 5, 50);
  const std::vector<float> cublas_result = gmem_cublas.download();
  const std::vector<double> expected(cublas_result.begin(), cublas_result.end());
  const double cublas_tflops = flops / cublas_ms / 1e9;
  int name_width = 0;
  for (const GemmKernel& kernel : kernels) name_width = std::max(name_width, static_cast<int>(std::strlen(kernel.name)));
  std::printf("%-9s %s [%s]\n  %-*s %6.1f TFLOP/s\n", variant, gemm_shape_text(shape).c_str(),
              device_description().c_str(), name_width, "cuBLAS SGEMM (pedantic FP32)", cublas_tflops);
  bool all_correct = true;
  for (const GemmKernel& kernel : kernels) {
    gmem_c.poison();
    const double ms =
        median_milliseconds([&] { kernel.run(gmem_a.data(), gmem_b.data(), gmem_c.data(), m, n, k); }, 5, 50);
    const double error = relative_error(gmem_c.download(), expected);
    const bool correct = error <= kGemmTolerance;
    all_correct &= correct;
    const double tflops = flops / ms / 1e9;
    std::printf("  %-*s %6.1f TFLOP/s  %5.1f%% of cuBLAS  %s (error %.2g against cuBLAS)\n", name_width, kernel.name,
                tflops, 100.0 * tflops / cublas_tflops,
                correct ? "result correct" : (std::string("RESULT WRONG: run ") + check_target + " first").c_str(),
                error);
  }
  return all_correct;
}

}  // namespace wb::grading
#endif
