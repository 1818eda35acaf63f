#include "svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

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

std::string number(double value, int decimals = 1) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
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
  std::string text = "warps waited " + number(100 * summary.waiting / total) + "% of their time at waits and " +
                     number(100 * summary.at_barriers / total) + "% at barriers";
  if (summary.waits > 0) {
    text += "; a wait left " + number(summary.left_in_flight / summary.waits, 2) + " groups in flight on average";
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

  std::ostringstream body;
  double y = 44;
  for (std::size_t p = 0; p < panels.size(); ++p) {
    body << "<text x='" << kLeft << "' y='" << y << "' font-weight='bold'>" << escape(panels[p].title) << "</text>\n";
    body << "<text x='" << kLeft << "' y='" << y + 15 << "'>" << escape(summary_text(summarize(warps[p])))
         << "</text>\n";
    y += 24;
    for (const WarpTimeline& warp : warps[p]) {
      body << "<text x='4' y='" << y + kActivity << "' font-size='10'>block " << warp.block << " warp " << warp.warp
           << "</text>\n";
      for (const Span& span : warp.spans) {
        body << "<rect x='" << number(x_of(span.begin), 2) << "' y='" << y << "' width='"
             << number(std::max(0.3, x_of(span.end) - x_of(span.begin)), 2) << "' height='" << kActivity
             << "' fill='" << colour(span.activity) << "'/>\n";
      }
      for (const GroupInFlight& group : warp.groups) {
        const double lane_y = y + kActivity + 1 + (group.group % kLanes) * kLane;
        body << "<rect x='" << number(x_of(group.begin), 2) << "' y='" << lane_y << "' width='"
             << number(std::max(0.3, x_of(group.end) - x_of(group.begin)), 2) << "' height='" << kLane - 0.5
             << "' fill='" << (group.landed ? "#1e88e5" : "#90a4ae") << "'/>\n";
      }
      y += kRow;
    }
    // The time axis under the panel.
    body << "<line x1='" << kLeft << "' y1='" << y + 2 << "' x2='" << kLeft + plot << "' y2='" << y + 2
         << "' stroke='#555'/>\n";
    const double step = tick_step(latest);
    for (double t = 0; t <= latest * 1.0001; t += step) {
      body << "<line x1='" << number(x_of(t), 2) << "' y1='" << y + 2 << "' x2='" << number(x_of(t), 2) << "' y2='"
           << y + 6 << "' stroke='#555'/><text x='" << number(x_of(t), 2) << "' y='" << y + 17
           << "' font-size='10' text-anchor='middle'>" << number(t, step < 1 ? 2 : 0) << "</text>\n";
    }
    body << "<text x='" << kLeft + plot << "' y='" << y + 30 << "' font-size='10' text-anchor='end'>" << unit
         << (logical ? " of the simulator's logical time (a model: a copy lands " +
                           std::to_string(panels.front().recording.copy_steps) + " steps after its commit), not a measurement"
                     : ", each block from its own first event")
         << "</text>\n";
    y += 48;
  }

  std::ostringstream svg;
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='" << kWidth << "' height='" << y
      << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  // The legend.
  double x = kLeft;
  for (const auto& [fill, label] : {std::pair<const char*, const char*>{colour(Activity::working), "working"},
                                    {colour(Activity::waiting), "at a wait"},
                                    {colour(Activity::barrier), "at a barrier"},
                                    {"#1e88e5", "a commit group in flight, commit to the wait that landed it"}}) {
    svg << "<rect x='" << x << "' y='8' width='14' height='9' fill='" << fill << "'/><text x='" << x + 18
        << "' y='17'>" << label << "</text>\n";
    x += 18 + 7.0 * std::string(label).size() + 16;
  }
  svg << body.str() << "</svg>\n";
  return svg.str();
}

}  // namespace wb::timeline
