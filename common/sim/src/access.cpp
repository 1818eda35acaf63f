// Every memory access of a kernel, seen by the simulator.
//
// The kernel files of the sim backend are compiled with GCC's thread-sanitizer
// instrumentation (-fsanitize=thread at compile time only: see wb_instrument_kernels in
// cmake/WbTargets.cmake), which makes the compiler call __tsan_read4(address) before
// every 4-byte load, __tsan_write16 before every 16-byte store, and so on. The
// sanitizer's own runtime is never linked: this file defines those entry points, and
// they feed the simulator instead. So a learner writes plain CUDA (`smem_tile[i] = x`)
// and the simulator still sees each access, with the code address it came from.
//
// What it does with them: the first access of a block to a word of static shared
// memory poisons the word (every block starts with undefined shared memory, as on a
// GPU); an access outside its __shared__ array (running into the next one, or into what
// lies around them), around the dynamic shared memory (its guard bands and the reserved
// reach beyond them), or just past the end of a device allocation, fails the launch
// naming the thread and the source line; every
// shared and global access is recorded for the warp-request counters (requests.cpp),
// and every shared one checked for races with other threads (race_check.cpp).
// Accesses from host code of the same files (no CUDA thread running) return at once.
#include <cstddef>
#include <cstdint>

#include "worker.hpp"

namespace wb::sim {
namespace {

// "a load of 4 bytes", "a store of 16 bytes": an access, as its messages name it.
std::string access_text(bool write, std::size_t bytes) {
  return std::string(write ? "a store" : "a load") + " of " + std::to_string(bytes) + " bytes";
}

// A plain load of global memory, made while the thread's own copies travel (issued, not
// yet landed by a wait) or not: the window the step gives a load to overlap the copies.
void count_global_load(ThreadState& thread, const void* pc) {
  LaunchStats& stats = thread.worker->stats;
  ++stats.global_loads;
  if (thread.copies.not_performed() > 0) {
    ++stats.global_loads_while_copies_travel;
  } else {
    ++stats.global_loads_without_copies_by_site[pc];
  }
}

// How far below the static shared memory an access is taken for a negative index into it.
constexpr std::size_t kSharedReachBelow = 4096;

// An access outside the block's shared memory: a local variable, device memory, or a
// global variable of the program. True for device memory.
[[gnu::noinline]] bool check_other_access(ThreadState& thread, const void* address,
                                          std::size_t bytes, bool write, const void* pc) {
  Worker& worker = *thread.worker;
  if (worker.stacks != nullptr && worker.stacks->contains(address)) return false;
  const auto* begin = static_cast<const std::byte*>(address);
  if (const Allocation* cached = worker.last_allocation;
      cached != nullptr && begin >= cached->begin && begin + bytes <= cached->begin + cached->bytes) {
    ++thread.global_accesses;
    return true;
  }
  const std::string access = access_text(write, bytes);
  // The guard bands and the reach around the dynamic shared memory are the simulator's
  // own mapping, where nothing else lies: an access there is certainly an index out of
  // it, checked before it is made (it would fault past the guards).
  if (const std::string overrun =
          explain_dynamic_overrun(worker.shared, address, bytes, SharedMemory::kDynamicReach);
      !overrun.empty()) {
    fail_without_unwinding(source_line_of(pc), access + " covers " + overrun, ErrorKind::shared_out_of_bounds);
  }
  // Just before the static shared memory lies no variable a kernel reaches by name: an
  // index below a __shared__ array's start, checked before it is made (it may fault).
  if (const std::string before = explain_before_static(worker.shared, address, bytes, pc, kSharedReachBelow);
      !before.empty()) {
    fail_without_unwinding(source_line_of(pc), access + " " + before, ErrorKind::shared_out_of_bounds);
  }
  const Allocation* allocation = worker.job->allocations.around(address, /*with_guard=*/true);
  if (allocation != nullptr && begin + bytes <= allocation->begin + allocation->bytes) {
    worker.last_allocation = allocation;
    ++thread.global_accesses;
    return true;
  }
  // Just below an allocation (within a guard's length, and nearer its start than the end of
  // the allocation below, whose guard may run up to it): an index below that array's start.
  const Allocation* next = worker.job->allocations.above(address);
  const bool below_next =
      next != nullptr && static_cast<std::size_t>(next->begin - begin) <= device_allocation_guard(0) &&
      (allocation == nullptr || next->begin - begin <= begin - (allocation->begin + allocation->bytes));
  if (allocation == nullptr && !below_next) return false;  // a global variable of the program, or host memory
  if (below_next) {
    const auto offset = begin - next->begin;  // negative
    fail_without_unwinding(source_line_of(pc),
                   access + " at bytes [" + std::to_string(offset) + ", " +
                       std::to_string(offset + static_cast<long long>(bytes)) + ") of a device allocation of " +
                       std::to_string(next->bytes) + " bytes: before its start (element " +
                       std::to_string((offset - 3) / 4) + " of " + std::to_string(next->bytes / 4) +
                       " 4-byte elements)",
                   ErrorKind::global_out_of_bounds, address, write);
  }
  const auto offset = begin - allocation->begin;
  fail_without_unwinding(source_line_of(pc),
                 access + " at bytes [" + std::to_string(offset) + ", " +
                     std::to_string(offset + static_cast<long long>(bytes)) +
                     ") of a device allocation of " + std::to_string(allocation->bytes) +
                     " bytes: past its end (element " + std::to_string(offset / 4) + " of " +
                     std::to_string(allocation->bytes / 4) + " 4-byte elements)",
                 ErrorKind::global_out_of_bounds, address, write);
}

// An access past a __shared__ array (running into the next one, or past the last): fails
// with the evidence of how the index got there (wb::SharedOverrun), the word it reached
// and the thread's earlier words at the same instruction since its warp last synchronised.
[[noreturn, gnu::noinline]] void fail_shared_overrun(ThreadState& thread, const void* address, std::size_t bytes,
                                                     bool write, const void* pc, const std::string& message) {
  Fault fault = fault_here(address, write, static_cast<unsigned>(bytes));
  if (const auto past = word_past_an_array(thread.worker->shared, address, pc)) {
    SharedOverrun overrun{past->first, static_cast<long long>(past->second), {}};
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    const std::uint64_t site =
        AccessRecord::make(at, pc, bytes, write ? AccessKind::shared_store : AccessKind::shared_load).site();
    for (const AccessRecord& record : thread.accesses) {
      if (record.site() != site) continue;
      const auto distance = static_cast<long long>(record.address) - static_cast<long long>(at);
      if (distance % 4 == 0) overrun.earlier_words.push_back(overrun.word + distance / 4);
    }
    fault.shared_overrun = std::move(overrun);
  }
  fail_without_unwinding(source_line_of(pc), message, ErrorKind::shared_out_of_bounds, fault);
}

// An access to the block's shared memory: counted in warp requests and checked for
// races (atomics are neither).
void on_shared_access(ThreadState& thread, const void* address, std::size_t bytes, bool write,
                      const void* pc, bool atomic) {
  if (atomic) return;
  if (!write) {
    ++thread.shared_loads;
    note_shared_load(*thread.worker, pc);
  }
  if (!write && thread.released_file != nullptr) {
    const auto* first = static_cast<const std::byte*>(address);
    for (std::size_t offset = 0; offset < bytes; offset += 4) {
      thread.worker->reads_after_release.try_emplace(first + offset, Worker::ReadAfterRelease{
          thread.linear_index, pc, thread.released_file, thread.released_line});
    }
  }
  record_access(thread, reinterpret_cast<std::uintptr_t>(address), bytes,
                write ? AccessKind::shared_store : AccessKind::shared_load, pc);
  if (SharedConflict conflict;
      !check_shared_race(thread, static_cast<const std::byte*>(address), bytes, write, pc, conflict)) {
    if (conflict.fault) fail_without_unwinding(source_line_of(pc), conflict.message, conflict.kind, *conflict.fault);
    fail_without_unwinding(source_line_of(pc), conflict.message, conflict.kind);
  }
}

// Where a misaligned address lies, for its message: a shared array's element, or a
// device allocation's.
std::string describe_vector_address(const ThreadState& thread, const void* address, std::size_t bytes,
                                    const void* pc) {
  const SharedMemory& shared = thread.worker->shared;
  if (shared.in_static(address) || shared.in_dynamic(address, 1)) {
    return "; it is " + describe_shared_address(shared, address, bytes, pc);
  }
  return thread.worker->job->allocations.describe_offset(address);
}

// A load or store of 8 or 16 bytes (a float2, a float4) is one instruction on a GPU, which
// faults (cudaErrorMisalignedAddress) unless the address is a multiple of its width. The
// compiler calls the aligned entry points only where the type promises that alignment, so
// an address that breaks it is the kernel's, never the compiler's.
[[noreturn, gnu::noinline]] void fail_misaligned_vector(const ThreadState& thread, const void* address, std::size_t bytes,
                                                        bool write, const void* pc) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  const std::string width = std::to_string(bytes);
  // In a __shared__ array: where, for the graders' readings of the index that put it there.
  Fault fault = fault_here(address, write, static_cast<unsigned>(bytes));
  if (thread.worker->shared.in_static(address)) {
    const auto [array, word] = shared_array_word(thread.worker->shared, address);
    if (!array.empty()) {
      fault.misaligned_shared =
          MisalignedShared{array, static_cast<long long>(4 * word + at % 4)};
    }
  }
  fail_without_unwinding(
      source_line_of(pc),
      access_text(write, bytes) + " (a " + (bytes == 16 ? "float4" : "float2") +
          ", one instruction) at " + hex(address) + ", which is not " + width + "-byte aligned (address % " + width +
          " == " + std::to_string(at % bytes) + describe_vector_address(thread, address, bytes, pc) +
          "). A vector access needs an address that is a multiple of its width, as on a GPU, which stops the "
          "kernel with a misaligned address: is the vector's first element a multiple of " +
          std::to_string(bytes / 4) + " floats from an aligned start, and a padded row a multiple of " +
          std::to_string(bytes / 4) + " floats long?",
      ErrorKind::misaligned, fault);
}

inline void on_access(const void* address, std::size_t bytes, bool write, const void* pc,
                      bool atomic = false, bool aligned = false) {
  ThreadState* thread = running_thread;
  if (thread == nullptr) return;  // host code of a kernel file
  if (thread->pending_bounds) judge_pending_bounds(*thread, address, pc);
  ++thread->step;
  if (aligned && bytes >= 8 && reinterpret_cast<std::uintptr_t>(address) % bytes != 0) {
    fail_misaligned_vector(*thread, address, bytes, write, pc);
  }
  LastSeen& seen = thread->last_seen;
  seen.previous_access = seen.access;
  seen.access = {pc, address, static_cast<unsigned>(bytes), write};
  seen.access_is_latest = true;
  SharedMemory& shared = thread->worker->shared;
  if (shared.in_static(address)) {
    switch (touch_static_shared(shared, address, bytes)) {
      case StaticWord::foreign:
        if (const std::string foreign =
                foreign_array_access(shared, thread->worker->job->config.kernel, address, bytes, pc);
            !foreign.empty()) {
          fail_shared_overrun(*thread, address, bytes, write, pc, access_text(write, bytes) + " " + foreign);
        }
        [[fallthrough]];
      case StaticWord::shared:
        on_shared_access(*thread, address, bytes, write, pc, atomic);
        break;
      case StaticWord::built_in:
        break;
      case StaticWord::not_shared:
      case StaticWord::straddles:
        fail_shared_overrun(*thread, address, bytes, write, pc,
                            access_text(write, bytes) + " " + explain_static_overrun(shared, address, bytes, pc));
    }
  } else if (shared.in_dynamic(address, bytes)) {
    on_shared_access(*thread, address, bytes, write, pc, atomic);
  } else if (check_other_access(*thread, address, bytes, write, pc) && !atomic) {
    record_access(*thread, reinterpret_cast<std::uintptr_t>(address), bytes,
                  write ? AccessKind::global_store : AccessKind::global_load, pc);
    if (write) note_global_store(*thread->worker);
    if (!write) count_global_load(*thread, pc);
  }
}

}  // namespace
}  // namespace wb::sim

#define WB_RETURN_ADDRESS __builtin_return_address(0)

extern "C" {

void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}

#define WB_ACCESS_ENTRY(bytes)                                                      \
  void __tsan_read##bytes(void* address) {                                          \
    wb::sim::on_access(address, bytes, false, WB_RETURN_ADDRESS, false, true);      \
  }                                                                                 \
  void __tsan_write##bytes(void* address) {                                         \
    wb::sim::on_access(address, bytes, true, WB_RETURN_ADDRESS, false, true);       \
  }                                                                                 \
  void __tsan_unaligned_read##bytes(void* address) {                                \
    wb::sim::on_access(address, bytes, false, WB_RETURN_ADDRESS);                   \
  }                                                                                 \
  void __tsan_unaligned_write##bytes(void* address) {                               \
    wb::sim::on_access(address, bytes, true, WB_RETURN_ADDRESS);                    \
  }                                                                                 \
  void __tsan_volatile_read##bytes(void* address) {                                 \
    wb::sim::on_access(address, bytes, false, WB_RETURN_ADDRESS);                   \
  }                                                                                 \
  void __tsan_volatile_write##bytes(void* address) {                                \
    wb::sim::on_access(address, bytes, true, WB_RETURN_ADDRESS);                    \
  }
WB_ACCESS_ENTRY(1)
WB_ACCESS_ENTRY(2)
WB_ACCESS_ENTRY(4)
WB_ACCESS_ENTRY(8)
WB_ACCESS_ENTRY(16)
#undef WB_ACCESS_ENTRY

void __tsan_read_range(void* address, std::size_t bytes) {
  if (bytes > 0) wb::sim::on_access(address, bytes, false, WB_RETURN_ADDRESS);
}
void __tsan_write_range(void* address, std::size_t bytes) {
  if (bytes > 0) wb::sim::on_access(address, bytes, true, WB_RETURN_ADDRESS);
}

// Atomic operations: the instrumentation routes the __atomic builtins here. Each is
// an access (so shared memory is poisoned and bounds are checked like any other) and
// then the operation itself, always sequentially consistent (stronger than asked is
// correct).
#define WB_ATOMIC_ENTRIES(bits, type)                                                        \
  type __tsan_atomic##bits##_load(const volatile type* a, int) {                             \
    wb::sim::on_access(const_cast<const type*>(a), sizeof(type), false, WB_RETURN_ADDRESS, true);  \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                             \
  }                                                                                          \
  void __tsan_atomic##bits##_store(volatile type* a, type v, int) {                          \
    wb::sim::on_access(const_cast<type*>(a), sizeof(type), true, WB_RETURN_ADDRESS, true);         \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                \
  }                                                                                          \
  WB_ATOMIC_RMW(bits, type, exchange, __atomic_exchange_n)                                   \
  WB_ATOMIC_RMW(bits, type, fetch_add, __atomic_fetch_add)                                   \
  WB_ATOMIC_RMW(bits, type, fetch_sub, __atomic_fetch_sub)                                   \
  WB_ATOMIC_RMW(bits, type, fetch_and, __atomic_fetch_and)                                   \
  WB_ATOMIC_RMW(bits, type, fetch_or, __atomic_fetch_or)                                     \
  WB_ATOMIC_RMW(bits, type, fetch_xor, __atomic_fetch_xor)                                   \
  WB_ATOMIC_RMW(bits, type, fetch_nand, __atomic_fetch_nand)                                 \
  int __tsan_atomic##bits##_compare_exchange_strong(volatile type* a, type* expected,        \
                                                    type desired, int, int) {                \
    wb::sim::on_access(const_cast<type*>(a), sizeof(type), true, WB_RETURN_ADDRESS, true);         \
    return __atomic_compare_exchange_n(a, expected, desired, false, __ATOMIC_SEQ_CST,        \
                                       __ATOMIC_SEQ_CST);                                    \
  }                                                                                          \
  int __tsan_atomic##bits##_compare_exchange_weak(volatile type* a, type* expected,          \
                                                  type desired, int, int) {                  \
    wb::sim::on_access(const_cast<type*>(a), sizeof(type), true, WB_RETURN_ADDRESS, true);         \
    return __atomic_compare_exchange_n(a, expected, desired, true, __ATOMIC_SEQ_CST,         \
                                       __ATOMIC_SEQ_CST);                                    \
  }                                                                                          \
  type __tsan_atomic##bits##_compare_exchange_val(volatile type* a, type expected,           \
                                                  type desired, int, int) {                  \
    wb::sim::on_access(const_cast<type*>(a), sizeof(type), true, WB_RETURN_ADDRESS, true);         \
    __atomic_compare_exchange_n(a, &expected, desired, false, __ATOMIC_SEQ_CST,              \
                                __ATOMIC_SEQ_CST);                                           \
    return expected;                                                                         \
  }
#define WB_ATOMIC_RMW(bits, type, name, builtin)                                   \
  type __tsan_atomic##bits##_##name(volatile type* a, type v, int) {               \
    wb::sim::on_access(const_cast<type*>(a), sizeof(type), true, WB_RETURN_ADDRESS, true); \
    return builtin(a, v, __ATOMIC_SEQ_CST);                                        \
  }
WB_ATOMIC_ENTRIES(8, std::uint8_t)
WB_ATOMIC_ENTRIES(16, std::uint16_t)
WB_ATOMIC_ENTRIES(32, std::uint32_t)
WB_ATOMIC_ENTRIES(64, std::uint64_t)
#undef WB_ATOMIC_RMW
#undef WB_ATOMIC_ENTRIES

void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

}  // extern "C"
