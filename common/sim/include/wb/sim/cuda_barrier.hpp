// The part of libcu++'s <cuda/barrier> that the workbook uses, for g++: a block-scoped
// cuda::barrier in shared memory, which on Hopper is an mbarrier, and the copies that
// complete on it.
//
//   __shared__ cuda::barrier<cuda::thread_scope_block> full;
//   if (threadIdx.x == 0) init(&full, 1);            // mbarrier.init: 1 arrival a phase
//   __syncthreads();
//   if (threadIdx.x == 0) {
//     cuda::device::memcpy_async_tx(smem, gmem, cuda::aligned_size_t<16>(bytes), full);  // cp.async.bulk
//     (void)cuda::device::barrier_arrive_tx(full, 1, bytes);  // mbarrier.arrive.expect_tx
//   }
//   full.wait_parity(0);                             // mbarrier.try_wait.parity
//
// A phase completes when its arrivals are all in and the bytes its copies brought equal
// the bytes it expects. The simulator's model (common/sim/src/mbarrier.cpp): copies land
// as late as they can, when a thread waits for their phase; a wait that can never be
// satisfied is an error naming the barrier, its arrivals and its bytes. Kernel files
// include it by the toolkit's name (common/sim/toolkit/cuda/barrier), never directly.
#pragma once

#include <cstddef>
#include <cstdint>

#include "wb/backend.hpp"  // the simulator
#include "wb/site.hpp"     // WB_SITE_PARAMETERS, WB_SIM_INLINE
#include "wb/sim/cuda_aligned_size.hpp"
#include "wb/sim/cuda_driver.hpp"
#include "wb/sim/cuda_thread_scope.hpp"

namespace cuda {

template <thread_scope Scope>
class barrier {
  static_assert(Scope == thread_scope_block, "the simulator models block-scoped barriers only");

 public:
  // The phase a thread arrived on; wait() blocks until it has completed.
  class arrival_token {
   public:
    arrival_token() = default;

   private:
    friend class barrier;
    explicit arrival_token(std::uint64_t phase) : phase_(phase) {}
    std::uint64_t phase_ = 0;
  };

  // No constructors: a __shared__ array of barriers must need no dynamic initialisation
  // (init() sets a barrier up), or g++ would guard it.

  // One thread initialises the barrier, before any thread uses it: `expected` arrivals
  // complete a phase.
  friend void init(barrier* self, std::ptrdiff_t expected WB_SITE_PARAMETERS) {
    ::wb::sim::mbarrier_init(self, expected, WB_SITE);
  }

  [[nodiscard]] arrival_token arrive(std::ptrdiff_t update = 1 WB_SITE_PARAMETERS) {
    return arrival_token(::wb::sim::mbarrier_arrive(this, update, 0, "arrive()", WB_SITE));
  }
  void wait(arrival_token&& token WB_SITE_PARAMETERS) const {
    ::wb::sim::mbarrier_wait(this, token.phase_, WB_SITE);
  }
  void wait_parity(bool parity WB_SITE_PARAMETERS) const { ::wb::sim::mbarrier_wait_parity(this, parity, WB_SITE); }
  void arrive_and_wait(WB_SITE_ONLY_PARAMETERS) {
    ::wb::sim::mbarrier_wait(this, ::wb::sim::mbarrier_arrive(this, 1, 0, "arrive_and_wait()", WB_SITE), WB_SITE);
  }

  // For barrier_arrive_tx.
  static arrival_token token_of(std::uint64_t phase) { return arrival_token(phase); }

 private:
  // Never read: the simulator keeps the barrier's state itself, keyed by this object's
  // address (one per block in flight, as a __shared__ variable is). 8 bytes, as an mbarrier.
  alignas(8) unsigned char unused_[8];
};

namespace device {

// cp.async.bulk: one thread's copy of `size` bytes from global to shared memory, which
// completes on `bar` (its bytes count against the phase's expected transaction bytes).
template <class T, std::size_t Alignment>
WB_SIM_INLINE void memcpy_async_tx(T* dst, const T* src, aligned_size_t<Alignment> size,
                                   barrier<thread_scope_block>& bar WB_SITE_PARAMETERS) {
  static_assert(Alignment >= 16, "memcpy_async_tx takes cuda::aligned_size_t<16> or more: bulk copies move 16-byte units");
  ::wb::sim::bulk_copy(dst, src, size.value, Alignment, &bar, "cuda::device::memcpy_async_tx", WB_SITE);
}

// mbarrier.arrive.expect_tx: the phase expects `transaction_bytes` more bytes, then
// `arrive_count` arrivals of this thread.
[[nodiscard]] inline barrier<thread_scope_block>::arrival_token barrier_arrive_tx(
    barrier<thread_scope_block>& bar, std::ptrdiff_t arrive_count, std::ptrdiff_t transaction_bytes WB_SITE_PARAMETERS) {
  return barrier<thread_scope_block>::token_of(
      ::wb::sim::mbarrier_arrive(&bar, arrive_count, transaction_bytes, "barrier_arrive_tx()", WB_SITE));
}

// mbarrier.expect_tx: the phase expects `transaction_bytes` more bytes, no arrival.
inline void barrier_expect_tx(barrier<thread_scope_block>& bar, std::ptrdiff_t transaction_bytes WB_SITE_PARAMETERS) {
  ::wb::sim::mbarrier_expect_tx(&bar, transaction_bytes, WB_SITE);
}

namespace experimental {

// fence.proxy.async.shared::cta: what the threads wrote to shared memory (an initialised
// barrier) is seen by the copy engine. The simulator has one proxy; it counts the fence.
inline void fence_proxy_async_shared_cta(WB_SITE_ONLY_PARAMETERS) { ::wb::sim::proxy_fence(WB_SITE); }

WB_SIM_INLINE void cp_async_bulk_global_to_shared(void* dst, const void* src, std::uint32_t size,
                                                  barrier<thread_scope_block>& bar WB_SITE_PARAMETERS) {
  ::wb::sim::bulk_copy(dst, src, size, 16, &bar, "cp_async_bulk_global_to_shared", WB_SITE);
}

// cp.async.bulk.tensor.1d/2d: the box of the tensor map at the coordinates (innermost
// first), into shared memory as the map lays it out, completing on `bar`.
WB_SIM_INLINE void cp_async_bulk_tensor_1d_global_to_shared(void* dst, const CUtensorMap* tensor_map, int c0,
                                                            barrier<thread_scope_block>& bar WB_SITE_PARAMETERS) {
  const int coords[] = {c0};
  ::wb::sim::tensor_copy(dst, tensor_map->opaque[1], coords, 1, &bar, WB_SITE);
}
WB_SIM_INLINE void cp_async_bulk_tensor_2d_global_to_shared(void* dst, const CUtensorMap* tensor_map, int c0, int c1,
                                                            barrier<thread_scope_block>& bar WB_SITE_PARAMETERS) {
  const int coords[] = {c0, c1};
  ::wb::sim::tensor_copy(dst, tensor_map->opaque[1], coords, 2, &bar, WB_SITE);
}

}  // namespace experimental
}  // namespace device
}  // namespace cuda
