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
#endif

}  // namespace wb::grading
