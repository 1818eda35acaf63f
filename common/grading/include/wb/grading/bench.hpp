// What every bench-chapterN program shares.
#pragma once

#include <cstdio>
#include <string>

#include "wb/wb.cuh"

namespace wb::grading {

// Whether a GPU answers to time `variant` ("learner" or "solution") on; if none does,
// prints why, on the line the variant's figures would have taken, and returns false.
inline bool gpu_for_bench(const char* variant) {
  std::string reason;
  if (wb::gpu_available(&reason)) return true;
  std::printf("%-9s speed needs a GPU: %s\n", variant, reason.c_str());
  return false;
}

#if WB_BACKEND_CUDA
// The bandwidth baseline of the benches: cudaMemcpy device to device of `from` into `to`
// (buffers of one size), in GB/s counting one read and one write, the median of 50 runs
// after 5 warm-ups.
template <class T>
double memcpy_d2d_gbs(const DeviceBuffer<T>& from, DeviceBuffer<T>& to) {
  const double ms = median_milliseconds(
      [&] { WB_CUDA_CHECK(cudaMemcpy(to.data(), from.data(), from.bytes(), cudaMemcpyDeviceToDevice)); }, 5, 50);
  return 2.0 * static_cast<double>(from.bytes()) / ms / 1e6;
}
#endif

}  // namespace wb::grading
