// Technique checks: did the step really use what it teaches? Read from the simulator's
// counters of the last launch; on the GPU there are no counters, and these checks are
// not made there (the simulator build of the same grader makes them).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "wb/wb.cuh"

namespace wb::grading {

#if WB_BACKEND_SIM
// Every one of `elements` floats reached shared memory through cp.async, each once, and
// every copy was waited for.
::testing::AssertionResult loaded_through_cp_async(const sim::LaunchStats& stats,
                                                   std::uint64_t elements);
#endif

}  // namespace wb::grading
