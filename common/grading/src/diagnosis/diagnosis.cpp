#include "wb/grading/diagnosis/diagnosis.hpp"

#include <algorithm>

namespace wb::grading {

bool holds_poison(const std::vector<float>& values, poison::Kind kind) {
  return std::any_of(values.begin(), values.end(), [kind](float value) { return poison::matches(value, kind); });
}

std::string nothing_written(const std::vector<float>& output, const std::string& array) {
  const bool none = std::all_of(output.begin(), output.end(),
                                [](float value) { return poison::matches(value, poison::Kind::unwritten); });
  return none ? "the kernel wrote no element of " + array + " at all (is the TODO still empty?)." : std::string();
}

#if WB_BACKEND_SIM
std::string no_copy_issued(const sim::LaunchStats& stats, const std::string& question) {
  if (stats.cp_async_ops() > 0) return "";
  return "no cp.async was issued at all, so nothing was copied into shared memory (" + question + ").";
}

std::string threads_returned_early(const sim::LaunchStats& stats, const std::vector<float>& output,
                                   const std::function<bool(const uint3& block)>& left_unwritten) {
  if (stats.early_exits.empty()) return "";
  // The evidence that ties the early return to the wrong output: outputs of such a block
  // never written, or copies read in flight that their threads never waited for (a thread
  // that returned before the barrier skipped its wait too).
  const bool unwritten = holds_poison(output, poison::Kind::unwritten);
  const bool unwaited = stats.copies_never_waited > 0 && holds_poison(output, poison::Kind::in_flight);
  if (!unwritten && !unwaited) return "";
  // The lowest block with threads returned early (that left outputs unwritten).
  const sim::EarlyExit* found = nullptr;
  for (const sim::EarlyExit& exit : stats.early_exits) {
    if (found != nullptr && found->block_linear <= exit.block_linear) continue;
    if (!unwritten || !left_unwritten || left_unwritten(exit.block)) found = &exit;
  }
  if (found == nullptr) return "";
  const sim::EarlyExit& exit = *found;
  const std::string what = unwritten ? "outputs of that block were never written"
                                     : std::to_string(stats.copies_never_waited) +
                                           " copies were never waited for, and the others read them in flight";
  return std::to_string(exit.threads) + (exit.threads == 1 ? " thread" : " threads") + " of block " +
         sim::format_index(exit.block) + " (thread " + sim::format_index(exit.thread) +
         " the first) returned from the kernel before the " +
         "__syncthreads() at " + exit.barrier_site + " that the others reached, and " + what +
         ". A thread that returns early skips its share of the copies, its wait, the barrier and the store: "
         "keep every thread in the kernel, and let the loops' bounds keep it off the elements outside the array "
         "(a thread with none in bounds then copies and stores nothing).";
}
#endif

}  // namespace wb::grading
