// Reading the simulator's record of the first read of a copy still in flight
// (sim::InFlightRead): where that copy stood among its thread's commits and waits says
// which call is missing or misplaced, where the record proves it:
//   - the copy's group was never committed: a commit missing (or placed after the wait);
//   - its thread never waited: a wait missing;
//   - it was issued after its thread's last wait: a refill into the stage being read;
//   - the last wait<N> left it among the newest N groups: a wait with a larger N than
//     the step's, no group committed between the last two waits (the empty commit at the
//     end of a pipeline skipped), or a stage read that the wait leaves in flight by design.
#pragma once

#include <string>

#include "wb/wb.cuh"

namespace wb::grading {

#if WB_BACKEND_SIM
// The likely cause of outputs holding the in-flight poison, from stats.in_flight_read; ""
// where the launch made no such read. `step_wait` is the N of the step's own
// cp_async_wait<N> (-1: the step waits in several ways, or none is taught), and
// `step_wait_call` the call as the step's page writes it (cg::wait(block) in chapter 7),
// where it is not wait<step_wait>. `loads_before_the_wait`: the step loads and commits the
// next tile before its wait (chapter 6's double buffer), so that a thread that commits
// between its wait and its reads has the wait first; not so where the next tile is loaded
// after the wait (chapter 4's pipeline).
std::string in_flight_read_cause(const sim::LaunchStats& stats, int step_wait,
                                 const std::string& step_wait_call = "", bool loads_before_the_wait = false);
#endif

}  // namespace wb::grading
