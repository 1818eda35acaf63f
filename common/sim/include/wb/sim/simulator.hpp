// The CPU simulator's interface to the workbook runtime: grid launches, device
// allocations, asynchronous copies, the tensor cores, schedules and the counters of the
// last launch.
//
// Kernels never call these directly; <wb/launch.hpp>, <wb/buffer.hpp>,
// <wb/async_copy.hpp> and <wb/tensor_core.hpp> do, so that a kernel file reads the same on
// both backends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

#include "wb/error.hpp"
#include "wb/sim/cuda_shim.hpp"

namespace wb::sim {

// ---------------------------------------------------------------------------------
// Errors

// Raised by the simulator for anything a kernel does wrong: a barrier mismatch, a bad
// cp.async, an assert. The launch rethrows it on the host thread, so it fails the one
// test that launched the kernel.
class KernelError : public wb::Error {
 public:
  using wb::Error::Error;
};

using wb::ErrorKind;

// ---------------------------------------------------------------------------------
// Schedules: the order in which a block's threads run between two barriers.

enum class Order { forward, reverse, random };

struct Schedule {
  Order order = Order::forward;
  std::uint64_t seed = 1;  // used by Order::random
};

std::string to_string(const Schedule& schedule);

// The schedule of the next launches. Starts from the environment variable
// WB_SIM_SCHEDULE ("forward", "reverse", "random" or "random:SEED"); forward if unset.
Schedule current_schedule();
void set_schedule(const Schedule& schedule);

// Sets a schedule for the lifetime of the object, then restores the previous one.
class ScopedSchedule {
 public:
  explicit ScopedSchedule(const Schedule& schedule) : previous_(current_schedule()) {
    set_schedule(schedule);
  }
  ~ScopedSchedule() { set_schedule(previous_); }
  ScopedSchedule(const ScopedSchedule&) = delete;
  ScopedSchedule& operator=(const ScopedSchedule&) = delete;

 private:
  Schedule previous_;
};

// ---------------------------------------------------------------------------------
// Counters of one launch, summed over all its threads.

// Warp-wide memory requests. As on a GPU, where one instruction of a warp is one
// request, the k-th access of each lane of a warp since the last barrier, at one code
// address, is one request. Exact where the warp's control flow is uniform; where its
// lanes diverge, the lanes that reach an access at the same code address as their k-th
// one form a request, which is close to what the hardware does.
enum class AccessKind {
  shared_load,
  shared_store,
  global_load,
  global_store,
  cp_async_read,   // the global side of cp.async
  cp_async_write,  // its shared side
};
inline constexpr int kAccessKinds = 6;
const char* to_string(AccessKind kind);  // "shared loads", ...
inline bool is_shared(AccessKind kind) {
  return kind == AccessKind::shared_load || kind == AccessKind::shared_store ||
         kind == AccessKind::cp_async_write;
}

struct RequestCounts {
  std::uint64_t requests = 0;
  // Shared memory: wavefronts (more than the ideal is a bank conflict). Global memory:
  // 32-byte sectors (more than the ideal is an uncoalesced access).
  std::uint64_t transactions = 0;
  std::uint64_t ideal = 0;  // the fewest transactions the same requests could take
  std::uint64_t lanes = 0;  // the active lanes of the requests, all added up (32 a full warp's)
  std::uint64_t bytes = 0;  // the bytes those lanes accessed, all added up (a float4 lane's 16)
  double per_request() const {
    return requests == 0 ? 0.0 : static_cast<double>(transactions) / static_cast<double>(requests);
  }
  double ideal_per_request() const {
    return requests == 0 ? 0.0 : static_cast<double>(ideal) / static_cast<double>(requests);
  }
  double lanes_per_request() const {
    return requests == 0 ? 0.0 : static_cast<double>(lanes) / static_cast<double>(requests);
  }
  RequestCounts& operator+=(const RequestCounts& other) {
    requests += other.requests;
    transactions += other.transactions;
    ideal += other.ideal;
    lanes += other.lanes;
    bytes += other.bytes;
    return *this;
  }
};

// What a call of the library's copy promises at compile time. The library chooses its
// copies from this static alignment alone, never from the addresses it is given (see
// library_copy.cpp for the rules of each library, as nvcc compiles them).
enum class LibraryApi { cooperative_groups, cuda };
struct LibraryCopyPromise {
  LibraryApi api = LibraryApi::cooperative_groups;
  std::size_t element_alignment = 1;  // alignof the pointers' type; 1 for void
  std::size_t aligned_size = 0;       // the N of a cuda::aligned_size_t<N> size; 0 without one
};

// The library's copies issued by one line of a kernel (every thread's calls there).
struct LibraryCopySite {
  const char* file = nullptr;  // as the call site names it (__builtin_FILE)
  int line = 0;
  LibraryCopyPromise promise;
  std::uint64_t calls = 0;     // each thread's call counted
  std::uint64_t cp_async[3] = {};  // of 4, 8 and 16 bytes
  std::uint64_t bytes = 0;     // bytes copied, each once (every thread's share summed)
  std::uint64_t synchronous_bytes = 0;  // of them, copied with plain loads and stores
  // The range of global addresses the copies read: [source_begin, source_end).
  std::uintptr_t source_begin = 0;
  std::uintptr_t source_end = 0;
  std::uint64_t cp_async_ops() const { return cp_async[0] + cp_async[1] + cp_async[2]; }
  LibraryCopySite& operator+=(const LibraryCopySite& other);
};

// The requests of one access of the kernel's code.
struct AccessSite {
  const void* pc = nullptr;  // the code address (source_line_of names its line)
  AccessKind kind = AccessKind::shared_load;
  unsigned bytes = 0;        // the widest lane access seen there
  RequestCounts counts;
};

// ---------------------------------------------------------------------------------
// Shared-memory footprints: which words of a __shared__ array a block touched, and the
// first read of a word that no write of its block had filled (the evidence from which
// wb/grading/diagnosis/footprint.hpp reads a gap in the copies).

// One block's accesses to one shared array, a flag per 4-byte word of it.
struct ArrayFootprint {
  std::string array;          // "smem_tile", or "the dynamic shared memory"
  std::vector<bool> written;  // by a store or a copy of the block (a cp.async from its issue)
  std::vector<bool> read;     // by a load of the block
  std::size_t words() const { return written.size(); }
};

// The first read of a shared word whose cp.async was still in flight (it holds the
// poison::in_flight pattern): where that copy stood among its issuing thread's commits and
// waits, the evidence of which call is missing or misplaced.
struct InFlightRead {
  std::uint64_t block_linear = 0;  // the block, as an index of the grid
  uint3 block{};
  uint3 reader{};
  uint3 issuer{};
  const void* pc = nullptr;      // the read's code address
  const void* source = nullptr;  // the device memory the copy brings into the word
  // The issuer's commit_group calls before the copy (the index of the group it joins, if
  // committed) and when the word was read.
  std::uint32_t group = 0;
  std::uint32_t commits = 0;
  // The N of the issuer's last cp_async_wait<N> before the read (-1: it never waited),
  // its commits at that wait and at the wait before, and whether the copy was issued
  // after that last wait.
  int last_wait = -1;
  std::uint32_t commits_at_last_wait = 0;
  std::uint32_t commits_at_wait_before = 0;
  bool issued_after_last_wait = false;
};

// A load of shared memory that found a word no store or copy of its block had written
// since the block began: what a GPU leaves undefined, the simulator's stale poison. Kept
// for the first such load of the lowest block that made one (the schedule decides which
// of its threads came first), with the block's footprint of that array.
struct UnfilledRead {
  std::uint64_t block_linear = 0;  // the block, as an index of the grid
  uint3 block{};
  uint3 thread{};
  const void* pc = nullptr;  // the load's code address (source_line_of names its line)
  unsigned bytes = 0;        // the load's width
  std::size_t word = 0;      // its first unfilled word, from the array's start
  // The words of the array the block had written before this load, and the code address
  // of the write of the nearest of them below `word` (nullptr if none lies below).
  std::vector<bool> filled;
  const void* nearest_write_pc = nullptr;
  // Through the block's end: every word of the array it read before any write filled it,
  // and everything it wrote and read there (empty if the block failed before its end).
  std::vector<bool> read_unfilled;
  ArrayFootprint footprint;
};

// Threads that returned from the kernel while others of their block went on to a
// __syncthreads(): legal (an exited thread counts as arrived), and the usual way a thread's
// share of a tile is skipped. Kept for each block where it happened (its first such
// barrier), up to kMaxEarlyExits blocks.
struct EarlyExit {
  std::uint64_t block_linear = 0;  // the block, as an index of the grid
  uint3 block{};
  uint3 thread{};              // the first thread, by index, that had returned
  unsigned threads = 0;        // how many had returned by that barrier
  std::string barrier_site;    // the barrier the others reached ("copy.cu:53")
};

// A copy touched by another thread while in flight (LaunchStats::copy_window_race): the
// message, and the copy itself, the evidence of which index put it there: the element it
// brought, the word it went to and its commit group in its thread's count (from 0).
struct CopyWindowRace {
  std::string message;
  const void* source = nullptr;
  std::string array;  // the __shared__ array ("" for dynamic shared memory)
  std::size_t word = 0;  // in 4-byte elements
  std::uint64_t group = 0;
  std::uint64_t block_linear = 0;  // the copying thread's block, as an index of the grid
  std::uint64_t grid_blocks = 0;   // and the grid's blocks
};

// A thread whose FMAs (wb::note_fmas) came before it had read the next fragments they
// would use: at its call `call` (from 0) of `calls`, it had made `loads_before` of its
// `loads` shared loads, fewer than call + 2 of the calls + 1 equal shares (fma_note.cpp).
struct FmasBeforeNextReads {
  std::uint64_t block_linear = 0;  // its block, as an index of the grid
  uint3 block{};
  unsigned thread = 0;
  std::uint64_t call = 0;
  std::uint64_t calls = 0;
  std::uint64_t loads_before = 0;
  std::uint64_t loads = 0;
};

// A block that read shared memory in a barrier interval after the one of its last store
// to global memory (last_store.cpp): work whose result no store takes, as an iteration
// of a loop past the block's last tile makes.
struct ReadAfterLastStore {
  std::uint64_t block_linear = 0;  // its block, as an index of the grid
  uint3 block{};
  const void* pc = nullptr;     // the first shared load of the last interval that read
  std::uint32_t barriers = 0;   // the barriers between its last store and that load
};

// A cp.async with a source size that is odd: part of an element read, the rest zeros
// (a size of 1 where 0, nothing read, is meant). The first of the launch's lowest block.
struct OddSourceCopy {
  std::uint64_t block_linear = 0;
  int source_bytes = 0;
  int copy_bytes = 0;
  std::string site;  // "halo.cu:52"
};

struct LaunchStats {
  std::uint64_t blocks = 0;
  std::uint64_t threads = 0;
  std::uint64_t barriers = 0;           // block-wide barrier releases, summed over blocks
  // The releases by the barrier's site (__builtin_FILE, line): a barrier inside a loop
  // shows as the site with the most.
  std::map<std::pair<const char*, int>, std::uint64_t> barriers_by_site;
  std::uint64_t cp_async_4 = 0;         // cp.async operations by copy size
  std::uint64_t cp_async_8 = 0;
  std::uint64_t cp_async_16 = 0;
  std::uint64_t cp_async_bytes = 0;     // bytes requested from global memory
  std::uint64_t cp_async_sized = 0;     // of them, the form with a source-size operand
  std::uint64_t cp_async_zero_filled = 0;  // of them, a source size of 0: zeros, nothing read
  std::uint64_t cp_async_odd_source = 0;   // of them, an odd source size (see OddSourceCopy)
  std::optional<OddSourceCopy> odd_source_copy;
  std::uint64_t commit_groups = 0;      // cp.async.commit_group (wait_all counts one)
  std::uint64_t waits = 0;              // cp.async.wait_group and wait_all
  // Copies not yet landed at each wait, summed over the waits: over `waits`, how many
  // copies a wait found in flight on average (1 when every copy is waited for at once).
  std::uint64_t copies_in_flight_at_waits = 0;
  // Copies a wait left in flight (the newest N groups of a wait_group N), summed over the
  // waits: over `waits`, how much a thread kept travelling while it went on computing.
  std::uint64_t copies_in_flight_after_waits = 0;
  std::uint64_t copies_never_waited = 0;  // copies still pending when their thread ended
  // Threads that issued no cp.async at all in their block: a copy that a block's threads
  // share unevenly (half of them idle) shows here, not in the requests, whose lanes stay full.
  std::uint64_t threads_without_copies = 0;
  std::uint64_t waits_with_uncommitted_copies = 0;  // waits that found copies in no group yet
  // A thread's plain loads of global memory, and those among them it made while copies
  // it had issued were still travelling: over `global_loads`, how much of the loads'
  // latency the step gave the copies to hide behind (chapter 6's weights).
  std::uint64_t global_loads = 0;
  std::uint64_t global_loads_while_copies_travel = 0;
  // The code addresses of the plain global loads made with no copy of the thread in
  // flight, and how many, to name their line.
  std::map<const void*, std::uint64_t> global_loads_without_copies_by_site;
  // The first access of one thread to another thread's cp.async destination between its
  // issue and its wait, across a barrier (race_check.cpp): a race on a GPU, where a copy
  // lands at any moment of that window. Kept, not thrown, so that a wrong output still
  // gets the reading of what it read; a right one fails on it (grading's technique).
  std::optional<CopyWindowRace> copy_window_race;
  // The CUDA C++ library's copies (cooperative_groups::memcpy_async, cuda::memcpy_async):
  // calls, each thread's call of a collective one counted, and the cp.async operations
  // they issued (also counted in cp_async_4/8/16 above).
  std::uint64_t library_copies = 0;
  std::uint64_t library_cp_async = 0;
  std::uint64_t group_waits = 0;  // cooperative_groups::wait and wait_prior
  // Bytes the library copied synchronously, with plain loads and stores, as nvcc's code
  // does below a static alignment of 4 (and for cooperative_groups' unaligned ends).
  std::uint64_t library_synchronous_bytes = 0;
  // The library's copies per call site of the kernel, to name the calls that copy
  // narrower than a step asks.
  std::map<std::pair<const char*, int>, LibraryCopySite> library_sites;  // by (file, line)
  // cuda::pipeline calls, summed over threads.
  std::uint64_t pipeline_acquires = 0;
  std::uint64_t pipeline_commits = 0;
  std::uint64_t pipeline_waits = 0;     // consumer_wait
  std::uint64_t pipeline_releases = 0;  // consumer_release
  // Stages a thread had committed and not yet waited for, summed over its consumer_waits:
  // over pipeline_waits, 2 for a double buffer that commits the next stage before it
  // waits for this one, 1 where copies and arithmetic take turns.
  std::uint64_t pipeline_stages_at_waits = 0;
  // consumer_waits on a stage into which no thread had issued a copy.
  std::uint64_t pipeline_empty_waits = 0;
  // cuda::memcpy_async calls with no stage acquired (after a producer_commit, before the
  // next producer_acquire): the copies join the next stage committed.
  std::uint64_t pipeline_copies_outside_stage = 0;
  // Hopper's mbarriers (cuda::barrier<thread_scope_block>) and the copies that complete on
  // them: bulk copies (cp.async.bulk, cuda::device::memcpy_async_tx) and tensor copies
  // (cp.async.bulk.tensor, through a tensor map), with the bytes they brought.
  std::uint64_t bulk_copies = 0;
  std::uint64_t bulk_bytes = 0;
  std::uint64_t tensor_copies = 0;
  std::uint64_t tensor_bytes = 0;
  std::uint64_t mbarrier_arrivals = 0;  // arrive() calls, each thread's counted
  // Of them, those that also gave the phase bytes to expect (barrier_arrive_tx with a
  // count above 0): a producer's one arrival a stage's use.
  std::uint64_t mbarrier_arrivals_with_bytes = 0;
  std::uint64_t mbarrier_phases = 0;    // phases completed
  std::uint64_t mbarrier_waits = 0;     // wait(token) and wait_parity(p), each thread's counted
  // At each bulk or tensor copy, the block's copies that its issuing thread had not yet
  // seen land by a wait, this one included, summed: over bulk_copies + tensor_copies, 2
  // for a double buffer whose next tile goes out before this one is waited for, 1 where
  // copies and work take turns.
  std::uint64_t bulk_copies_in_flight_at_issue = 0;
  // Waits of a bulk or tensor copy's issuer on that copy's own phase, before it issued
  // another: a producer that waits for each copy it sends.
  std::uint64_t bulk_waits_right_after_issue = 0;
  // Waits that returned at once on a phase completed long before, while the barrier's
  // current phase still had copies in flight: a wait on the wrong phase.
  std::uint64_t mbarrier_waits_on_a_past_phase = 0;
  std::uint64_t proxy_fences = 0;  // fence.proxy.async
  // The tensor cores' warp-wide instructions (wb/tensor_core.hpp), each counted once per
  // warp, not per lane: ldmatrix of every form, the 8x8 matrices they loaded (over
  // ldmatrix_calls, 4 where every call is an .x4), and mma.sync.
  std::uint64_t ldmatrix_calls = 0;
  std::uint64_t ldmatrix_matrices = 0;
  std::uint64_t mma_calls = 0;
  // wgmma.mma_async, each counted once per warp (4 a warpgroup); the fences, commits and
  // waits, each thread's counted; the committed groups in flight at each wait, summed
  // (over wgmma_waits: 1 where each wait leaves none behind it); the wgmmas a thread never
  // waited for before its block ended; and the first warpgroup whose warps did not all
  // issue the same wgmmas (empty: none).
  std::uint64_t wgmma_calls = 0;
  std::uint64_t wgmma_fences = 0;
  std::uint64_t wgmma_commits = 0;
  std::uint64_t wgmma_waits = 0;
  std::uint64_t wgmma_groups_at_waits = 0;
  std::uint64_t wgmma_never_waited = 0;
  std::string wgmma_partial_warpgroup;
  // setmaxnreg calls, each thread's counted: increases and decreases; wgmmas (a warp's)
  // by warps one of whose threads issued a bulk or tensor copy in its block.
  std::uint64_t setmaxnreg_increases = 0;
  std::uint64_t setmaxnreg_decreases = 0;
  std::uint64_t wgmma_by_copying_warps = 0;
  // The descriptors of the launch's first wgmma (0: none).
  std::uint64_t wgmma_first_desc_a = 0;
  std::uint64_t wgmma_first_desc_b = 0;
  // The descriptor of A of each warpgroup's first wgmma in the launch's first block (0:
  // that warpgroup issued none).
  std::vector<std::uint64_t> wgmma_first_desc_a_of_warpgroup;
  // The descriptors of B of the first two wgmmas of the first warp of the first block to
  // issue two: how far one 16 of K steps along its operand.
  std::vector<std::uint64_t> wgmma_first_two_desc_b;
  // The lowest destination of the first block's tensor copies, in bytes from the dynamic
  // shared memory's start as a descriptor counts them: where its ring of stages starts.
  std::optional<std::uint64_t> tensor_copy_lowest_destination;
  // wb::note_fmas() calls, each thread's counted, and of them those that found the
  // thread's reads of the next fragments already made (fma_note.cpp); the first thread
  // of the launch's lowest block whose FMAs did not.
  std::uint64_t fma_notes = 0;
  std::uint64_t fma_notes_after_next_reads = 0;
  std::optional<FmasBeforeNextReads> fmas_before_next_reads;
  // Blocks that read shared memory after the barrier that followed their last store, and
  // the lowest of them (see ReadAfterLastStore).
  std::uint64_t blocks_reading_after_last_store = 0;
  std::optional<ReadAfterLastStore> read_after_last_store;
  // Warp requests of each kind, and per code address.
  RequestCounts requests[kAccessKinds];
  std::map<std::pair<const void*, AccessKind>, AccessSite> sites;
  // Threads that made more accesses between two barriers than the simulator records
  // (their later accesses are checked, but not counted in `requests`).
  std::uint64_t threads_past_request_limit = 0;
  std::uint64_t warp_syncs = 0;  // __syncwarp and shuffle rendezvous completed
  // The first read of shared memory that no write of its block had filled (see
  // UnfilledRead), if any block made one.
  std::optional<UnfilledRead> unfilled_read;
  // The first read of a copy still in flight, if any block made one (see InFlightRead).
  std::optional<InFlightRead> in_flight_read;
  // The first barrier that some threads of a block skipped by returning, for each block
  // where any did, in no particular order.
  static constexpr std::size_t kMaxEarlyExits = 4096;
  std::vector<EarlyExit> early_exits;
  // Block (0,0,0)'s footprint of each shared array it touched, at its end: whether a step
  // walks the layout it declares (its padding, say) shows there.
  std::vector<ArrayFootprint> first_block_footprints;
  // The CUDA C++ library's copies: the size in bytes of the largest call at each call
  // site (code address), which their cp.async pieces no longer show.
  std::map<const void*, std::size_t> library_copy_bytes;
  // Warnings, each once per launch with a count: "12 threads ended with ...".
  std::map<std::string, std::uint64_t> warnings;

  std::uint64_t cp_async_ops() const { return cp_async_4 + cp_async_8 + cp_async_16; }
  const RequestCounts& of(AccessKind kind) const { return requests[static_cast<int>(kind)]; }
  RequestCounts& of(AccessKind kind) { return requests[static_cast<int>(kind)]; }
  LaunchStats& operator+=(const LaunchStats& other);
};

// The counters of the last launch that finished on this host thread.
const LaunchStats& last_launch_stats();

// ---------------------------------------------------------------------------------
// Launches

struct LaunchConfig {
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes = 0;
  const void* kernel = nullptr;  // the kernel's code, which names it in the launch log
};

// Runs `invoke(closure)` once for every thread of the grid, each on a fiber with its
// threadIdx and blockIdx set. Blocks run in parallel on a pool of OS threads; the
// threads of one block run in turn on one OS thread, switching at barriers.
// Throws KernelError for a kernel that goes wrong, std::invalid_argument for a bad
// configuration.
// With the environment variable WB_SIM_LAUNCH_LOG=FILE, each launch that finishes adds
// a line of its counters to FILE (see launch_log.cpp), which `make profile-chapterN`
// prints beside what Nsight Compute measured on a GPU.
void run_grid(const LaunchConfig& config, void (*invoke)(const void* closure),
              const void* closure);

// The dynamic shared memory of the block running on this OS thread.
void* dynamic_shared_memory();

// ---------------------------------------------------------------------------------
// Reports for a step that hangs or crashes (used by the graders' --wb-report mode).

// The blocks still running, each with the threads that never reached their next
// barrier or their end and where each was last seen. Called from another OS thread
// while the kernel hangs; the reads are racy, which a report made just before the
// process ends can afford.
std::string describe_running_blocks();

// What the CUDA thread running on this OS thread was doing: safe to call from a
// signal handler (no locks, no allocation).
struct CrashContext {
  bool in_kernel = false;
  uint3 block{};
  uint3 thread{};
  const char* last_seen_file = nullptr;  // its last barrier, cp.async or wait
  int last_seen_line = 0;
  const void* access_pc = nullptr;  // its last memory access (code address)
  const void* access_address = nullptr;
  unsigned access_bytes = 0;
  bool access_write = false;
  bool access_is_latest = false;
};
// fault_address: the address a SIGSEGV or SIGBUS names (nullptr for another signal), which
// picks the faulting access where the last two were one statement's store and load.
CrashContext crash_context(const void* fault_address = nullptr);

// "(x,y,z)"
std::string format_index(const uint3& index);

// A source path without the project's folder, as messages name files:
// "chapters/01_copy/copy.cu" (a path outside the project unchanged).
std::string project_relative(std::string path);

// "copy.cu:53" for a code address of a kernel, or "" (asks addr2line: not for signal
// handlers).
std::string source_line_of(const void* code_address);

// ---------------------------------------------------------------------------------
// Device memory: exact-size host allocations, registered so that cp.async can check
// that its source lies in device memory and its destination does not.

void* device_malloc(std::size_t bytes);
void device_free(void* pointer) noexcept;

// The allocation holding [pointer, pointer + bytes), or nullptr: begin, size.
struct Allocation {
  const std::byte* begin = nullptr;
  std::size_t bytes = 0;
};
Allocation find_device_allocation(const void* pointer, std::size_t bytes);

// ---------------------------------------------------------------------------------
// Asynchronous copies, with the call site for error messages.

enum class CacheLevel { all, global };  // .ca and .cg

// `sized`: the form with a source-size operand (src_bytes given), which zero-fills past
// it; the plain form copies all copy_bytes.
void cp_async(void* shared_dst, const void* global_src, int copy_bytes, int src_bytes,
              CacheLevel level, const char* file, int line, bool sized = false);
void cp_async_commit(const char* file, int line);
// wb::note_fmas(): the calling thread's FMAs run here (fma_note.cpp).
void note_fmas(const char* file, int line);
void cp_async_wait(int pending_groups, const char* file, int line);
void cp_async_wait_all(const char* file, int line);

// ---------------------------------------------------------------------------------
// The CUDA C++ library's copies (wb/sim/cuda_cooperative_groups.hpp, cuda_pipeline.hpp).

// The promise of a library copy (LibraryCopyPromise, above the counters).
// "cooperative_groups::memcpy_async" or "cuda::memcpy_async".
const char* to_string(LibraryApi api);
// The alignment the library takes from the promise: cooperative_groups the aligned_size_t's
// N where there is one, else alignof(T); cuda the larger of the two.
std::size_t static_alignment(const LibraryCopyPromise& promise);

// A collective copy of `bytes` from global `src` to shared `dst` by the thread of rank
// `rank` of a group of `group_size`: this thread's share, chunk i going to the thread of
// rank i % group_size, as the library issues it for `promise` (cp.async of the static
// alignment, 4 to 16 bytes; below 4, cooperative_groups picks a width from the addresses
// at run time and cuda::memcpy_async copies synchronously). An aligned_size_t's promise
// is checked. With `pipeline` (a pipeline_shared_state's address), the copies join the
// thread's acquired stage; without, they form one cp.async group (committed).
void library_memcpy_async(void* dst, const void* src, std::size_t bytes, const LibraryCopyPromise& promise,
                          unsigned rank, unsigned group_size, const void* pipeline, const char* file, int line);
// cooperative_groups::wait_prior<N>(block): every copy group of this thread but the newest
// N lands, then the block's barrier.
void library_group_wait(int pending_groups, const char* file, int line);

// A block-scoped cuda::pipeline, known by its shared state's address.
enum class PipelineCall { acquire, commit, wait, release };
void pipeline_attach(const void* shared_state, int stages, unsigned group_size, const char* file, int line);
void pipeline_call(const void* shared_state, PipelineCall call, const char* file, int line);

// ---------------------------------------------------------------------------------
// Hopper's mbarrier and the copies that complete on it (wb/sim/cuda_barrier.hpp; the
// model is in common/sim/src/mbarrier.cpp). A barrier is known by its shared address.

// init(&barrier, expected): `expected` arrivals complete a phase (with the transactions).
void mbarrier_init(const void* barrier, std::ptrdiff_t expected, const char* file, int line);
// `count` arrivals of this thread, after adding `transaction_bytes` to the bytes the
// phase expects (barrier_arrive_tx; 0 for a plain arrive). Returns the phase arrived on.
std::uint64_t mbarrier_arrive(const void* barrier, std::ptrdiff_t count, std::ptrdiff_t transaction_bytes,
                              const char* api, const char* file, int line);
// barrier_expect_tx: the bytes the current phase expects, without an arrival.
void mbarrier_expect_tx(const void* barrier, std::ptrdiff_t transaction_bytes, const char* file, int line);
// wait(token): until the phase arrived on has completed.
void mbarrier_wait(const void* barrier, std::uint64_t phase, const char* file, int line);
// wait_parity(parity): until the phase of that parity has completed; the one before the
// first counts as completed with parity 1, as on the hardware.
void mbarrier_wait_parity(const void* barrier, bool parity, const char* file, int line);
// fence.proxy.async: counted (the simulator has one proxy).
void proxy_fence(const char* file, int line);

// A bulk copy of `bytes` from global `src` to shared `dst`, completing on `barrier`
// (cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes). `promised_alignment`:
// the N of the cuda::aligned_size_t<N> given. `api` names the call in messages.
void bulk_copy(void* dst, const void* src, std::size_t bytes, std::size_t promised_alignment, const void* barrier,
               const char* api, const char* file, int line);

// A tensor map: what cuTensorMapEncodeTiled was given, checked (wb/tensor_map.hpp).
struct TensorMapDescriptor {
  int rank = 0;
  int element_bytes = 0;
  const void* global_address = nullptr;
  std::uint64_t dims[5] = {};
  std::uint64_t strides[5] = {};  // bytes between consecutive indices of dimension i (strides[0]: the element)
  std::uint32_t box[5] = {};
  std::uint32_t element_strides[5] = {};
  int swizzle_bytes = 0;  // 0 (none), 32, 64 or 128
};
// Keeps a descriptor for the tensor copies; returns the handle stored in the CUtensorMap.
std::uint64_t register_tensor_map(const TensorMapDescriptor& descriptor);
// A tensor copy of the box at `coords` (rank of them, innermost first) of the tensor map
// `handle` to shared `dst`, completing on `barrier` (cp.async.bulk.tensor.Nd...).
void tensor_copy(void* dst, std::uint64_t handle, const int* coords, int rank, const void* barrier, const char* file,
                 int line);

// ---------------------------------------------------------------------------------
// The tensor cores (wb/tensor_core.hpp; the models are in common/sim/src/tensor_core.cpp).
// Each instruction is a rendezvous of the warp's 32 lanes.

// ldmatrix.sync.aligned.m8n8.x{matrices}{.trans}.shared.b16 comes in two calls, around the
// read of the lane's row, which the kernel's own code makes (so that it is checked and
// counted as a shared load of the kernel's line). First: whether this lane gives a row
// (lanes 0 to 8 x matrices - 1 do; the others' addresses are not used), after checking
// that its row lies in shared memory and is 16-byte aligned.
bool ldmatrix_gives_row(int matrices, bool transposed, const void* row, const char* file, int line);
// Then the rendezvous, each lane with the 16 bytes of its row (zeros where it gives none):
// `registers` receives this lane's `matrices` fragments.
void ldmatrix(int matrices, bool transposed, const void* row_bytes, unsigned* registers, const char* file, int line);
// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32: this lane's fragments of A (4
// registers), B (2) and C (4 floats) in, its fragment of D (4 floats) out.
void mma_m16n8k16_bf16(float* d, const unsigned* a, const unsigned* b, const float* c, const char* file, int line);

// ---------------------------------------------------------------------------------
// Hopper's warpgroup MMA (wb/wgmma.hpp; the model is in common/sim/src/wgmma.cpp). Each
// wgmma is a rendezvous of its warp's 32 lanes, the warp computing its 16 rows of the
// warpgroup's 64; its operands' chunks are read by the lanes in the kernel's own code.

// The most 16-byte chunks one lane reads for one wgmma (m64n256k16: 1 of A, 16 of B).
inline constexpr int kWgmmaMaxChunks = 17;
// A matrix descriptor: the start's offset in the dynamic shared memory (the simulator's
// shared window), the byte offsets and the layout, in the hardware's bits.
std::uint64_t wgmma_descriptor(const void* start, std::uint32_t leading_byte_offset, std::uint32_t stride_byte_offset,
                               unsigned layout, const char* file, int line);
void wgmma_fence(const char* file, int line);
void wgmma_commit(const char* file, int line);
// The chunks of A and B this lane reads for an m64nNk16 wgmma (their addresses, through
// the descriptors); returns how many.
int wgmma_chunks(std::uint64_t desc_a, std::uint64_t desc_b, int n, const void** addresses, const char* file,
                 int line);
// Issues it, with the chunks' values as the lane read them: `d` (N / 2 floats) takes the
// pending poison until the wait.
void wgmma_issue(float* d, int n, std::uint64_t desc_a, std::uint64_t desc_b, bool accumulate, const void* chunks,
                 const char* file, int line);
// wgmma.wait_group `pending`: how many of the thread's wgmmas complete now, oldest first;
// for each, the lane reads its chunks again (wgmma_front_chunks) and completes it.
int wgmma_wait_begin(int pending, const char* file, int line);
int wgmma_front_chunks(const void** addresses);
void wgmma_complete_front(const void* chunks, const char* file, int line);
// setmaxnreg.inc (`increase`) or .dec to `registers`: checked and counted.
void setmaxnreg(int registers, bool increase, const char* file, int line);

}  // namespace wb::sim
