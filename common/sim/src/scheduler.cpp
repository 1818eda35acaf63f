// Grid launches: a persistent pool of OS threads takes blocks one at a time; each block
// runs its CUDA threads as fibers, round after round, each round resuming every ready
// thread (in the schedule's order) until it reaches a barrier or returns.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <sstream>
#include <string_view>
#include <thread>

#include "wb/launch.hpp"
#include "wb/poison.hpp"
#include "worker.hpp"

// The CUDA built-in variables, per OS thread; set by the scheduler at every resume.
thread_local uint3 threadIdx;
thread_local uint3 blockIdx;
thread_local dim3 blockDim;
thread_local dim3 gridDim;

namespace wb::sim {
namespace {

constexpr unsigned kMaxThreadsPerBlock = 1024;

thread_local Worker* this_worker = nullptr;
thread_local ThreadState* this_thread = nullptr;
thread_local LaunchStats last_stats;

// Thrown into the other threads of a block when one of them failed, to unwind them.
struct BlockAborted {};

std::size_t env_number(const char* name, std::size_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  return static_cast<std::size_t>(std::strtoull(text, nullptr, 10));
}

std::size_t fiber_stack_bytes() {
#if defined(__SANITIZE_ADDRESS__)
  constexpr std::size_t fallback_kib = 512;  // ASan's redzones make frames larger
#else
  constexpr std::size_t fallback_kib = 128;
#endif
  return env_number("WB_SIM_STACK_KB", fallback_kib) * 1024;
}

// "threads 0-31, 64 (of 256)": linear thread indices, runs of consecutive ones folded.
std::string format_thread_list(const std::vector<unsigned>& indices, unsigned total) {
  std::ostringstream out;
  out << (indices.size() == 1 ? "thread " : "threads ");
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    if (i > 0) out << ", ";
    out << indices[i];
    if (j > i) out << "-" << indices[j];
    i = j + 1;
  }
  out << " (of " << total << ", linear index x + y*blockDim.x + z*blockDim.x*blockDim.y)";
  return out.str();
}

// The body every fiber runs: one CUDA thread of one block per iteration.
void thread_main(void* argument) {
  auto& self = *static_cast<ThreadState*>(argument);
  while (!self.fiber->stopping()) {
    Worker& worker = *self.worker;
    if (worker.block_aborting) {
      self.status = ThreadStatus::done;
    } else {
      try {
        worker.job->invoke(worker.job->closure);
        self.status = ThreadStatus::done;
      } catch (const BlockAborted&) {
        self.status = ThreadStatus::done;
      } catch (...) {
        self.error = std::current_exception();
        self.status = ThreadStatus::failed;
      }
    }
    self.fiber->suspend();
  }
}

std::vector<unsigned> run_order(unsigned count, const Schedule& schedule,
                                std::uint64_t block, unsigned round) {
  std::vector<unsigned> order(count);
  for (unsigned i = 0; i < count; ++i) order[i] = i;
  switch (schedule.order) {
    case Order::forward:
      break;
    case Order::reverse:
      std::reverse(order.begin(), order.end());
      break;
    case Order::random: {
      std::seed_seq seeds{schedule.seed, block, static_cast<std::uint64_t>(round)};
      std::mt19937_64 engine(seeds);
      std::shuffle(order.begin(), order.end(), engine);
      break;
    }
  }
  return order;
}

class BlockRunner {
 public:
  BlockRunner(Worker& worker, std::uint64_t block_linear)
      : worker_(worker), job_(*worker.job) {
    const dim3 grid = job_.config.grid;
    blockIdx = uint3{static_cast<unsigned>(block_linear % grid.x),
                     static_cast<unsigned>(block_linear / grid.x % grid.y),
                     static_cast<unsigned>(block_linear / grid.x / grid.y)};
    block_linear_ = block_linear;
    const dim3 block = job_.config.block;
    thread_count_ = block.x * block.y * block.z;
  }

  void run() {
    prepare_threads();
    poison::fill(worker_.dynamic_shared.data(), worker_.dynamic_shared.size(), poison::stale);
    for (unsigned round = 0;; ++round) {
      for (unsigned i : run_order(thread_count_, job_.schedule, block_linear_, round)) {
        ThreadState& thread = *worker_.threads[i];
        if (thread.status != ThreadStatus::ready) continue;
        resume(thread);
        if (thread.status == ThreadStatus::failed) {
          std::exception_ptr error = thread.error;
          abort_block();
          std::rethrow_exception(error);
        }
      }
      if (!release_barrier()) break;
    }
    finish_block();
  }

 private:
  // Runs one CUDA thread until its next barrier or its end, with its built-ins set.
  static void resume(ThreadState& thread) {
    this_thread = &thread;
    threadIdx = thread.index;
    thread.fiber->resume();
    this_thread = nullptr;
  }

  void prepare_threads() {
    const dim3 block = job_.config.block;
    auto& threads = worker_.threads;
    while (threads.size() < thread_count_) {
      auto state = std::make_unique<ThreadState>();
      state->worker = &worker_;
      const std::size_t slot = threads.size();
      state->fiber = std::make_unique<Fiber>(worker_.stacks.stack_bottom(slot),
                                             worker_.stacks.stack_bytes(), thread_main,
                                             state.get());
      threads.push_back(std::move(state));
    }
    for (unsigned i = 0; i < thread_count_; ++i) {
      ThreadState& thread = *threads[i];
      thread.linear_index = i;
      thread.index = uint3{i % block.x, i / block.x % block.y, i / block.x / block.y};
      thread.status = ThreadStatus::ready;
      thread.error = nullptr;
      thread.copies.clear();
    }
  }

  // All threads have run to a barrier or to their end. Returns true when a barrier was
  // released (another round follows), false when the block is finished.
  bool release_barrier() {
    std::vector<unsigned> waiting, returned;
    for (unsigned i = 0; i < thread_count_; ++i) {
      (worker_.threads[i]->status == ThreadStatus::at_barrier ? waiting : returned)
          .push_back(i);
    }
    if (waiting.empty()) return false;
    const ThreadState& first = *worker_.threads[waiting.front()];
    if (!returned.empty()) {
      fail_block("__syncthreads() at " + site(first) + " is waited at by " +
                 format_thread_list(waiting, thread_count_) + ", but " +
                 format_thread_list(returned, thread_count_) +
                 " returned from the kernel without reaching it. On a GPU the block "
                 "would hang or read garbage. Is the barrier inside a branch (or after "
                 "an early return) that not every thread takes?");
    }
    std::vector<unsigned> elsewhere;
    for (unsigned i : waiting) {
      const ThreadState& thread = *worker_.threads[i];
      if (thread.barrier_line != first.barrier_line ||
          std::string_view(thread.barrier_file) != first.barrier_file) {
        elsewhere.push_back(i);
      }
    }
    if (!elsewhere.empty()) {
      std::vector<unsigned> here;
      for (unsigned i : waiting) {
        if (std::find(elsewhere.begin(), elsewhere.end(), i) == elsewhere.end()) {
          here.push_back(i);
        }
      }
      fail_block("the threads of a block wait at different barriers: " +
                 format_thread_list(here, thread_count_) + " at " + site(first) + ", " +
                 format_thread_list(elsewhere, thread_count_) + " at " +
                 site(*worker_.threads[elsewhere.front()]) +
                 ". Every thread of a block must reach the same __syncthreads() "
                 "the same number of times.");
    }
    for (unsigned i : waiting) worker_.threads[i]->status = ThreadStatus::ready;
    ++worker_.stats.barriers;
    return true;
  }

  void finish_block() {
    std::uint64_t threads_with_pending = 0, pending = 0;
    for (unsigned i = 0; i < thread_count_; ++i) {
      const AsyncCopyQueue& copies = worker_.threads[i]->copies;
      if (copies.not_performed() > 0) {
        ++threads_with_pending;
        pending += copies.not_performed();
      }
    }
    if (threads_with_pending > 0) {
      worker_.stats.copies_never_waited += pending;
      worker_.stats.warnings[
          "threads ended with cp.async copies never waited for (their data never "
          "landed in shared memory: is a cp_async_wait missing?)"] += threads_with_pending;
    }
    for (const PendingCopy& copy : worker_.block_destinations) {
      poison::fill(copy.destination, static_cast<std::size_t>(copy.copy_bytes),
                   poison::stale);
    }
    worker_.block_destinations.clear();
    ++worker_.stats.blocks;
    worker_.stats.threads += thread_count_;
  }

  // Unwinds every thread of the block still inside the kernel.
  void abort_block() {
    worker_.block_aborting = true;
    for (unsigned i = 0; i < thread_count_; ++i) {
      ThreadState& thread = *worker_.threads[i];
      if (thread.status == ThreadStatus::ready || thread.status == ThreadStatus::at_barrier) {
        resume(thread);
      }
    }
    worker_.block_aborting = false;
    worker_.block_destinations.clear();
  }

  [[noreturn]] void fail_block(const std::string& what) {
    abort_block();
    throw KernelError("block " + format_index(blockIdx) + ": " + what);
  }

  static std::string site(const ThreadState& thread) {
    return std::string(thread.barrier_file) + ":" + std::to_string(thread.barrier_line);
  }

  Worker& worker_;
  const LaunchJob& job_;
  std::uint64_t block_linear_ = 0;
  unsigned thread_count_ = 0;
};

// The persistent pool of OS threads. One launch at a time: run() hands every worker the
// job and returns when all blocks are done or one failed.
class WorkerPool {
 public:
  WorkerPool() {
    unsigned count = static_cast<unsigned>(
        env_number("WB_SIM_THREADS", std::max(1u, std::thread::hardware_concurrency())));
    count = std::max(1u, count);
    for (unsigned i = 0; i < count; ++i) os_threads_.emplace_back([this] { work(); });
  }

  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& thread : os_threads_) thread.join();
  }

  LaunchStats run(const LaunchJob& job) {
    std::unique_lock lock(mutex_);
    job_ = &job;
    total_blocks_ = std::uint64_t{job.config.grid.x} * job.config.grid.y * job.config.grid.z;
    next_block_ = 0;
    failed_ = false;
    error_ = nullptr;
    error_block_ = 0;
    stats_ = LaunchStats{};
    busy_ = os_threads_.size();
    ++generation_;
    wake_.notify_all();
    done_.wait(lock, [this] { return busy_ == 0; });
    job_ = nullptr;
    if (error_) std::rethrow_exception(error_);
    return stats_;
  }

 private:
  void work() {
    Worker worker(kMaxThreadsPerBlock, fiber_stack_bytes());
    this_worker = &worker;
    std::uint64_t seen_generation = 0;
    for (;;) {
      const LaunchJob* job = nullptr;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen_generation; });
        if (stopping_) break;
        seen_generation = generation_;
        job = job_;
      }
      run_blocks(worker, *job);
      std::lock_guard lock(mutex_);
      stats_ += worker.stats;
      if (--busy_ == 0) done_.notify_all();
    }
    worker.threads.clear();  // each fiber unwinds on its own stack
    this_worker = nullptr;
  }

  void run_blocks(Worker& worker, const LaunchJob& job) {
    worker.job = &job;
    worker.stats = LaunchStats{};
    worker.dynamic_shared.assign(job.config.dynamic_shared_bytes, std::byte{0});
    blockDim = job.config.block;
    gridDim = job.config.grid;
    for (;;) {
      const std::uint64_t block = next_block_.fetch_add(1);
      if (block >= total_blocks_ || failed_.load()) break;
      try {
        BlockRunner(worker, block).run();
      } catch (...) {
        std::lock_guard lock(mutex_);
        // Keep the failure of the lowest block, so that the message is repeatable.
        if (!error_ || block < error_block_) {
          error_ = std::current_exception();
          error_block_ = block;
        }
        failed_ = true;
      }
    }
    worker.job = nullptr;
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> os_threads_;
  bool stopping_ = false;
  std::uint64_t generation_ = 0;
  std::size_t busy_ = 0;
  const LaunchJob* job_ = nullptr;
  std::uint64_t total_blocks_ = 0;
  std::atomic<std::uint64_t> next_block_{0};
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;
  std::uint64_t error_block_ = 0;
  LaunchStats stats_;
};

}  // namespace

ThreadState* current_thread() { return this_thread; }

std::string format_index(const uint3& index) {
  return "(" + std::to_string(index.x) + "," + std::to_string(index.y) + "," +
         std::to_string(index.z) + ")";
}

void kernel_fail(const char* file, int line, const std::string& what) {
  std::string where = std::string(file) + ":" + std::to_string(line) + ": ";
  if (this_thread != nullptr) {
    where += "block " + format_index(blockIdx) + ", thread " + format_index(threadIdx) + ": ";
  }
  throw KernelError(where + what);
}

void kernel_assert_failed(const char* condition, const char* file, int line) {
  kernel_fail(file, line, std::string("assert(") + condition + ") failed");
}

void sync_block(const char* file, int line) {
  ThreadState* thread = this_thread;
  if (thread == nullptr) {
    throw Error(std::string(file) + ":" + std::to_string(line) +
                ": __syncthreads() called outside a kernel launch");
  }
  thread->status = ThreadStatus::at_barrier;
  thread->barrier_file = file;
  thread->barrier_line = line;
  thread->fiber->suspend();
  if (thread->worker->block_aborting) throw BlockAborted{};
}

void* dynamic_shared_memory() {
  if (this_worker == nullptr || this_thread == nullptr) {
    throw Error("dynamic shared memory used outside a kernel launch");
  }
  return this_worker->dynamic_shared.data();
}

LaunchStats& LaunchStats::operator+=(const LaunchStats& other) {
  blocks += other.blocks;
  threads += other.threads;
  barriers += other.barriers;
  cp_async_4 += other.cp_async_4;
  cp_async_8 += other.cp_async_8;
  cp_async_16 += other.cp_async_16;
  cp_async_bytes += other.cp_async_bytes;
  commit_groups += other.commit_groups;
  waits += other.waits;
  copies_never_waited += other.copies_never_waited;
  for (const auto& [text, count] : other.warnings) warnings[text] += count;
  return *this;
}

const LaunchStats& last_launch_stats() { return last_stats; }

void run_grid(const LaunchConfig& config, void (*invoke)(const void*), const void* closure) {
  detail::validate_launch(config.grid, config.block, config.dynamic_shared_bytes);
  if (this_thread != nullptr) {
    throw Error("wb::launch called from inside a kernel: dynamic parallelism is not "
                "simulated");
  }
  static WorkerPool pool;
  static std::mutex one_launch_at_a_time;
  std::lock_guard lock(one_launch_at_a_time);
  LaunchJob job{config, invoke, closure, current_schedule()};
  last_stats = LaunchStats{};
  last_stats = pool.run(job);
  if (std::getenv("WB_SIM_QUIET") == nullptr) {
    for (const auto& [text, count] : last_stats.warnings) {
      std::fprintf(stderr, "[wb sim] warning: %llu %s\n",
                   static_cast<unsigned long long>(count), text.c_str());
    }
  }
}

}  // namespace wb::sim
