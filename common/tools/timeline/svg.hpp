// Timelines drawn as one SVG: a panel per recording, one after the other on the same time
// scale, a row per warp.
#pragma once

#include <string>
#include <vector>

#include "recording_file.hpp"
#include "warp_timeline.hpp"

namespace wb::timeline {

// "warps waited 12.0% of their time at waits and 3.1% at barriers; a wait left 0.98
// groups in flight on average".
std::string summary_text(const Summary& summary);

std::string draw_svg(const std::vector<TitledRecording>& panels);

}  // namespace wb::timeline
