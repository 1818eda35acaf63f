// Technique checks: did the step really use what it teaches? Read from the simulator's
// counters of the last launch; on the GPU there are no counters, and these checks are
// not made there (the simulator build of the same grader makes them).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "wb/wb.cuh"

namespace wb::grading {

#if WB_BACKEND_SIM
// Every one of `elements` floats reached shared memory through cp.async, each once, and
// every copy was waited for.
::testing::AssertionResult loaded_through_cp_async(const sim::LaunchStats& stats,
                                                   std::uint64_t elements);

// Each thread issued all its copies and then waited once: not a wait after every copy,
// which keeps one copy in flight at a time (the very thing cp.async is for).
::testing::AssertionResult waited_once_per_thread(const sim::LaunchStats& stats);

// "The simulator noticed: ..." lines for the launch's warnings, or "" if none: a
// failure message carries them, so that they are never lost on a stderr that
// WB_SIM_QUIET silences.
std::string simulator_notes(const sim::LaunchStats& stats);
#endif

}  // namespace wb::grading
