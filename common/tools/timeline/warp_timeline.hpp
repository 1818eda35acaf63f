// A recording read as what each warp did and when: working, waiting at a cp.async or
// pipeline wait, or at a barrier; and each commit group in flight, from its commit to
// the wait that landed it.
#pragma once

#include <vector>

#include "wb/trace_records.hpp"

namespace wb::timeline {

enum class Activity { working, waiting, barrier };

struct Span {
  Activity activity;
  double begin, end;
};

// A commit group from its commit to the end of the wait that landed it (or to the warp's
// last event, where no wait did).
struct GroupInFlight {
  double begin, end;
  int group;  // its number among the warp's commits, from 0
  bool landed;
};

struct WarpTimeline {
  unsigned block = 0, warp = 0;
  bool overflowed = false;
  double begin = 0, end = 0;  // its first and last event, from its block's first
  std::vector<Span> spans;
  std::vector<GroupInFlight> groups;
  std::vector<int> in_flight_after_waits;  // at each wait, the groups it left travelling
};

struct Summary {
  double warp_time = 0;      // the warps' times, summed
  double waiting = 0;        // of which at cp.async or pipeline waits
  double at_barriers = 0;    // of which at barriers
  double waits = 0;          // how many waits
  double left_in_flight = 0; // groups left travelling, summed over the waits
  bool overflowed = false;   // a warp had more events than were kept
};

// Times in the recording's unit (steps), or microseconds for a GPU's cycles; each block
// from its own first event (a GPU's SMs keep separate clocks).
std::vector<WarpTimeline> read_warps(const trace::Recording& recording);
Summary summarize(const std::vector<WarpTimeline>& warps);

}  // namespace wb::timeline
