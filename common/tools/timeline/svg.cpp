#include "svg.hpp"

#include "svg_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

namespace wb::timeline {

namespace {

constexpr double kWidth = 960, kLeft = 96, kRight = 20;  // the plot between kLeft and kWidth - kRight
constexpr double kRow = 16, kActivity = 9, kLane = 2;    // a warp's row: its activity, then its groups
constexpr int kLanes = 3;                                // groups drawn on lanes by number % kLanes

const char* colour(Activity activity) {
  switch (activity) {
    case Activity::working: return "#a5d6a7";
    case Activity::waiting: return "#e53935";
    case Activity::barrier: return "#fb8c00";
  }
  return "#000";
}

std::string decimals(double value, int places) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", places, value);
  return text;
}

// A round step for the axis's ticks: 1, 2 or 5 times a power of ten, about 6 ticks.
double tick_step(double span) {
  const double rough = span / 6;
  const double power = std::pow(10.0, std::floor(std::log10(std::max(rough, 1e-9))));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= rough) return m * power;
  }
  return 10 * power;
}

}  // namespace

std::string summary_text(const Summary& summary) {
  const double total = summary.warp_time > 0 ? summary.warp_time : 1;
  std::string text = "warps waited " + decimals(100 * summary.waiting / total, 1) + "% of their time at waits and " +
                     decimals(100 * summary.at_barriers / total, 1) + "% at barriers";
  if (summary.waits > 0) {
    text += "; a wait left " + decimals(summary.left_in_flight / summary.waits, 2) + " groups in flight on average";
  }
  if (summary.warp_time <= 0) return "no commit, wait or barrier recorded: is the step written?";
  if (summary.overflowed) text += " (some warps' later events were not kept)";
  return text;
}

std::string draw_svg(const std::vector<TitledRecording>& panels) {
  std::vector<std::vector<WarpTimeline>> warps;
  double latest = 1;
  for (const TitledRecording& panel : panels) {
    warps.push_back(read_warps(panel.recording));
    for (const WarpTimeline& warp : warps.back()) latest = std::max(latest, warp.end);
  }
  const bool logical = !panels.empty() && panels.front().recording.logical;
  const std::string unit = logical ? "steps" : "\u00b5s";
  const double plot = kWidth - kLeft - kRight;
  const auto x_of = [&](double time) { return kLeft + plot * time / latest; };

  double y = 44;
  wb::svg::Svg svg(kWidth, y);
  // The legend.
  double x = kLeft;
  for (const auto& [fill, label] : {std::pair<const char*, const char*>{colour(Activity::working), "working"},
                                    {colour(Activity::waiting), "at a wait"},
                                    {colour(Activity::barrier), "at a barrier"},
                                    {"#1e88e5", "a commit group in flight, commit to the wait that landed it"}}) {
    svg.rect(x, 8, 14, 9, fill);
    svg.text(x + 18, 17, label, 12);
    x += 18 + 7.0 * std::string(label).size() + 16;
  }
  for (std::size_t p = 0; p < panels.size(); ++p) {
    svg.text(kLeft, y, panels[p].title, 12, "start", true);
    svg.text(kLeft, y + 15, summary_text(summarize(warps[p])), 12);
    y += 24;
    for (const WarpTimeline& warp : warps[p]) {
      svg.text(4, y + kActivity, "block " + std::to_string(warp.block) + " warp " + std::to_string(warp.warp), 10);
      for (const Span& span : warp.spans) {
        svg.rect(x_of(span.begin), y, std::max(0.3, x_of(span.end) - x_of(span.begin)), kActivity,
                 colour(span.activity));
      }
      for (const GroupInFlight& group : warp.groups) {
        svg.rect(x_of(group.begin), y + kActivity + 1 + (group.group % kLanes) * kLane,
                 std::max(0.3, x_of(group.end) - x_of(group.begin)), kLane - 0.5,
                 group.landed ? "#1e88e5" : "#90a4ae");
      }
      y += kRow;
    }
    // The time axis under the panel.
    svg.line(kLeft, y + 2, kLeft + plot, y + 2, "#555", 1);
    const double step = tick_step(latest);
    for (double t = 0; t <= latest * 1.0001; t += step) {
      svg.line(x_of(t), y + 2, x_of(t), y + 6, "#555", 1);
      svg.text(x_of(t), y + 17, decimals(t, step < 1 ? 2 : 0), 10, "middle");
    }
    svg.text(kLeft + plot, y + 30,
             unit + (logical ? " of the simulator's logical time (a model: a copy lands " +
                                   std::to_string(panels.front().recording.copy_steps) +
                                   " steps after its commit), not a measurement"
                             : ", each block from its own first event"),
             10, "end");
    y += 48;
  }
  return svg.str();
}

}  // namespace wb::timeline
