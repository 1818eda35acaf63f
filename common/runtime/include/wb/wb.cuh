/// \file
/// The workbook runtime: the one header a kernel file includes, on both backends.
///
///     wb/launch.hpp         wb::launch(kernel, grid, block, shared_bytes, args...)
///     wb/buffer.hpp         wb::DeviceBuffer<T>: upload, download, poison
///     wb/async_copy.hpp     wb::cp_async_ca<N>, cp_async_cg, cp_async_commit, cp_async_wait<N>
///     wb/fma_note.hpp       wb::note_fmas(): where a thread's FMAs run, for the simulator
///     wb/layout.hpp         wb::Layout, col_major, row_major, wb::Int<N>
///     wb/shared_memory.hpp  WB_DYNAMIC_SHARED(type, name)
///     wb/tensor_core.hpp    wb::ldmatrix_x1/x2/x4 (and _trans), wb::mma_m16n8k16_bf16
///     wb/wgmma.hpp          wb::matrix_descriptor, wb::wgmma_m64n128k16_bf16, fence, commit, wait (sm_90a)
///     wb/timer.hpp          wb::median_milliseconds, wb::gpu_available
#pragma once

#include <string>

#include "wb/async_copy.hpp"
#include "wb/backend.hpp"
#include "wb/buffer.hpp"
#include "wb/error.hpp"
#include "wb/fma_note.hpp"
#include "wb/launch.hpp"
#include "wb/layout.hpp"
#include "wb/poison.hpp"
#include "wb/shared_memory.hpp"
#include "wb/tensor_core.hpp"
#include "wb/wgmma.hpp"
#include "wb/timer.hpp"
