/// \file
/// Timing for benchmarks, on the GPU only: speed measured in the simulator means nothing.
///
///     double ms = wb::median_milliseconds([&] { wb::launch(...); }, 10, 50);
///
/// Each repetition is bracketed by CUDA events; the result is the median of `repetitions`
/// runs after `warmups` untimed ones. WB_BENCH_RUNS=N in the environment makes it N runs
/// and no warm-up (for runs under a profiler, where the time means nothing).
#pragma once

#include <functional>
#include <string>

#include "wb/backend.hpp"

namespace wb {

#if WB_BACKEND_CUDA
/// The median time of `work` in milliseconds, over `repetitions` runs after `warmups`
/// untimed ones, each timed by CUDA events (GPU backend only).
double median_milliseconds(const std::function<void()>& work, int warmups, int repetitions);
#endif

/// Whether a GPU is there to run on; if not, `reason` says why (for skips and reports).
bool gpu_available(std::string* reason = nullptr);

/// Whether the device runs Hopper's bulk copies, mbarrier transactions and TMA (sm_90 and
/// newer): the simulator always does; if not, `reason` says why (for "skipped: needs sm_90").
bool hopper_available(std::string* reason = nullptr);

/// Whether the device runs sm_90a's arch-specific instructions, wgmma and setmaxnreg:
/// compute capability 9.0 exactly (newer GPUs lack them). The simulator always does; if
/// not, `reason` says why.
bool wgmma_available(std::string* reason = nullptr);

/// One line naming the device: "NVIDIA H100 80GB HBM3 (sm_90)" or "CPU simulator (...)".
std::string device_description();

}  // namespace wb
