// The part of CUDA's cooperative groups (<cooperative_groups.h>,
// <cooperative_groups/memcpy_async.h>) that the workbook uses, for g++: the thread block
// as a group, and the block's collective asynchronous copy with its wait.
//
//   namespace cg = cooperative_groups;
//   cg::thread_block block = cg::this_thread_block();
//   cg::memcpy_async(block, smem_tile, gmem_tile, bytes);  // every thread calls it
//   cg::wait(block);                                       // lands them, then block.sync()
//
// memcpy_async stands for cp.async copies (wb::cp_async of chapters 1 to 6) spread over
// the group's threads and one commit, each copy as wide as the call's static alignment
// promises (alignof(T), or cuda::aligned_size_t<N>); wait for cp.async.wait_group 0 and __syncthreads().
// See common/sim/src/library_copy.cpp. Kernel files include it by the toolkit's names
// (common/sim/toolkit/), never directly.
#pragma once

#include <cstddef>

#include "wb/backend.hpp"  // the simulator
#include "wb/site.hpp"     // WB_SITE_PARAMETERS, WB_SIM_INLINE
#include "wb/sim/cuda_aligned_size.hpp"

namespace cooperative_groups {

// The block of the calling thread as a group.
class thread_block {
 public:
  void sync(WB_SITE_ONLY_PARAMETERS) const { ::wb::sim::sync_block(WB_SITE); }
  unsigned long long thread_rank() const {
    return threadIdx.x + blockDim.x * (threadIdx.y + static_cast<unsigned long long>(blockDim.y) * threadIdx.z);
  }
  unsigned long long size() const { return static_cast<unsigned long long>(blockDim.x) * blockDim.y * blockDim.z; }
  unsigned long long num_threads() const { return size(); }
  dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block{}; }

inline void sync(const thread_block& group WB_SITE_PARAMETERS) { group.sync(WB_SITE); }

// `bytes` a byte count or a cuda::aligned_size_t<N>. The copies are as wide as the call
// promises at compile time: N where given, else alignof(T) (see library_copy.cpp).
template <class Group, class T, class Size>
WB_SIM_INLINE void memcpy_async(const Group& group, T* dst, const T* src, const Size& bytes WB_SITE_PARAMETERS) {
  constexpr ::wb::sim::LibraryCopyPromise promise =
      ::wb::sim::library_copy_promise<T, Size>(::wb::sim::LibraryApi::cooperative_groups);
  ::wb::sim::library_memcpy_async(dst, src, static_cast<std::size_t>(bytes), promise,
                                  static_cast<unsigned>(group.thread_rank()), static_cast<unsigned>(group.size()),
                                  nullptr, WB_SITE);
}

// Every copy of this thread lands, then the group's barrier makes everyone's visible.
inline void wait(const thread_block& group WB_SITE_PARAMETERS) {
  static_cast<void>(group);
  ::wb::sim::library_group_wait(0, WB_SITE);
}

// All but the newest N memcpy_async of this thread land, then the group's barrier.
template <unsigned N>
inline void wait_prior(const thread_block& group WB_SITE_PARAMETERS) {
  static_cast<void>(group);
  ::wb::sim::library_group_wait(static_cast<int>(N), WB_SITE);
}

}  // namespace cooperative_groups
