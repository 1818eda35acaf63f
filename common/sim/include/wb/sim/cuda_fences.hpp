// CUDA's memory fences for g++.
//
// On the GPU, __threadfence_block() orders a thread's accesses as seen by its block,
// __threadfence() as seen by the whole device, __threadfence_system() by the host too.
// The blocks of a simulated launch run on several OS threads of one CPU, so one
// sequentially consistent fence gives all three their meaning (and more).
//
// Compiled with -fsanitize=thread, g++ turns each fence into a call of
// __tsan_atomic_thread_fence (which the simulator, defining the __tsan_* entry points
// itself, must define too) and warns (-Wtsan) that the TSan runtime does not model
// fences. We do not link that runtime: the warning is silenced here, so that -Werror
// builds pass.
// Included by cuda_shim.hpp; never include it directly.
#pragma once

#if defined(__SANITIZE_THREAD__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#endif

inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

#if defined(__SANITIZE_THREAD__)
#pragma GCC diagnostic pop
#endif
