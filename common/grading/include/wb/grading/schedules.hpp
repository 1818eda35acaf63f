// Runs a grading body under each schedule the backend offers, stopping at the first
// failure: forward then reverse in the simulator (and WB_SIM_SCHEDULE's random order if
// one is set) (a missing barrier gives a wrong
// result under at least one of them, every time), once on the GPU.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "wb/wb.cuh"

namespace wb::grading {

// body(std::string configuration) is called with "schedule forward", "schedule
// reverse" or "GPU" for its messages.
template <class Body>
void for_each_schedule(Body&& body) {
#if WB_BACKEND_SIM
  // Forward and reverse always; a schedule set with WB_SIM_SCHEDULE (random:SEED, say)
  // is run as well, never instead.
  std::vector<sim::Schedule> schedules{{sim::Order::forward, 1}, {sim::Order::reverse, 1}};
  if (const sim::Schedule chosen = sim::current_schedule(); chosen.order == sim::Order::random) {
    schedules.push_back(chosen);
  }
  for (const sim::Schedule& schedule : schedules) {
    sim::ScopedSchedule scoped(schedule);
    const std::string name = "simulator, schedule " + sim::to_string(schedule);
    body(name);
    if (::testing::Test::HasFailure()) return;
  }
#else
  body(std::string("GPU"));
#endif
}

}  // namespace wb::grading
