#include "recording_file.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace wb::timeline {

void write_recording(const std::string& path, const TitledRecording& titled) {
  std::ofstream out(path);
  const trace::Recording& recording = titled.recording;
  out << "wb-timeline 1\ntitle " << titled.title << "\nclock " << (recording.logical ? "steps" : "cycles") << ' '
      << (recording.logical ? static_cast<double>(recording.copy_steps) : recording.clock_khz) << '\n';
  for (const trace::WarpRecords& warp : recording.warps) {
    out << "warp " << warp.block << ' ' << warp.warp << ' ' << (warp.overflowed ? 1 : 0) << '\n';
    for (const trace::Record& record : warp.records) {
      out << record.time << ' ' << record.event << ' ' << record.value << '\n';
    }
  }
  if (!out) throw std::runtime_error("could not write " + path);
}

TitledRecording read_recording(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("could not open " + path);
  TitledRecording titled;
  std::string line;
  int number = 0;
  const auto fail = [&](const std::string& what) {
    throw std::runtime_error(path + ":" + std::to_string(number) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++number;
    std::istringstream fields(line);
    std::string word;
    if (number == 1) {
      if (line != "wb-timeline 1") fail("not a timeline recording");
      continue;
    }
    if (line.rfind("title ", 0) == 0) {
      titled.title = line.substr(6);
    } else if (line.rfind("clock ", 0) == 0) {
      double figure = 0;
      fields >> word >> word >> figure;
      titled.recording.logical = word == "steps";
      if (titled.recording.logical) {
        titled.recording.copy_steps = static_cast<std::uint64_t>(figure);
      } else {
        titled.recording.clock_khz = figure;
      }
    } else if (line.rfind("warp ", 0) == 0) {
      trace::WarpRecords warp;
      int overflowed = 0;
      if (!(fields >> word >> warp.block >> warp.warp >> overflowed)) fail("a warp line is block, warp, overflowed");
      warp.overflowed = overflowed != 0;
      titled.recording.warps.push_back(warp);
    } else if (!line.empty()) {
      trace::Record record{};
      if (titled.recording.warps.empty() || !(fields >> record.time >> record.event >> record.value)) {
        fail("an event line is time, event, value, after a warp line");
      }
      titled.recording.warps.back().records.push_back(record);
    }
  }
  if (number == 0) fail("empty");
  return titled;
}

}  // namespace wb::timeline
