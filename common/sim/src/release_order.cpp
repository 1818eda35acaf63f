// Release order: which reads of shared memory a bulk or tensor copy may overwrite.
//
// The race check's barrier intervals order everything before an mbarrier's phase with
// everything after it, for every thread, which is right for a block that waits as a whole
// (chapter 7's copies, each followed by a __syncthreads() before its refill) and far too
// generous for a ring of stages: there a stage's refill is ordered after a warp's reads
// only through that warp's arrival on the stage's empty barrier and the producer's wait
// for that phase, and a refill without that wait, or an arrival before the reads, or
// a count that lets a phase complete without every reader, races on a GPU while the
// intervals call it ordered.
//
// So, in a block that initialises an mbarrier, each thread carries an epoch (its arrivals
// on mbarriers, __syncthreads() and __syncwarp() passed) and a vector of what it knows of
// every thread's epochs, as vector clocks do:
//   - an arrival releases the thread's past: the barrier's phase gathers the thread's
//     epoch + 1 and everything the thread knew; the thread's epoch moves on;
//   - a wait that returns on a completed phase acquires what that phase gathered;
//   - a __syncthreads() orders every thread's past before every thread's future (a floor
//     under every vector); a __syncwarp() does so for its lanes.
// A read made at epoch e by thread r is ordered before thread u's copy when u knows r's
// epoch past e. Each word keeps its two latest readers since its last write, so that a
// copy into a word still read by a thread whose read was not released to the issuer fails
// at the copy, with both threads and the read's line.
#include "worker.hpp"

namespace wb::sim {
namespace {

ReleaseOrder::Reads* reads_of(ReleaseOrder& order, bool in_static, std::size_t word) {
  std::vector<ReleaseOrder::Reads>& reads = in_static ? order.static_reads : order.dynamic_reads;
  if (word >= reads.size()) reads.resize(word + 1);
  return &reads[word];
}

std::uint32_t known_of(const ReleaseOrder& order, unsigned knower, unsigned thread) {
  return std::max(order.known[static_cast<std::size_t>(knower) * order.threads + thread], order.floor[thread]);
}

}  // namespace

void begin_block_release_order(Worker& worker) {
  ReleaseOrder& order = worker.release;
  order.on = false;
  order.static_reads.clear();
  order.dynamic_reads.clear();
}

void start_release_order(Worker& worker, unsigned threads) {
  ReleaseOrder& order = worker.release;
  if (order.on) return;
  order.on = true;
  order.threads = threads;
  order.epoch.assign(threads, 0);
  order.floor.assign(threads, 0);
  order.known.assign(static_cast<std::size_t>(threads) * threads, 0);
  order.arrival_epoch.assign(threads, 0);
}

void release_on_arrive(Worker& worker, unsigned thread, BlockMbarrier& barrier) {
  ReleaseOrder& order = worker.release;
  if (!order.on) return;
  if (barrier.released.size() != order.threads) barrier.released.assign(order.threads, 0);
  const std::uint32_t* known = &order.known[static_cast<std::size_t>(thread) * order.threads];
  for (unsigned t = 0; t < order.threads; ++t) {
    barrier.released[t] = std::max({barrier.released[t], known[t], order.floor[t]});
  }
  ++order.epoch[thread];
  barrier.released[thread] = std::max(barrier.released[thread], order.epoch[thread]);
  order.arrival_epoch[thread] = order.epoch[thread];
  if (barrier.arrivers.size() != order.threads) barrier.arrivers.assign(order.threads, false);
  if (!barrier.arrivers[thread]) {
    barrier.arrivers[thread] = true;
    ++barrier.arriver_count;
  }
}

void release_on_phase_completed(Worker& worker, BlockMbarrier& barrier) {
  if (!worker.release.on) return;
  barrier.completed_released = barrier.released;
}

void release_on_wait(Worker& worker, unsigned thread, const BlockMbarrier& barrier) {
  ReleaseOrder& order = worker.release;
  if (!order.on || barrier.completed_released.size() != order.threads) return;
  std::uint32_t* known = &order.known[static_cast<std::size_t>(thread) * order.threads];
  for (unsigned t = 0; t < order.threads; ++t) known[t] = std::max(known[t], barrier.completed_released[t]);
}

void release_on_syncthreads(Worker& worker) {
  ReleaseOrder& order = worker.release;
  if (!order.on) return;
  for (unsigned t = 0; t < order.threads; ++t) order.floor[t] = ++order.epoch[t];
}

void release_on_syncwarp(Worker& worker, unsigned warp, std::uint32_t mask) {
  ReleaseOrder& order = worker.release;
  if (!order.on) return;
  const unsigned first = 32 * warp;
  for (unsigned lane = 0; lane < 32 && first + lane < order.threads; ++lane) {
    if (mask >> lane & 1u) ++order.epoch[first + lane];
  }
  for (unsigned lane = 0; lane < 32 && first + lane < order.threads; ++lane) {
    if ((mask >> lane & 1u) == 0) continue;
    std::uint32_t* known = &order.known[static_cast<std::size_t>(first + lane) * order.threads];
    for (unsigned other = 0; other < 32 && first + other < order.threads; ++other) {
      if (mask >> other & 1u) known[first + other] = std::max(known[first + other], order.epoch[first + other]);
    }
  }
}

void note_read_for_release(Worker& worker, bool in_static, std::size_t word, unsigned reader, const void* pc) {
  ReleaseOrder& order = worker.release;
  ReleaseOrder::Reads& reads = *reads_of(order, in_static, word);
  const std::uint32_t epoch = order.epoch[reader];
  for (int slot = 0; slot < reads.count; ++slot) {
    if (reads.reader[slot] == reader) {
      reads.epoch[slot] = epoch;
      reads.pc[slot] = pc;
      return;
    }
  }
  reads.reader[1] = reads.reader[0];
  reads.epoch[1] = reads.epoch[0];
  reads.pc[1] = reads.pc[0];
  reads.reader[0] = static_cast<std::uint16_t>(reader);
  reads.epoch[0] = epoch;
  reads.pc[0] = pc;
  reads.count = static_cast<std::uint8_t>(std::min(reads.count + 1, 2));
}

void forget_reads_for_release(Worker& worker, bool in_static, std::size_t word) {
  std::vector<ReleaseOrder::Reads>& reads = in_static ? worker.release.static_reads : worker.release.dynamic_reads;
  if (word < reads.size()) reads[word].count = 0;
}

std::optional<UnreleasedRead> unreleased_read(const ThreadState& issuer, const std::byte* destination,
                                              std::size_t bytes) {
  const Worker& worker = *issuer.worker;
  const ReleaseOrder& order = worker.release;
  if (!order.on) return std::nullopt;
  const SharedMemory& shared = worker.shared;
  const bool in_static = shared.in_static(destination);
  if (!in_static && !shared.in_dynamic(destination, 1)) return std::nullopt;
  const std::byte* begin = in_static ? shared.static_begin : shared.dynamic_begin();
  const std::vector<ReleaseOrder::Reads>& reads = in_static ? order.static_reads : order.dynamic_reads;
  const auto offset = static_cast<std::size_t>(destination - begin);
  for (std::size_t word = offset / 4; word <= (offset + bytes - 1) / 4 && word < reads.size(); ++word) {
    const ReleaseOrder::Reads& read = reads[word];
    for (int slot = 0; slot < read.count; ++slot) {
      const unsigned reader = read.reader[slot];
      if (reader == issuer.linear_index) continue;
      if (known_of(order, issuer.linear_index, reader) > read.epoch[slot]) continue;
      UnreleasedRead found;
      found.reader = reader;
      found.pc = read.pc[slot];
      found.address = begin + 4 * word;
      // Released later, but not to the issuer (its arrivals since the read, if any, did not
      // reach it), or released only before the read (what the issuer knows is the epoch of
      // the read itself: the reader's last arrival the issuer waited for came right before it).
      found.arrived_since = order.arrival_epoch[reader] > read.epoch[slot];
      found.released_just_before = known_of(order, issuer.linear_index, reader) == read.epoch[slot] &&
                                   read.epoch[slot] > order.floor[reader];
      return found;
    }
  }
  return std::nullopt;
}

}  // namespace wb::sim
