// Warp-level primitives for the simulator: __syncwarp, the shuffles and the votes.
//
// Each is a rendezvous of the lanes named in its mask: a lane that arrives waits (its
// fiber yields) until every lane of the mask has arrived, then each takes its result.
// So a shuffle reads the value its source lane passed at the same call, as on a GPU,
// whatever order the simulator runs the lanes in. A lane of the mask that never comes
// (it returned, or waits at a __syncthreads()) is an error that names the lanes.
// __syncwarp also orders the shared-memory accesses of the lanes it names, for the
// race check; the shuffles and votes exchange values but order no memory accesses.
//
// __activemask() returns every lane of the warp that exists in the block: the
// simulator does not model divergence, and the book says so.
// Included by cuda_shim.hpp; never include it directly.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace wb::sim {

// The last four are the tensor cores' warp-wide instructions (wb/tensor_core.hpp, the
// models in common/sim/src/tensor_core.cpp): .sync.aligned, they take no mask, and every
// lane of the warp must execute the same one.
enum class WarpOp {
  sync,
  shuffle_index,
  shuffle_up,
  shuffle_down,
  shuffle_xor,
  ballot,
  any,
  all,
  ldmatrix,
  ldmatrix_trans,
  mma_m16n8k16_bf16,
  wgmma
};

// Meets the other lanes of `mask` at a `op`; `operand` (bytes <= 16) is this lane's
// value, `lane_argument` the source lane, delta or lane mask of a shuffle; `result`
// receives bytes bytes (a shuffle) or an unsigned (a vote).
void warp_rendezvous(unsigned mask, WarpOp op, const void* operand, std::size_t bytes,
                     int lane_argument, int width, void* result, const char* file, int line);
unsigned active_lanes();

template <class T>
T warp_shuffle(unsigned mask, WarpOp op, const T& value, int lane_argument, int width,
               const char* file, int line) {
  static_assert(sizeof(T) <= 16 && std::is_trivially_copyable_v<T>,
                "a shuffle moves a value of at most 16 bytes");
  T result;
  warp_rendezvous(mask, op, &value, sizeof(T), lane_argument, width, &result, file, line);
  return result;
}

inline unsigned warp_vote(unsigned mask, WarpOp op, int predicate, const char* file, int line) {
  unsigned result = 0;
  warp_rendezvous(mask, op, &predicate, sizeof predicate, 0, 32, &result, file, line);
  return result;
}

}  // namespace wb::sim

inline void __syncwarp(unsigned mask = 0xFFFFFFFFu, const char* file = __builtin_FILE(),
                       int line = __builtin_LINE()) {
  ::wb::sim::warp_rendezvous(mask, ::wb::sim::WarpOp::sync, nullptr, 0, 0, 32, nullptr, file,
                             line);
}

template <class T>
T __shfl_sync(unsigned mask, T value, int source_lane, int width = 32,
              const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::wb::sim::warp_shuffle(mask, ::wb::sim::WarpOp::shuffle_index, value, source_lane,
                                 width, file, line);
}

template <class T>
T __shfl_up_sync(unsigned mask, T value, unsigned delta, int width = 32,
                 const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::wb::sim::warp_shuffle(mask, ::wb::sim::WarpOp::shuffle_up, value,
                                 static_cast<int>(delta), width, file, line);
}

template <class T>
T __shfl_down_sync(unsigned mask, T value, unsigned delta, int width = 32,
                   const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::wb::sim::warp_shuffle(mask, ::wb::sim::WarpOp::shuffle_down, value,
                                 static_cast<int>(delta), width, file, line);
}

template <class T>
T __shfl_xor_sync(unsigned mask, T value, int lane_mask, int width = 32,
                  const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return ::wb::sim::warp_shuffle(mask, ::wb::sim::WarpOp::shuffle_xor, value, lane_mask, width,
                                 file, line);
}

inline unsigned __ballot_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                              int line = __builtin_LINE()) {
  return ::wb::sim::warp_vote(mask, ::wb::sim::WarpOp::ballot, predicate, file, line);
}

inline int __any_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  return static_cast<int>(::wb::sim::warp_vote(mask, ::wb::sim::WarpOp::any, predicate, file, line));
}

inline int __all_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  return static_cast<int>(::wb::sim::warp_vote(mask, ::wb::sim::WarpOp::all, predicate, file, line));
}

inline unsigned __activemask() { return ::wb::sim::active_lanes(); }
