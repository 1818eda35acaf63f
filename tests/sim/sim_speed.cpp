// How fast the simulator runs a realistic kernel: a 512x512x64 tiled SGEMM (1024 blocks
// of 256 threads, 262144 fibers' worth of work, 8 barrier rounds per block). Not a unit
// test, since a time depends on the machine: run it with `cmake --build build --target
// bench-sim`. The workbook's graders launch kernels of this size many times, so this
// time is what keeps `make check-chapterN` quick on a laptop without a GPU.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "tiled_sgemm.hpp"
#include "wb/wb.cuh"

namespace {

constexpr int kM = 512, kN = 512, kK = 64;
constexpr int kWarmups = 1, kRuns = 5;

// Inputs in [-1, 1); a fixed seed, since only the time is of interest here.
std::vector<float> random_matrix(std::size_t count, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& value : values) value = uniform(engine);
  return values;
}

// The size of the simulator's pool of OS threads, by the rule the pool itself uses.
unsigned simulator_os_threads() {
  const char* text = std::getenv("WB_SIM_THREADS");
  const unsigned count = text != nullptr && *text != '\0'
                             ? static_cast<unsigned>(std::strtoul(text, nullptr, 10))
                             : std::thread::hardware_concurrency();
  return std::max(1u, count);
}

}  // namespace

int main() {
  const std::vector<float> a = random_matrix(std::size_t{kM} * kK, 1);
  const std::vector<float> b = random_matrix(std::size_t{kK} * kN, 2);
  wb::DeviceBuffer<float> a_device(a.size()), b_device(b.size()), c_device(std::size_t{kM} * kN);
  a_device.upload(a);
  b_device.upload(b);

  std::vector<double> seconds;
  for (int run = 0; run < kWarmups + kRuns; ++run) {
    c_device.poison();  // each run must write every element again
    const auto start = std::chrono::steady_clock::now();
    sim_test::tiled_sgemm(a_device.data(), b_device.data(), c_device.data(), kM, kN, kK);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (run >= kWarmups) seconds.push_back(elapsed.count());
    // Check every run, outside the timed part: a fast wrong answer is no measurement.
    const double error = sim_test::sgemm_relative_error(a, b, c_device.download(), kM, kN, kK);
    if (!(error < 1e-5)) {
      std::fprintf(stderr, "sim SGEMM %dx%dx%d: wrong result (relative error %g)\n", kM, kN,
                   kK, error);
      return 1;
    }
  }
  std::sort(seconds.begin(), seconds.end());
  const unsigned os_threads = simulator_os_threads();
  std::printf("sim SGEMM %dx%dx%d: median %.3f s over %d runs (fibers: %s, %u OS thread%s)\n",
              kM, kN, kK, seconds[seconds.size() / 2], kRuns, WB_SIM_FIBERS_NAME, os_threads,
              os_threads == 1 ? "" : "s");
  return 0;
}
