/// \file
/// Which backend this translation unit is built for, and the CUDA language surface.
///
/// The build defines exactly one of `WB_BACKEND_CUDA` and `WB_BACKEND_SIM` for every
/// target:
///
///     cuda  nvcc compiles kernel files for the GPU; host files see the CUDA runtime API;
///     sim   g++ compiles the same kernel files as C++, against the CPU simulator.
#pragma once

#if WB_BACKEND_CUDA == WB_BACKEND_SIM
#error "define exactly one of WB_BACKEND_CUDA=1 and WB_BACKEND_SIM=1 (the build does)"
#endif

#if WB_BACKEND_SIM
#include "wb/sim/simulator.hpp"
#else
#include <cuda_bf16.h>  // __nv_bfloat16, as the simulator's cuda_bf16.hpp has it
#include <cuda_fp16.h>  // __half, as the simulator's cuda_fp16.hpp has it
#include <cuda_runtime_api.h>
#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif
#endif

/// `WB_UNROLL for (...)`: unroll a loop whose trip count is a constant, on the GPU
/// (`#pragma unroll`). Host compilers, the simulator's included, do not know the pragma
/// and would warn under -Wall: there it is empty.
#if defined(__CUDACC__)
#define WB_UNROLL _Pragma("unroll")
#else
#define WB_UNROLL
#endif

/// `WB_SHARED_LIBRARY_STATE` on the line before a `__shared__` object of the CUDA C++
/// library (`cuda::pipeline_shared_state`): nvcc warns (#20054) that a `__shared__`
/// variable's constructor does not run, which that type expects (`cuda::make_pipeline`
/// sets it up). On the GPU the macro silences the warning; elsewhere it is empty.
#if defined(__CUDACC__)
#define WB_SHARED_LIBRARY_STATE _Pragma("nv_diag_suppress static_var_with_dynamic_init")
#else
#define WB_SHARED_LIBRARY_STATE
#endif

/// The workbook runtime: what every kernel file and grader of the chapters calls.
namespace wb {

/// The two backends a file can be built for.
enum class Backend {
  cuda,  ///< nvcc, for the GPU
  sim,   ///< g++, against the CPU simulator
};

#if WB_BACKEND_SIM
inline constexpr Backend backend = Backend::sim;
#else
/// The backend this translation unit is built for.
inline constexpr Backend backend = Backend::cuda;
#endif

/// "GPU" or "CPU simulator", for messages.
inline const char* backend_name() { return backend == Backend::sim ? "CPU simulator" : "GPU"; }

}  // namespace wb
