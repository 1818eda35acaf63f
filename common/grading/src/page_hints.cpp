// What wb/grading/step.hpp declares: the steps' titles, and the chapter page's hints for a
// step, which WB_HINTS=1 prints as the page says them, read from the page, so that the
// grader and the book never give two hints.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "wb/grading/step.hpp"

namespace wb::grading {

namespace {

// book/chapterNN_<name>.md of the source tree the grader was built from.
std::string page_of(int chapter) {
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "chapter%02d_", chapter);
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(WB_SOURCE_DIR) + "book", error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && entry.path().extension() == ".md") return entry.path().string();
  }
  return "";
}

}  // namespace

std::map<int, std::string>& step_titles() {
  static std::map<int, std::string> titles;
  return titles;
}

std::string page_hints(int chapter, int step) {
  const std::string page = page_of(chapter);
  if (page.empty()) return "";
  std::ifstream in(page);
  const std::regex summary(R"(<details><summary>(Hint [0-9]+): *(.*)</summary>(.*))");
  const std::regex names_step("\\bstep " + std::to_string(step) + "\\b");
  std::string hints, line;
  bool inside = false;
  std::vector<std::string> body;
  while (std::getline(in, line)) {
    std::smatch match;
    if (!inside && std::regex_search(line, match, summary)) {
      inside = std::regex_search(match[2].first, match[2].second, names_step);
      if (inside) {
        hints += match[1].str() + " (" + match[2].str() + "):\n";
        body.clear();
        if (match[3].length() > 0) body.push_back(match[3].str());
      }
      continue;
    }
    if (!inside) continue;
    if (line.find("</details>") != std::string::npos) {
      while (!body.empty() && body.back().find_first_not_of(' ') == std::string::npos) body.pop_back();
      std::size_t first = 0;
      while (first < body.size() && body[first].find_first_not_of(' ') == std::string::npos) ++first;
      for (std::size_t i = first; i < body.size(); ++i) hints += "  " + body[i] + "\n";
      inside = false;
      continue;
    }
    body.push_back(line);
  }
  if (!hints.empty() && hints.back() == '\n') hints.pop_back();
  return hints;
}

}  // namespace wb::grading
