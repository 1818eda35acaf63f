// The tiled SGEMM of tiled_sgemm.hpp and its double-precision check.
#include "tiled_sgemm.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "wb/wb.cuh"

namespace sim_test {
namespace {

__global__ void tiled_sgemm_kernel(const float* a, const float* b, float* c, int n, int k) {
  __shared__ float a_tile[kSgemmTile][kSgemmTile];
  __shared__ float b_tile[kSgemmTile][kSgemmTile];
  const int row = static_cast<int>(blockIdx.y * kSgemmTile + threadIdx.y);
  const int col = static_cast<int>(blockIdx.x * kSgemmTile + threadIdx.x);
  float sum = 0.0f;
  for (int k0 = 0; k0 < k; k0 += kSgemmTile) {
    a_tile[threadIdx.y][threadIdx.x] = a[row * k + k0 + static_cast<int>(threadIdx.x)];
    b_tile[threadIdx.y][threadIdx.x] = b[(k0 + static_cast<int>(threadIdx.y)) * n + col];
    __syncthreads();  // the whole tile is loaded before anyone reads it
    for (int i = 0; i < kSgemmTile; ++i) sum += a_tile[threadIdx.y][i] * b_tile[i][threadIdx.x];
    __syncthreads();  // everyone has read the tile before the next one overwrites it
  }
  c[row * n + col] = sum;
}

}  // namespace

void tiled_sgemm(const float* a, const float* b, float* c, int m, int n, int k) {
  if (m % kSgemmTile != 0 || n % kSgemmTile != 0 || k % kSgemmTile != 0) {
    throw std::invalid_argument("tiled_sgemm: m, n and k must be multiples of 16");
  }
  wb::launch(tiled_sgemm_kernel, dim3(n / kSgemmTile, m / kSgemmTile),
             dim3(kSgemmTile, kSgemmTile), 0, a, b, c, n, k);
}

double sgemm_relative_error(const std::vector<float>& a, const std::vector<float>& b,
                            const std::vector<float>& c, int m, int n, int k) {
  double worst = 0.0;
  for (int row = 0; row < m; ++row) {
    for (int col = 0; col < n; ++col) {
      double exact = 0.0, magnitude = 0.0;
      for (int i = 0; i < k; ++i) {
        const double term = double{a[row * k + i]} * double{b[i * n + col]};
        exact += term;
        magnitude += std::fabs(term);
      }
      const double error =
          std::fabs(double{c[row * n + col]} - exact) / std::max(magnitude, 1e-30);
      if (std::isnan(error)) return error;  // an unwritten (poisoned) element
      worst = std::max(worst, error);
    }
  }
  return worst;
}

}  // namespace sim_test
