#include "warp_kernels.hpp"

#include <cmath>

#include "wb/wb.cuh"

namespace warp_test {
namespace {

constexpr unsigned kFullMask = 0xFFFFFFFFu;
constexpr unsigned kMaxThreads = 256;

struct Outputs {
  float* sum_down;
  float* sum_butterfly;
  float* inclusive_scan;
  float* from_lane_3;
  float* rotate_in_8;
  double* doubled_down_1;
  unsigned* ballot;
  int* any_negative;
  int* all_numbers;
  float* neighbour_via_shared;
};

__global__ void warp_primitives(const float* values, Outputs out) {
  __shared__ float smem_values[kMaxThreads];
  const unsigned t = threadIdx.x;
  const unsigned lane = t % 32;
  const float value = values[t];

  float down = value;
  for (int offset = 16; offset > 0; offset /= 2) down += __shfl_down_sync(kFullMask, down, offset);
  out.sum_down[t] = down;

  float butterfly = value;
  for (int mask = 16; mask > 0; mask /= 2) butterfly += __shfl_xor_sync(kFullMask, butterfly, mask);
  out.sum_butterfly[t] = butterfly;

  float scan = value;
  for (int offset = 1; offset < 32; offset *= 2) {
    const float below = __shfl_up_sync(kFullMask, scan, offset);
    if (lane >= static_cast<unsigned>(offset)) scan += below;
  }
  out.inclusive_scan[t] = scan;

  out.from_lane_3[t] = __shfl_sync(kFullMask, value, 3);
  out.rotate_in_8[t] = __shfl_sync(kFullMask, value, static_cast<int>(lane) + 1, 8);
  out.doubled_down_1[t] = __shfl_down_sync(kFullMask, 2.0 * value, 1);
  out.ballot[t] = __ballot_sync(kFullMask, value > 0.0f);
  out.any_negative[t] = __any_sync(kFullMask, value < 0.0f);
  out.all_numbers[t] = __all_sync(kFullMask, value == value);

  smem_values[t] = value;
  __syncwarp();
  out.neighbour_via_shared[t] = smem_values[t - lane + (lane + 1) % 32];
}

}  // namespace

WarpResults run_warp_primitives(const std::vector<float>& values, unsigned threads) {
  const std::size_t n = threads;
  wb::DeviceBuffer<float> in(n), sum_down(n), sum_butterfly(n), scan(n), from_3(n), rotate(n),
      neighbour(n);
  wb::DeviceBuffer<double> doubled(n);
  wb::DeviceBuffer<unsigned> ballot(n);
  wb::DeviceBuffer<int> any(n), all(n);
  in.upload(values);
  for (auto* buffer : {&sum_down, &sum_butterfly, &scan, &from_3, &rotate, &neighbour}) buffer->poison();
  doubled.poison();
  ballot.poison();
  any.poison();
  all.poison();
  const Outputs out{sum_down.data(), sum_butterfly.data(), scan.data(), from_3.data(), rotate.data(),
                    doubled.data(), ballot.data(), any.data(), all.data(), neighbour.data()};
  wb::launch(warp_primitives, dim3(1), dim3(threads), 0, in.data(), out);
  wb::synchronize();
  return {sum_down.download(), sum_butterfly.download(), scan.download(), from_3.download(),
          rotate.download(), doubled.download(), ballot.download(), any.download(),
          all.download(), neighbour.download()};
}

}  // namespace warp_test
