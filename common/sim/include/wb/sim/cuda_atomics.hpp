// CUDA's atomic functions for g++, on shared and global memory alike.
//
// Each reads the word at `address`, computes a new value from it and stores that, as
// one indivisible step, and returns the value it read (the old one), as in CUDA.
// The blocks of a launch run on several OS threads, so an atomic on global memory must
// be a real atomic operation of the CPU; shared memory is only ever touched by the one
// OS thread that runs its block, but goes through the same code.
//
// Written with GCC's __atomic builtins (no std::atomic_ref in C++17): compiled with
// -fsanitize=thread they become __tsan_atomic* calls that the simulator can watch.
// The memory order is relaxed, as CUDA's atomics are: they order no other access;
// __threadfence() does (cuda_fences.hpp).
// Included by cuda_shim.hpp; never include it directly.
#pragma once

#include <type_traits>

namespace wb::sim::surface {

constexpr int kAtomicOrder = __ATOMIC_RELAXED;

// Replaces *address by update(*address) atomically and returns the old value: the
// compare-and-swap loop behind every operation with no fetch builtin (float addition,
// min, max, the wrapping increment). The generic builtins compare bytes, so a float
// NaN or -0.0 is swapped like any other value.
template <class T, class Update>
inline T atomic_update(T* address, Update update) {
  T old;
  __atomic_load(address, &old, kAtomicOrder);
  T desired = update(old);
  // On failure the builtin stores the value it found into `old`: retry from that.
  while (!__atomic_compare_exchange(address, &old, &desired, /*weak=*/true, kAtomicOrder,
                                    kAtomicOrder)) {
    desired = update(old);
  }
  return old;
}

template <class T>
inline T atomic_add(T* address, T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return atomic_update(address, [value](T old) { return old + value; });
  } else {
    return __atomic_fetch_add(address, value, kAtomicOrder);
  }
}

template <class T>
inline T atomic_exchange(T* address, T value) {
  T old;
  __atomic_exchange(address, &value, &old, kAtomicOrder);
  return old;
}

template <class T>
inline T atomic_compare_and_swap(T* address, T compare, T value) {
  // `compare` becomes the value found, whether the swap happened or not.
  __atomic_compare_exchange(address, &compare, &value, /*weak=*/false, kAtomicOrder, kAtomicOrder);
  return compare;
}

template <class T>
inline T atomic_min(T* address, T value) {
  return atomic_update(address, [value](T old) { return value < old ? value : old; });
}

template <class T>
inline T atomic_max(T* address, T value) {
  return atomic_update(address, [value](T old) { return value > old ? value : old; });
}

}  // namespace wb::sim::surface

inline int atomicAdd(int* address, int value) {
  return wb::sim::surface::atomic_add(address, value);
}
inline unsigned int atomicAdd(unsigned int* address, unsigned int value) {
  return wb::sim::surface::atomic_add(address, value);
}
inline unsigned long long atomicAdd(unsigned long long* address, unsigned long long value) {
  return wb::sim::surface::atomic_add(address, value);
}
inline float atomicAdd(float* address, float value) {
  return wb::sim::surface::atomic_add(address, value);
}
inline double atomicAdd(double* address, double value) {
  return wb::sim::surface::atomic_add(address, value);
}

// Subtraction wraps around as unsigned arithmetic does (and as int does on the GPU).
inline int atomicSub(int* address, int value) {
  return __atomic_fetch_sub(address, value, wb::sim::surface::kAtomicOrder);
}
inline unsigned int atomicSub(unsigned int* address, unsigned int value) {
  return __atomic_fetch_sub(address, value, wb::sim::surface::kAtomicOrder);
}

inline int atomicExch(int* address, int value) {
  return wb::sim::surface::atomic_exchange(address, value);
}
inline unsigned int atomicExch(unsigned int* address, unsigned int value) {
  return wb::sim::surface::atomic_exchange(address, value);
}
inline unsigned long long atomicExch(unsigned long long* address, unsigned long long value) {
  return wb::sim::surface::atomic_exchange(address, value);
}
inline float atomicExch(float* address, float value) {
  return wb::sim::surface::atomic_exchange(address, value);
}

inline int atomicMin(int* address, int value) {
  return wb::sim::surface::atomic_min(address, value);
}
inline unsigned int atomicMin(unsigned int* address, unsigned int value) {
  return wb::sim::surface::atomic_min(address, value);
}
inline long long atomicMin(long long* address, long long value) {
  return wb::sim::surface::atomic_min(address, value);
}
inline unsigned long long atomicMin(unsigned long long* address, unsigned long long value) {
  return wb::sim::surface::atomic_min(address, value);
}
inline int atomicMax(int* address, int value) {
  return wb::sim::surface::atomic_max(address, value);
}
inline unsigned int atomicMax(unsigned int* address, unsigned int value) {
  return wb::sim::surface::atomic_max(address, value);
}
inline long long atomicMax(long long* address, long long value) {
  return wb::sim::surface::atomic_max(address, value);
}
inline unsigned long long atomicMax(unsigned long long* address, unsigned long long value) {
  return wb::sim::surface::atomic_max(address, value);
}

inline int atomicCAS(int* address, int compare, int value) {
  return wb::sim::surface::atomic_compare_and_swap(address, compare, value);
}
inline unsigned int atomicCAS(unsigned int* address, unsigned int compare, unsigned int value) {
  return wb::sim::surface::atomic_compare_and_swap(address, compare, value);
}
inline unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare,
                                    unsigned long long value) {
  return wb::sim::surface::atomic_compare_and_swap(address, compare, value);
}
inline unsigned short atomicCAS(unsigned short* address, unsigned short compare,
                                unsigned short value) {
  return wb::sim::surface::atomic_compare_and_swap(address, compare, value);
}

inline int atomicAnd(int* address, int value) {
  return __atomic_fetch_and(address, value, wb::sim::surface::kAtomicOrder);
}
inline unsigned int atomicAnd(unsigned int* address, unsigned int value) {
  return __atomic_fetch_and(address, value, wb::sim::surface::kAtomicOrder);
}
inline unsigned long long atomicAnd(unsigned long long* address, unsigned long long value) {
  return __atomic_fetch_and(address, value, wb::sim::surface::kAtomicOrder);
}
inline int atomicOr(int* address, int value) {
  return __atomic_fetch_or(address, value, wb::sim::surface::kAtomicOrder);
}
inline unsigned int atomicOr(unsigned int* address, unsigned int value) {
  return __atomic_fetch_or(address, value, wb::sim::surface::kAtomicOrder);
}
inline unsigned long long atomicOr(unsigned long long* address, unsigned long long value) {
  return __atomic_fetch_or(address, value, wb::sim::surface::kAtomicOrder);
}
inline int atomicXor(int* address, int value) {
  return __atomic_fetch_xor(address, value, wb::sim::surface::kAtomicOrder);
}
inline unsigned int atomicXor(unsigned int* address, unsigned int value) {
  return __atomic_fetch_xor(address, value, wb::sim::surface::kAtomicOrder);
}
inline unsigned long long atomicXor(unsigned long long* address, unsigned long long value) {
  return __atomic_fetch_xor(address, value, wb::sim::surface::kAtomicOrder);
}

// The wrapping counters: atomicInc counts 0, 1, ..., limit, 0, ... (an old value above
// the limit also restarts at 0); atomicDec counts down from limit to 0, then limit again
// (from 0, or from above the limit).
inline unsigned int atomicInc(unsigned int* address, unsigned int limit) {
  return wb::sim::surface::atomic_update(
      address, [limit](unsigned int old) { return old >= limit ? 0u : old + 1u; });
}
inline unsigned int atomicDec(unsigned int* address, unsigned int limit) {
  return wb::sim::surface::atomic_update(
      address, [limit](unsigned int old) { return old == 0u || old > limit ? limit : old - 1u; });
}
