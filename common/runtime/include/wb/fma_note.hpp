/// \file
/// `wb::note_fmas()`: where a thread's multiply-adds run, told to the simulator.
///
/// The simulator sees every memory access and runtime call of a kernel, and no
/// arithmetic: a loop of FMAs on registers leaves no trace there. A helper that does a
/// thread's FMAs calls `note_fmas()` first, and the simulator records how many shared
/// loads the thread had made by then. That is how chapter 4's step 5 is checked: with
/// double-buffered fragments, the FMAs of column kk find the reads of column kk + 1
/// already issued.
///
///     __device__ void multiply_fragments(...) {
///       wb::note_fmas();
///       for (...) acc[i][j] += a_frag[i] * b_frag[j];
///     }
///
/// On the GPU it is no code at all.
#pragma once

#include "wb/backend.hpp"
#include "wb/site.hpp"  // WB_SITE_ONLY_PARAMETERS, WB_SIM_INLINE

namespace wb {

#if WB_BACKEND_SIM
WB_SIM_INLINE void note_fmas(WB_SITE_ONLY_PARAMETERS) { sim::note_fmas(WB_SITE); }
#elif defined(__CUDACC__)
__device__ __forceinline__ void note_fmas() {}
#endif

}  // namespace wb
