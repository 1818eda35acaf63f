// Reading a shared-memory footprint: which words of a __shared__ array a block filled and
// read, as the simulator recorded them (sim::UnfilledRead, sim::ArrayFootprint).
//
// A load of a word that no copy or store of its block had filled reads what a GPU leaves
// undefined (in the simulator, the stale poison). The simulator keeps the first such load
// of a launch, with what the block had filled of that array then and its whole footprint
// there. The reading says what was observed (thread, block, line, array, offset, and the
// shape of what was filled) and names a cause only where the footprint proves it:
//   - each copy filled the first quarter of a slot the reads expect whole, and the copy's
//     size is that quarter: a size in floats where bytes are asked;
//   - the copies filled a run of words in a row, the reads walk the same number of words
//     with gaps (a padded layout), or the other way round: one side forgot the padding;
//   - every word read is a filled word moved by one constant: an offset on one side only;
//   - the reads cover every filled word and run on past the last: a loop bound;
//   - the copies filled the first part of every tile the reads walk whole: a copy loop
//     that makes one pass of the thread layout where the tile needs several.
// Anything else is reported as observed, with no cause.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "wb/wb.cuh"

namespace wb::grading {

#if WB_BACKEND_SIM
struct FootprintReading {
  std::string observed;  // "" when the launch read no unfilled word
  std::string cause;     // "" unless the footprint proves one

  // For a report's "Likely cause:": the observation, then the cause, or the observation
  // and a sentence that names none.
  std::string likely_cause() const;
};

// The reading of the launch's first unfilled read (stats.unfilled_read).
FootprintReading read_unfilled_footprint(const sim::LaunchStats& stats);

// For a grader that chooses a cause for an output: the likely cause when `stale` (the
// output holds the stale poison) and the launch read unfilled shared memory; "" otherwise.
std::string unfilled_read_cause(const sim::LaunchStats& stats, bool stale);

// A step that teaches a padded layout of `array`, (rows, cols) with columns `stride` words
// apart: block (0,0,0) must not have walked the array as a compact (stride `rows`) tile,
// words 0 to rows * cols - 1 every one and none of the padded array's last ones: both the
// copies and the reads through the compact layout, the padding declared and never used.
// Judged where block (0,0,0) touched rows * cols words of it (a whole tile); a pass
// otherwise.
::testing::AssertionResult padding_walked(const sim::LaunchStats& stats, const std::string& array, int rows,
                                          int cols, int stride);
#endif

}  // namespace wb::grading
