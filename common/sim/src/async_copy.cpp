// cp.async in the simulator: copy late, poison early.
//
// At issue the copy is checked (size, alignment, address spaces), its destination is
// filled with the in_flight poison and the copy is queued on its thread. A commit
// closes the thread's open group; a wait performs every committed group but the newest
// N. So a read of the destination before the wait sees poison, every time, where a GPU
// would return the old or the new data depending on timing.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <tuple>

#include "wb/poison.hpp"
#include "worker.hpp"

namespace wb::sim {

BadSource explain_bad_source(const void* source, std::size_t bytes) {
  const Allocation below = device_allocation_below(source);
  const auto* begin = static_cast<const std::byte*>(source);
  const bool in_guard = below.begin != nullptr && begin < end_of_guard(below);
  // Just below an allocation (within a guard's length, and nearer its start than the end of
  // the allocation below): an index below that array's start.
  if (const Allocation next = device_allocation_above(source);
      next.begin != nullptr && static_cast<std::size_t>(next.begin - begin) <= device_allocation_guard(0) &&
      (!in_guard || next.begin - begin <= begin - (below.begin + below.bytes))) {
    const auto offset = begin - next.begin;  // negative
    return {"the global source " + hex(source) + " reads bytes [" + std::to_string(offset) + ", " +
                std::to_string(offset + static_cast<long long>(bytes)) + ") of a device allocation of " +
                std::to_string(next.bytes) + " bytes: before its start (element " +
                std::to_string((offset - 3) / 4) + " of " + std::to_string(next.bytes / 4) + " floats)",
            ErrorKind::source_out_of_bounds};
  }
  if (in_guard) {
    const auto offset = begin - below.begin;
    return {"the global source " + hex(source) + " reads bytes [" + std::to_string(offset) +
                ", " + std::to_string(offset + bytes) + ") of a device allocation of " +
                std::to_string(below.bytes) + " bytes: past its end (element " +
                std::to_string(offset / 4) + " of " + std::to_string(below.bytes / 4) +
                " floats)",
            ErrorKind::source_out_of_bounds};
  }
  if (current_thread() != nullptr && current_thread()->worker->stacks != nullptr &&
      current_thread()->worker->stacks->contains(source)) {
    return {"the global source " + hex(source) +
                " is a local variable of the kernel, not device memory",
            ErrorKind::source_not_device};
  }
  return {"the global source " + hex(source) +
              " is not in any device allocation (a host pointer, or an index far out of "
              "range?)",
          ErrorKind::source_not_device};
}

void perform_copies(AsyncCopyQueue& queue, std::size_t up_to) {
  for (; queue.performed < up_to; ++queue.performed) {
    const PendingCopy& copy = queue.copies[queue.performed];
    // The copy lands now: a write of its issuer in this barrier interval.
    if (ThreadState* thread = running_thread; thread != nullptr) {
      thread->landing_copy_group = static_cast<std::uint64_t>(
          std::upper_bound(queue.group_ends.begin(), queue.group_ends.end(), queue.performed) - queue.group_ends.begin());
      SharedConflict conflict;
      if (!check_shared_race(*thread, copy.destination, static_cast<std::size_t>(copy.copy_bytes),
                             true, copy.pc, conflict, copy.source, copy.interval)) {
        kernel_fail_conflict(source_line_of(copy.pc), "", conflict);
      }
    }
    std::memcpy(copy.destination, copy.source, static_cast<std::size_t>(copy.source_bytes));
    std::memset(copy.destination + copy.source_bytes, 0,
                static_cast<std::size_t>(copy.copy_bytes - copy.source_bytes));
  }
}

// A thread that issues this many copies without waiting for them is in a loop that
// does not end (or waits far too rarely): the launch fails instead of filling memory.
constexpr std::size_t kMaxCopiesInFlight = 4096;

PendingCopy issue_copy(ThreadState& thread, void* shared_dst, const void* global_src, int copy_bytes,
                       int src_bytes, CacheLevel level, const char* file, int line, const void* pc) {
  Worker& worker = *thread.worker;
  const std::string what = "cp.async of " + std::to_string(copy_bytes) + " bytes: ";
  if (copy_bytes != 4 && copy_bytes != 8 && copy_bytes != 16) {
    kernel_fail(file, line, what + "a copy is 4, 8 or 16 bytes");
  }
  if (level == CacheLevel::global && copy_bytes != 16) {
    kernel_fail(file, line, what + "cp.async.cg copies 16 bytes only; use .ca for 4 or 8");
  }
  if (src_bytes < 0 || src_bytes > copy_bytes) {
    kernel_fail(file, line, what + "the source size " + std::to_string(src_bytes) +
                                " must lie between 0 and the copy size");
  }
  const auto copy_size = static_cast<std::size_t>(copy_bytes);
  if (const std::string bad = explain_bad_destination(worker, shared_dst, copy_size, pc);
      !bad.empty()) {
    // The element the copy was for, its source, is the evidence of which index went wrong.
    const ErrorKind kind = bad_destination_kind(shared_dst, copy_size);
    if (src_bytes == 0) kernel_fail(file, line, what + bad, kind);
    try {
      kernel_fail_access(file, line, what + bad, kind, global_src, false,
                         static_cast<unsigned>(copy_bytes));
    } catch (KernelError& error) {
      // Past the end of an array: where the copy went in it, beside the element it was for.
      if (const auto past = word_past_an_array(worker.shared, shared_dst, pc); past && error.fault()) {
        Fault fault = *error.fault();
        fault.destination = MisalignedDestination{global_src, past->first, past->second};
        error.set_fault(fault);
      }
      throw;
    }
  }
  const auto dst_address = reinterpret_cast<std::uintptr_t>(shared_dst);
  const auto src_address = reinterpret_cast<std::uintptr_t>(global_src);
  if (dst_address % copy_size != 0) {
    try {
      kernel_fail_access(file, line,
                what + "misaligned address: the shared destination " + hex(shared_dst) + " is not " +
                    std::to_string(copy_bytes) + "-byte aligned (address % " + std::to_string(copy_bytes) +
                    " == " + std::to_string(dst_address % copy_size) + "; it is " +
                    describe_shared_address(worker.shared, shared_dst, copy_size, pc) +
                    "). Both addresses of a cp.async must be multiples of its size: a vector's first "
                    "element a multiple of " + std::to_string(copy_bytes / 4) +
                    " floats from the start of its column, and in a padded tile every column starting "
                    "at a multiple of " + std::to_string(copy_bytes) +
                    " bytes, so the padding must be a multiple of " + std::to_string(copy_bytes / 4) +
                    " floats",
                ErrorKind::misaligned, shared_dst, true, static_cast<unsigned>(copy_bytes));
    } catch (KernelError& error) {
      // The element it copied and where it went: the evidence of which index is wrong.
      Fault fault = *error.fault();
      MisalignedDestination destination;
      destination.source = global_src;
      std::tie(destination.array, destination.word) = shared_array_word(worker.shared, shared_dst);
      fault.destination = destination;
      error.set_fault(fault);
      throw;
    }
  }
  if (src_bytes > 0 && src_address % copy_size != 0) {
    kernel_fail_access(file, line,
                what + "misaligned address: the global source " + hex(global_src) + " is not " +
                    std::to_string(copy_bytes) + "-byte aligned (address % " + std::to_string(copy_bytes) +
                    " == " + std::to_string(src_address % copy_size) +
                    worker.job->allocations.describe_offset(global_src) +
                    "): a vector's first element must lie a multiple of " + std::to_string(copy_bytes / 4) +
                    " floats from an aligned start",
                ErrorKind::misaligned, global_src, false, static_cast<unsigned>(copy_bytes));
  }
  if (src_bytes > 0) {
    // A copy that reads anything addresses all of its copy size: a source size below it
    // zero-fills the destination, but compute-sanitizer still reports the whole vector
    // read past the end of an allocation, and so does the simulator. A source size of
    // 0 reads nothing and needs no valid source.
    const Allocation* source = worker.job->allocations.around(global_src);
    const auto* source_begin = static_cast<const std::byte*>(global_src);
    if (source == nullptr || source_begin + src_bytes > source->begin + source->bytes) {
      const BadSource bad = explain_bad_source(global_src, src_bytes);
      kernel_fail_access(file, line, what + bad.message, bad.kind, global_src, false, static_cast<unsigned>(copy_bytes));
    }
    if (source_begin + copy_bytes > source->begin + source->bytes) {
      const BadSource bad = explain_bad_source(global_src, copy_bytes);
      kernel_fail_access(file, line,
                  what + bad.message + ". Its source size is " + std::to_string(src_bytes) +
                      " bytes, all inside the array, but the copy still addresses all " +
                      std::to_string(copy_bytes) +
                      " (compute-sanitizer reports it the same way): copy an array's last, "
                      "partial vector with narrower copies",
                  bad.kind, global_src, false, static_cast<unsigned>(copy_bytes));
    }
  }
  auto* destination = static_cast<std::byte*>(shared_dst);
  if (worker.shared.in_static(destination)) {
    touch_static_shared(worker.shared, destination, copy_size);  // explain_bad_destination said: shared
  }
  if (SharedConflict conflict; !check_shared_race(thread, destination, copy_size, true, pc, conflict,
                                                   static_cast<const std::byte*>(global_src))) {
    kernel_fail_conflict(std::string(file) + ":" + std::to_string(line), what, conflict);
  }
  ++thread.global_accesses;  // after the race check, whose evidence counts the accesses before this one
  ++thread.cp_async_issued;
  if (src_bytes > 0) {
    record_access(thread, src_address, copy_size, AccessKind::cp_async_read, pc);
  }
  record_access(thread, dst_address, copy_size, AccessKind::cp_async_write, pc);
  poison::fill(destination, copy_size, poison::in_flight);

  LaunchStats& stats = worker.stats;
  (copy_bytes == 4 ? stats.cp_async_4 : copy_bytes == 8 ? stats.cp_async_8 : stats.cp_async_16)++;
  stats.cp_async_bytes += static_cast<std::uint64_t>(src_bytes);
  return PendingCopy{destination, static_cast<const std::byte*>(global_src), copy_bytes, src_bytes, pc,
                     worker.shared.interval};
}

void check_copies_in_flight(std::size_t in_flight, const std::string& what, const char* file, int line) {
  if (in_flight >= kMaxCopiesInFlight) {
    kernel_fail(file, line,
                what + "this thread has issued " + std::to_string(in_flight) +
                    " copies that it has not waited for, this line the last of them. Does "
                    "a loop never end (`row + 32` where `row += 32` was meant?), or is the "
                    "wait missing inside a long loop?",
                ErrorKind::too_many_copies);
  }
}

void cp_async(void* shared_dst, const void* global_src, int copy_bytes, int src_bytes,
              CacheLevel level, const char* file, int line, bool sized) {
  ThreadState& thread = require_thread("cp.async", file, line);
  note_call_site(thread, file, line);
  AsyncCopyQueue& queue = thread.copies;
  check_copies_in_flight(queue.not_performed(), "cp.async of " + std::to_string(copy_bytes) + " bytes: ",
                         file, line);
  const void* pc = __builtin_return_address(0);  // in the kernel: names its line and arrays
  queue.copies.push_back(issue_copy(thread, shared_dst, global_src, copy_bytes, src_bytes, level, file, line, pc));
  thread.worker->stats.cp_async_sized += sized ? 1 : 0;
  LaunchStats& stats = thread.worker->stats;
  stats.cp_async_zero_filled += src_bytes == 0 ? 1 : 0;
  if (src_bytes % 2 != 0) {  // no element of the workbook's (float, bf16) is an odd number of bytes
    ++stats.cp_async_odd_source;
    const auto block = static_cast<std::uint64_t>(thread.worker->running_block);
    if (!stats.odd_source_copy || stats.odd_source_copy->block_linear > block) {
      stats.odd_source_copy = OddSourceCopy{block, src_bytes, copy_bytes, project_relative(file) + ":" + std::to_string(line)};
    }
  }
}

void cp_async_commit(const char* file, int line) {
  ThreadState& thread = require_thread("cp.async.commit_group", file, line);
  note_call_site(thread, file, line);
  AsyncCopyQueue& queue = thread.copies;
  if (queue.pending_groups() >= kMaxCopiesInFlight) {
    kernel_fail(file, line,
                "cp.async.commit_group: this thread has committed " +
                    std::to_string(queue.pending_groups()) +
                    " groups that it has not waited for. Does a loop never end?",
                ErrorKind::too_many_copies);
  }
  queue.group_ends.push_back(queue.copies.size());
  thread.group_landing_steps.push_back(timeline_landing_step(thread));
  timeline_note(thread, trace::Event::commit);
  ++thread.commits;
  ++thread.worker->stats.commit_groups;
}

void cp_async_wait(int pending_groups, const char* file, int line) {
  ThreadState& thread = require_thread("cp.async.wait_group", file, line);
  note_call_site(thread, file, line);
  if (pending_groups < 0) {
    kernel_fail(file, line, "cp.async.wait_group takes a count of groups >= 0");
  }
  AsyncCopyQueue& queue = thread.copies;
  LaunchStats& stats = thread.worker->stats;
  timeline_note(thread, trace::Event::wait_begins, pending_groups);
  ++stats.waits;
  ++thread.waits;
  thread.commits_at_wait_before = thread.commits_at_last_wait;
  thread.commits_at_last_wait = thread.commits;
  thread.last_wait = pending_groups;
  stats.copies_in_flight_at_waits += queue.not_performed();
  if (queue.uncommitted() > 0) {
    ++stats.waits_with_uncommitted_copies;
    stats.warnings[
        "waits with cp.async copies issued but not committed (wait_group only waits for "
        "committed groups: is a cp_async_commit missing before the wait?)"]++;
  }
  // Only a wait that leaves copies in flight: one on empty groups alone (a thread with
  // nothing to copy in an edge tile) waited for nothing because nothing was there.
  if (queue.not_performed() > 0 && queue.pending_groups() > 0 &&
      queue.pending_groups() <= static_cast<std::size_t>(pending_groups)) {
    if (thread.idle_wait < 0) {
      thread.idle_wait = pending_groups;
      thread.commits_at_idle_wait = thread.commits;
    }
    stats.warnings[
        "waits that waited for nothing: cp_async_wait<N> lets the newest N groups stay in "
        "flight, and these threads had N or fewer committed, with copies among them, so the "
        "wait landed none of them"]++;
  }
  while (queue.pending_groups() > static_cast<std::size_t>(pending_groups)) {
    perform_copies(queue, queue.group_ends[queue.first_pending_group]);
    ++queue.first_pending_group;
    timeline_land_oldest_group(thread);
  }
  timeline_note(thread, trace::Event::wait_ends);
  stats.copies_in_flight_after_waits += queue.not_performed();
  if (queue.not_performed() == 0) queue.clear();
}

void cp_async_wait_all(const char* file, int line) {
  cp_async_commit(file, line);
  cp_async_wait(0, file, line);
}

}  // namespace wb::sim
