// The schedule of the next launches: set by the tests, or by WB_SIM_SCHEDULE.
#include <cstdlib>
#include <mutex>
#include <string>

#include "wb/sim/simulator.hpp"

namespace wb::sim {
namespace {

Schedule parse(const char* text) {
  const std::string value = text == nullptr ? "" : text;
  if (value.empty() || value == "forward") return {Order::forward, 1};
  if (value == "reverse") return {Order::reverse, 1};
  if (value.rfind("random", 0) == 0) {
    std::uint64_t seed = 1;
    if (value.size() > 7 && value[6] == ':') seed = std::strtoull(value.c_str() + 7, nullptr, 10);
    return {Order::random, seed};
  }
  throw Error("WB_SIM_SCHEDULE=" + value +
              ": expected forward, reverse, random or random:SEED");
}

std::mutex schedule_mutex;
Schedule* the_schedule = nullptr;

}  // namespace

std::string to_string(const Schedule& schedule) {
  switch (schedule.order) {
    case Order::forward:
      return "forward";
    case Order::reverse:
      return "reverse";
    case Order::random:
      return "random:" + std::to_string(schedule.seed);
  }
  return "?";
}

Schedule current_schedule() {
  std::lock_guard lock(schedule_mutex);
  if (the_schedule == nullptr) the_schedule = new Schedule(parse(std::getenv("WB_SIM_SCHEDULE")));
  return *the_schedule;
}

void set_schedule(const Schedule& schedule) {
  std::lock_guard lock(schedule_mutex);
  if (the_schedule == nullptr) the_schedule = new Schedule(schedule);
  *the_schedule = schedule;
}

}  // namespace wb::sim
