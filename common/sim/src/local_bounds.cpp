// An index outside a local array of a kernel: `acc[i][j]` with i one past acc's rows, a
// register array read one element further than it holds. On a GPU such an array lives in
// registers or local memory, and the access reads or overwrites some other variable,
// silently; the output may well stay right.
//
// The kernel files are compiled with -fsanitize=bounds (cmake/WbTargets.cmake), which
// makes the compiler check every index into an array whose size it knows and call
// __ubsan_handle_out_of_bounds where one is out; the simulator defines that handler
// itself, and the sanitizer's runtime is never linked. The handler gets the array's type
// and the index, not the address, and cannot tell a local array from a __shared__ one
// (the simulator's are variables too), whose indices the simulator judges by their
// addresses, with more to say. So it notes the index, and the thread's next access (or
// simulator call) decides. An index into a shared or device array is followed by that
// access on the same line (an inner index past its row, into the next), or is a
// __shared__ variable's whole size (`smem_a[stage]` handed to a helper): the note is
// dropped, and the access meets the simulator's own checks. A local array is no shared
// state and its accesses go uninstrumented, or reach the thread's stack: the note
// becomes the thread's fault.
#include <cstdint>
#include <cstdlib>

#include "worker.hpp"

namespace wb::sim {
namespace {

// The compiler's records (the UBSan ABI, the same in GCC and Clang).
struct SourceLocation {
  const char* file;
  std::uint32_t line;
  std::uint32_t column;
};
struct TypeDescriptor {
  std::uint16_t kind;  // 0: an integer
  std::uint16_t info;  // for an integer: log2(bits) << 1 | signed
  char name[1];        // "'float [8]'", quotes included
};
struct OutOfBoundsData {
  SourceLocation location;
  const TypeDescriptor* array_type;
  const TypeDescriptor* index_type;
};

long long index_value(const TypeDescriptor& type, std::uintptr_t value) {
  const unsigned bits = 1u << (type.info >> 1);
  if (type.kind != 0 || bits >= 64) return static_cast<long long>(value);
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  std::uint64_t v = value & mask;
  if ((type.info & 1) != 0 && (v >> (bits - 1)) != 0) v |= ~mask;  // sign-extended
  return static_cast<long long>(v);
}

// The bytes of an array type as the compiler names it ("float [3][1031]"), or 0 where its
// element type is none of the workbook's.
std::size_t array_bytes(const std::string& type) {
  const std::size_t open = type.find(" [");
  if (open == std::string::npos) return 0;
  const std::string element = type.substr(0, open);
  std::size_t bytes = element == "float" || element == "int" || element == "unsigned int" ? 4
                      : element == "double" || element == "float2" || element == "long int" ? 8
                      : element == "float4" || element == "int4" ? 16
                      : element == "__nv_bfloat16" || element == "short int" ? 2
                                                                              : 0;
  for (std::size_t at = type.find('[', open); bytes != 0 && at != std::string::npos; at = type.find('[', at + 1)) {
    bytes *= static_cast<std::size_t>(std::atoll(type.c_str() + at + 1));
  }
  return bytes;
}

std::string unquoted(const char* name) {
  std::string text = name;
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') text = text.substr(1, text.size() - 2);
  return text;
}

// The workbook's own headers and the standard library index their arrays right: only
// the learner's lines are judged.
bool in_learners_file(const std::string& file) {
  return file.find("common/") == std::string::npos && file.rfind("/usr/", 0) != 0;
}

[[noreturn]] void fail_local(ThreadState& thread) {
  const ThreadState::PendingBounds pending = *thread.pending_bounds;
  thread.pending_bounds.reset();
  std::string elements;
  if (const auto open = pending.type.find('['); open != std::string::npos) {
    const long long extent = std::atoll(pending.type.c_str() + open + 1);
    elements = ", which holds " + std::to_string(extent) + " (indices 0 to " + std::to_string(extent - 1) + ")";
  }
  fail_without_unwinding(pending.site,
                         "index " + std::to_string(pending.index) + " into a local array of type " + pending.type +
                             elements + ": outside the array. On a GPU a local array lives in registers or local "
                             "memory, and the access reads or overwrites another variable, silently.",
                         ErrorKind::local_out_of_bounds);
}

}  // namespace

namespace {

// Whether the noted index was into a shared or device array: the access (or simulator
// call) that follows is of that memory on the note's own line, or the array has the size
// of a __shared__ variable (`smem_a[stage]` handed to a helper, whose access is on
// another line).
bool into_shared_or_device(const ThreadState::PendingBounds& pending, const std::string& line) {
  return line == pending.site || (pending.bytes != 0 && a_shared_variable_has_bytes(pending.bytes));
}

}  // namespace

void judge_pending_bounds(ThreadState& thread, const void* address, const void* pc) {
  const Worker& worker = *thread.worker;
  const bool stack = worker.stacks != nullptr && worker.stacks->contains(address);
  if (stack || !into_shared_or_device(*thread.pending_bounds, source_line_of(pc))) fail_local(thread);
  thread.pending_bounds.reset();
}

void judge_pending_bounds_at_call(ThreadState& thread, const std::string& site) {
  if (!into_shared_or_device(*thread.pending_bounds, site)) fail_local(thread);
  thread.pending_bounds.reset();
}

}  // namespace wb::sim

extern "C" {

void __ubsan_handle_out_of_bounds(void* data, void* index) {
  wb::sim::ThreadState* thread = wb::sim::running_thread;
  if (thread == nullptr || thread->pending_bounds) return;  // host code, or one already noted
  const auto& record = *static_cast<const wb::sim::OutOfBoundsData*>(data);
  const std::string file = wb::sim::project_relative(record.location.file);
  if (!wb::sim::in_learners_file(file)) return;
  thread->pending_bounds = wb::sim::ThreadState::PendingBounds{
      file + ":" + std::to_string(record.location.line),
      wb::sim::index_value(*record.index_type, reinterpret_cast<std::uintptr_t>(index)),
      wb::sim::unquoted(record.array_type->name), 0};
  thread->pending_bounds->bytes = wb::sim::array_bytes(thread->pending_bounds->type);
}

void __ubsan_handle_out_of_bounds_abort(void* data, void* index) { __ubsan_handle_out_of_bounds(data, index); }

}  // extern "C"
