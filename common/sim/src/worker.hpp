// The simulator's internal state: one Worker per OS thread of the pool, one
// ThreadState per CUDA thread of the block that worker is running.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "fiber.hpp"
#include "wb/sim/simulator.hpp"
#include "wb/trace.hpp"

namespace wb::sim {

struct PendingCopy {
  std::byte* destination;
  const std::byte* source;
  int copy_bytes;
  int source_bytes;  // the rest of the destination is zero-filled
  const void* pc;    // where it was issued, for the race check
  std::uint32_t interval;  // the barrier interval it was issued in
};

// One memory access of a thread, kept until its warp's lanes have all stopped (at a
// barrier, a warp rendezvous or their end), when the accesses of the lanes are put
// together into warp requests (requests.cpp). 16 bytes: user-space code addresses
// fit in 48 bits, which leaves room for the width and the kind.
struct AccessRecord {
  std::uintptr_t address;
  std::uint64_t packed;  // pc << 16 | bytes << 8 | kind

  static AccessRecord make(std::uintptr_t address, const void* pc, std::size_t bytes,
                           AccessKind kind) {
    return {address, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(pc)) << 16 |
                         static_cast<std::uint64_t>(bytes) << 8 | static_cast<std::uint64_t>(kind)};
  }
  const void* pc() const { return reinterpret_cast<const void*>(packed >> 16); }
  unsigned bytes() const { return static_cast<unsigned>(packed >> 8 & 0xFF); }
  AccessKind kind() const { return static_cast<AccessKind>(packed & 0xFF); }
  // Same instruction: same code address and kind.
  std::uint64_t site() const { return packed & ~std::uint64_t{0xFF00}; }
};

// One thread's cp.async copies in issue order, cut into commit groups. Copies before
// `performed` have landed; group_ends[first_pending_group...] are the committed groups
// still in flight; copies after the last group end are issued but not yet committed.
struct AsyncCopyQueue {
  std::vector<PendingCopy> copies;
  std::vector<std::size_t> group_ends;
  std::size_t performed = 0;
  std::size_t first_pending_group = 0;

  std::size_t pending_groups() const { return group_ends.size() - first_pending_group; }
  std::size_t committed_end() const { return group_ends.empty() ? 0 : group_ends.back(); }
  std::size_t uncommitted() const { return copies.size() - committed_end(); }
  std::size_t not_performed() const { return copies.size() - performed; }
  void clear() {
    copies.clear();
    group_ends.clear();
    performed = 0;
    first_pending_group = 0;
  }
};

// at_pipeline: blocked in a cuda::pipeline call (library_copy.cpp) until the other
// threads commit or release a stage.
// at_mbarrier: blocked in a wait on an mbarrier's phase (mbarrier.cpp).
enum class ThreadStatus { ready, at_barrier, at_warp_sync, at_pipeline, at_mbarrier, done, failed };

struct Worker;

// Where a thread was last seen, for the report of a hang or a crash: the site of its
// last simulator call (barrier, cp.async, wait), or the code address of its last
// memory access, whichever came later.
struct SeenAccess {
  const void* pc = nullptr;  // the instruction after the instrumented access
  const void* address = nullptr;
  unsigned bytes = 0;
  bool write = false;
};
struct LastSeen {
  const char* file = nullptr;  // a simulator call's site, or nullptr
  int line = 0;
  SeenAccess access;              // the last instrumented access
  bool access_is_latest = false;  // the access came after the simulator call
  // The access before it: a copy statement (`*dst = *src`) reports its store before its
  // load, so the access that faulted may be this one (crash_context tells them apart).
  SeenAccess previous_access;
};

// A wgmma issued by a thread and not yet waited for (wgmma.cpp): its accumulators, the
// result they get at the wait, its group (-1 until a commit), and the chunks it read at
// issue with their values, read again at the wait.
struct PendingWgmma {
  float* d = nullptr;
  int n = 0;
  std::vector<float> result;
  long long group = -1;
  int chunks = 0;
  const void* addresses[kWgmmaMaxChunks] = {};
  std::uint32_t values[kWgmmaMaxChunks][4] = {};
  const char* file = nullptr;
  int line = 0;
  // The first wait of its thread that found it not yet committed (nullptr: none): a wait
  // counts committed groups only, so that one waited for nothing.
  const char* waited_uncommitted_file = nullptr;
  int waited_uncommitted_line = 0;
  // The arrivals on mbarriers by a lane of its warp since its issue (a release of a stage
  // it may still read), and the last wait of its thread before the first of them that
  // found it committed and left it in flight (wgmma_wait_group<pending>).
  struct Release {
    const void* barrier;
    const char* file;
    int line;
  };
  std::vector<Release> releases;
  const char* left_in_flight_file = nullptr;
  int left_in_flight_line = 0;
  int left_in_flight_pending = 0;
};

struct ThreadState {
  Worker* worker = nullptr;
  unsigned linear_index = 0;
  uint3 index{};
  ThreadStatus status = ThreadStatus::ready;
  const char* barrier_file = nullptr;
  int barrier_line = 0;
  // The code address of that __syncthreads() (in the kernel), and those this thread has
  // passed in its block: evidence of a barrier that a thread skipped (race_check.cpp).
  const void* barrier_pc = nullptr;
  std::vector<const void*> barriers_passed;
  std::exception_ptr error;
  AsyncCopyQueue copies;
  // Its wgmmas not yet waited for, oldest first; the groups it committed; whether it
  // has fenced (wgmma.cpp).
  std::deque<PendingWgmma> wgmmas;
  long long wgmma_groups = 0;
  bool wgmma_fenced = false;
  bool issued_bulk_copy = false;  // a bulk or tensor copy in this block (wgmma.cpp counts the warps)
  const void* last_mbarrier_waited = nullptr;  // the mbarrier of its last wait that returned
  LastSeen last_seen;
  // Its accesses to device memory so far (loads, stores, cp.async sources), for a fault's
  // evidence (wb::Fault::earlier_accesses).
  unsigned long long global_accesses = 0;
  std::uint32_t cp_async_issued = 0;  // its cp.async operations in this block
  // Its cp.async commit_group and wait_group calls in this block, with the commits at its
  // last two waits and the last wait's N: the evidence of an InFlightRead.
  std::uint32_t commits = 0;
  std::uint32_t waits = 0;
  std::uint32_t commits_at_last_wait = 0;
  std::uint32_t commits_at_wait_before = 0;
  int last_wait = -1;
  // Its first wait<N> that landed nothing (N or fewer groups committed, copies among
  // them; -1: none) and its commits then: a race's evidence (wb::RacingCopy).
  int idle_wait = -1;
  std::uint32_t commits_at_idle_wait = 0;
  // The commit group (in this thread's count, from 0) of the copy landing now, for the
  // race check's record of a copy touched in flight.
  std::uint64_t landing_copy_group = 0;
  // Its latest bulk or tensor copy's barrier and the phase it completes (mbarrier.cpp),
  // for a wait of this thread on that very phase before it issues another.
  const void* last_bulk_barrier = nullptr;
  std::uint64_t last_bulk_phase = 0;
  // Its cuda::pipeline producer_commit() and consumer_wait() calls in this block: what a
  // consumer_wait() orders (race_check.cpp).
  std::uint32_t pipeline_commits = 0;
  std::uint32_t pipeline_waits = 0;
  // Where the thread waits while at_pipeline: the call and its site, for a deadlock's report.
  const char* pipeline_call = nullptr;
  const char* pipeline_file = nullptr;
  int pipeline_line = 0;
  const void* waiting_mbarrier = nullptr;  // while at_mbarrier (pipeline_call names the wait)
  // Between its consumer_release() and its next consumer_wait(): where it released, for
  // the evidence of a read of a stage after handing it back (nullptr outside).
  const char* released_file = nullptr;
  int released_line = 0;
  // Its logical time for a timeline (timeline.cpp): a step per instrumented access and
  // simulator call, with the step at which each committed group still in flight lands.
  std::uint64_t step = 0;
  std::deque<std::uint64_t> group_landing_steps;
  // Its shared loads in this block, and how many it had made at each wb::note_fmas()
  // (fma_note.cpp).
  std::uint64_t shared_loads = 0;
  std::vector<std::uint64_t> shared_loads_at_fmas;
  // An index outside its array's declared bounds on a line of the kernel file, not yet
  // judged (local_bounds.cpp).
  struct PendingBounds {
    std::string site;  // "chapters/04_gemm/gemm.cu:349"
    long long index = 0;
    std::string type;  // "float [8]"
    std::size_t bytes = 0;  // the array's, where its element type is known (0: not)
  };
  std::optional<PendingBounds> pending_bounds;
  std::vector<AccessRecord> accesses;  // since the last barrier
  std::size_t record_limit = 0;        // the most accesses recorded between barriers
  bool past_request_limit = false;     // more accesses than that were made
  std::unique_ptr<Fiber> fiber;

  unsigned lane() const { return linear_index % 32; }
  unsigned warp() const { return linear_index / 32; }
};

// A launch's device allocations, sorted by address: copied once per launch so that the
// workers look addresses up without a lock (no allocation changes during a launch).
struct AllocationSnapshot {
  std::vector<Allocation> allocations;
  // The allocation whose [begin, begin + bytes) holds `pointer` or, `with_guard`, whose
  // bytes or guard after them do (device_allocation_guard); nullptr where none does.
  const Allocation* around(const void* pointer, bool with_guard = false) const;
  // The allocation that begins next above `pointer` (nullptr where none does).
  const Allocation* above(const void* pointer) const;
  // "; it is byte B, float element E, of its device allocation" for a misaligned
  // address's message, or "" where no allocation holds it.
  std::string describe_offset(const void* pointer) const;
};

// What a worker needs of the launch in progress.
struct LaunchJob {
  LaunchConfig config;
  void (*invoke)(const void*) = nullptr;
  const void* closure = nullptr;
  Schedule schedule;
  AllocationSnapshot allocations;
  unsigned workers = 0;  // how many workers take blocks (the rest release their stacks)
};

// The block's shared memory as the simulator sees it.
//
// Static `__shared__` variables are `static thread_local` (see cuda_shim.hpp), so they
// live in the executable's thread-local block of the worker's OS thread. The simulator
// does not know where each variable is; it learns it from the accesses themselves (the
// kernel files are compiled with access instrumentation, see access.cpp): the first
// access of a block to a word of that thread-local block fills the word with the stale
// poison, so every block starts with undefined static shared memory, as on a GPU,
// whatever the blocks before it left there. `word_epoch[i]` is the block epoch in which
// word i was last defined; the built-in variables (threadIdx, ...) are never poisoned.
// What the race check remembers of one word of shared memory: the last thread that
// wrote it and up to two that read it, in which barrier interval, at which code
// address, and how many __syncwarp its warp had passed then (lanes of one warp are
// ordered by a __syncwarp between their accesses, without a barrier). A word written by
// two threads in distinct bytes remembers the later one only: a race of a third thread
// with the first may then go unseen (the book says so).
struct WordHistory {
  std::uint32_t write_interval = 0;
  std::uint32_t read_interval = 0;
  std::uint16_t writer = 0;
  std::uint16_t reader = 0;
  std::uint16_t other_reader = 0;  // a second reader, when there was one
  bool has_other_reader = false;
  bool write_landing = false;  // the write was a cp.async landing at its thread's wait
  // Which of the word's 4 bytes each access touched (bit i: byte i): threads that
  // touch different bytes of one word (two 16-bit halves) do not race.
  std::uint8_t write_bytes = 0;
  std::uint8_t read_bytes = 0;
  std::uint8_t other_read_bytes = 0;
  std::uint32_t writer_syncs = 0;
  std::uint32_t reader_syncs = 0;
  std::uint32_t other_reader_syncs = 0;
  const void* write_pc = nullptr;
  const void* read_pc = nullptr;
  const void* other_read_pc = nullptr;
  // What the last write brought: the device-memory bytes a copy read into this word
  // (null for a store), and its writer's accesses to device memory before it.
  const std::byte* write_source = nullptr;
  std::uint32_t writer_accesses = 0;
  // The writer's commits and waits when it wrote (a copy's group, and whether a wait of
  // its thread came after it).
  std::uint32_t writer_commits = 0;
  std::uint32_t writer_waits = 0;
  // The writer's cuda::pipeline commits when it stored the word: a consumer_wait()
  // orders the stores made before the commits of the batches it waited for, no others.
  std::uint32_t writer_pipeline_commits = 0;
};

// A rendezvous of the lanes of one warp: __syncwarp, a shuffle, a vote, an ldmatrix or
// an mma. Lanes deposit their operand and wait until every lane of the mask has arrived;
// the last to arrive computes every lane's result.
struct WarpRendezvous {
  std::uint32_t mask = 0;
  std::uint32_t arrived = 0;
  WarpOp op = WarpOp::sync;
  const char* file = nullptr;
  int line = 0;
  // Up to 40 bytes a lane: a shuffle's value (16 at most), an ldmatrix's row (16), an
  // mma's fragments of A, B and C (16 + 8 + 16).
  std::uint64_t operands[32][5] = {};
  int lane_arguments[32] = {};  // source lane, delta or lane mask; an ldmatrix's matrices
  int widths[32] = {};
  std::uint64_t results[32][2] = {};  // up to 16 bytes a lane
};

struct SharedMemory {
  std::byte* tls_begin = nullptr;     // the executable's thread-local block
  std::byte* static_begin = nullptr;  // the same, 4-byte aligned
  std::size_t static_bytes = 0;
  std::vector<std::uint32_t> word_epoch;
  // Which __shared__ variable each word belongs to (1 + its index among the program's
  // thread-local symbols; 0 for none), so that an access running from one array into the
  // next is caught without a search.
  std::vector<std::uint32_t> word_variable;
  // Per word_variable value: 1 for a __shared__ variable that is not the running
  // kernel's (its name says another function declared it), so that an index of this
  // kernel that runs into another kernel's array is caught (see foreign_array_access).
  // Set at each launch for its kernel; a variable found to be the running kernel's
  // after all (a helper's, see there) is cleared for the rest of the launch.
  std::vector<std::uint8_t> variable_foreign;
  const void* foreign_for_kernel = nullptr;  // the kernel variable_foreign was set for
  std::uint32_t block_epoch = 1;
  static constexpr std::uint32_t kNeverPoisoned = 0xFFFFFFFFu;  // a built-in (threadIdx, ...)
  // A word of the thread-local block that no __shared__ variable covers: the
  // simulator's own state, or padding between variables. Known from the executable's
  // symbols; without them (a stripped build), every word counts as shared memory.
  static constexpr std::uint32_t kNotShared = 0xFFFFFFFEu;

  // Dynamic shared memory, with guard bands of kDynamicGuardBytes on each side, poisoned,
  // and beyond them kDynamicReach bytes on each side that are mapped to nothing but
  // reserved for it: an access there is an index into the dynamic shared memory gone out
  // of it, certainly (nothing else can lie there), and is caught before it faults.
  std::byte* dynamic_allocation = nullptr;  // the first guard band
  std::size_t dynamic_capacity = 0;  // bytes between the guards that are allocated
  std::size_t dynamic_reserved = 0;  // the whole mapping, kDynamicReach before dynamic_allocation
  std::size_t dynamic_bytes = 0;     // bytes the launch asked for
  static constexpr std::size_t kDynamicGuardBytes = 1024;
  static constexpr std::size_t kDynamicReach = std::size_t{1} << 20;

  std::byte* dynamic_begin() const { return dynamic_allocation + kDynamicGuardBytes; }

  // The race check's state: a history per word of static and of dynamic shared
  // memory, the barrier interval (a new one at each block and each barrier), and how
  // many __syncwarp each warp of the block has passed.
  std::vector<WordHistory> static_history;
  std::vector<WordHistory> dynamic_history;
  std::uint32_t interval = 1;
  // The running block's first interval: a word whose last write is of an older interval
  // holds nothing this block wrote. 0 once the intervals wrapped within the block (the
  // histories were forgotten, and no read counts as unfilled until the next block).
  std::uint32_t block_first_interval = 1;
  // The interval begun by the block's start or its last __syncthreads(): the intervals
  // after it were begun by a pipeline's or an mbarrier's completion, which order less.
  std::uint32_t barrier_interval = 1;
  std::vector<std::uint32_t> warp_syncs;
  // The meetings in progress of each warp of the block: lanes may meet in disjoint
  // groups (two half-warps, each with its own mask).
  std::vector<std::vector<WarpRendezvous>> rendezvous;

  bool in_static(const void* pointer) const {
    return static_cast<std::size_t>(static_cast<const std::byte*>(pointer) - static_begin) <
           static_bytes;
  }
  bool in_dynamic(const void* pointer, std::size_t bytes) const {
    const auto offset = static_cast<const std::byte*>(pointer) - dynamic_begin();
    return offset >= 0 && static_cast<std::size_t>(offset) + bytes <= dynamic_bytes;
  }
};

// One use of a stage of a block-scoped cuda::pipeline: the k-th producer_acquire ...
// producer_commit of every thread is batch k, in stage k % stages. Its copies wait here,
// per issuing thread, until every thread of the block has committed the batch; then they
// land, all at once (library_copy.cpp).
struct PipelineBatch {
  std::vector<std::vector<PendingCopy>> copies;  // per thread
  unsigned committed = 0;                        // threads that committed it
  unsigned released = 0;                         // threads that released it
  bool has_copies = false;
  bool landed = false;
};

// A block's cuda::pipeline, known by the address of its pipeline_shared_state; the
// counts are per thread of the block.
struct BlockPipeline {
  const void* shared_state = nullptr;
  int stages = 0;
  std::vector<std::uint32_t> acquired, committed, waited, released;
  std::map<std::uint32_t, PipelineBatch> batches;  // those not yet released by every thread
};

// A bulk or tensor copy waiting on its mbarrier's phase: what it brings (read from global
// memory at issue, laid out as it lands), landing when a thread waits for the phase.
struct BulkLanding {
  std::byte* destination;
  std::vector<std::byte> data;
  unsigned issuer;  // the thread that issued it
  const void* pc;   // where, for the race check
  unsigned element_bytes = 0;  // a tensor copy's element size (its map's); 0 for a bulk copy's bytes
  const void* issued_after_wait_on = nullptr;  // the issuer's last mbarrier waited on before it
};

// A block's mbarrier (a cuda::barrier<thread_scope_block>), known by its shared address. A
// phase completes when its arrivals are all in and its copies brought the bytes it
// expects; the simulator completes it as late as it can, when a thread waits for it.
struct BlockMbarrier {
  const void* address = nullptr;
  const char* init_file = nullptr;
  int init_line = 0;
  std::uint32_t expected = 0;       // arrivals a phase
  std::uint32_t pending = 0;        // arrivals the current phase still lacks
  std::int64_t expected_bytes = 0;  // transaction bytes the current phase expects
  std::int64_t brought_bytes = 0;   // bytes its copies bring
  std::uint64_t phase = 0;          // phases completed
  std::vector<BulkLanding> copies;  // the current phase's, not landed
  // landed_through[k]: this barrier's copies landed by the end of its first k phases.
  std::vector<std::uint64_t> landed_through{0};
  std::vector<std::uint64_t> seen;  // per thread: the phases its waits saw completed
  std::vector<std::uint8_t> waited;  // per thread: 1 once it has called a wait on it, whatever it returned
  bool had_copies = false;          // a bulk or tensor copy has completed on it
  // An arrival: the thread, its line, the phase it arrived on. The first that brought no
  // bytes and completed a phase with no copy in it: on a barrier that copies complete on,
  // a thread that should only wait.
  struct EmptyArrival {
    unsigned thread = 0;
    const char* file = nullptr;
    int line = 0;
    std::uint64_t phase = 0;
  };
  std::optional<EmptyArrival> empty_arrival;
  // The latest arrival that gave its phase bytes to expect, whether a thread has waited on
  // the barrier since, and the first two such arrivals that completed two phases with no
  // wait between them: one fill of a buffer counted as two phases, so that the waits, one
  // a fill, fall behind the phases.
  std::optional<EmptyArrival> last_byte_arrival;
  bool waited_since_byte_arrival = false;
  std::optional<std::pair<EmptyArrival, EmptyArrival>> byte_arrivals_without_wait;
  // The destinations of the copies that the latest arrival with bytes announced, and
  // whether the pair above wrote the same bytes twice: a refill before anyone read the
  // first fill, not one fill split in two.
  std::vector<std::pair<const std::byte*, std::size_t>> last_byte_arrival_copies;
  bool byte_arrivals_refill = false;

  bool completable() const { return pending == 0 && brought_bytes == expected_bytes; }
  // What the arrivals so far released (per thread, the epoch known), and what the phase
  // last completed had (release_order.cpp).
  std::vector<std::uint32_t> released;
  std::vector<std::uint32_t> completed_released;
  std::vector<bool> arrivers;  // the threads that ever arrived on it
  unsigned arriver_count = 0;
};

// Which shared reads each thread has released to which (release_order.cpp): the running
// block's epochs and vector clocks, kept once it initialises an mbarrier.
struct ReleaseOrder {
  bool on = false;
  unsigned threads = 0;
  std::vector<std::uint32_t> epoch;  // per thread: its arrivals and barriers passed
  std::vector<std::uint32_t> floor;  // per thread: its epoch at the block's last __syncthreads()
  std::vector<std::uint32_t> known;  // known[u * threads + t]: what thread u knows of t's epochs
  std::vector<std::uint32_t> arrival_epoch;  // per thread: its epoch right after its latest arrival
  // A word's two latest readers since its last write, each with its epoch and line.
  struct Reads {
    std::uint16_t reader[2] = {};
    std::uint32_t epoch[2] = {};
    const void* pc[2] = {};
    std::uint8_t count = 0;
  };
  std::vector<Reads> static_reads;
  std::vector<Reads> dynamic_reads;
};

// A read that a copy would overwrite with nothing ordering the two (release_order.cpp).
struct UnreleasedRead {
  unsigned reader = 0;
  const void* pc = nullptr;
  const std::byte* address = nullptr;
  bool arrived_since = false;         // the reader arrived on an mbarrier after its read
  bool released_just_before = false;  // its release the issuer knows came right before the read
};

struct Worker {
  Worker();
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  std::unique_ptr<StackSlab> stacks;  // one stack per thread of the running block
  std::vector<std::unique_ptr<ThreadState>> threads;
  const LaunchJob* job = nullptr;
  LaunchStats stats;
  SharedMemory shared;
  // The block and thread running on this worker, for the report of a hang.
  std::int64_t running_block = -1;
  const ThreadState* running = nullptr;
  bool block_aborting = false;
  const Allocation* last_allocation = nullptr;  // a cache for global accesses
  std::deque<BlockPipeline> pipelines;  // the running block's cuda::pipeline objects (stable references)
  // The running block's shared reads made by a thread after its consumer_release(), by word
  // address: a later stage's copy of another thread that lands on one of them refilled a
  // stage that thread still read (library_copy.cpp).
  struct ReadAfterRelease {
    unsigned thread;
    const void* pc;
    const char* release_file;
    int release_line;
  };
  std::unordered_map<const std::byte*, ReadAfterRelease> reads_after_release;
  std::deque<BlockMbarrier> mbarriers;  // the running block's mbarriers
  ReleaseOrder release;
  // Whether stats.unfilled_read belongs to the running block, which may still add to it.
  bool unfilled_read_running = false;
  // The array of stats.unfilled_read: static or dynamic shared memory, and its first word's
  // index in the race check's histories.
  bool unfilled_array_in_static = true;
  std::size_t unfilled_array_first = 0;
  // The running block's timeline, one entry per warp, where it is a sampled block of a
  // recording (wb::trace::start; empty otherwise).
  std::vector<trace::WarpRecords> timeline;
  // The running block's barriers so far, the barrier count at its latest store to global
  // memory (none yet: stored false), and at its latest shared load with the code address
  // of the first load after that count's barrier (last_store.cpp).
  std::uint32_t block_barriers = 0;
  bool stored = false;
  std::uint32_t barriers_at_last_store = 0;
  std::uint32_t barriers_at_last_load = 0;
  const void* last_load_pc = nullptr;
  std::uint64_t block_bulk_copies = 0;  // bulk and tensor copies the running block issued
  std::vector<const void*> bulk_copy_sites;  // where the running block issued them
  std::vector<std::uint64_t> warp_wgmmas;     // per warp of the running block: its wgmmas (wgmma.cpp)
  std::vector<std::vector<std::uint64_t>> warp_first_desc_b;  // per warp: its first two wgmmas' B (wgmma.cpp)

  // Gives the worker exactly `count` fibers on fresh stacks (none for 0).
  void provide_threads(std::size_t count, std::size_t stack_bytes);
  // Sizes dynamic shared memory for a launch and poisons it and its guards.
  void provide_dynamic_shared(std::size_t bytes);
};

// The CUDA thread running on this OS thread right now; nullptr outside a kernel.
extern thread_local ThreadState* running_thread;
inline ThreadState* current_thread() { return running_thread; }

// Raises a KernelError that names the source line, the block and the thread.
[[noreturn]] void kernel_fail(const char* file, int line, const std::string& what,
                              ErrorKind kind = ErrorKind::other);
// The same for an access that faulted: the error also carries its address (wb::Fault).
[[noreturn]] void kernel_fail_access(const char* file, int line, const std::string& what, ErrorKind kind,
                                     const void* address, bool write, unsigned bytes = 0);
// The same, with the place given as text ("copy.cu:53", from a code address).
[[noreturn]] void kernel_fail_at(const std::string& place, const std::string& what,
                                 ErrorKind kind);

// The running CUDA thread, or an Error naming `what` called outside a kernel.
ThreadState& require_thread(const char* what, const char* file, int line);
// Suspends the running thread until a warp rendezvous releases it (status ready).
void wait_at_warp_rendezvous(ThreadState& thread);

// "0-15, 20": indices in increasing order, runs of consecutive ones folded.
std::string index_runs(const std::vector<unsigned>& indices);
// "0x7f..." for messages.
std::string hex(const void* pointer);

// Records a simulator call's site as where the thread was last seen.
void note_call_site(ThreadState& thread, const char* file, int line);

// Prints a launch's warnings on stderr (unless WB_SIM_QUIET is set).
void print_warnings(const LaunchStats& stats);
// The demangled name of the function whose code starts at `code_address`, or "" (asks
// addr2line once per address, like source_line_of).
std::string function_name_of(const void* code_address);
// Appends the launch's counters to the file WB_SIM_LAUNCH_LOG names, if it is set.
void log_launch(const LaunchConfig& config, const LaunchStats& stats);

// The running thread's access at `address` that faulted, as the error carries it (the
// evidence particular to a kind of fault, none).
Fault fault_here(const void* address, bool write, unsigned bytes);

// Fails the running CUDA thread from code that must not throw (the instrumentation's
// callbacks, which the compiler treats as nothrow): records the error, abandons the
// thread's fiber and switches to the scheduler, which fails the launch as usual. An
// access that faulted passes its address, which the error carries for the graders.
[[noreturn]] void fail_without_unwinding(const std::string& place, const std::string& what,
                                         ErrorKind kind, const void* fault_address = nullptr,
                                         bool fault_write = false);
// The same with the error's whole fault (a shared conflict's).
[[noreturn]] void fail_without_unwinding(const std::string& place, const std::string& what,
                                         ErrorKind kind, const Fault& fault);

// The kind of a bad copy destination: in global memory (a device allocation), a copy the
// wrong way; anywhere else outside the block's shared memory, an index gone wild.
ErrorKind bad_destination_kind(const void* destination, std::size_t bytes);

// The device allocation starting at or below `pointer`, whatever its size.
Allocation device_allocation_below(const void* pointer);
// The allocation that begins next above `pointer` ({} where none does).
Allocation device_allocation_above(const void* pointer);
// Every device allocation, sorted by address (for a launch's snapshot).
std::vector<Allocation> device_allocations();

// How many bytes after the end of a device allocation of `bytes` belong to no other
// object (its guard: as many as it has, at least 64 KiB), so that an address up to this
// far past its end is an overrun of it, never a host variable placed there.
std::size_t device_allocation_guard(std::size_t bytes);
// The first byte past the guard of `allocation`: an address below it and past the
// allocation's bytes is an overrun of that allocation.
const std::byte* end_of_guard(const Allocation& allocation);

// Performs the first `count` not-yet-performed copies of the queue, in order.
void perform_copies(AsyncCopyQueue& queue, std::size_t up_to);
// Checks a cp.async of `thread` (size, alignment, address spaces, races), poisons its
// destination, records its accesses and counts it: the copy, to be queued by the caller
// and performed at a wait. `pc`: the kernel's code address that issued it.
PendingCopy issue_copy(ThreadState& thread, void* shared_dst, const void* global_src, int copy_bytes,
                       int src_bytes, CacheLevel level, const char* file, int line, const void* pc);
// Fails the launch when a thread has `in_flight` copies not waited for, too many to be
// anything but a loop without end. `what` starts the message ("cp.async of 4 bytes: ").
void check_copies_in_flight(std::size_t in_flight, const std::string& what, const char* file, int line);

// Static shared memory (shared_memory.cpp): the range of this OS thread's thread-local
// block, found once per worker, and the poison-on-first-touch of each block.
void locate_static_shared(SharedMemory& shared);
void begin_block_shared(SharedMemory& shared, unsigned threads);
// What an address of the thread-local block is. `straddles`: an access that starts in
// one __shared__ array and ends in another.
// `foreign`: inside one __shared__ array, but another kernel's (variable_foreign).
enum class StaticWord { shared, built_in, not_shared, straddles, foreign };
// Marks [pointer, pointer + bytes) of static shared memory as defined in this block,
// poisoning first what this block had not yet touched. Says what the first word is:
// only `shared` words are shared memory; the built-in variables (threadIdx, ...) share
// the thread-local block, and so does the simulator's own state, which a kernel
// reaches only through an index past the end of a __shared__ array.
StaticWord touch_static_shared(SharedMemory& shared, const void* pointer, std::size_t bytes);
// Whether `pointer`, inside a __shared__ variable, lies in one variable_foreign marks.
bool in_foreign_variable(const SharedMemory& shared, const void* pointer);
// Marks the __shared__ variables that are not `kernel`'s as foreign (variable_foreign).
void mark_foreign_variables(SharedMemory& shared, const void* kernel);
// An access at `address` of a variable that variable_foreign marks: in a learner's words,
// to follow "a load of 16 bytes ", where the array is another kernel's, which on a GPU is
// not in this kernel's shared memory at all; "" where the variable is the running
// kernel's after all (a __device__ helper's array, which the kernel may reach: it is
// then unmarked).
std::string foreign_array_access(SharedMemory& shared, const void* kernel, const void* address,
                                 std::size_t bytes, const void* pc);
// Why a cp.async destination is not the block's shared memory, in a learner's words;
// empty if it is.
std::string explain_bad_destination(Worker& worker, const void* destination,
                                    std::size_t bytes, const void* pc);
// "the dynamic shared memory ..." for an address at most `reach` bytes outside it (its
// guard bands by default; SharedMemory::kDynamicReach for any address of its reservation);
// empty otherwise.
std::string explain_dynamic_overrun(const SharedMemory& shared, const void* pointer, std::size_t bytes,
                                    std::size_t reach = SharedMemory::kDynamicGuardBytes);
// Gives the dynamic shared memory's mapping back.
void release_dynamic_shared(SharedMemory& shared);
// An access of static shared memory that does not lie inside one __shared__ array
// (touch_static_shared said not_shared or straddles), in a learner's words, to follow
// "a load of 16 bytes ": the arrays it touches, the offsets and their sizes.
// An access just before the block of static shared memory (within `reach` bytes), where
// no variable of the kernel lies: a negative index into the running kernel's first
// __shared__ array, described from that array's start ("" where it is not so near).
std::string explain_before_static(const SharedMemory& shared, const void* address, std::size_t bytes,
                                  const void* pc, std::size_t reach);
std::string explain_static_overrun(const SharedMemory& shared, const void* address, std::size_t bytes,
                                   const void* pc);
// Checks the dynamic buffer's guard bands at the end of a block; throws if written.
void check_dynamic_guards(const SharedMemory& shared);
// "smem_tile[130]" or "bytes [16, 32) of the dynamic shared memory": a shared address
// in a learner's words, the variable named from the program's symbols where it can be.
// `pc`, the code address of the access, picks the running kernel's array to measure an
// address outside every array from.
std::string describe_shared_address(const SharedMemory& shared, const void* address,
                                    std::size_t bytes, const void* pc = nullptr);
// The demangled name of the function of the executable whose code holds `pc`, or "".
std::string function_of(const void* pc);
// The __shared__ array holding `address` ("" for the dynamic shared memory, or none)
// and the index of its word there, in 4-byte elements.
std::pair<std::string, std::size_t> shared_array_word(const SharedMemory& shared, const void* address);
// An address at a whole word past the end of the running kernel's nearest __shared__
// array (code address `pc`): that array and the word's index from its start.
std::optional<std::pair<std::string, std::size_t>> word_past_an_array(const SharedMemory& shared, const void* address,
                                                                        const void* pc);

// The race check (race_check.cpp). A new barrier interval: what threads did before it
// is ordered with what they do after.
void begin_interval(SharedMemory& shared);
// What the race check found: its explanation, and the kind of mistake (shared_race for a
// read and a write of two threads, shared_write_overlap for two threads' writes).
struct SharedConflict {
  std::string message;
  ErrorKind kind = ErrorKind::shared_race;
  // For shared_write_overlap, the two writes; for a race with a cp.async, its commit group:
  // the evidence the error carries for the graders.
  std::optional<Fault> fault;
};
// Checks an access of `thread` to shared memory against the word histories and records
// it: false, and `conflict` set, when it conflicts with another thread's. `source`: the
// device-memory bytes a copy writes from (null: a store). `issued_interval`: for a
// cp.async landing at its thread's wait, the barrier interval it was issued in (0: any
// other write). Where a barrier came between, the copy was in flight across it: another
// thread's access to its destination in an interval after that one and before this one
// raced with it.
bool check_shared_race(ThreadState& thread, const std::byte* address, std::size_t bytes,
                       bool write, const void* pc, SharedConflict& conflict, const std::byte* source = nullptr,
                       std::uint32_t issued_interval = 0);
// Fails the launch with a conflict's message after `what`, at `place` ("copy.cu:53"),
// carrying its fault where it has one.
[[noreturn]] void kernel_fail_conflict(const std::string& place, const std::string& what,
                                       const SharedConflict& conflict);

// Warp requests (requests.cpp): records one access of the running thread.
inline void record_access(ThreadState& thread, std::uintptr_t address, std::size_t bytes,
                          AccessKind kind, const void* pc) {
  if (thread.accesses.size() >= thread.record_limit) {
    thread.past_request_limit = true;
    return;
  }
  thread.accesses.push_back(AccessRecord::make(address, pc, bytes > 16 ? 16 : bytes, kind));
}
// Sizes each thread's record of accesses for a block of `threads` threads.
void reserve_request_records(Worker& worker, unsigned threads);
// Puts the recorded accesses of the lanes of one warp (threads [first, first + 32) of
// a block of `threads`) together into warp requests, adds them to the worker's
// counters, and forgets them. Called when none of the lanes can run on before the
// others catch up, so that the k-th recorded access of each lane is the same
// instruction.
void tally_warp(Worker& worker, unsigned first, unsigned threads);
// The same for every warp of the block.
void tally_requests(Worker& worker, unsigned threads);

// Suspends the running thread until a pipeline call of another thread releases it.
void wait_at_pipeline(ThreadState& thread);
// cuda::pipeline (library_copy.cpp): forgets the pipelines of the block before; at the
// block's end, counts the copies that never landed; when every thread is stuck, the
// threads blocked in a pipeline call described for the error ("" if none).
// Timelines (timeline.cpp): a block's recording begins and ends with it; a thread's
// events are kept where its block is sampled and it is its warp's first lane.
void begin_block_timeline(Worker& worker, std::uint64_t block_linear, unsigned threads);
void finish_block_timeline(Worker& worker);
void timeline_note(ThreadState& thread, trace::Event event, int value = 0);
// The step at which a group the thread commits now lands.
std::uint64_t timeline_landing_step(const ThreadState& thread);
// A wait lands the thread's oldest committed group: its step moves to the group's landing.
void timeline_land_oldest_group(ThreadState& thread);

void begin_block_pipelines(Worker& worker);
void finish_block_pipelines(Worker& worker);
std::string describe_stuck_pipelines(const Worker& worker, unsigned threads);

// Suspends the running thread until an mbarrier's phase may have completed.
void wait_at_mbarrier(ThreadState& thread);
// Mbarriers (mbarrier.cpp): forgets those of the block before; at the block's end, counts
// the copies that never landed; when every thread is stuck, the threads blocked in a wait
// on an mbarrier described for the error ("" if none).
void begin_block_mbarriers(Worker& worker);
// wb::note_fmas() (fma_note.cpp): at a block's end, judges each of its `threads` threads'
// calls against its shared loads, into the launch's counters.
void finish_block_fma_notes(Worker& worker, std::uint64_t block_linear, unsigned threads);

// Work after a block's last store (last_store.cpp): each global store and shared load of
// the running block noted with the barriers it had passed; at the block's end, shared
// loads after a barrier that followed the last store are counted in LaunchStats.
void begin_block_last_store(Worker& worker);
inline void note_global_store(Worker& worker) {
  worker.stored = true;
  worker.barriers_at_last_store = worker.block_barriers;
}
inline void note_shared_load(Worker& worker, const void* pc) {
  if (worker.last_load_pc == nullptr || worker.block_barriers > worker.barriers_at_last_load) {
    worker.barriers_at_last_load = worker.block_barriers;
    worker.last_load_pc = pc;
  }
}
void finish_block_last_store(Worker& worker, std::uint64_t block_linear);

// The thread's index out of its array's bounds (ThreadState::pending_bounds), judged at
// its next access (at `address`, from the code at `pc`) or simulator call (at `site`):
// dropped where it was into a shared or device array (local_bounds.cpp), the thread's
// fault of a local array otherwise.
void judge_pending_bounds(ThreadState& thread, const void* address, const void* pc);
void judge_pending_bounds_at_call(ThreadState& thread, const std::string& site);
// Whether some __shared__ variable of the program is `bytes` long (shared_memory.cpp).
bool a_shared_variable_has_bytes(std::size_t bytes);
void finish_block_mbarriers(Worker& worker);
// Release order (release_order.cpp): started at a block's first mbarrier init, fed by the
// arrivals, the waits that return, __syncthreads() and __syncwarp(), and the shared reads
// and writes; a bulk or tensor copy then asks for a read it would overwrite unordered.
void begin_block_release_order(Worker& worker);
void start_release_order(Worker& worker, unsigned threads);
void release_on_arrive(Worker& worker, unsigned thread, BlockMbarrier& barrier);
void release_on_phase_completed(Worker& worker, BlockMbarrier& barrier);
void release_on_wait(Worker& worker, unsigned thread, const BlockMbarrier& barrier);
void release_on_syncthreads(Worker& worker);
void release_on_syncwarp(Worker& worker, unsigned warp, std::uint32_t mask);
void note_read_for_release(Worker& worker, bool in_static, std::size_t word, unsigned reader, const void* pc);
void forget_reads_for_release(Worker& worker, bool in_static, std::size_t word);
std::optional<UnreleasedRead> unreleased_read(const ThreadState& issuer, const std::byte* destination,
                                              std::size_t bytes);
std::string describe_stuck_mbarriers(const Worker& worker, unsigned threads);
// For a race with a write at `write_pc`: " That write is a bulk copy ..." when it is one
// of the running block's bulk or tensor copies, with what the barrier's waits suggest;
// "" otherwise.
std::string bulk_copy_race_note(const Worker& worker, const void* write_pc);
// "full[1]" or "bar": an mbarrier as the kernel names it, from the program's symbols.
std::string barrier_name(const Worker& worker, const void* address);

// Why `source` is not a readable range of `bytes` bytes of device memory, in a learner's
// words, and which kind of mistake that is (async_copy.cpp).
struct BadSource {
  std::string message;
  ErrorKind kind;
};
BadSource explain_bad_source(const void* source, std::size_t bytes);

// The __shared__ variable that holds `address` (static shared memory, named from the
// program's symbols): its start, size and name; bytes == 0 where none is known.
struct SharedVariable {
  const std::byte* begin = nullptr;
  std::size_t bytes = 0;
  std::string name;
};
SharedVariable shared_variable_at(const SharedMemory& shared, const void* address);
// Every __shared__ variable of the program, as the symbols name them (none in a stripped
// build).
std::vector<SharedVariable> shared_variables(const SharedMemory& shared);

// Footprints (footprint.cpp). A load of `thread` found the word `history_index` of the
// static (or dynamic) shared memory unfilled by its block: recorded as the launch's
// UnfilledRead when it is this worker's first, or added to it when its block is running.
void note_unfilled_read(ThreadState& thread, bool in_static, std::size_t history_index, std::size_t bytes,
                        const void* pc);
// At a block's end: completes the UnfilledRead of the block, and for block (0,0,0) records
// the footprint of every shared array it touched.
void finish_block_footprints(Worker& worker, std::uint64_t block_linear);

// Warp rendezvous (warp.cpp): lanes of a warp waiting that can never be released,
// described for the error (all other threads are at a barrier or done); "" if none.
std::string describe_stuck_warps(const Worker& worker, unsigned threads);

// One lane's arrival at a warp rendezvous: `operand` (operand_bytes, at most the 40 of
// WarpRendezvous::operands) is its share, `result` receives result_bytes of what the
// meeting gives it. warp_rendezvous (the shuffles, votes and __syncwarp) and the tensor
// cores' instructions all meet through it.
struct WarpArrival {
  std::uint32_t mask = 0xFFFFFFFFu;
  WarpOp op = WarpOp::sync;
  const void* operand = nullptr;
  std::size_t operand_bytes = 0;
  int lane_argument = 0;
  int width = 32;
  void* result = nullptr;
  std::size_t result_bytes = 0;
  const char* file = nullptr;
  int line = 0;
};
// Meets the other lanes of the arrival's mask: waits (the fiber yields) until the last of
// them arrives, which computes every lane's result; returns with this lane's.
void meet_warp(ThreadState& thread, const WarpArrival& arrival);

// Tensor cores (tensor_core.cpp): every lane's result of an ldmatrix or an mma whose
// lanes have all arrived, computed by the last of them (`warp` of the running block).
void complete_ldmatrix(WarpRendezvous& meeting, Worker& worker, unsigned warp);
void complete_mma(WarpRendezvous& meeting, Worker& worker);
// wgmma.cpp: every lane's accumulators of a wgmma its warp's lanes all issued.
void complete_wgmma(WarpRendezvous& meeting, Worker& worker, unsigned warp);
// wgmma.cpp: at a block's end, the wgmmas never waited for and the warpgroups whose warps
// issued different numbers.
void finish_block_wgmmas(Worker& worker, unsigned threads);


}  // namespace wb::sim
