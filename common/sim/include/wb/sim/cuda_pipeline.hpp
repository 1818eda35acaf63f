// The part of libcu++'s <cuda/pipeline> that the workbook uses, for g++: a pipeline of
// the whole block over a pipeline_shared_state of S stages, and cuda::memcpy_async into it.
//
//   __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> pipeline_state;
//   cuda::pipeline<cuda::thread_scope_block> pipeline = cuda::make_pipeline(block, &pipeline_state);
//   pipeline.producer_acquire();                  // a free stage (blocks while none is)
//   cuda::memcpy_async(block, dst, src, cuda::aligned_size_t<16>(bytes), pipeline);
//   pipeline.producer_commit();                   // closes the stage: cp.async.commit_group
//   pipeline.consumer_wait();                     // the oldest stage, everyone's copies, landed
//   ... read it ...
//   pipeline.consumer_release();                  // the stage may be refilled
//
// The simulator's model (common/sim/src/library_copy.cpp): consumer_wait blocks until every
// thread of the block has committed the stage, and the first thread through lands its copies; producer_acquire
// blocks until every thread released the stage's previous use; the race check orders
// what comes before a commit or a release with what comes after the matching wait or
// acquire. Kernel files include it by the toolkit's name (common/sim/toolkit/cuda/pipeline),
// never directly.
#pragma once

#include <cstddef>
#include <cstdint>

#include "wb/backend.hpp"  // the simulator
#include "wb/site.hpp"     // WB_SITE_PARAMETERS, WB_SIM_INLINE
#include "wb/sim/cuda_aligned_size.hpp"
#include "wb/sim/cuda_cooperative_groups.hpp"
#include "wb/sim/cuda_thread_scope.hpp"

namespace cuda {

template <thread_scope Scope, std::uint8_t Stages>
class pipeline_shared_state {
  static_assert(Scope == thread_scope_block, "the simulator models block-scoped pipelines only");
  static_assert(Stages >= 1, "a pipeline has at least one stage");

 public:
  static constexpr int stages = Stages;

 private:
  // Never read: the simulator keeps the pipeline's state itself, keyed by this object's
  // address (one per block in flight, as a __shared__ variable is).
  unsigned char unused_[Stages];
};

template <thread_scope Scope>
class pipeline {
 public:
  void producer_acquire(WB_SITE_ONLY_PARAMETERS) {
    ::wb::sim::pipeline_call(state_, ::wb::sim::PipelineCall::acquire, WB_SITE);
  }
  void producer_commit(WB_SITE_ONLY_PARAMETERS) {
    ::wb::sim::pipeline_call(state_, ::wb::sim::PipelineCall::commit, WB_SITE);
  }
  void consumer_wait(WB_SITE_ONLY_PARAMETERS) {
    ::wb::sim::pipeline_call(state_, ::wb::sim::PipelineCall::wait, WB_SITE);
  }
  void consumer_release(WB_SITE_ONLY_PARAMETERS) {
    ::wb::sim::pipeline_call(state_, ::wb::sim::PipelineCall::release, WB_SITE);
  }
  const void* shared_state() const { return state_; }
  // Made by cuda::make_pipeline only.
  explicit pipeline(const void* state) : state_(state) {}

 private:
  const void* state_;
};

template <class Group, thread_scope Scope, std::uint8_t Stages>
pipeline<Scope> make_pipeline(const Group& group, pipeline_shared_state<Scope, Stages>* state WB_SITE_PARAMETERS) {
  ::wb::sim::pipeline_attach(state, Stages, static_cast<unsigned>(group.size()), WB_SITE);
  return pipeline<Scope>(state);
}

// The group's collective copy into the pipeline's acquired stage (every thread calls it).
// `bytes` a byte count or a cuda::aligned_size_t<N>; the copies are as wide as the larger
// of N and alignof(T) (see library_copy.cpp).
template <class Group, class T, class Size, thread_scope Scope>
WB_SIM_INLINE void memcpy_async(const Group& group, T* dst, const T* src, const Size& bytes,
                                pipeline<Scope>& into WB_SITE_PARAMETERS) {
  constexpr ::wb::sim::LibraryCopyPromise promise = ::wb::sim::library_copy_promise<T, Size>(::wb::sim::LibraryApi::cuda);
  ::wb::sim::library_memcpy_async(dst, src, static_cast<std::size_t>(bytes), promise,
                                  static_cast<unsigned>(group.thread_rank()), static_cast<unsigned>(group.size()),
                                  into.shared_state(), WB_SITE);
}

// One thread's own copy into the pipeline's acquired stage.
template <class T, class Size, thread_scope Scope>
WB_SIM_INLINE void memcpy_async(T* dst, const T* src, const Size& bytes, pipeline<Scope>& into WB_SITE_PARAMETERS) {
  constexpr ::wb::sim::LibraryCopyPromise promise = ::wb::sim::library_copy_promise<T, Size>(::wb::sim::LibraryApi::cuda);
  ::wb::sim::library_memcpy_async(dst, src, static_cast<std::size_t>(bytes), promise, 0, 1, into.shared_state(),
                                  WB_SITE);
}

}  // namespace cuda
