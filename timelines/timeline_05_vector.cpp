// timeline-chapter5: step 2's GEMM with 16-byte copies, traced: chapter 4's pipeline,
// with a quarter of the copies.
#include <cstdint>

#include "vector.hpp"
#include "wb/grading/timeline.hpp"

// In the simulator, a copy group lands about as many steps after its commit as the
// reference's warps spend on one k-tile's shared loads (about 65: its fragments are read
// as float4s; the simulator counts memory accesses, not arithmetic).
constexpr std::uint64_t kCopySteps = 60;

int main(int argc, char** argv) {
  return wb::grading::gemm_timeline_main(argc, argv,
                                         "Chapter 5, step 2 (16-byte copies in the GEMM): " WB_TIMELINE_VARIANT,
                                         kCopySteps, ch05::gemm_copies_16);
}
