// Runs a grading body under each schedule the backend offers, stopping at the first
// failure: forward then reverse in the simulator (a missing barrier gives a wrong
// result under at least one of them, every time), once on the GPU.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "wb/wb.cuh"

namespace wb::grading {

// body(std::string configuration) is called with "schedule forward", "schedule
// reverse" or "GPU" for its messages.
template <class Body>
void for_each_schedule(Body&& body) {
#if WB_BACKEND_SIM
  for (sim::Order order : {sim::Order::forward, sim::Order::reverse}) {
    const sim::Schedule schedule{order, 1};
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
