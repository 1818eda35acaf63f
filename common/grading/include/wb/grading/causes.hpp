// The causes a grader names for a kernel that failed with an error (wb::ErrorKind), and
// the texts of the causes that every chapter shares: one place for each, which a
// chapter's grader extends with its own. A kind that no step names gets the cause of
// shared_causes(), if it has one.
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

// The causes that read the same in every chapter, for the kinds a step does not name
// itself (Step::cause_line falls back on them).
inline const Causes& shared_causes() {
  static const Causes causes = {
      {ErrorKind::barrier, barrier_divergence_cause()},
      {ErrorKind::shared_write_overlap,
       "two threads wrote the same shared word between two barriers, so the indices they "
       "computed overlap: rows stepped by a wrong stride, a thread coordinate's row and column "
       "exchanged, a bound one past the tile, or a loop stepping too little. Each word of a "
       "tile needs exactly one writer; a __syncthreads() would not fix this."},
  };
  return causes;
}

// The likely cause of copies issued without end (ErrorKind::too_many_copies): a loop whose
// index does not advance. `step` is the chapter's own increment ("kThreadRows", or "..."),
// shown as `row += step`, not `row + step`; empty: none shown.
inline std::string loop_without_end_cause(const std::string& step = "") {
  return "a loop that never ends: does each loop advance its index" +
         (step.empty() ? std::string() : " (`row += " + step + "`, not `row + " + step + "`)") + "?";
}

}  // namespace wb::grading
