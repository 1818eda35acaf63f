// What every bench-chapterN program shares.
#pragma once

#include <cstdio>
#include <string>

#include "wb/wb.cuh"

namespace wb::grading {

// Whether a GPU answers to time `variant` ("learner" or "solution") on; if none does,
// prints why, on the line the variant's figures would have taken, and returns false.
inline bool gpu_for_bench(const char* variant) {
  std::string reason;
  if (wb::gpu_available(&reason)) return true;
  std::printf("%-9s speed needs a GPU: %s\n", variant, reason.c_str());
  return false;
}

}  // namespace wb::grading
