// Simulator build only: <cooperative_groups.h> resolves here instead of the CUDA toolkit's
// (common/CMakeLists.txt puts this folder on the sim targets' include path).
#pragma once
#include "wb/sim/cuda_cooperative_groups.hpp"
