// Fiber switching on Boost.Context or ucontext, with AddressSanitizer annotations so
// that ASan follows the switches between stacks.
#include "fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <utility>

#if WB_SIM_HAVE_BOOST_CONTEXT
#include <boost/context/fiber.hpp>
#else
#include <ucontext.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define WB_SIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WB_SIM_ASAN 1
#endif
#endif

#if WB_SIM_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace wb::sim {
namespace {

[[noreturn]] void throw_system_error(const std::string& what) {
  throw std::runtime_error("wb simulator: " + what + " failed: " + std::strerror(errno) +
                           ". Fewer simulator threads (WB_SIM_THREADS) or smaller blocks "
                           "need fewer stacks.");
}

// Tells AddressSanitizer which stack the next instructions run on; no-ops otherwise.
struct StackSwitch {
  static void start(void** fake_stack, const void* bottom, std::size_t bytes) {
#if WB_SIM_ASAN
    __sanitizer_start_switch_fiber(fake_stack, bottom, bytes);
#else
    (void)fake_stack, (void)bottom, (void)bytes;
#endif
  }
  static void finish(void* fake_stack, const void** bottom, std::size_t* bytes) {
#if WB_SIM_ASAN
    __sanitizer_finish_switch_fiber(fake_stack, bottom, bytes);
#else
    (void)fake_stack, (void)bottom, (void)bytes;
#endif
  }
};

}  // namespace

StackSlab::StackSlab(std::size_t stack_count, std::size_t stack_bytes) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  stack_bytes_ = (stack_bytes + page - 1) / page * page;
  stride_ = stack_bytes_ + page;  // the guard page sits below each stack
  mapped_bytes_ = stride_ * stack_count;
  stack_count_ = stack_count;
  void* base = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) {
    throw_system_error("mmap of " + std::to_string(stack_count) + " fiber stacks (" +
                       std::to_string(mapped_bytes_ >> 20) + " MiB of address space)");
  }
  base_ = static_cast<std::byte*>(base);
  for (std::size_t i = 0; i < stack_count; ++i) {
    if (mprotect(base_ + i * stride_, page, PROT_NONE) != 0) {
      const int error = errno;
      munmap(base_, mapped_bytes_);
      errno = error;
      throw_system_error("mprotect of the guard page of fiber stack " + std::to_string(i) +
                         " of " + std::to_string(stack_count) +
                         " (each guard page is a memory map of its own; "
                         "/proc/sys/vm/max_map_count bounds them)");
    }
  }
}

StackSlab::~StackSlab() { munmap(base_, mapped_bytes_); }

std::byte* StackSlab::stack_bottom(std::size_t index) const {
  return base_ + index * stride_ + (stride_ - stack_bytes_);
}

bool StackSlab::contains(const void* pointer) const {
  const auto* address = static_cast<const std::byte*>(pointer);
  return address >= base_ && address < base_ + mapped_bytes_;
}

// ---------------------------------------------------------------------------------
// The switch itself.

#if WB_SIM_HAVE_BOOST_CONTEXT

namespace context = boost::context;

// Hands Boost.Context a stack from our slab instead of allocating one.
struct SlabStackAllocator {
  context::stack_context stack;
  context::stack_context allocate() { return stack; }
  void deallocate(context::stack_context&) noexcept {}
};

struct Fiber::Context {
  context::fiber inside;   // the fiber, seen from the scheduler
  context::fiber outside;  // the scheduler, seen from the fiber
  const void* fiber_bottom = nullptr;
  std::size_t fiber_bytes = 0;
  const void* scheduler_bottom = nullptr;
  std::size_t scheduler_bytes = 0;
};

Fiber::Fiber(std::byte* stack_bottom, std::size_t stack_bytes, void (*body)(void*),
             void* argument)
    : context_(std::make_unique<Context>()) {
  Context* state = context_.get();
  state->fiber_bottom = stack_bottom;
  state->fiber_bytes = stack_bytes;
  context::stack_context stack;
  stack.size = stack_bytes;
  stack.sp = stack_bottom + stack_bytes;
  state->inside = context::fiber(
      std::allocator_arg, SlabStackAllocator{stack},
      [state, body, argument](context::fiber&& scheduler) {
        StackSwitch::finish(nullptr, &state->scheduler_bottom, &state->scheduler_bytes);
        state->outside = std::move(scheduler);
        body(argument);
        StackSwitch::start(nullptr, state->scheduler_bottom, state->scheduler_bytes);
        return std::move(state->outside);
      });
}

void Fiber::resume() {
  void* fake_stack = nullptr;
  StackSwitch::start(&fake_stack, context_->fiber_bottom, context_->fiber_bytes);
  context_->inside = std::move(context_->inside).resume();
  StackSwitch::finish(fake_stack, nullptr, nullptr);
}

void Fiber::suspend() {
  void* fake_stack = nullptr;
  StackSwitch::start(&fake_stack, context_->scheduler_bottom, context_->scheduler_bytes);
  context_->outside = std::move(context_->outside).resume();
  StackSwitch::finish(fake_stack, &context_->scheduler_bottom, &context_->scheduler_bytes);
}

Fiber::~Fiber() {
  if (abandoned_) {
    // Destroying a suspended Boost.Context fiber unwinds it; an abandoned one must not
    // be: its handle is left behind (a few bytes; the stack is the slab's).
    new context::fiber(std::move(context_->inside));
    return;
  }
  if (context_->inside) {
    stopping_ = true;
    resume();  // the body sees stopping() and returns
  }
}

const char* fiber_backend_name() { return "Boost.Context"; }

#else  // ucontext

struct Fiber::Context {
  ucontext_t fiber;
  ucontext_t scheduler;
  void (*body)(void*) = nullptr;
  void* argument = nullptr;
  bool finished = false;
  const void* fiber_bottom = nullptr;
  std::size_t fiber_bytes = 0;
  const void* scheduler_bottom = nullptr;
  std::size_t scheduler_bytes = 0;
};

namespace {
// makecontext passes only int arguments; the fiber being started is handed over here.
thread_local Fiber::Context* starting_context = nullptr;

void ucontext_entry() {
  Fiber::Context* state = starting_context;
  StackSwitch::finish(nullptr, &state->scheduler_bottom, &state->scheduler_bytes);
  state->body(state->argument);
  state->finished = true;
  // Returning from a makecontext entry with no uc_link would end the OS thread: switch
  // back for good instead.
  StackSwitch::start(nullptr, state->scheduler_bottom, state->scheduler_bytes);
  swapcontext(&state->fiber, &state->scheduler);
  std::abort();  // never resumed
}
}  // namespace

Fiber::Fiber(std::byte* stack_bottom, std::size_t stack_bytes, void (*body)(void*),
             void* argument)
    : context_(std::make_unique<Context>()) {
  Context* state = context_.get();
  state->body = body;
  state->argument = argument;
  state->fiber_bottom = stack_bottom;
  state->fiber_bytes = stack_bytes;
  getcontext(&state->fiber);
  state->fiber.uc_stack.ss_sp = stack_bottom;
  state->fiber.uc_stack.ss_size = stack_bytes;
  state->fiber.uc_link = nullptr;
  makecontext(&state->fiber, ucontext_entry, 0);
  starting_context = state;  // read by ucontext_entry at the first resume
}

void Fiber::resume() {
  starting_context = context_.get();
  void* fake_stack = nullptr;
  StackSwitch::start(&fake_stack, context_->fiber_bottom, context_->fiber_bytes);
  swapcontext(&context_->scheduler, &context_->fiber);
  StackSwitch::finish(fake_stack, nullptr, nullptr);
}

void Fiber::suspend() {
  void* fake_stack = nullptr;
  StackSwitch::start(&fake_stack, context_->scheduler_bottom, context_->scheduler_bytes);
  swapcontext(&context_->fiber, &context_->scheduler);
  StackSwitch::finish(fake_stack, &context_->scheduler_bottom, &context_->scheduler_bytes);
}

Fiber::~Fiber() {
  if (!context_->finished && !abandoned_) {
    stopping_ = true;
    resume();
  }
}

const char* fiber_backend_name() { return "ucontext"; }

#endif

}  // namespace wb::sim
