// What every bench-chapterN program shares.
#pragma once

#include <cstddef>
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
// after 5 warm-ups. `bytes`, where given (not 0), copies only the buffers' first bytes: the
// baseline of a kernel that moves fewer bytes than the buffers hold (a larger copy runs a
// little faster on some GPUs: 1 GiB about 2% faster than 512 MiB on the H200). More than
// the buffers hold fails the copy, with CUDA's message.
template <class T>
double memcpy_d2d_gbs(const DeviceBuffer<T>& from, DeviceBuffer<T>& to, std::size_t bytes = 0) {
  const std::size_t copied = bytes == 0 ? from.bytes() : bytes;
  const double ms = median_milliseconds(
      [&] { WB_CUDA_CHECK(cudaMemcpy(to.data(), from.data(), copied, cudaMemcpyDeviceToDevice)); }, 5, 50);
  return 2.0 * static_cast<double>(copied) / ms / 1e6;
}

// Little's law for the step just timed (wb::last_launch()), as a line for the bench's
// table: the bytes each of its blocks keeps travelling at once (`per_block`, from its tile
// or stages, said in `what`), times the blocks an SM holds at once, beside what this GPU
// needs on each SM: its bandwidth per SM (`memcpy_gbs`, this run's cudaMemcpy) times the
// DRAM latency that make probe-memory measured on it and saved (WB_PROBE_FILE). Without
// that file the need is not guessed. Ask right after the step's runs: the next launch
// replaces the record.
inline std::string bytes_in_flight(const char* what, double per_block, double memcpy_gbs) {
  const LaunchRecord launch = last_launch();
  if (launch.kernel == nullptr || launch.multiprocessors == 0) return "";
  const double per_sm = per_block * launch.blocks_per_sm;
  char line[512];
  std::snprintf(line, sizeof line, "      in flight: %.1f KB a block (%s) x %d blocks an SM = %.1f KB per SM", per_block / 1024.0,
                what, launch.blocks_per_sm, per_sm / 1024.0);
  std::string text = line;
  double latency_ns = 0.0;
  std::string device;
#ifdef WB_PROBE_FILE
  if (std::FILE* saved = std::fopen(WB_PROBE_FILE, "r")) {
    char name[256] = {};
    if (std::fscanf(saved, "latency_ns %lf\n%255[^\n]", &latency_ns, name) < 1) latency_ns = 0.0;
    device = name;
    std::fclose(saved);
  }
#endif
  if (latency_ns <= 0.0 || device != device_description()) {
    return text + "; what this GPU needs: run make probe-memory once (it measures the latency)\n";
  }
  const double per_sm_bandwidth = memcpy_gbs * 1e9 / launch.multiprocessors;  // bytes a second
  const double needed = per_sm_bandwidth * latency_ns * 1e-9;
  std::snprintf(line, sizeof line, "; this GPU needs %.1f KB (%.1f GB/s an SM x %.0f ns idle latency): %.1f times that\n",
                needed / 1024.0, per_sm_bandwidth * 1e-9, latency_ns, per_sm / needed);
  return text + line;
}
#endif

}  // namespace wb::grading
