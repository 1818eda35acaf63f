// What a grader knows of the step it grades, so that every message can say where the
// learner is and what to do next.
#pragma once

#include <cstdlib>
#include <initializer_list>
#include <map>
#include <string>

#include "wb/error.hpp"
#include "wb/grading/causes.hpp"  // Causes, and the causes every chapter shares

namespace wb::grading {

struct Step {
  int chapter;
  int number;
  std::string title;  // "copy the tile through shared memory"
  std::string file;   // the learner's file: "chapters/01_copy/copy.cu"
  std::string hint;   // one or two sentences that point at the usual way to do it
  // What this step can have got wrong when the kernel fails with a given kind of error
  // (the same out-of-bounds read is "an index outside the tile" in a step without
  // partial tiles and "a missing bounds check" in one with them).
  Causes causes = {};

  // "Likely cause: ...\n" for a kernel error of this kind: the step's own, else the one
  // every chapter shares (shared_causes()), else "".
  std::string cause_line(ErrorKind kind) const {
    for (const Causes* source : {&causes, &shared_causes()}) {
      const auto found = source->find(kind);
      if (found != source->end()) return "Likely cause: " + found->second + "\n";
    }
    return {};
  }

  // "Chapter 1, step 1 (copy the tile through shared memory)"
  std::string heading() const {
    return "Chapter " + std::to_string(chapter) + ", step " + std::to_string(number) + " (" +
           title + ")";
  }
  // Where the hole is, and the code of the usual way only on request (WB_HINTS=1): the
  // first failure of an untouched step should say what is wrong, not hand over the
  // answer. The book has the same hint, folded.
  //   "Hint: TODO(step 1) in chapters/01_copy/copy.cu; ..."   by default
  //   "Hint: ... (TODO(step 1) in chapters/01_copy/copy.cu)"  with WB_HINTS=1
  std::string hint_line() const {
    const std::string hole = "TODO(step " + std::to_string(number) + ") in " + file;
    const char* hints = std::getenv("WB_HINTS");
    if (hints != nullptr && std::string(hints) == "1") return "Hint: " + hint + " (" + hole + ")";
    return "Hint: " + hole + "; the chapter's page has a hint for this step, folded, and WB_HINTS=1 " +
           "prints it here.";
  }
};

}  // namespace wb::grading
