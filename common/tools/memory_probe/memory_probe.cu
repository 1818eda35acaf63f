// make probe-memory: the two numbers of this GPU that decide how many bytes a kernel must
// keep in flight to use its memory's bandwidth (Little's law: bytes in flight = bandwidth x
// latency), measured here, not taken from a datasheet.
//
//   latency    one thread follows a chain of pointers through 1 GiB of device memory,
//              many times the L2 (whose hits then count for about 6% on an H200), each next address known only once the load before it
//              returned, every run on links no earlier run loaded: the time of one load
//              from DRAM, nothing overlapping it;
//   bandwidth  cudaMemcpy device to device of 1 GiB, bytes read plus bytes written, the
//              median of 20 after 3 warm-ups: what the chapters' benches compare with.
//
// Their product is what the whole GPU must have in flight at every moment to stream at
// that bandwidth; over the multiprocessors, what each SM's resident blocks must keep
// travelling. The chapters' copies (cp.async, bulk copies, the TMA) are how a block keeps
// that many bytes in flight without a register for each.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "wb/wb.cuh"

namespace {

constexpr std::size_t kChainBytes = std::size_t{1} << 30;  // 17 times an H200's 60 MB of L2
constexpr std::size_t kChainLength = kChainBytes / sizeof(std::uint32_t);
constexpr int kHops = 1 << 16;

// Follows `hops` links of the chain from where the last launch stopped (`*at`), and stores
// where it stops: each run meets lines no run before it loaded, which the L2 cannot hold
// (a chain that restarted at 0 would be served from the L2 after the first run).
__global__ void chase_kernel(const std::uint32_t* chain, int hops, std::uint32_t* at) {
  std::uint32_t here = *at;
  for (int hop = 0; hop < hops; ++hop) here = chain[here];
  *at = here;
}

// One cycle through every element, in random order (Sattolo's algorithm: element i
// links to next[i], and following the links visits all of them once), so that each load
// lands far from the one before and no cache line is met twice soon.
std::vector<std::uint32_t> random_cycle(std::size_t length) {
  std::vector<std::uint32_t> next(length);
  std::iota(next.begin(), next.end(), 0u);
  std::mt19937_64 random(2026);
  for (std::size_t i = length - 1; i > 0; --i) std::swap(next[i], next[random() % i]);
  return next;
}

}  // namespace

int main() {
  std::string reason;
  if (!wb::gpu_available(&reason)) {
    std::printf("probe-memory measures a GPU's memory, and none answers here: %s.\n", reason.c_str());
    return 2;
  }
  int device = 0, multiprocessors = 0, clock_khz = 0;
  WB_CUDA_CHECK(cudaGetDevice(&device));
  WB_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  WB_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));

  wb::DeviceBuffer<std::uint32_t> chain(kChainLength);
  chain.upload(random_cycle(kChainLength));
  wb::DeviceBuffer<std::uint32_t> at(1);
  at.upload({0u});
  const double chase_ms =
      wb::median_milliseconds([&] { wb::launch(chase_kernel, dim3(1), dim3(1), 0, chain.data(), kHops, at.data()); },
                              2, 7);
  const double latency_ns = chase_ms * 1e6 / kHops;

  constexpr std::size_t kCopyBytes = std::size_t{1} << 30;
  wb::DeviceBuffer<std::byte> from(kCopyBytes), to(kCopyBytes);
  const double copy_ms = wb::median_milliseconds(
      [&] { WB_CUDA_CHECK(cudaMemcpy(to.data(), from.data(), kCopyBytes, cudaMemcpyDeviceToDevice)); }, 3, 20);
  const double bandwidth = 2.0 * static_cast<double>(kCopyBytes) / (copy_ms * 1e-3);  // bytes a second

  const double in_flight = bandwidth * latency_ns * 1e-9;
  std::printf("%s, %d multiprocessors\n", wb::device_description().c_str(), multiprocessors);
  std::printf("  DRAM latency, one dependent load after another: %.0f ns (%.0f cycles at %.2f GHz)\n", latency_ns,
              latency_ns * clock_khz * 1e-6, clock_khz * 1e-6);
  std::printf("  bandwidth, cudaMemcpy device to device (read + write): %.0f GB/s\n", bandwidth * 1e-9);
  std::printf("  in flight to keep it busy (bandwidth x latency): %.1f MB over the GPU, %.1f KB per SM\n",
              in_flight * 1e-6, in_flight * 1e-3 / multiprocessors);
  std::printf("  e.g. a block keeping 16 KB of copies in flight needs %.1f such blocks resident on each SM\n",
              in_flight / multiprocessors / 16384.0);
  // The latency for the benches, which say beside each memory-bound step what its SMs have
  // in flight against what this GPU needs (the bandwidth they measure in their own run).
  if (std::FILE* saved = std::fopen(WB_PROBE_FILE, "w")) {
    std::fprintf(saved, "latency_ns %.1f\n%s\n", latency_ns, wb::device_description().c_str());
    std::fclose(saved);
    std::printf("  (the latency is saved in %s, where the chapters' benches read it)\n", WB_PROBE_FILE);
  } else {
    std::printf("  (could not save the latency in %s: the benches will not say what this GPU needs)\n", WB_PROBE_FILE);
  }
  return 0;
}
