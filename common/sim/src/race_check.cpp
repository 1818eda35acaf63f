// The race check on shared memory: needs no luck.
//
// A GPU runs the threads of a block at once, so two of them that touch one word of
// shared memory, at least one writing, with no __syncthreads() between the two
// accesses, race: the reader may see the old or the new value, depending on timing.
// The simulator runs them one after another, where such a race gives the same answer
// every time, often the right one. So it remembers, for each word, who last wrote it
// and who read it in the current barrier interval (the stretch between two barriers),
// and fails the launch at the first access that races with another thread's, naming
// both threads, the word and the two source lines, whatever the schedule.
//
// Ordered, hence no race: accesses of one thread; accesses in different intervals (a
// barrier between them); lanes of one warp with a __syncwarp between their accesses.
// A cp.async writes its destination when it is issued (the simulator's poison) and
// again when a wait performs it: between the two the copy may land at any moment on a
// GPU, and an access of another thread in either interval races with it.
// Atomic operations never race with each other and are not checked.
//
// Two writes of two threads to one word in one interval are another mistake: each word
// of a tile has one writer, so two threads computed the same destination. A barrier
// between them would only pick which value stays; the message says so and names the
// overlap (ErrorKind::shared_write_overlap), not a missing barrier. A copy landing at a
// wait placed after the barrier keeps its own message: there the barrier is misplaced.
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <tuple>

#include "wb/poison.hpp"
#include "worker.hpp"

namespace wb::sim {
namespace {

std::string thread_name(const Worker& worker, unsigned linear) {
  return "thread " + format_index(worker.threads[linear]->index);
}

std::string line_of(const void* pc) {
  const std::string line = source_line_of(pc);
  return line.empty() ? std::string("an unknown line") : line;
}

// Lane `other` of the running thread's warp passed a __syncwarp since its access.
bool ordered_by_syncwarp(const SharedMemory& shared, const ThreadState& thread, unsigned other,
                         std::uint32_t other_syncs) {
  return other / 32 == thread.warp() && shared.warp_syncs[thread.warp()] != other_syncs;
}

// The word's two writers, with both lines: `other` wrote it first, `thread` writes it now.
std::string write_overlap_message(const Worker& worker, const ThreadState& thread, unsigned other,
                                  const std::string& word, const void* pc, const void* other_pc) {
  const std::string line = line_of(pc), other_line = line_of(other_pc);
  std::string message = "two threads write " + word + " between the same two barriers: " +
                        thread_name(worker, other) + " of block " + format_index(blockIdx) +
                        " wrote it at " + other_line + ", then thread " + format_index(thread.index) +
                        " writes it at " + line + ". ";
  const char* overlaps =
      "(rows stepped by a wrong stride, a thread coordinate's row and column exchanged, a bound "
      "one past the tile, a loop stepping too little)";
  if (pc == other_pc) {
    return message + "One line computed the same index for both threads: their indices overlap " +
           overlaps + ". Each word of a tile needs exactly one writer, and a __syncthreads() "
           "would not fix this.";
  }
  return message + "Each word of a tile needs exactly one writer: unless the later write is "
         "meant to replace the earlier one (then a __syncthreads() must separate them), the two "
         "lines' indices overlap " + overlaps + ", and a barrier would not fix that.";
}

// The device-memory bytes a copy from `source` to shared `offset` brings into word
// `index` (null for a store).
const std::byte* word_source(const std::byte* source, std::size_t offset, std::size_t index) {
  if (source == nullptr) return nullptr;
  return source + (static_cast<std::ptrdiff_t>(4 * index) - static_cast<std::ptrdiff_t>(offset));
}

// Whether `thread`, racing with `other`, which waits at a __syncthreads(), skipped that
// barrier: it never passed it in this block, yet it runs a later line of the same
// function. A thread that has not reached the barrier yet is at an earlier line, or has
// passed it before (a loop); one past it without ever waiting there took a branch around
// it (an if, or a loop it ran fewer times).
bool skipped_the_barrier(const ThreadState& thread, const ThreadState& other, const void* pc) {
  if (other.status != ThreadStatus::at_barrier || other.barrier_pc == nullptr || other.barrier_file == nullptr) {
    return false;
  }
  const std::vector<const void*>& passed = thread.barriers_passed;
  if (std::find(passed.begin(), passed.end(), other.barrier_pc) != passed.end()) return false;
  const std::string function = function_of(pc);
  if (function.empty() || function != function_of(other.barrier_pc)) return false;
  const std::string line = source_line_of(pc);
  const std::size_t colon = line.rfind(':');
  if (colon == std::string::npos) return false;
  const std::string file = line.substr(0, colon), barrier_file = other.barrier_file;
  const auto ends_with = [](const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (!ends_with(barrier_file, file) && !ends_with(file, barrier_file)) return false;
  return std::atoi(line.c_str() + colon + 1) > other.barrier_line;
}

// The fault of `thread`'s access to the shared word at `address`, as a race's error
// carries it; the evidence particular to the race is set by the caller.
Fault fault_of(const ThreadState& thread, const std::byte* address, bool write, std::size_t bytes) {
  return Fault{{blockIdx.x, blockIdx.y, blockIdx.z},
               {thread.index.x, thread.index.y, thread.index.z},
               address,
               write,
               static_cast<unsigned>(bytes),
               thread.global_accesses,
               std::nullopt,
               std::nullopt,
               std::nullopt,
               std::nullopt,
               std::nullopt};
}

// Records the first read of a word whose copy is still in flight (its poison is there).
void note_in_flight_read(Worker& worker, const ThreadState& thread, const WordHistory& word, bool in_static,
                         std::size_t index, const void* pc) {
  const SharedMemory& shared = worker.shared;
  const std::byte* address = (in_static ? shared.static_begin : shared.dynamic_begin()) + 4 * index;
  std::uint32_t bits = 0;
  std::memcpy(&bits, address, sizeof bits);
  if (!poison::matches(bits, poison::in_flight)) return;
  const ThreadState& issuer = *worker.threads[word.writer];
  InFlightRead read;
  read.block_linear = static_cast<std::uint64_t>(worker.running_block);
  read.block = blockIdx;
  read.reader = thread.index;
  read.issuer = issuer.index;
  read.pc = pc;
  read.source = word.write_source;
  read.group = word.writer_commits;
  read.commits = issuer.commits;
  read.last_wait = issuer.last_wait;
  read.commits_at_last_wait = issuer.commits_at_last_wait;
  read.commits_at_wait_before = issuer.commits_at_wait_before;
  read.issued_after_last_wait = word.writer_waits == issuer.waits;
  worker.stats.in_flight_read = read;
}

}  // namespace

void begin_interval(SharedMemory& shared) {
  if (++shared.interval == 0) {  // wrapped: forget everything, so that no stale interval matches
    for (WordHistory& word : shared.static_history) word = WordHistory{};
    for (WordHistory& word : shared.dynamic_history) word = WordHistory{};
    shared.interval = 1;
    shared.block_first_interval = 0;
  }
}

bool check_shared_race(ThreadState& thread, const std::byte* address, std::size_t bytes,
                       bool write, const void* pc, SharedConflict& conflict, const std::byte* source,
                       std::uint32_t issued_interval) {
  Worker& worker = *thread.worker;
  SharedMemory& shared = worker.shared;
  // A cp.async landing at its thread's wait with a barrier between its issue and now.
  const bool landing = issued_interval != 0 && issued_interval != shared.interval;
  std::vector<WordHistory>* histories = nullptr;
  std::size_t offset = 0;
  if (shared.in_static(address)) {
    histories = &shared.static_history;
    offset = static_cast<std::size_t>(address - shared.static_begin);
  } else if (shared.in_dynamic(address, 1)) {
    histories = &shared.dynamic_history;
    offset = static_cast<std::size_t>(address - shared.dynamic_begin());
  } else {
    return true;
  }
  const auto self = static_cast<std::uint16_t>(thread.linear_index);
  const std::uint32_t interval = shared.interval;
  const std::uint32_t syncs = shared.warp_syncs[thread.warp()];
  const std::size_t last = std::min((offset + bytes - 1) / 4, histories->size() - 1);
  for (std::size_t index = offset / 4; index <= last; ++index) {
    WordHistory& word = (*histories)[index];
    const std::byte* word_address =
        (histories == &shared.static_history ? shared.static_begin : shared.dynamic_begin()) + 4 * index;
    // The bytes of this word the access touches.
    const std::size_t from = std::max(offset, 4 * index), to = std::min(offset + bytes, 4 * index + 4);
    const auto touched = static_cast<std::uint8_t>(((1u << (to - from)) - 1) << (from - 4 * index));
    // The other access this one races with, if any.
    const char* other_did = nullptr;
    unsigned other = 0;
    const void* other_pc = nullptr;
    if (word.write_interval == interval && word.writer != self && (word.write_bytes & touched) &&
        !ordered_by_syncwarp(shared, thread, word.writer, word.writer_syncs)) {
      other_did = "wrote";
      other = word.writer;
      other_pc = word.write_pc;
    } else if (write && word.read_interval == interval) {
      if (word.reader != self && (word.read_bytes & touched) &&
          !ordered_by_syncwarp(shared, thread, word.reader, word.reader_syncs)) {
        other_did = "read";
        other = word.reader;
        other_pc = word.read_pc;
      } else if (word.has_other_reader && word.other_reader != self &&
                 (word.other_read_bytes & touched) &&
                 !ordered_by_syncwarp(shared, thread, word.other_reader,
                                      word.other_reader_syncs)) {
        other_did = "read";
        other = word.other_reader;
        other_pc = word.other_read_pc;
      }
    }
    // A copy in flight may land at any moment between its issue and its wait on a GPU:
    // another thread's access to its destination in an interval strictly between the two
    // (a barrier after the issue, another before the wait) races with it, wherever the
    // simulator happens to land it.
    if (other_did == nullptr && landing) {
      const auto between = [&](std::uint32_t at) { return at > issued_interval && at < interval; };
      const char* touched_as = nullptr;
      unsigned toucher = 0;
      const void* toucher_pc = nullptr;
      if (between(word.read_interval) && word.reader != self && (word.read_bytes & touched)) {
        touched_as = "read";
        toucher = word.reader;
        toucher_pc = word.read_pc;
      } else if (between(word.write_interval) && word.writer != self && (word.write_bytes & touched)) {
        touched_as = "wrote";
        toucher = word.writer;
        toucher_pc = word.write_pc;
      }
      if (touched_as != nullptr && !worker.stats.copy_window_race) {
        CopyWindowRace race;
        race.source = source;
        race.group = thread.landing_copy_group;
        const dim3 grid = worker.job->config.grid;
        race.block_linear = static_cast<std::uint64_t>(worker.running_block);
        race.grid_blocks = static_cast<std::uint64_t>(grid.x) * grid.y * grid.z;
        std::tie(race.array, race.word) = shared_array_word(shared, word_address);
        race.message = "a race on shared memory: " + thread_name(worker, self) + "'s cp.async into " +
                        describe_shared_address(shared, word_address, 4, pc) + ", issued at " + line_of(pc) +
                        ", was in flight until that thread's wait, and " + thread_name(worker, toucher) + " " + touched_as +
                        " that word at " + line_of(toucher_pc) + " in between, after a __syncthreads() that came "
                        "after the issue. On a GPU a copy lands at any moment between its issue and its wait, so "
                        "that access may meet the old value or the new one. A buffer is refilled only after the "
                        "barrier that ends everyone's reads of it, and read only after the barrier that follows "
                        "everyone's wait for its copies.";
        worker.stats.copy_window_race = std::move(race);
      }
    }
    // A block-scoped cuda::pipeline's consumer_wait() orders what each thread did before
    // its producer_commit() of the batches waited for, and nothing after: a plain store
    // (not a copy, which lands when its batch does) made once its writer had committed
    // every batch this thread has waited for, with no __syncthreads() since, races with
    // this access however the intervals fell.
    if (other_did == nullptr && word.write_interval != interval && word.write_interval >= shared.barrier_interval &&
        word.writer != self && word.write_source == nullptr && (word.write_bytes & touched) &&
        thread.pipeline_waits > 0 &&
        word.writer_pipeline_commits >= thread.pipeline_waits) {
      conflict = {"a race on shared memory: this thread " + std::string(write ? "writes " : "reads ") +
                      describe_shared_address(shared, word_address, 4, pc) + ", which " +
                      thread_name(worker, word.writer) + " wrote at " + line_of(word.write_pc) + " after its producer_commit() (" +
                      std::to_string(word.writer_pipeline_commits) + " of them by then), with no __syncthreads() since; "
                      "this thread has passed " + std::to_string(thread.pipeline_waits) +
                      " consumer_wait() (one per batch). A block-scoped cuda::pipeline's "
                      "consumer_wait() orders only what each thread did before its producer_commit() of the batches "
                      "waited for: on a GPU this store may not be visible yet. Make the store before that "
                      "producer_commit(), or put a __syncthreads() between the store and the other threads' "
                      "accesses.",
                  ErrorKind::after_the_commit, fault_of(thread, word_address, write, bytes)};
      return false;
    }
    if (other_did != nullptr) {
      const std::string what = describe_shared_address(shared, word_address, 4, pc);
      const bool other_landed = other_did[0] == 'w' && word.write_landing;
      if (landing || other_landed) {
        // A copy landed (at its thread's wait) in the same barrier interval as another
        // thread's access: usually a wait placed after the barrier instead of before.
        const std::string copier = landing ? "this thread" : thread_name(worker, other);
        const std::string toucher = landing ? thread_name(worker, other) : "this thread";
        const std::string toucher_did =
            landing ? std::string(other_did) + " " + what + " at " + line_of(other_pc)
                    : std::string(write ? "writes " : "reads ") + what;
        conflict = {"a race on shared memory: " + copier + "'s cp.async, issued at " +
                        line_of(landing ? pc : other_pc) +
                        ", lands only when that thread waits for it, and its wait came after the "
                        "last __syncthreads(); " + toucher + " " + toucher_did +
                        " in the same stretch between barriers. Every thread must wait for its "
                        "copies before the __syncthreads() that lets the others read them.",
                    ErrorKind::shared_race, std::nullopt};
        // The evidence of the copying thread's waits. A copy landing now has no group at hand:
        // its thread's commits stand for it, and the readings of the group skip a landed copy.
        const ThreadState& writer = landing ? thread : *worker.threads[other];
        const ThreadState& reader = landing ? *worker.threads[other] : thread;
        RacingCopy copy{{writer.index.x, writer.index.y, writer.index.z}, landing ? thread.commits : word.writer_commits,
                        reader.commits, writer.idle_wait, writer.commits_at_idle_wait, true};
        conflict.fault = fault_of(thread, word_address, write, bytes);
        conflict.fault->racing_copy = copy;
        return false;
      }
      if (write && other_did[0] == 'w') {
        // The evidence of which index went wrong: the element each write brought.
        OverlappingWrite overlap;
        const uint3 first = worker.threads[other]->index;
        overlap.first_thread = {first.x, first.y, first.z};
        overlap.first_source = word.write_source;
        overlap.source = word_source(source, offset, index);
        overlap.first_earlier_accesses = word.writer_accesses;
        std::tie(overlap.array, overlap.word) = shared_array_word(shared, word_address);
        conflict = {write_overlap_message(worker, thread, other, what, pc, other_pc),
                    ErrorKind::shared_write_overlap, fault_of(thread, word_address, true, bytes)};
        conflict.fault->overlap = overlap;
        return false;
      }
      if (const ThreadState& other_thread = *worker.threads[other]; skipped_the_barrier(thread, other_thread, pc)) {
        conflict = {std::string("threads at different __syncthreads(): this thread ") + (write ? "writes " : "reads ") +
                        what + ", which " + thread_name(worker, other) + " " + other_did + " at " + line_of(other_pc) +
                        "; that thread now waits at the __syncthreads() at " + project_relative(other_thread.barrier_file) + ":" +
                        std::to_string(other_thread.barrier_line) + ", while this thread is past that line without "
                        "ever having waited there: the barrier sits inside a condition (an if, or a loop that runs "
                        "a different number of times) that this thread skipped. Every thread of a block must reach "
                        "the same __syncthreads().",
                    ErrorKind::barrier, std::nullopt};
        return false;
      }
      // A cp.async and a read: in which commit group the copy was, against the groups the
      // reader had committed (its current count, when the read came first: no fewer than
      // at its read).
      std::optional<Fault> fault;
      std::string ahead;
      const bool copy_read_after = !write && other_did[0] == 'w' && word.write_source != nullptr;
      const bool read_copied_after = write && source != nullptr && other_did[0] == 'r';
      if (copy_read_after || read_copied_after) {
        const ThreadState& writer = copy_read_after ? *worker.threads[other] : thread;
        const unsigned long long group = copy_read_after ? word.writer_commits : thread.commits;
        const unsigned long long reader_commits = copy_read_after ? thread.commits : worker.threads[other]->commits;
        fault = fault_of(thread, word_address, write, bytes);
        fault->racing_copy = RacingCopy{{writer.index.x, writer.index.y, writer.index.z}, group, reader_commits,
                                        writer.idle_wait, writer.commits_at_idle_wait};
        if (reader_commits > 0 && group >= reader_commits) {
          ahead = " That copy belongs to the commit group " + std::to_string(group + 1) + " of " +
                  (copy_read_after ? thread_name(worker, other) : std::string("this thread")) +
                  ", while the reading thread had committed " + std::to_string(reader_commits) +
                  ": the copying thread was already in a later iteration, refilling what the other still reads.";
        }
      }
      conflict = {std::string("a race on shared memory: this thread ") +
             (write ? "writes " : "reads ") + what + ", which " + thread_name(worker, other) +
             " " + other_did + " at " + line_of(other_pc) +
             " with no __syncthreads() between the two accesses. On a GPU both threads run at "
             "once, and the " +
             (write ? "other thread's access may come before or after this write"
                    : "read may see the value before or after the write") +
             ": a barrier must separate them." + ahead + bulk_copy_race_note(worker, other_pc),
                  ErrorKind::shared_race, fault};
      return false;
    }
    if (!write && word.write_source != nullptr && !worker.stats.in_flight_read) {
      note_in_flight_read(worker, thread, word, histories == &shared.static_history, index, pc);
    }
    // A load of a word this block never wrote: the evidence of a gap in its copies.
    if (!write && word.write_interval < shared.block_first_interval) {
      note_unfilled_read(thread, histories == &shared.static_history, index, bytes, pc);
    }
    if (worker.release.on) {
      const bool in_static = histories == &shared.static_history;
      if (write) {
        forget_reads_for_release(worker, in_static, index);
      } else {
        note_read_for_release(worker, in_static, index, self, pc);
      }
    }
    if (write) {
      const bool same_writer = word.write_interval == interval && word.writer == self;
      word.write_bytes = same_writer ? static_cast<std::uint8_t>(word.write_bytes | touched) : touched;
      word.write_interval = interval;
      word.write_landing = landing;
      word.writer = self;
      word.writer_syncs = syncs;
      word.write_pc = pc;
      // A copy landing at its wait writes the word again: its evidence stays its issue's.
      const std::byte* brought = word_source(source, offset, index);
      if (!same_writer || brought == nullptr || brought != word.write_source) {
        word.writer_accesses = static_cast<std::uint32_t>(
            std::min<unsigned long long>(thread.global_accesses, UINT32_MAX));
        word.writer_commits = thread.commits;
        word.writer_waits = thread.waits;
      }
      word.writer_pipeline_commits = thread.pipeline_commits;
      word.write_source = brought;
    } else if (word.read_interval != interval) {
      word.read_interval = interval;
      word.reader = self;
      word.reader_syncs = syncs;
      word.read_pc = pc;
      word.read_bytes = touched;
      word.has_other_reader = false;
    } else if (word.reader != self) {
      word.other_read_bytes =
          word.has_other_reader && word.other_reader == self
              ? static_cast<std::uint8_t>(word.other_read_bytes | touched)
              : touched;
      word.has_other_reader = true;
      word.other_reader = self;
      word.other_reader_syncs = syncs;
      word.other_read_pc = pc;
    } else {
      word.reader_syncs = syncs;  // the latest read of this thread is what a write must follow
      word.read_pc = pc;
      word.read_bytes = static_cast<std::uint8_t>(word.read_bytes | touched);
    }
  }
  return true;
}

}  // namespace wb::sim
