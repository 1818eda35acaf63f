#include "warp_timeline.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <utility>

namespace wb::timeline {

namespace {

using trace::Event;

WarpTimeline read_warp(const trace::WarpRecords& records, double origin, double scale) {
  WarpTimeline warp;
  warp.block = records.block;
  warp.warp = records.warp;
  warp.overflowed = records.overflowed;
  const auto time_of = [&](const trace::Record& record) { return (static_cast<double>(record.time) - origin) * scale; };
  warp.begin = time_of(records.records.front());
  warp.end = time_of(records.records.back());
  std::deque<std::pair<int, double>> pending;  // committed groups in flight: number, commit time
  int commits = 0;
  int wait_lets_stay = 0;
  double last = warp.begin;  // where the working span since the last wait or barrier began
  for (const trace::Record& record : records.records) {
    const double now = time_of(record);
    switch (static_cast<Event>(record.event)) {
      case Event::commit:
        pending.emplace_back(commits++, now);
        break;
      case Event::wait_begins:
      case Event::barrier_begins:
        if (now > last) warp.spans.push_back({Activity::working, last, now});
        last = now;
        wait_lets_stay = record.value;
        break;
      case Event::wait_ends: {
        warp.spans.push_back({Activity::waiting, last, now});
        last = now;
        // wait<N> leaves the newest N groups in flight; a pipeline's wait lands the oldest.
        const std::size_t stay = wait_lets_stay >= 0 ? static_cast<std::size_t>(wait_lets_stay)
                                                     : (pending.empty() ? 0 : pending.size() - 1);
        while (pending.size() > stay) {
          warp.groups.push_back({pending.front().second, now, pending.front().first, true});
          pending.pop_front();
        }
        warp.in_flight_after_waits.push_back(static_cast<int>(pending.size()));
        break;
      }
      case Event::barrier_ends:
        warp.spans.push_back({Activity::barrier, last, now});
        last = now;
        break;
    }
  }
  if (warp.end > last) warp.spans.push_back({Activity::working, last, warp.end});
  for (const auto& [group, begin] : pending) warp.groups.push_back({begin, warp.end, group, false});
  return warp;
}

}  // namespace

std::vector<WarpTimeline> read_warps(const trace::Recording& recording) {
  // A GPU's cycles to microseconds; each block from its first event.
  const double scale = recording.logical || recording.clock_khz <= 0 ? 1.0 : 1000.0 / recording.clock_khz;
  std::map<unsigned, double> block_origin;
  for (const trace::WarpRecords& warp : recording.warps) {
    if (warp.records.empty()) continue;
    const double first = static_cast<double>(warp.records.front().time);
    auto [at, fresh] = block_origin.try_emplace(warp.block, first);
    if (!fresh) at->second = std::min(at->second, first);
  }
  std::vector<WarpTimeline> warps;
  for (const trace::WarpRecords& warp : recording.warps) {
    if (!warp.records.empty()) warps.push_back(read_warp(warp, block_origin[warp.block], scale));
  }
  return warps;
}

Summary summarize(const std::vector<WarpTimeline>& warps) {
  Summary summary;
  for (const WarpTimeline& warp : warps) {
    summary.warp_time += warp.end - warp.begin;
    summary.overflowed |= warp.overflowed;
    for (const Span& span : warp.spans) {
      if (span.activity == Activity::waiting) summary.waiting += span.end - span.begin;
      if (span.activity == Activity::barrier) summary.at_barriers += span.end - span.begin;
    }
    summary.waits += static_cast<double>(warp.in_flight_after_waits.size());
    for (int left : warp.in_flight_after_waits) summary.left_in_flight += left;
  }
  return summary;
}

}  // namespace wb::timeline
