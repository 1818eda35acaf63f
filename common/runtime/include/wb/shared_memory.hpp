/// \file
/// Dynamic shared memory: the size is given at launch (wb::launch's shared_bytes).
///
///     WB_DYNAMIC_SHARED(float, smem_buffer);   // float* smem_buffer, 128-byte aligned
///
/// On the GPU this is `extern __shared__` storage; in the simulator (where an
/// `extern __shared__` array cannot link) it is the running block's buffer. Aligned to
/// 128 bytes on both: the dynamic part starts right after the block's static `__shared__`
/// objects, so with a 16-byte alignment a bulk copy of a whole tile (chapter 7, step 3)
/// would write every 128-byte line of shared memory in two parts, which cost it about one
/// point of cudaMemcpy's bandwidth on the H100.
#pragma once

#include "wb/backend.hpp"

#if WB_BACKEND_SIM
#define WB_DYNAMIC_SHARED(type, name) \
  type* const name = static_cast<type*>(::wb::sim::dynamic_shared_memory())
#else
/// Declares `type* const name`, the block's dynamic shared memory (128-byte aligned), in
/// a kernel: the one way to reach it on both backends.
#define WB_DYNAMIC_SHARED(type, name)                               \
  extern __shared__ __align__(128) unsigned char wb_dynamic_smem_[]; \
  type* const name = reinterpret_cast<type*>(wb_dynamic_smem_)
#endif
