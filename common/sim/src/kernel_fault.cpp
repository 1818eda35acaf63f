// The running thread's failures: a KernelError that names the source line, the block
// and the thread, with the Fault (address, access, evidence) the graders read; the ways
// a thread fails without unwinding its fiber's stack; and the context a crash reports.
// The formatting helpers the simulator's messages share live here too.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "worker.hpp"

namespace wb::sim {

std::string index_runs(const std::vector<unsigned>& indices) {
  std::string out;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    if (i > 0) out += ", ";
    out += std::to_string(indices[i]);
    if (j > i) out += "-" + std::to_string(indices[j]);
    i = j + 1;
  }
  return out;
}

std::string hex(const void* pointer) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%" PRIxPTR, reinterpret_cast<std::uintptr_t>(pointer));
  return text;
}

std::string format_index(const uint3& index) {
  return "(" + std::to_string(index.x) + "," + std::to_string(index.y) + "," +
         std::to_string(index.z) + ")";
}

void kernel_fail(const char* file, int line, const std::string& what, ErrorKind kind) {
  kernel_fail_at(std::string(file) + ":" + std::to_string(line), what, kind);
}

Fault fault_here(const void* address, bool write, unsigned bytes) {
  return Fault{{blockIdx.x, blockIdx.y, blockIdx.z},
               {threadIdx.x, threadIdx.y, threadIdx.z},
               address,
               write,
               bytes,
               running_thread == nullptr ? 0 : running_thread->global_accesses,
               std::nullopt,
               std::nullopt, std::nullopt, std::nullopt, std::nullopt};
}

void kernel_fail_access(const char* file, int line, const std::string& what, ErrorKind kind, const void* address,
                        bool write, unsigned bytes) {
  try {
    kernel_fail(file, line, what, kind);
  } catch (KernelError& error) {
    error.set_fault(fault_here(address, write, bytes));
    throw;
  }
}

void kernel_fail_at(const std::string& place, const std::string& what, ErrorKind kind) {
  // The place's file as __builtin_FILE gave it, which is absolute for a kernel file that the
  // simulator's build includes from a generated wrapper: named from the project's folder.
  std::string where = place.empty() ? std::string() : project_relative(place) + ": ";
  if (running_thread != nullptr) {
    where += "block " + format_index(blockIdx) + ", thread " + format_index(threadIdx) + ": ";
  }
  throw KernelError(where + what, kind);
}

void kernel_fail_conflict(const std::string& place, const std::string& what, const SharedConflict& conflict) {
  try {
    kernel_fail_at(place, what + conflict.message, conflict.kind);
  } catch (KernelError& error) {
    if (conflict.fault) error.set_fault(*conflict.fault);
    throw;
  }
}

namespace {

[[noreturn]] void fail_thread(const std::string& place, const std::string& what, ErrorKind kind,
                              const std::optional<Fault>& fault) {
  ThreadState* thread = running_thread;
  try {
    kernel_fail_at(place, what, kind);
  } catch (KernelError& error) {
    if (fault) error.set_fault(*fault);
    thread->error = std::current_exception();
  }
  thread->status = ThreadStatus::failed;
  thread->fiber->abandon();
  thread->fiber->suspend();
  std::abort();  // never resumed
}

}  // namespace

void fail_without_unwinding(const std::string& place, const std::string& what, ErrorKind kind,
                            const void* fault_address, bool fault_write) {
  std::optional<Fault> fault;
  if (fault_address != nullptr) fault = fault_here(fault_address, fault_write, 0);
  fail_thread(place, what, kind, fault);
}

void fail_without_unwinding(const std::string& place, const std::string& what, ErrorKind kind,
                            const Fault& fault) {
  fail_thread(place, what, kind, fault);
}

void kernel_assert_failed(const char* condition, const char* file, int line) {
  kernel_fail(file, line, std::string("assert(") + condition + ") failed", ErrorKind::assertion);
}

namespace {

bool lies_in(const void* address, const SeenAccess& access) {
  const auto at = reinterpret_cast<std::uintptr_t>(address), first = reinterpret_cast<std::uintptr_t>(access.address);
  return access.address != nullptr && at >= first && at - first < access.bytes;
}

}  // namespace

CrashContext crash_context(const void* fault_address) {
  CrashContext context;
  const ThreadState* thread = running_thread;
  if (thread == nullptr) return context;
  const LastSeen& seen = thread->last_seen;
  context.in_kernel = true;
  context.block = blockIdx;
  context.thread = thread->index;
  context.last_seen_file = seen.file;
  context.last_seen_line = seen.line;
  context.access_is_latest = seen.access_is_latest;
  // `*dst = *src` reports the store, then the load, then makes both: where the store is
  // the access that faulted, the fault's address lies in it and not in the load.
  const bool previous_faulted = fault_address != nullptr && !lies_in(fault_address, seen.access) &&
                                lies_in(fault_address, seen.previous_access);
  const SeenAccess& access = previous_faulted ? seen.previous_access : seen.access;
  context.access_pc = access.pc;
  context.access_address = access.address;
  context.access_bytes = access.bytes;
  context.access_write = access.write;
  return context;
}

}  // namespace wb::sim
