// timeline-chapter4: step 3's pipeline of kStages k-tiles, traced: while a k-tile is
// computed, the next ones' copies should be in flight.
#include <cstdint>

#include "gemm.hpp"
#include "wb/grading/timeline.hpp"

// In the simulator, a copy group lands about as many steps after its commit as the
// reference's warps spend on one k-tile's shared loads (about 580; the simulator counts
// memory accesses, not arithmetic).
constexpr std::uint64_t kCopySteps = 500;

int main(int argc, char** argv) {
  return wb::grading::gemm_timeline_main(argc, argv, "Chapter 4, step 3 (pipelined): " WB_TIMELINE_VARIANT,
                                         kCopySteps, ch04::gemm_pipelined);
}
