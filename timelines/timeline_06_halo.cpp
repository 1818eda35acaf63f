// timeline-chapter6: step 2's double-buffered convolution, traced. Each block walks
// kTilesPerBlock tiles; the picture shows whether the next tile's copies travel while
// this one is computed.
#include <cstdint>

#include "halo.hpp"
#include "wb/grading/timeline.hpp"

// In the simulator, a copy group lands about as many steps after its commit as the
// reference's warps spend on one tile's arithmetic (about 100): the reference's overlap
// hides it, a wait<0> does not.
constexpr std::uint64_t kCopySteps = 100;

int main(int argc, char** argv) {
  return wb::grading::convolution_timeline_main(
      argc, argv, "Chapter 6, step 2 (double-buffered): " WB_TIMELINE_VARIANT, kCopySteps, ch06::kWidth,
      2 * ch06::kTilesPerBlock * ch06::kStreamTile + 333, ch06::convolve_double_buffered);
}
