// The simulator's internal state: one Worker per OS thread of the pool, one
// ThreadState per CUDA thread of the block that worker is running.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "fiber.hpp"
#include "wb/sim/simulator.hpp"

namespace wb::sim {

struct PendingCopy {
  std::byte* destination;
  const std::byte* source;
  int copy_bytes;
  int source_bytes;  // the rest of the destination is zero-filled
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

enum class ThreadStatus { ready, at_barrier, done, failed };

struct Worker;

struct ThreadState {
  Worker* worker = nullptr;
  unsigned linear_index = 0;
  uint3 index{};
  ThreadStatus status = ThreadStatus::ready;
  const char* barrier_file = nullptr;
  int barrier_line = 0;
  std::exception_ptr error;
  AsyncCopyQueue copies;
  std::unique_ptr<Fiber> fiber;
};

// What a worker needs of the launch in progress.
struct LaunchJob {
  LaunchConfig config;
  void (*invoke)(const void*) = nullptr;
  const void* closure = nullptr;
  Schedule schedule;
};

struct Worker {
  explicit Worker(std::size_t max_threads, std::size_t stack_bytes)
      : stacks(max_threads, stack_bytes) {}

  StackSlab stacks;
  std::vector<std::unique_ptr<ThreadState>> threads;
  const LaunchJob* job = nullptr;
  LaunchStats stats;
  std::vector<std::byte> dynamic_shared;
  // The cp.async destinations of the running block, refilled with stale poison at the
  // block's end so that the next block cannot read them by accident.
  std::vector<PendingCopy> block_destinations;
  bool block_aborting = false;
};

// The CUDA thread running on this OS thread right now; nullptr outside a kernel.
ThreadState* current_thread();

// Raises a KernelError that names the source line, the block and the thread.
[[noreturn]] void kernel_fail(const char* file, int line, const std::string& what);

// "(x,y,z)"
std::string format_index(const uint3& index);

// The device allocation starting at or below `pointer`, whatever its size.
Allocation device_allocation_below(const void* pointer);

// Bytes after the end of every device allocation that belong to no other object, so
// that an address up to this far past an allocation's end is an overrun of it, never a
// host variable that the heap happened to place there.
inline constexpr std::size_t kDeviceAllocationGap = 4096;

// Performs the first `count` not-yet-performed copies of the queue, in order.
void perform_copies(AsyncCopyQueue& queue, std::size_t up_to);

}  // namespace wb::sim
