// timeline-chapter7: step 2's convolution through cuda::pipeline, traced in the simulator
// (the GPU's trace build sees the wb:: calls, not the library's): producer_commit() is a
// commit, consumer_wait() a wait that lands the oldest stage.
#include <cstdint>

#include "library.hpp"
#include "wb/grading/timeline.hpp"

// Chapter 6's: about the reference's arithmetic on one tile, in steps.
constexpr std::uint64_t kCopySteps = 100;

int main(int argc, char** argv) {
  return wb::grading::convolution_timeline_main(
      argc, argv, "Chapter 7, step 2 (cuda::pipeline): " WB_TIMELINE_VARIANT, kCopySteps, ch07::kWidth,
      2 * ch07::kTilesPerBlock * ch07::kStreamTile + 332, ch07::convolve_pipelined);
}
