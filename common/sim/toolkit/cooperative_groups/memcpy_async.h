// Simulator build only: <cooperative_groups/memcpy_async.h> resolves here instead of the
// CUDA toolkit's (common/CMakeLists.txt puts common/sim/toolkit on the sim include path).
#pragma once
#include "wb/sim/cuda_cooperative_groups.hpp"
