#include "wb/grading/technique.hpp"

namespace wb::grading {

#if WB_BACKEND_SIM
::testing::AssertionResult loaded_through_cp_async(const sim::LaunchStats& stats,
                                                   std::uint64_t elements) {
  const std::uint64_t copied = stats.cp_async_bytes / 4;
  if (copied < elements) {
    return ::testing::AssertionFailure()
           << copied << " of " << elements
           << " elements reached shared memory through cp.async (" << stats.cp_async_ops()
           << " cp.async operations in " << stats.blocks << " blocks). The step is about "
           << "asynchronous copies: load every element of the tile with wb::cp_async "
              "instead of a plain assignment.";
  }
  if (copied > elements) {
    return ::testing::AssertionFailure()
           << copied << " elements went through cp.async for " << elements
           << " distinct ones: some elements are copied more than once (do the loops of "
              "the threads overlap?).";
  }
  if (stats.copies_never_waited > 0) {
    return ::testing::AssertionFailure()
           << stats.copies_never_waited
           << " cp.async copies were never waited for: wait for every copy before the "
              "kernel ends.";
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult waited_once_per_thread(const sim::LaunchStats& stats) {
  if (stats.threads == 0 || stats.waits <= stats.threads) return ::testing::AssertionSuccess();
  const auto per_thread = [&](std::uint64_t count) {
    return static_cast<double>(count) / static_cast<double>(stats.threads);
  };
  const double in_flight = stats.waits == 0 ? 0.0
                                            : static_cast<double>(stats.copies_in_flight_at_waits) /
                                                  static_cast<double>(stats.waits);
  return ::testing::AssertionFailure()
         << per_thread(stats.waits) << " waits per thread for " << per_thread(stats.cp_async_ops())
         << " copies, with " << in_flight
         << " of them in flight at a wait on average: a wait after each copy keeps one copy in "
            "flight at a time, which is what cp.async is meant to avoid. Issue all of a "
            "thread's copies, then wait once.";
}

std::string simulator_notes(const sim::LaunchStats& stats) {
  std::string notes;
  for (const auto& [text, count] : stats.warnings) {
    notes += "The simulator noticed: " + std::to_string(count) + " " + text + "\n";
  }
  return notes;
}
#endif

}  // namespace wb::grading
