// How a grader reaches a likely cause: evidence in, cause out.
//
// A cause is named only where there is evidence for it, of two sorts:
//   - a finding of the trace: what the simulator saw the kernel do (no cp.async issued,
//     a copy read before it landed, nothing stored), or what the wrong values are (the
//     poison of a copy still in flight, an input element from elsewhere);
//   - a model of a mistake: the output that mistake gives on the very same inputs,
//     computed on the host, which reproduces the learner's wrong output.
// A Diagnosis holds the hypotheses of one failing run in the order they are tried, the
// most specific first, and names the cause of the first that fits. When none fits, the
// cause is empty: the report then says what it observed (which elements are wrong and
// what they hold) and names no cause, since a wrong cause sends a learner to fix what is
// not broken.
//
//   wb::grading::Diagnosis diagnosis(reproduces);
//   diagnosis.finding([&] { return no_copy_issued(stats, "the tiles"); })
//            .model("A and B are exchanged ...", [&] { return product_transposed(...); });
//   const std::string cause = diagnosis.cause();
//
// The checks of common/grading (movement, GEMM, convolution) build their chains from
// the findings every chapter shares (this header) and the models of their kind of
// kernel (gemm_models.hpp, convolution_models.hpp, the mismatch patterns of
// compare.cpp); a chapter's grader adds its own through the check's fields.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "wb/wb.cuh"

namespace wb::grading {

class Diagnosis {
 public:
  // A hypothesis tested against the evidence: its cause when the evidence shows it, ""
  // when it does not.
  using Finding = std::function<std::string()>;
  // The output a mistake gives on the run's inputs, in double.
  using Model = std::function<std::vector<double>()>;
  // Whether a model's output is the learner's, within the check's tolerance.
  using Reproduces = std::function<bool(const std::vector<double>& model_output)>;

  explicit Diagnosis(Reproduces reproduces = {}) : reproduces_(std::move(reproduces)) {}
  // The models' hypotheses call this object's `reproduces`: it stays where it was built.
  Diagnosis(const Diagnosis&) = delete;
  Diagnosis& operator=(const Diagnosis&) = delete;

  // Hypotheses are tried in the order they are added; none is evaluated past the first
  // that fits.
  Diagnosis& finding(Finding finding) {
    hypotheses_.push_back(std::move(finding));
    return *this;
  }
  Diagnosis& model(std::string cause, Model output) {
    hypotheses_.push_back([this, cause = std::move(cause), output = std::move(output)]() {
      return reproduces_ && reproduces_(output()) ? cause : std::string();
    });
    return *this;
  }

  // The cause of the first hypothesis that fits, or "" when none does.
  std::string cause() const {
    for (const Finding& hypothesis : hypotheses_) {
      if (std::string cause = hypothesis(); !cause.empty()) return cause;
    }
    return "";
  }

 private:
  Reproduces reproduces_;
  std::vector<Finding> hypotheses_;
};

// The findings every chapter shares.

// Every element of `output` still holds the poison of an element never written: the
// kernel stored nothing ("the output", "C").
std::string nothing_written(const std::vector<float>& output, const std::string& array);

#if WB_BACKEND_SIM
// No cp.async at all in a step that loads through cp.async: shared memory then holds
// only the simulator's poison, which would read as a missing barrier. `question` asks
// where the copies went in the step's words ("is the TODO still empty, or is the span
// loaded with plain assignments?").
std::string no_copy_issued(const sim::LaunchStats& stats, const std::string& question);

// Outputs never written, and threads that returned from the kernel before a barrier that
// the rest of their block passed (LaunchStats::early_exit): they skipped their share of
// the copies and the store. `left_unwritten(block)`, where given, says whether that block
// left some of its outputs unwritten: the evidence that ties the two together.
std::string threads_returned_early(const sim::LaunchStats& stats, const std::vector<float>& output,
                                   const std::function<bool(const uint3& block)>& left_unwritten = {});

#endif

// Whether some element of `values` holds the poison of `kind`.
bool holds_poison(const std::vector<float>& values, poison::Kind kind);

}  // namespace wb::grading
