// What a grader knows of the step it grades, so that every message can say where the
// learner is and what to do next.
#pragma once

#include <string>

namespace wb::grading {

struct Step {
  int chapter;
  int number;
  std::string title;  // "copy the tile through shared memory"
  std::string file;   // the learner's file: "chapters/01_copy/copy.cu"
  std::string hint;   // one or two sentences that point at the usual way to do it

  // "Chapter 1, step 1 (copy the tile through shared memory)"
  std::string heading() const {
    return "Chapter " + std::to_string(chapter) + ", step " + std::to_string(number) + " (" +
           title + ")";
  }
  // "Hint: ... (TODO(step 1) in chapters/01_copy/copy.cu)"
  std::string hint_line() const {
    return "Hint: " + hint + " (TODO(step " + std::to_string(number) + ") in " + file + ")";
  }
};

}  // namespace wb::grading
