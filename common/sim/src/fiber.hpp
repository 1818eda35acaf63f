// Fibers: the execution contexts the simulator runs CUDA threads on.
//
// A Fiber runs `body(argument)` on a stack of its own. `resume()` (from the scheduler)
// switches into it until it calls `suspend()` (from inside), which switches back. The
// body must not return before its owner asks it to stop: the owner's destructor resumes
// it once more with `stopping() == true` so that it can unwind and return.
//
// Built on Boost.Context when it is found (about 12 ns a switch), otherwise on
// ucontext (about 550 ns: swapcontext makes a signal-mask system call each time).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace wb::sim {

// One mmap holding the stacks of a worker's fibers, an inaccessible guard page under
// each, so that a stack overflow faults at once instead of corrupting its neighbour.
// Each guard page splits the mapping: a slab of N stacks costs 2N of the process's
// memory maps (vm.max_map_count, 65530 by default), which is why the scheduler sizes
// slabs to the block and bounds their total. A failed mmap or mprotect throws.
class StackSlab {
 public:
  StackSlab(std::size_t stack_count, std::size_t stack_bytes);
  ~StackSlab();
  StackSlab(const StackSlab&) = delete;
  StackSlab& operator=(const StackSlab&) = delete;

  std::size_t stack_bytes() const { return stack_bytes_; }
  std::size_t stack_count() const { return stack_count_; }
  // Whether `pointer` lies in this slab (a stack or a guard page).
  bool contains(const void* pointer) const;
  // The lowest usable address of stack `index`; the stack grows down from
  // stack_bottom(index) + stack_bytes().
  std::byte* stack_bottom(std::size_t index) const;

 private:
  std::byte* base_ = nullptr;
  std::size_t mapped_bytes_ = 0;
  std::size_t stack_bytes_ = 0;
  std::size_t stride_ = 0;
  std::size_t stack_count_ = 0;
};

class Fiber {
 public:
  Fiber(std::byte* stack_bottom, std::size_t stack_bytes, void (*body)(void*),
        void* argument);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  void resume();
  void suspend();
  bool stopping() const { return stopping_; }
  // Gives the fiber up where it stands, without unwinding its stack: for a thread that
  // must stop inside code that cannot throw (the instrumentation's callbacks). Its
  // stack is left as it is; the owner makes a new fiber on it.
  void abandon() { abandoned_ = true; }
  bool abandoned() const { return abandoned_; }

  struct Context;  // the backend's switch state

 private:
  std::unique_ptr<Context> context_;
  bool stopping_ = false;
  bool abandoned_ = false;
};

// The fiber backend compiled in, for the configure summary and the tests.
const char* fiber_backend_name();

}  // namespace wb::sim
