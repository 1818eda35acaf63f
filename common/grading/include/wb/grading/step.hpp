// What a grader knows of the step it grades, so that every message can say where the
// learner is and what to do next.
#pragma once

#include <cstdlib>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>

#include "wb/error.hpp"
#include "wb/grading/causes.hpp"  // Causes, and the causes every chapter shares

namespace wb::grading {

// The hints the chapter's page (book/chapterNN_*.md) gives for a step, each block
// `<details><summary>Hint K: step N...</summary> ... </details>` whose summary names the
// step, as plain text: "Hint K (step N, ...):" and its lines indented. "" where the page
// or such a hint is not found.
std::string page_hints(int chapter, int step);

// The titles of the grader's steps, by number, as each Step registers its own: the step
// runner's table and check-all show them with their punctuation ("load the tiles with
// cp.async"), which a GoogleTest name cannot hold.
std::map<int, std::string>& step_titles();

struct Step {
  Step() = default;  // a check's step, set before it runs
  Step(int chapter_number, int step_number, std::string step_title, std::string learner_file,
       Causes step_causes = {})
      : chapter(chapter_number), number(step_number), title(std::move(step_title)),
        file(std::move(learner_file)), causes(std::move(step_causes)) {
    step_titles()[number] = title;
  }

  int chapter = 0;
  int number = 0;
  std::string title;  // "copy the tile through shared memory"
  std::string file;   // the learner's file: "chapters/01_copy/copy.cu"
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
  // Where the hole is, and the chapter page's hints for this step only on request
  // (WB_HINTS=1): the first failure of an untouched step should say what is wrong, not
  // hand over the answer. The hints are read from the page itself (page_hints), so the
  // two never differ.
  //   "Hint: TODO(step 1) in chapters/01_copy/copy.cu; ..."              by default
  //   "Hints for TODO(step 1) in ..., from the chapter's page ...:\n..."  with WB_HINTS=1
  std::string hint_line() const {
    const std::string hole = "TODO(step " + std::to_string(number) + ") in " + file;
    const char* hints = std::getenv("WB_HINTS");
    if (hints != nullptr && std::string(hints) == "1") {
      const std::string page = page_hints(chapter, number);
      if (!page.empty()) return "Hints for " + hole + ", as the chapter's page gives them:\n" + page;
      return "Hint: " + hole + "; the chapter's page has its hints (none for this step was found in book/).";
    }
    return "Hint: " + hole + "; the chapter's page has a hint for this step, folded, and WB_HINTS=1 " +
           "prints it here.";
  }
};

}  // namespace wb::grading
