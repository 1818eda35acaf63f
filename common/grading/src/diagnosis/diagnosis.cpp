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

std::string read_where_no_copy_wrote(const sim::LaunchStats& stats, const std::vector<float>& output) {
  if (stats.blocks == 0 || stats.barriers < stats.blocks) return "";
  if (!holds_poison(output, poison::Kind::stale) || holds_poison(output, poison::Kind::in_flight)) return "";
  return "elements were read from shared memory where no copy had put anything, although the block met at "
         "__syncthreads() after its copies: the read's shared offset is not the copy's. Do both go through the "
         "same layout (no offset written by hand, the padding not forgotten in a view of the tile)?";
}
#endif

}  // namespace wb::grading
