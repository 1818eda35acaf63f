// timeline_svg OUT.svg REFERENCE LEARNER: draws two recordings (timeline programs' output)
// one above the other on the same scale, and prints where the picture is with a line of
// summary for each (make timeline-chapterN runs it).
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "recording_file.hpp"
#include "svg.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: timeline_svg OUT.svg REFERENCE.timeline LEARNER.timeline\n");
    return 2;
  }
  try {
    const std::vector<wb::timeline::TitledRecording> panels = {wb::timeline::read_recording(argv[2]),
                                                               wb::timeline::read_recording(argv[3])};
    std::ofstream out(argv[1]);
    out << wb::timeline::draw_svg(panels);
    if (!out) throw std::runtime_error(std::string("could not write ") + argv[1]);
    std::printf("Timeline written to %s (%s)\n", argv[1],
                panels[0].recording.logical ? "the simulator's logical time, not a measurement"
                                            : "measured on the GPU, a trace build of each kernel");
    for (const wb::timeline::TitledRecording& panel : panels) {
      // "Chapter 6, step 2 (double-buffered): the reference" names it "the reference".
      const std::size_t colon = panel.title.rfind(": ");
      const std::string name = colon == std::string::npos ? panel.title : panel.title.substr(colon + 2);
      std::printf("  %s: %s\n", name.c_str(),
                  wb::timeline::summary_text(wb::timeline::summarize(wb::timeline::read_warps(panel.recording)))
                      .c_str());
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "timeline_svg: %s\n", error.what());
    return 1;
  }
  return 0;
}
