// Hopper's mbarrier in the simulator, and the bulk and tensor copies that complete on it.
//
// An mbarrier counts a phase's arrivals and its transaction bytes: init(&bar, count) sets
// the arrivals a phase needs; barrier_arrive_tx adds bytes the phase expects and arrives;
// each bulk or tensor copy brings its bytes. The phase completes when every arrival is in
// and the bytes brought equal the bytes expected; then the barrier begins the next phase.
// A wait(token) waits for the phase its token arrived on, wait_parity(p) for the phase of
// parity p, and the phase before the first counts as completed with parity 1.
//
// Copy late, poison early, as for cp.async: at issue a copy is checked (the hardware's
// rules: 16-byte units and alignment, shared destination, source inside its allocation,
// the tensor map's box), its destination poisoned and what it brings staged; it lands
// only when a thread waits for its phase and the phase can complete, never earlier. So a
// read before the right wait sees poison every time, and a wait that can never be
// satisfied (an arrival or some bytes missing) leaves the block's threads blocked, which
// the scheduler reports with what the barrier still lacks (describe_stuck_mbarriers).
#include <algorithm>
#include <cstring>
#include <mutex>

#include "wb/poison.hpp"
#include "worker.hpp"

namespace wb::sim {
namespace {

// The most bytes a phase may expect (the transaction count is 20 bits wide).
constexpr std::int64_t kMaxTransactionBytes = (1 << 20) - 1;
// Copies a phase may hold before the simulator calls it a loop without end.
constexpr std::size_t kMaxCopiesInPhase = 4096;

unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }


BlockMbarrier* find_mbarrier(Worker& worker, const void* address) {
  for (BlockMbarrier& barrier : worker.mbarriers) {
    if (barrier.address == address) return &barrier;
  }
  return nullptr;
}

BlockMbarrier& require_mbarrier(Worker& worker, const void* address, const std::string& api, const char* file,
                                int line) {
  BlockMbarrier* barrier = find_mbarrier(worker, address);
  if (barrier == nullptr) {
    kernel_fail(file, line,
                api + " on the barrier " + barrier_name(worker, address) +
                    ", which this block has not initialised (yet): one thread calls init(&barrier, count), and a "
                    "__syncthreads() follows, before any thread arrives on it, waits on it or gives it a copy",
                ErrorKind::mbarrier);
  }
  return *barrier;
}

// Lets the threads blocked on this barrier check again.
void wake(Worker& worker, const BlockMbarrier& barrier) {
  for (unsigned i = 0; i < block_threads(); ++i) {
    ThreadState& other = *worker.threads[i];
    if (other.status == ThreadStatus::at_mbarrier && other.waiting_mbarrier == barrier.address) {
      other.status = ThreadStatus::ready;
    }
  }
}

// What a race of a copy that lands usually means here.
std::string landing_race_hint(const Worker& worker) {
  // A phase completed by an arrival with no copy in it, on a barrier that copies complete
  // on: the copy meant for that phase belongs to a later one, and the waits return early.
  for (const BlockMbarrier& barrier : worker.mbarriers) {
    if (!barrier.had_copies || !barrier.empty_arrival) continue;
    const BlockMbarrier::EmptyArrival& arrival = *barrier.empty_arrival;
    return "\nLikely cause: phase " + std::to_string(arrival.phase) + " of the barrier " + barrier_name(worker, barrier.address) +
           " completed on the arrival of thread " + format_index(worker.threads[arrival.thread]->index) + " at " +
           project_relative(arrival.file) + ":" + std::to_string(arrival.line) +
           ", which brought no bytes, with no copy in the phase, though copies complete on that barrier: each "
           "such arrival ends a phase before its copy, so the copies land a phase later than the waits expect. "
           "Only the thread that issues a copy arrives on its barrier (barrier_arrive_tx, with the bytes); the "
           "threads that read the tile only wait for the phase (wait_parity).";
  }
  // Two arrivals with bytes that completed two phases with no wait between them: one fill
  // counted as two phases, the waits' parity behind.
  for (const BlockMbarrier& barrier : worker.mbarriers) {
    if (!barrier.byte_arrivals_without_wait) continue;
    const auto& [first, second] = *barrier.byte_arrivals_without_wait;
    const auto at = [&worker](const BlockMbarrier::EmptyArrival& arrival) {
      return "thread " + format_index(worker.threads[arrival.thread]->index) + " at " +
             project_relative(arrival.file) + ":" + std::to_string(arrival.line) + " (phase " +
             std::to_string(arrival.phase) + ")";
    };
    if (barrier.byte_arrivals_refill) {
      return "\nLikely cause: the buffer whose copies complete on the barrier " + barrier_name(worker, barrier.address) +
             " was filled twice, by " + at(first) + " and by " + at(second) +
             ", the second fill's copies writing the first's bytes, with no thread waiting on the barrier between: "
             "the refill went out before any reader had waited for the first fill, let alone released it. A buffer "
             "is refilled only after its readers release it: the filling thread waits on its empty barrier, for the "
             "parity of the use before, a wait that returns only once that release is in.";
    }
    return "\nLikely cause: the barrier " + barrier_name(worker, barrier.address) +
           " took two arrivals with bytes (barrier_arrive_tx), by " + at(first) + " and by " + at(second) +
           ", with no thread waiting on it between them, and each completed a phase (its count is " +
           std::to_string(barrier.expected) +
           "). One fill of a buffer completed two phases where the waits count one a fill, so the waits' parity "
           "falls behind the phases: a wait returns once the first arrival's bytes are in, with the rest still in "
           "flight. The thread that fills a buffer arrives once, after all of the fill's copies, with all of "
           "their bytes.";
  }
  if (worker.stats.mbarrier_waits_on_a_past_phase > 0) {
    return "\nLikely cause: a wait returned at once on a phase that had completed before, while this copy's phase was "
           "still in flight: the wait was for the wrong phase. wait_parity(p) waits for the phase of parity "
           "p; a stage's k-th use is its barrier's phase k, of parity k % 2 (the first, phase 0, has parity "
           "0; parity 1 before any phase completed returns at once).";
  }
  return {};
}

// The phase's arrivals are in and its bytes brought: its copies land, and the next phase
// begins. What the threads did before is ordered with what they do after (the race
// check's new interval).
void complete_phase(Worker& worker, BlockMbarrier& barrier) {
  for (BulkLanding& copy : barrier.copies) {
    ThreadState& issuer = *worker.threads[copy.issuer];
    SharedConflict conflict;
    if (!check_shared_race(issuer, copy.destination, copy.data.size(), true, copy.pc, conflict)) {
      const std::string landing = "a copy that completes on the barrier " + barrier_name(worker, barrier.address) +
                                  " lands when a thread waits for its phase, and here it lands on a word another "
                                  "thread ";
      // Two writes of one word are an overlap of destinations, which no wait or barrier mends.
      kernel_fail_at(source_line_of(copy.pc),
                     conflict.kind == ErrorKind::shared_write_overlap
                         ? landing + "wrote: " + conflict.message
                         : landing + "touched before: " + conflict.message + landing_race_hint(worker) +
                               " Does a thread read the tile before its wait on the barrier, or refill a buffer "
                               "that other threads still read (a __syncthreads() between their reads and the next "
                               "copy)?",
                     conflict.kind);
    }
    std::memcpy(copy.destination, copy.data.data(), copy.data.size());
  }
  barrier.landed_through.push_back(barrier.landed_through.back() + barrier.copies.size());
  barrier.copies.clear();
  release_on_phase_completed(worker, barrier);
  ++barrier.phase;
  barrier.pending = barrier.expected;
  barrier.expected_bytes = 0;
  barrier.brought_bytes = 0;
  ++worker.stats.mbarrier_phases;
  begin_interval(worker.shared);
  wake(worker, barrier);
}

// A phase that can complete does so before anything of the next phase happens (an
// arrival, bytes expected, a copy), as on the hardware, where it would already have.
void settle(Worker& worker, BlockMbarrier& barrier) {
  if (barrier.completable()) complete_phase(worker, barrier);
}

// The block's bulk and tensor copies that this thread has not yet seen land by a wait.
std::uint64_t unseen_copies(const Worker& worker, unsigned self) {
  std::uint64_t seen = 0;
  for (const BlockMbarrier& barrier : worker.mbarriers) seen += barrier.landed_through[barrier.seen[self]];
  return worker.block_bulk_copies - seen;
}

// A wait that returns: counted, and the thread has seen the copies of this barrier's
// completed phases land.
void finish_wait(Worker& worker, ThreadState& thread, BlockMbarrier& barrier) {
  ++worker.stats.mbarrier_waits;
  thread.last_mbarrier_waited = barrier.address;
  barrier.waited_since_byte_arrival = true;
  barrier.waited[thread.linear_index] = 1;
  barrier.seen[thread.linear_index] = std::max(barrier.seen[thread.linear_index], barrier.phase);
  release_on_wait(worker, thread.linear_index, barrier);
}

// Blocks the thread on `barrier` until the phase `target` has completed, completing it
// itself when it can.
void wait_for_phase(ThreadState& thread, BlockMbarrier& barrier, std::uint64_t target, const char* call,
                    const char* file, int line) {
  Worker& worker = *thread.worker;
  if (thread.last_bulk_barrier == barrier.address && thread.last_bulk_phase == target && barrier.phase <= target) {
    ++worker.stats.bulk_waits_right_after_issue;
  }
  while (barrier.phase <= target) {
    if (barrier.completable()) {
      complete_phase(worker, barrier);
      continue;
    }
    thread.pipeline_call = call;
    thread.pipeline_file = file;
    thread.pipeline_line = line;
    thread.waiting_mbarrier = barrier.address;
    wait_at_mbarrier(thread);
    thread.waiting_mbarrier = nullptr;
  }
  finish_wait(worker, thread, barrier);
}

std::string bytes_text(std::int64_t bytes) { return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes"); }

// Checks the shared destination of a bulk or tensor copy of `bytes` bytes: shared memory,
// inside one __shared__ array. `what` starts the messages.
void check_destination(Worker& worker, void* dst, std::size_t bytes, const std::string& what, const char* file,
                       int line, const void* pc, const std::string& overflow_hint) {
  const SharedVariable variable = shared_variable_at(worker.shared, dst);
  const auto* begin = static_cast<const std::byte*>(dst);
  if (variable.bytes > 0 && begin + bytes > variable.begin + variable.bytes) {
    const auto offset = static_cast<std::size_t>(begin - variable.begin);
    kernel_fail(file, line,
                what + "it writes bytes [" + std::to_string(offset) + ", " + std::to_string(offset + bytes) +
                    ") of the __shared__ array " + variable.name + ", which has " + bytes_text(static_cast<std::int64_t>(variable.bytes)) +
                    ": " + std::to_string(offset + bytes - variable.bytes) + " bytes past its end, over whatever lies "
                    "after it. " + overflow_hint,
                ErrorKind::destination_not_shared);
  }
  if (const std::string bad = explain_bad_destination(worker, dst, bytes, pc); !bad.empty()) {
    kernel_fail(file, line, what + bad, bad_destination_kind(dst, bytes));
  }
}

// A copy into words another thread read with nothing ordering that read before the copy:
// what was observed, and, where the order's own figures single it out, how.
std::string unreleased_read_message(const Worker& worker, const ThreadState& issuer, const UnreleasedRead& read) {
  const ThreadState& reader = *worker.threads[read.reader];
  const std::string line = source_line_of(read.pc);
  std::string message =
      "a race on shared memory: this copy overwrites " + describe_shared_address(worker.shared, read.address, 4, read.pc) +
      ", which thread " + format_index(reader.index) +
      " (warp " + std::to_string(read.reader / 32) + ") read at " +
      (line.empty() ? std::string("an unknown line") : line) + ", and nothing orders that read before the copy: no " +
      "arrival of that thread made after its read reached thread " + format_index(issuer.index) +
      " through a wait it passed, and no __syncthreads() lies between. On a GPU the copy may land while the read "
      "is still to come. A stage is refilled only once every thread that reads it has released it: the readers "
      "arrive on the stage's empty barrier after their reads (a __syncwarp() first where one lane arrives for its "
      "warp), and the thread that refills it waits for that barrier's phase before its copies.";
  // The barriers the reader arrives on, and whether the issuer ever waited on one of them;
  // whether the issuer ever waited on a barrier that another thread arrives on (waits on
  // barriers of its own arrivals alone, the full barriers it fills, tell it nothing of others).
  std::vector<std::string> reader_barriers;
  bool issuer_waited = false;
  bool issuer_heard_others = false;
  std::string called_in_vain;  // a reader's barrier the issuer waited on, every wait returning at once
  const auto arrives = [](const BlockMbarrier& barrier, unsigned thread) {
    return barrier.arrivers.size() > thread && barrier.arrivers[thread];
  };
  for (const BlockMbarrier& barrier : worker.mbarriers) {
    const bool issuer_waited_here = barrier.seen[issuer.linear_index] > 0;
    if (issuer_waited_here && barrier.arriver_count > (arrives(barrier, issuer.linear_index) ? 1u : 0u)) {
      issuer_heard_others = true;
    }
    if (arrives(barrier, read.reader)) {
      reader_barriers.push_back(barrier_name(worker, barrier.address));
      issuer_waited = issuer_waited || issuer_waited_here;
      if (!issuer_waited_here && barrier.waited[issuer.linear_index] != 0 && called_in_vain.empty()) {
        called_in_vain = barrier_name(worker, barrier.address);
      }
    }
  }
  // A phase ended by an arrival without its copy, or a wait on a past phase: the reads came
  // before their tile landed, which the hint names.
  if (const std::string hint = landing_race_hint(worker); !hint.empty()) {
    message += hint;
  } else if (!issuer_waited && !called_in_vain.empty()) {
    message += "\nLikely cause: thread " + format_index(issuer.index) + " waits on " + called_in_vain +
               ", which thread " + format_index(reader.index) +
               " arrives on, but each of its waits there returned at once, on a phase completed before (or, "
               "before the barrier's first phase completed, on the one before it): the parity it waits for is not "
               "the phase of this use's release. A stage's k-th use is released by its empty barrier's phase k, "
               "of parity k % 2.";
  } else if (read.released_just_before) {
    message += "\nLikely cause: the release this thread waited for came right before the read, not after it: "
               "thread " + format_index(reader.index) +
               " arrived on the barrier, then read the stage. The arrival that frees a stage follows the reads.";
  } else if (!issuer_heard_others) {
    message += "\nLikely cause: thread " + format_index(issuer.index) +
               " has waited only on barriers that no other thread arrives on (the full barriers its own copies "
               "complete on), so nothing told it the other warps were done with the stage: before refilling a "
               "stage, wait on its empty barrier for this use's parity.";
  } else if (!reader_barriers.empty() && !issuer_waited) {
    std::string names;
    for (const std::string& name : reader_barriers) names += (names.empty() ? "" : ", ") + name;
    message += "\nLikely cause: thread " + format_index(issuer.index) + " never waited on a barrier thread " +
               format_index(reader.index) + " arrives on (" + names +
               "): its refills go out without waiting for the stage's empty phase (wait_parity on the stage's "
               "empty barrier, for this use's parity, before the copies).";
  } else if (!read.arrived_since) {
    message += " (Thread " + format_index(reader.index) +
               " has made no arrival since that read: the copy went out before it released the stage.)";
  }
  return message;
}

// Queues a copy on the barrier's current phase: its destination poisoned until it lands.
void queue_copy(ThreadState& thread, BlockMbarrier& barrier, std::byte* destination, std::vector<std::byte> data,
                const std::string& what, const char* file, int line, const void* pc) {
  Worker& worker = *thread.worker;
  if (barrier.copies.size() >= kMaxCopiesInPhase) {
    kernel_fail(file, line,
                what + "the barrier's phase holds " + std::to_string(barrier.copies.size()) +
                    " copies that no thread has waited for. Does a loop never end?",
                ErrorKind::too_many_copies);
  }
  if (worker.shared.in_static(destination)) touch_static_shared(worker.shared, destination, data.size());
  barrier.had_copies = true;  // before the race check, whose message reads it
  if (const std::optional<UnreleasedRead> read = unreleased_read(thread, destination, data.size())) {
    kernel_fail(file, line, what + unreleased_read_message(worker, thread, *read), ErrorKind::shared_race);
  }
  if (SharedConflict conflict; !check_shared_race(thread, destination, data.size(), true, pc, conflict)) {
    if (conflict.kind == ErrorKind::shared_write_overlap) kernel_fail(file, line, what + conflict.message, conflict.kind);
    // Where no arrival explains the early reads, the copy came before others finished reading.
    const std::string hint = landing_race_hint(worker);
    kernel_fail(file, line,
                what + conflict.message + hint +
                    (hint.empty() ? " A copy into a tile comes after every thread's reads of the tile's last "
                                    "contents: a __syncthreads() between the reads and the copy."
                                  : ""),
                conflict.kind);
  }
  thread.issued_bulk_copy = true;
  poison::fill(destination, data.size(), poison::in_flight);
  barrier.brought_bytes += static_cast<std::int64_t>(data.size());
  barrier.copies.push_back(BulkLanding{destination, std::move(data), thread.linear_index, pc});
  barrier.copies.back().issued_after_wait_on = thread.last_mbarrier_waited;
  ++worker.block_bulk_copies;
  if (std::find(worker.bulk_copy_sites.begin(), worker.bulk_copy_sites.end(), pc) == worker.bulk_copy_sites.end()) {
    worker.bulk_copy_sites.push_back(pc);
  }
  // In flight from the issuer's view: its own waits say what it has seen land, whatever
  // the order in which the schedule ran the other threads.
  worker.stats.bulk_copies_in_flight_at_issue += unseen_copies(worker, thread.linear_index);
  thread.last_bulk_barrier = barrier.address;
  thread.last_bulk_phase = barrier.phase;
  if (barrier.completable()) wake(worker, barrier);
}

// The tensor maps of the process; a handle is an index + 1 (0: a map never made).
struct TensorMaps {
  std::mutex mutex;
  std::vector<TensorMapDescriptor> maps;
};
TensorMaps& tensor_maps() {
  static TensorMaps maps;
  return maps;
}

TensorMapDescriptor tensor_map_of(std::uint64_t handle, const char* file, int line) {
  TensorMaps& maps = tensor_maps();
  const std::lock_guard<std::mutex> lock(maps.mutex);
  if (handle == 0 || handle > maps.maps.size()) {
    kernel_fail(file, line,
                "a tensor copy from a tensor map that was never made: the host fills the CUtensorMap with "
                "wb::encode_tensor_map_tiled (cuTensorMapEncodeTiled) and passes it to the kernel as a "
                "const __grid_constant__ CUtensorMap parameter",
                ErrorKind::tensor_map);
  }
  return maps.maps[handle - 1];
}

// The byte offset, in a box laid out row after row of `row_bytes`, where the swizzle puts
// the byte at `offset`: the 16-byte chunk index within each 128-byte line XORed with the
// line's index (modulo 8, 4 or 2 for 128-, 64- and 32-byte swizzles).
std::size_t swizzled(std::size_t offset, int swizzle_bytes) {
  if (swizzle_bytes == 0) return offset;
  const std::size_t mask = static_cast<std::size_t>(swizzle_bytes / 16 - 1);
  return offset ^ (((offset >> 7) & mask) << 4);
}

// The current phase expects `transaction_bytes` more (barrier_arrive_tx, barrier_expect_tx),
// within the transaction count's range.
void expect_bytes(Worker& worker, BlockMbarrier& barrier, std::ptrdiff_t transaction_bytes, const std::string& api,
                  const char* file, int line) {
  if (transaction_bytes < 0 || barrier.expected_bytes + transaction_bytes > kMaxTransactionBytes) {
    kernel_fail(file, line,
                api + " on the barrier " + barrier_name(worker, barrier.address) + ": the phase would expect " +
                    bytes_text(barrier.expected_bytes + transaction_bytes) +
                    "; a phase expects between 0 and 2^20 - 1 bytes",
                ErrorKind::mbarrier);
  }
  barrier.expected_bytes += transaction_bytes;
}

}  // namespace

// "full[1]" or "bar": the barrier as the kernel names it, from the program's symbols.
std::string barrier_name(const Worker& worker, const void* address) {
  const SharedVariable variable = shared_variable_at(worker.shared, address);
  if (variable.bytes == 0) return "at " + hex(address);
  const auto offset = static_cast<std::size_t>(static_cast<const std::byte*>(address) - variable.begin);
  if (variable.bytes <= 8) return variable.name;
  return variable.name + "[" + std::to_string(offset / 8) + "]";
}

void mbarrier_init(const void* address, std::ptrdiff_t expected, const char* file, int line) {
  ThreadState& thread = require_thread("init(&barrier, count)", file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  if (expected < 1 || expected > (1 << 20) - 1) {
    kernel_fail(file, line,
                "init(&barrier, " + std::to_string(expected) +
                    "): a barrier's arrival count lies between 1 and 2^20 - 1",
                ErrorKind::mbarrier);
  }
  if (!worker.shared.in_static(address) && !worker.shared.in_dynamic(address, 8)) {
    kernel_fail(file, line,
                "init(&barrier, count): the barrier is not in shared memory: a block's cuda::barrier is a "
                "__shared__ variable",
                ErrorKind::mbarrier);
  }
  if (BlockMbarrier* existing = find_mbarrier(worker, address); existing != nullptr) {
    if (existing->phase > 0 || existing->pending != existing->expected || !existing->copies.empty()) {
      kernel_fail(file, line,
                  "init(&barrier, count) on the barrier " + barrier_name(worker, address) +
                      ", which is in use (initialised at " + existing->init_file + ":" +
                      std::to_string(existing->init_line) +
                      "): one thread initialises a barrier once, before the block uses it",
                  ErrorKind::mbarrier);
    }
    worker.mbarriers.erase(std::find_if(worker.mbarriers.begin(), worker.mbarriers.end(),
                                        [&](const BlockMbarrier& barrier) { return &barrier == existing; }));
  }
  BlockMbarrier barrier;
  barrier.address = address;
  barrier.init_file = file;
  barrier.init_line = line;
  barrier.expected = static_cast<std::uint32_t>(expected);
  barrier.pending = barrier.expected;
  barrier.seen.assign(block_threads(), 0);
  barrier.waited.assign(block_threads(), 0);
  worker.mbarriers.push_back(std::move(barrier));
  start_release_order(worker, block_threads());
}

std::uint64_t mbarrier_arrive(const void* address, std::ptrdiff_t count, std::ptrdiff_t transaction_bytes,
                              const char* api, const char* file, int line) {
  ThreadState& thread = require_thread(api, file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  BlockMbarrier& barrier = require_mbarrier(worker, address, api, file, line);
  settle(worker, barrier);
  const std::string name = barrier_name(worker, address);
  if (count < 1) {
    kernel_fail(file, line, std::string(api) + ": an arrival counts at least 1 (" + std::to_string(count) + ")",
                ErrorKind::mbarrier);
  }
  if (static_cast<std::uint64_t>(count) > barrier.pending) {
    kernel_fail(file, line,
                std::string(api) + " on the barrier " + name + ": " + std::to_string(count) +
                    (count == 1 ? " arrival" : " arrivals") + " where its phase " + std::to_string(barrier.phase) +
                    " lacks only " + std::to_string(barrier.pending) + " of the " + std::to_string(barrier.expected) +
                    " that init gave it: more threads arrive than the count given to init(&barrier, count), or a "
                    "thread arrives twice in one phase",
                ErrorKind::mbarrier);
  }
  expect_bytes(worker, barrier, transaction_bytes, api, file, line);
  if (transaction_bytes > 0) {
    const BlockMbarrier::EmptyArrival arrival{thread.linear_index, file, line, barrier.phase};
    std::vector<std::pair<const std::byte*, std::size_t>> copies;
    for (const BulkLanding& copy : barrier.copies) copies.emplace_back(copy.destination, copy.data.size());
    if (barrier.last_byte_arrival && !barrier.waited_since_byte_arrival &&
        barrier.last_byte_arrival->phase < arrival.phase && !barrier.byte_arrivals_without_wait) {
      barrier.byte_arrivals_without_wait = std::pair{*barrier.last_byte_arrival, arrival};
      for (const auto& [first, bytes] : copies) {
        for (const auto& [other, other_bytes] : barrier.last_byte_arrival_copies) {
          if (first < other + other_bytes && other < first + bytes) barrier.byte_arrivals_refill = true;
        }
      }
    }
    barrier.last_byte_arrival = arrival;
    barrier.last_byte_arrival_copies = std::move(copies);
    barrier.waited_since_byte_arrival = false;
  }
  release_on_arrive(worker, thread.linear_index, barrier);
  // Each lane's wgmmas in flight: this warp's arrival may release the stage they read.
  const unsigned warp_begin = thread.linear_index / 32 * 32;
  for (unsigned lane = warp_begin; lane < warp_begin + 32 && lane < worker.threads.size(); ++lane) {
    for (PendingWgmma& op : worker.threads[lane]->wgmmas) op.releases.push_back({address, file, line});
  }
  barrier.pending -= static_cast<std::uint32_t>(count);
  ++worker.stats.mbarrier_arrivals;
  if (transaction_bytes > 0) ++worker.stats.mbarrier_arrivals_with_bytes;
  if (transaction_bytes == 0 && barrier.copies.empty() && barrier.expected_bytes == 0 && barrier.completable() &&
      !barrier.empty_arrival) {
    barrier.empty_arrival = BlockMbarrier::EmptyArrival{thread.linear_index, file, line, barrier.phase};
  }
  if (barrier.completable()) wake(worker, barrier);
  return barrier.phase;
}

void mbarrier_expect_tx(const void* address, std::ptrdiff_t transaction_bytes, const char* file, int line) {
  ThreadState& thread = require_thread("barrier_expect_tx()", file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  BlockMbarrier& barrier = require_mbarrier(worker, address, "barrier_expect_tx()", file, line);
  settle(worker, barrier);
  expect_bytes(worker, barrier, transaction_bytes, "barrier_expect_tx()", file, line);
  if (barrier.completable()) wake(worker, barrier);
}

void mbarrier_wait(const void* address, std::uint64_t phase, const char* file, int line) {
  ThreadState& thread = require_thread("barrier::wait(token)", file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  BlockMbarrier& barrier = require_mbarrier(worker, address, "wait(token)", file, line);
  if (phase > barrier.phase) {
    kernel_fail(file, line,
                "wait(token) on the barrier " + barrier_name(worker, address) + " with a token of its phase " +
                    std::to_string(phase) + ", which has not begun (phase " + std::to_string(barrier.phase) +
                    " is the current one): is the token from another barrier?",
                ErrorKind::mbarrier);
  }
  wait_for_phase(thread, barrier, phase, "wait(token)", file, line);
}

void mbarrier_wait_parity(const void* address, bool parity, const char* file, int line) {
  ThreadState& thread = require_thread("barrier::wait_parity", file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  BlockMbarrier& barrier = require_mbarrier(worker, address, "wait_parity()", file, line);
  if ((barrier.phase & 1) != static_cast<std::uint64_t>(parity)) {
    // The phase of this parity is the one before the current phase: completed (or, before
    // the first phase, counted as completed). The wait returns at once.
    if (!barrier.copies.empty() || barrier.expected_bytes > 0) {
      ++worker.stats.mbarrier_waits_on_a_past_phase;
      worker.stats.warnings["waits on an mbarrier that returned at once, for a phase completed before, while the "
                            "current phase's copies were still in flight: wait_parity(p) waits for the phase of "
                            "parity p (a stage's k-th use is phase k, parity k % 2)"]++;
    }
    finish_wait(worker, thread, barrier);
    return;
  }
  wait_for_phase(thread, barrier, barrier.phase, parity ? "wait_parity(1)" : "wait_parity(0)", file, line);
}

void proxy_fence(const char* file, int line) {
  ThreadState& thread = require_thread("fence.proxy.async", file, line);
  note_call_site(thread, file, line);
  ++thread.worker->stats.proxy_fences;
}

void bulk_copy(void* dst, const void* src, std::size_t bytes, std::size_t promised_alignment, const void* address,
               const char* api, const char* file, int line) {
  ThreadState& thread = require_thread(api, file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  const void* pc = __builtin_return_address(0);
  const std::string what = std::string(api) + " of " + bytes_text(static_cast<std::int64_t>(bytes)) + ": ";
  if (bytes == 0 || bytes % 16 != 0) {
    kernel_fail(file, line,
                what + "a bulk copy moves a positive multiple of 16 bytes (" + std::to_string(bytes % 16) +
                    " bytes over): an array's last, partial 16 bytes go another way",
                ErrorKind::tensor_map);
  }
  const auto dst_address = reinterpret_cast<std::uintptr_t>(dst);
  const auto src_address = reinterpret_cast<std::uintptr_t>(src);
  const std::size_t alignment = std::max<std::size_t>(16, promised_alignment);
  if (dst_address % alignment != 0 || src_address % alignment != 0) {
    kernel_fail(file, line,
                what + "both addresses of a bulk copy are multiples of " + std::to_string(alignment) +
                    " bytes" + (promised_alignment > 16 ? " (the cuda::aligned_size_t promised it)" : "") +
                    ", and here the shared destination % " + std::to_string(alignment) + " == " +
                    std::to_string(dst_address % alignment) + ", the global source % " + std::to_string(alignment) +
                    " == " + std::to_string(src_address % alignment) +
                    ": a tile's first element must lie a multiple of 4 floats from an aligned start",
                ErrorKind::misaligned);
  }
  check_destination(worker, dst, bytes, what, file, line, pc,
                    "Is the size the tile's bytes, sizeof(float) times its elements?");
  const Allocation* source = worker.job->allocations.around(src);
  const auto* source_begin = static_cast<const std::byte*>(src);
  if (source == nullptr || source_begin + bytes > source->begin + source->bytes) {
    const BadSource bad = explain_bad_source(src, bytes);
    kernel_fail_access(file, line, what + bad.message + ": the last tile of an array may be partial", bad.kind, src,
                       false, static_cast<unsigned>(bytes));
  }
  BlockMbarrier& barrier = require_mbarrier(worker, address, api, file, line);
  settle(worker, barrier);
  std::vector<std::byte> data(source_begin, source_begin + bytes);
  ++worker.stats.bulk_copies;
  worker.stats.bulk_bytes += bytes;
  queue_copy(thread, barrier, static_cast<std::byte*>(dst), std::move(data), what, file, line, pc);
}

std::uint64_t register_tensor_map(const TensorMapDescriptor& descriptor) {
  TensorMaps& maps = tensor_maps();
  const std::lock_guard<std::mutex> lock(maps.mutex);
  maps.maps.push_back(descriptor);
  return maps.maps.size();
}

void tensor_copy(void* dst, std::uint64_t handle, const int* coords, int rank, const void* address, const char* file,
                 int line) {
  const std::string api = "cp_async_bulk_tensor_" + std::to_string(rank) + "d_global_to_shared";
  ThreadState& thread = require_thread(api.c_str(), file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  const void* pc = __builtin_return_address(0);
  const TensorMapDescriptor map = tensor_map_of(handle, file, line);
  std::size_t box_bytes = static_cast<std::size_t>(map.element_bytes);
  std::string box_text;
  for (int d = 0; d < map.rank; ++d) {
    box_bytes *= map.box[d];
    box_text += (d == 0 ? "" : " x ") + std::to_string(map.box[d]);
  }
  const std::string what = api + " (a box of " + box_text + " elements, " +
                           bytes_text(static_cast<std::int64_t>(box_bytes)) + "): ";
  if (rank != map.rank) {
    kernel_fail(file, line,
                what + "a " + std::to_string(rank) + "-d copy from a tensor map of rank " + std::to_string(map.rank),
                ErrorKind::tensor_map);
  }
  for (int d = 0; d < map.rank; ++d) {
    if (map.element_strides[d] != 1) {
      kernel_fail(file, line, what + "the simulator copies tensor maps whose element strides are all 1",
                  ErrorKind::tensor_map);
    }
  }
  // The swizzle repeats every 8 lines of its span, from an address aligned to that: the
  // hardware XORs the address's own bits, so the tile must start where the pattern does.
  const std::size_t alignment = map.swizzle_bytes == 0 ? 128 : static_cast<std::size_t>(8 * map.swizzle_bytes);
  const auto dst_address = reinterpret_cast<std::uintptr_t>(dst);
  if (dst_address % alignment != 0) {
    kernel_fail(file, line,
                what + "the shared destination of a tensor copy is " + std::to_string(alignment) +
                    "-byte aligned" +
                    (map.swizzle_bytes == 0 ? std::string()
                                            : " with a " + std::to_string(map.swizzle_bytes) +
                                                  "-byte swizzle (its pattern repeats every " +
                                                  std::to_string(alignment) + " bytes from an aligned address)") +
                    ", and here it is " + std::to_string(dst_address % alignment) +
                    " bytes past such an address. Both the tile's start and the box's offset within it must be "
                    "multiples of " + std::to_string(alignment) + ": a static tile is declared __align__(" +
                    std::to_string(alignment) + "), dynamic shared memory is rounded up to such an address, and "
                    "each box placed a whole number of such units from it.",
                ErrorKind::misaligned);
  }
  check_destination(worker, dst, box_bytes, what, file, line, pc,
                    "The tensor map's box is larger than the shared tile it is copied into: the box "
                    "dimensions given to the map and the tile's shape must agree.");
  BlockMbarrier& barrier = require_mbarrier(worker, address, api, file, line);
  settle(worker, barrier);

  // The box, element after element with the innermost dimension fastest, read from the
  // tensor where it lies inside it and zeros where it does not, each element put where
  // the swizzle puts it.
  const Allocation* tensor = worker.job->allocations.around(map.global_address);
  std::vector<std::byte> data(box_bytes, std::byte{0});
  const auto element = static_cast<std::size_t>(map.element_bytes);
  const std::size_t elements = box_bytes / element;
  for (std::size_t index = 0; index < elements; ++index) {
    std::size_t rest = index;
    std::size_t source_offset = 0;
    bool inside = true;
    for (int d = 0; d < map.rank; ++d) {
      const long long coordinate = static_cast<long long>(coords[d]) + static_cast<long long>(rest % map.box[d]);
      rest /= map.box[d];
      if (coordinate < 0 || coordinate >= static_cast<long long>(map.dims[d])) inside = false;
      source_offset += static_cast<std::size_t>(coordinate) * static_cast<std::size_t>(map.strides[d]);
    }
    if (!inside) continue;
    const auto* source = static_cast<const std::byte*>(map.global_address) + source_offset;
    if (tensor == nullptr || source < tensor->begin || source + element > tensor->begin + tensor->bytes) {
      kernel_fail(file, line,
                  what + "the tensor map describes memory its allocation does not hold: an element of the box "
                         "inside the tensor's dimensions lies at byte " +
                      std::to_string(source_offset) + " from the map's global address, past the end of its device "
                      "allocation" +
                      (tensor == nullptr ? std::string() : " of " + std::to_string(tensor->bytes) + " bytes") +
                      ": are the global dimensions or strides given to the map too large?",
                  ErrorKind::tensor_map);
    }
    std::memcpy(data.data() + swizzled(index * element, map.swizzle_bytes), source, element);
  }
  ++worker.stats.tensor_copies;
  worker.stats.tensor_bytes += box_bytes;
  if (worker.running_block == 0 && worker.shared.in_dynamic(dst, 1)) {
    const auto offset =
        static_cast<std::uint64_t>(static_cast<const std::byte*>(dst) - worker.shared.dynamic_begin());
    std::optional<std::uint64_t>& lowest = worker.stats.tensor_copy_lowest_destination;
    if (!lowest || offset < *lowest) lowest = offset;
  }
  queue_copy(thread, barrier, static_cast<std::byte*>(dst), std::move(data), what, file, line, pc);
  barrier.copies.back().element_bytes = static_cast<unsigned>(map.element_bytes);
}

void begin_block_mbarriers(Worker& worker) {
  worker.mbarriers.clear();
  worker.block_bulk_copies = 0;
  worker.bulk_copy_sites.clear();
  for (auto& thread : worker.threads) {
    thread->waiting_mbarrier = nullptr;
    thread->last_bulk_barrier = nullptr;
  }
}

void finish_block_mbarriers(Worker& worker) {
  std::uint64_t never_landed = 0;
  for (const BlockMbarrier& barrier : worker.mbarriers) never_landed += barrier.copies.size();
  if (never_landed > 0) {
    worker.stats.copies_never_waited += never_landed;
    worker.stats.warnings["bulk or tensor copies never landed (no thread waited for their barrier's phase before "
                          "the block ended: is a wait missing?)"] += never_landed;
  }
  worker.mbarriers.clear();
}

std::string bulk_copy_race_note(const Worker& worker, const void* write_pc) {
  if (std::find(worker.bulk_copy_sites.begin(), worker.bulk_copy_sites.end(), write_pc) ==
      worker.bulk_copy_sites.end()) {
    return {};
  }
  return " That write is a bulk or tensor copy, which lands when its barrier's phase completes: a thread "
         "reads its tile only after waiting for that phase, and the tile is refilled only after every "
         "thread's reads (a __syncthreads() between)." +
         landing_race_hint(worker);
}

// A phase whose copies bring a whole multiple of the bytes its arrivals announced: the
// readings that ratio singles out. The count of one copy of the phase's several (the
// arrival announces every copy's bytes), or a count in elements where bytes are meant:
// of the copies' element type where they know it (a tensor map's), or of 4-byte words or
// floats for a factor of 4. Both where both fit; "" where none does.
std::string count_readings(const BlockMbarrier& barrier) {
  if (barrier.expected_bytes <= 0 || barrier.brought_bytes % barrier.expected_bytes != 0) return "";
  const std::int64_t ratio = barrier.brought_bytes / barrier.expected_bytes;
  if (ratio < 2) return "";
  unsigned element = barrier.copies.empty() ? 0 : barrier.copies.front().element_bytes;
  for (const BulkLanding& copy : barrier.copies) {
    if (copy.element_bytes != element) element = 0;
  }
  std::vector<std::string> readings;
  const auto copies = static_cast<std::int64_t>(barrier.copies.size());
  if (copies > 1 && ratio == copies) {
    readings.push_back("the bytes of one of the phase's " + std::to_string(copies) +
                       " copies, where the arrival announces the bytes of every copy that completes on the phase");
  }
  if (element > 1 && ratio == element) {
    readings.push_back("a count of " + std::to_string(element) + "-byte elements where barrier_arrive_tx takes bytes (" +
                       std::to_string(element) + " x the elements)");
  } else if (ratio == 4) {
    readings.push_back("a count in floats or 4-byte words where barrier_arrive_tx takes bytes (4 x the count)");
  }
  if (readings.empty()) return "";
  const std::string times = ratio == 2 ? "twice" : ratio == 4 ? "four times" : std::to_string(ratio) + " times";
  return "exactly " + times + " the count: " +
         (readings.size() == 1 ? readings[0] : "either " + readings[0] + ", or " + readings[1]);
}

std::string describe_stuck_mbarriers(const Worker& worker, unsigned threads) {
  std::vector<unsigned> blocked;
  for (unsigned i = 0; i < threads; ++i) {
    if (worker.threads[i]->status == ThreadStatus::at_mbarrier) blocked.push_back(i);
  }
  if (blocked.empty()) return {};
  const ThreadState& first = *worker.threads[blocked.front()];
  const BlockMbarrier* barrier = nullptr;
  for (const BlockMbarrier& candidate : worker.mbarriers) {
    if (candidate.address == first.waiting_mbarrier) barrier = &candidate;
  }
  std::vector<unsigned> on_it, elsewhere;
  for (unsigned i : blocked) {
    (worker.threads[i]->waiting_mbarrier == first.waiting_mbarrier ? on_it : elsewhere).push_back(i);
  }
  const std::string name = barrier_name(worker, first.waiting_mbarrier);
  std::string text = "a barrier phase that can never complete: threads " + index_runs(on_it) + " (of " +
                     std::to_string(threads) + ") wait in " + first.pipeline_call + " at " + first.pipeline_file +
                     ":" + std::to_string(first.pipeline_line) + " on the barrier " + name;
  if (barrier == nullptr) return text + ".";
  text += " (initialised at " + std::string(barrier->init_file) + ":" + std::to_string(barrier->init_line) + " with " +
          std::to_string(barrier->expected) + (barrier->expected == 1 ? " arrival" : " arrivals") +
          " a phase), for its phase " + std::to_string(barrier->phase) + ", which";
  if (barrier->pending > 0) {
    text += " still lacks " + std::to_string(barrier->pending) + " of its " + std::to_string(barrier->expected) +
            " arrivals (the threads that should arrive ended, or wait elsewhere: is an arrive missing, or does "
            "the producer's arrival come after its own wait?)";
    if (barrier->expected_bytes != barrier->brought_bytes) text += " and";
  }
  if (barrier->expected_bytes != barrier->brought_bytes) {
    text += " expects " + bytes_text(barrier->expected_bytes) + " while the copies of this phase bring " +
            bytes_text(barrier->brought_bytes) + ": " +
            // A factor of sizeof(float) between the two is a size in floats where bytes are meant
            // on one side, or bytes counted twice (sizeof(float) * bytes) on the other: where the
            // copies bring a quarter, the copy's size in floats or the count's bytes times 4.
            (barrier->brought_bytes > 0 && barrier->expected_bytes == 4 * barrier->brought_bytes
                 ? "exactly a quarter of the count: either a copy's size given in floats where the bulk copy takes "
                   "bytes (sizeof(float) * elements), or a byte count multiplied by sizeof(float) once too often"
             : !count_readings(*barrier).empty()
                 ? count_readings(*barrier)
             : barrier->expected_bytes > barrier->brought_bytes
                 ? "the byte count given to barrier_arrive_tx is more than the copies bring (is a copy missing, "
                   "or is it the size of a whole tile where the last tile is partial?)"
                 : "the copies bring more than the byte count given to barrier_arrive_tx (a tensor copy brings its "
                   "whole box, the part outside the tensor as zeros)");
  }
  std::uint64_t least_seen = barrier->phase;
  for (unsigned i : on_it) least_seen = std::min(least_seen, barrier->seen[i]);
  if (barrier->phase >= least_seen + 2) {
    text += ". The barrier went through " + std::to_string(barrier->phase - least_seen) +
            " phases since some of these threads last saw one complete: another thread refilled the stage "
            "before they had waited for and read its tile, so the phase they wait for is long gone (is the "
            "__syncthreads() between the reads of a stage and its refill missing?)";
  }
  if (!elsewhere.empty()) text += "; threads " + index_runs(elsewhere) + " wait on another barrier";
  text += ". On a GPU the block would hang.";
  return text;
}

}  // namespace wb::sim
