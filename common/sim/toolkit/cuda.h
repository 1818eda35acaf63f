// Simulator build only: <cuda.h> resolves here instead of the CUDA driver's header
// (common/CMakeLists.txt puts common/sim/toolkit on the sim include path).
#pragma once
#include "wb/sim/cuda_driver.hpp"
