// WB_HINTS=1 prints the chapter page's hints for a failing step, read from the page
// (wb::grading::page_hints): every step of every chapter has one there, and the report's
// hint line is that text, not another.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "wb/grading/step.hpp"

namespace {

// Each chapter's steps, as its grader has them.
const std::vector<std::pair<int, int>> kChapterSteps = {{1, 2}, {2, 2}, {3, 3}, {4, 5}, {5, 3}, {6, 3}, {7, 4}};

TEST(PageHints, EveryStepHasItsPagesHint) {
  for (const auto& [chapter, steps] : kChapterSteps) {
    for (int step = 1; step <= steps; ++step) {
      const std::string hints = wb::grading::page_hints(chapter, step);
      EXPECT_EQ(hints.rfind("Hint ", 0), 0u) << "chapter " << chapter << ", step " << step << ": " << hints;
      EXPECT_NE(hints.find("step " + std::to_string(step)), std::string::npos) << hints;
      EXPECT_EQ(hints.find("<details>"), std::string::npos) << "the page's markup left in: " << hints;
    }
    EXPECT_TRUE(wb::grading::page_hints(chapter, steps + 1).empty()) << "a hint for a step chapter " << chapter
                                                                     << " does not have";
  }
}

TEST(PageHints, TheReportsHintLineIsThePagesHint) {
  const wb::grading::Step step{3, 3, "pad the tile, any shape", "chapters/03_transpose/transpose.cu"};
  ::setenv("WB_HINTS", "1", 1);
  const std::string line = step.hint_line();
  ::unsetenv("WB_HINTS");
  EXPECT_NE(line.find(wb::grading::page_hints(3, 3)), std::string::npos) << line;
  EXPECT_NE(line.find("TODO(step 3) in chapters/03_transpose/transpose.cu"), std::string::npos) << line;
  const std::string folded = step.hint_line();
  EXPECT_EQ(folded.find(wb::grading::page_hints(3, 3)), std::string::npos) << "without WB_HINTS, the hole only";
}

}  // namespace
