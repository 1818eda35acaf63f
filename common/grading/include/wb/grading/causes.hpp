// The causes a grader names for a kernel that failed with an error (wb::ErrorKind), and
// the texts of the causes that every chapter shares: one place for each, which a
// chapter's grader extends with its own.
//
//   const wb::grading::Causes kCommon = {{wb::ErrorKind::too_many_copies,
//                                         wb::grading::loop_without_end_cause("kThreadRows")}};
//   Step step{..., wb::grading::causes_with(kCommon, {{wb::ErrorKind::source_out_of_bounds, "..."}})};
#pragma once

#include <map>
#include <string>

#include "wb/error.hpp"

namespace wb::grading {

// For each kind of kernel error, what the step can have got wrong.
using Causes = std::map<ErrorKind, std::string>;

// `common` with `overrides` in place of (or beside) its causes of the same kinds.
inline Causes causes_with(Causes common, const Causes& overrides) {
  for (const auto& [kind, cause] : overrides) common[kind] = cause;
  return common;
}

// The likely cause of ErrorKind::barrier, the same in every chapter; `example` names a
// condition of the chapter's own that a barrier must not sit under ("out_index < n").
inline std::string barrier_divergence_cause(const std::string& example = "") {
  return "threads wait at different __syncthreads(): keep every barrier outside any condition that differs "
         "between the threads of a block" +
         (example.empty() ? std::string() : " (" + example + ", say)") + ".";
}

// The likely cause of copies issued without end (ErrorKind::too_many_copies): a loop whose
// index does not advance. `step` is the chapter's own increment ("kThreadRows", or "..."),
// shown as `row += step`, not `row + step`; empty: none shown.
inline std::string loop_without_end_cause(const std::string& step = "") {
  return "a loop that never ends: does each loop advance its index" +
         (step.empty() ? std::string() : " (`row += " + step + "`, not `row + " + step + "`)") + "?";
}

}  // namespace wb::grading
