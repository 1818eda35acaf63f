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
#endif

}  // namespace wb::grading
