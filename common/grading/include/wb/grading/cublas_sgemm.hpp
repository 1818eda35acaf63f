// cuBLAS SGEMM without tensor cores, the yardstick of the GEMM benches: C = A * B^T with
// A (m,k), B (n,k), C (m,n) column-major floats, as the chapters' kernels compute it.
// CUBLAS_PEDANTIC_MATH keeps cuBLAS to plain FP32 FMAs, as ours. GPU benches only: the
// bench target links CUDA::cublas.
#pragma once

#if WB_BACKEND_CUDA
#include <cublas_v2.h>

#include <string>

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

}  // namespace wb::grading
#endif
