// CUDA's memory fences for g++.
//
// On the GPU, __threadfence_block() orders a thread's accesses as seen by its block,
// __threadfence() as seen by the whole device, __threadfence_system() by the host too.
// The blocks of a simulated launch run on several OS threads of one CPU, so one
// sequentially consistent fence gives all three their meaning (and more).
// Included by cuda_shim.hpp; never include it directly.
#pragma once

inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
