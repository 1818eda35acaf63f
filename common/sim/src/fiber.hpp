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
class StackSlab {
 public:
  StackSlab(std::size_t stack_count, std::size_t stack_bytes);
  ~StackSlab();
  StackSlab(const StackSlab&) = delete;
  StackSlab& operator=(const StackSlab&) = delete;

  std::size_t stack_bytes() const { return stack_bytes_; }
  // The lowest usable address of stack `index`; the stack grows down from
  // stack_bottom(index) + stack_bytes().
  std::byte* stack_bottom(std::size_t index) const;

 private:
  std::byte* base_ = nullptr;
  std::size_t mapped_bytes_ = 0;
  std::size_t stack_bytes_ = 0;
  std::size_t stride_ = 0;
};

// Whether [pointer, pointer + bytes) overlaps any fiber stack of the process.
bool on_fiber_stack(const void* pointer, std::size_t bytes);

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

  struct Context;  // the backend's switch state

 private:
  std::unique_ptr<Context> context_;
  bool stopping_ = false;
};

// The fiber backend compiled in, for the configure summary and the tests.
const char* fiber_backend_name();

}  // namespace wb::sim
