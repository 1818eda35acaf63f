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
      {ErrorKind::destination_global,
       "a cp.async whose destination is global memory: cp.async copies one way only, from global memory "
       "into shared memory. Store to global memory with a plain assignment, gmem[...] = smem[...]."},
      {ErrorKind::local_out_of_bounds,
       "an index outside a local array (a register array such as a fragment or an accumulator): a loop "
       "bound `<=` where `<` is meant, or a loop that runs over more elements than the array was declared "
       "with. On a GPU nothing stops it, and another variable is read or overwritten."},
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

// The likely cause of a step that ran past its time limit, as the step runner reports it.
// `running`: the simulator's list of the blocks still running, with their threads' lines
// (empty: no kernel was running). On the GPU the step runner knows no more than the time.
inline std::string hang_cause(bool simulator, const std::string& running) {
  if (!simulator) {
    return "On the GPU: a loop that never ends, or threads that wait for each other. "
           "The simulator's check of this step names the threads and their lines.";
  }
  if (running.empty()) return "No kernel is running: the host code of the step loops?";
  return "A loop that never ends, or a thread that waits for another (a spin on a flag, which the "
         "simulator cannot run)? Still running:\n" + running;
}

// The likely cause of a crash (a signal) in a kernel: the simulator runs kernels on the
// host, so a wild index can crash the process; on the GPU a kernel that fails reports an
// error instead, so a crash there is the host code's.
inline std::string crash_cause(bool simulator) {
  if (!simulator) return "On the GPU a kernel that fails reports an error instead: this crash is in host code.";
  return "An index far out of range, or a pointer that is not device memory? An index that goes below 0 "
         "reaches that far: threadIdx.x is unsigned, so threadIdx.x + k - 2 is about 4 billion where it is -1. "
         "Which term of an index on this line takes it below 0 for the first threads? A signed index would "
         "still read before the array's start: that term is what is wrong.";
}

}  // namespace wb::grading
