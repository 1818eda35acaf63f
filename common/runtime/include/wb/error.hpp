/// \file
/// Errors of the workbook runtime, the same type on both backends.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

/// What went wrong, for the graders, which turn it into the hint of the step at hand
/// ("an index outside the tile" in a step without partial tiles, "a missing bounds
/// check" in one with them). The simulator sets it; on the GPU, a misaligned address is
/// `misaligned` and every other error `other`.
enum class ErrorKind {
  other,                   ///< anything else, and every GPU error but a misaligned address
  barrier,                 ///< threads at different __syncthreads()
  assertion,               ///< assert() in a kernel
  misaligned,              ///< a cp.async, float2 or float4 address not aligned to its width
  source_out_of_bounds,    ///< a cp.async source past the end of a device allocation
  source_not_device,       ///< a cp.async source that is not device memory at all
  destination_not_shared,  ///< a cp.async destination outside the block's shared memory
  destination_global,      ///< a cp.async destination in global memory: a copy the wrong way
  too_many_copies,         ///< copies issued and never waited for, without end
  shared_out_of_bounds,    ///< an access outside its __shared__ array or the dynamic shared memory
  global_out_of_bounds,    ///< an access past the end of a device allocation
  local_out_of_bounds,     ///< an index outside a local array of the kernel (registers on a GPU)
  shared_race,             ///< a thread reads a shared word another wrote (or writes one another read), no barrier between
  shared_write_overlap,    ///< two threads write one shared word, no barrier between: their indices overlap
  warp_sync,               ///< lanes named in a __syncwarp or shuffle mask never arrive
  pipeline,                ///< a cuda::pipeline's calls out of order, or a stage never released
  after_the_commit,        ///< a shared store made after its thread's producer_commit(), read after another's consumer_wait()
  mbarrier,                ///< an mbarrier's phase that can never complete, or arrivals beyond its count
  tensor_map,              ///< a bulk or tensor copy, or a tensor map, that breaks the TMA's rules
  wgmma,                   ///< a wgmma's descriptor, fence, commit or wait against its rules
};

/// Two threads' writes to one shared word between the same two barriers
/// (ErrorKind::shared_write_overlap): what each write brought, which tells an index that
/// meant the same element twice from one that sent two elements to one word.
struct OverlappingWrite {
  std::array<unsigned, 3> first_thread{};  ///< the thread whose write came first
  /// The device-memory bytes each write copied into the word (null: a store, not a copy).
  const void* first_source = nullptr;
  const void* source = nullptr;
  /// The first writer's accesses to device memory before its write (as Fault's).
  unsigned long long first_earlier_accesses = 0;
  std::string array;     ///< the __shared__ array ("" for dynamic shared memory)
  std::size_t word = 0;  ///< the word's index in it, in 4-byte elements
};

/// A cp.async whose shared destination was misaligned, or past the end of a __shared__
/// array: the element it copied and where it was to go, which say which index put it there.
struct MisalignedDestination {
  const void* source = nullptr;  ///< the copy's global source
  std::string array;             ///< the __shared__ array ("" for dynamic shared memory)
  std::size_t word = 0;          ///< the destination's index in it, in 4-byte elements
};

/// A race between one thread's cp.async into a shared word and another thread's read of
/// it: the commit group the copy belongs to (its writer's groups, counted from 0) and how
/// many groups the reading thread had committed. A copy of a group the reader has not
/// reached was issued by a thread already in a later iteration of a pipeline's loop.
struct RacingCopy {
  std::array<unsigned, 3> writer{};  ///< the thread that issued the copy
  unsigned long long group = 0;      ///< the copy's commit group, in its writer's count
  unsigned long long reader_commits = 0;
  /// The writer's first cp_async_wait<N> in this block that landed nothing, as it found N
  /// or fewer groups committed with copies among them (-1: none), and its commits then.
  int writer_idle_wait = -1;
  unsigned long long writer_commits_at_idle_wait = 0;
  /// Whether the copy had landed, at a wait its thread placed after the barrier, by the
  /// read: then the race says nothing of which iteration each thread was in.
  bool landed_after_the_barrier = false;
};

/// A load or store past the end of a __shared__ array: the word it reached, and those of
/// the same thread's earlier accesses by the same instruction since its warp last
/// synchronised (in order), which say how the index walked there.
struct SharedOverrun {
  std::string array;  ///< the __shared__ array it ran past
  long long word = 0;  ///< its index in the array, in 4-byte elements (past the end)
  std::vector<long long> earlier_words;
};

/// A vector load or store of a __shared__ array at an address that is no multiple of its
/// width: the array and the access's first byte there.
struct MisalignedShared {
  std::string array;  ///< the __shared__ array
  long long byte = 0;  ///< the access's first byte, from the array's start
};

/// Where an access of a kernel faulted, as the simulator saw it: the evidence a grader
/// tests its hypotheses against (which element the block reached, and from where).
struct Fault {
  std::array<unsigned, 3> block{};   ///< blockIdx of the faulting thread
  std::array<unsigned, 3> thread{};  ///< its threadIdx
  const void* address = nullptr;     ///< the first byte accessed (a copy whose destination faulted: its source)
  bool write = false;                ///< a store (or a copy's destination), not a load
  unsigned bytes = 0;                ///< the access's width (0: not recorded)
  /// The thread's accesses to device memory (loads, stores, cp.async sources) before this
  /// one: 0 where the faulting access was its first, which an index inside the tile at
  /// first (a loop's bound past the tile's edge) cannot make.
  unsigned long long earlier_accesses = 0;
  /// For ErrorKind::shared_write_overlap, the two writes (`address`: the word).
  std::optional<OverlappingWrite> overlap;
  /// For a cp.async whose shared destination was misaligned (`address`: the destination),
  /// or past the end of an array (`address`: the source).
  std::optional<MisalignedDestination> destination;
  /// For ErrorKind::shared_race between a cp.async and a read (`address`: the word).
  std::optional<RacingCopy> racing_copy;
  /// For a load or store past the end of a __shared__ array (`address`: the access).
  std::optional<SharedOverrun> shared_overrun;
  /// For ErrorKind::misaligned on a __shared__ array's vector access (`address`: the access).
  std::optional<MisalignedShared> misaligned_shared;
};

/// A CUDA call that failed, a bad launch configuration, or (in the simulator) a kernel
/// that did something wrong. The message names the call or the kernel's source line.
class Error : public std::runtime_error {
 public:
  /// An error with its message and, where known, its kind.
  explicit Error(const std::string& what, ErrorKind kind = ErrorKind::other)
      : std::runtime_error(what), kind_(kind) {}
  /// What went wrong, as a kind the graders can act on.
  ErrorKind kind() const { return kind_; }
  /// The faulting access, where the simulator knows it (none on the GPU).
  const std::optional<Fault>& fault() const { return fault_; }
  void set_fault(const Fault& fault) { fault_ = fault; }

 private:
  ErrorKind kind_;
  std::optional<Fault> fault_;
};

}  // namespace wb

#if WB_BACKEND_CUDA
#include <cuda_runtime_api.h>

namespace wb::detail {
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file,
                                   int line);
}  // namespace wb::detail

/// Checks a CUDA runtime call; on failure throws wb::Error naming the call, its source
/// location and CUDA's own description.
#define WB_CUDA_CHECK(call)                                                      \
  do {                                                                           \
    const cudaError_t wb_status_ = (call);                                       \
    if (wb_status_ != cudaSuccess) {                                             \
      ::wb::detail::throw_cuda_error(wb_status_, #call, __FILE__, __LINE__);     \
    }                                                                            \
  } while (false)
#endif
