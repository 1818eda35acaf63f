// timeline-chapter1: step 1's tile copy, traced: each thread issues its copies, commits
// them, and waits for them all before it stores; nothing overlaps yet (chapter 4's
// pipeline is where the copies start to travel while the threads work).
#include <cstdint>

#include "copy.hpp"
#include "wb/grading/timeline.hpp"

// In the simulator, a copy group lands this many steps after its commit.
constexpr std::uint64_t kCopySteps = 100;

int main(int argc, char** argv) {
  return wb::grading::copy_timeline_main(argc, argv, "Chapter 1, step 1 (a tile a block): " WB_TIMELINE_VARIANT,
                                         kCopySteps, ch01::copy_tiles);
}
