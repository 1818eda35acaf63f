// A timeline recording on disk: what a timeline program (wb/grading/timeline.hpp) writes
// and timeline_svg reads. Text, one event a line:
//
//   wb-timeline 1
//   title Chapter 6, step 2: the reference
//   clock steps <the steps a copy takes>    (or: clock cycles <kHz>)
//   warp <block> <warp> <overflowed>
//   <time> <event> <value>
#pragma once

#include <string>

#include "wb/trace_records.hpp"

namespace wb::timeline {

struct TitledRecording {
  std::string title;
  trace::Recording recording;
};

void write_recording(const std::string& path, const TitledRecording& recording);
// Throws std::runtime_error naming the file and line where it is not a recording.
TitledRecording read_recording(const std::string& path);

}  // namespace wb::timeline
