// Grid launches: a persistent pool of OS threads takes blocks one at a time; each block
// runs its CUDA threads as fibers, round after round, each round resuming every ready
// thread (in the schedule's order) until it reaches a barrier or returns.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

#include <malloc.h>
#include <pthread.h>

#include "wb/launch.hpp"
#include "wb/poison.hpp"
#include "worker.hpp"

// The CUDA built-in variables, per OS thread; set by the scheduler at every resume.
thread_local uint3 threadIdx;
thread_local uint3 blockIdx;
thread_local dim3 blockDim;
thread_local dim3 gridDim;

namespace wb::sim {

thread_local ThreadState* running_thread = nullptr;

namespace {

// Workers the pool starts when WB_SIM_THREADS does not say: one per hardware thread,
// up to this many (kernels of the workbook have few blocks to spread).
constexpr unsigned kDefaultMaxWorkers = 32;
constexpr unsigned kMaxWorkers = 256;

thread_local Worker* this_worker = nullptr;
thread_local LaunchStats last_stats;

// Every worker, for the report of a hang (read from another OS thread, racily: the
// report is made once, just before the process ends).
std::mutex& workers_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::vector<Worker*>& all_workers() {
  static std::vector<Worker*> workers;
  return workers;
}

// Thrown into the other threads of a block when one of them failed, to unwind them.
struct BlockAborted {};

std::size_t env_number(const char* name, std::size_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  return static_cast<std::size_t>(std::strtoull(text, nullptr, 10));
}

// The most fiber stacks all workers together may hold at once. Each stack with its
// guard page costs two of the process's memory maps (vm.max_map_count, 65530 by
// default), and 128 KiB of address space: a launch lets only as many workers take
// blocks as fit, the others release their stacks.
std::size_t stack_budget() {
  std::size_t max_maps = 65530;
  if (FILE* file = std::fopen("/proc/sys/vm/max_map_count", "r")) {
    unsigned long long value = 0;
    if (std::fscanf(file, "%llu", &value) == 1 && value > 0) max_maps = value;
    std::fclose(file);
  }
  return std::min<std::size_t>(8192, max_maps / 4);
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
  return (indices.size() == 1 ? "thread " : "threads ") + index_runs(indices) + " (of " +
         std::to_string(total) + ", linear index x + y*blockDim.x + z*blockDim.x*blockDim.y)";
}

}  // namespace

Worker::Worker() {
  locate_static_shared(shared);
  std::lock_guard lock(workers_mutex());
  all_workers().push_back(this);
}

Worker::~Worker() {
  {
    std::lock_guard lock(workers_mutex());
    auto& workers = all_workers();
    workers.erase(std::remove(workers.begin(), workers.end(), this), workers.end());
  }
  threads.clear();  // each fiber unwinds on its own stack, before the stacks go
  stacks.reset();
  release_dynamic_shared(shared);
}

namespace {
void thread_main(void* argument);
}

void Worker::provide_threads(std::size_t count, std::size_t stack_bytes) {
  if (threads.size() == count) return;
  threads.clear();
  stacks.reset();
  if (count == 0) return;
  stacks = std::make_unique<StackSlab>(count, stack_bytes);
  for (std::size_t slot = 0; slot < count; ++slot) {
    auto state = std::make_unique<ThreadState>();
    state->worker = this;
    state->fiber = std::make_unique<Fiber>(stacks->stack_bottom(slot), stacks->stack_bytes(),
                                           thread_main, state.get());
    threads.push_back(std::move(state));
  }
}

namespace {

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
    worker_.running_block = static_cast<std::int64_t>(block_linear_);
    worker_.unfilled_read_running = false;  // a block before failed and never finished
    prepare_threads();
    reserve_request_records(worker_, thread_count_);
    begin_block_shared(worker_.shared, thread_count_);
    begin_block_pipelines(worker_);
    begin_block_mbarriers(worker_);
    begin_block_release_order(worker_);
    begin_block_timeline(worker_, block_linear_, thread_count_);
    begin_block_last_store(worker_);
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
        if (warp_stopped(thread.warp())) tally_warp(worker_, 32 * thread.warp(), thread_count_);
      }
      // Lanes that a warp rendezvous released after their turn in this round.
      if (any_thread(ThreadStatus::ready)) continue;
      if (const std::string stuck = describe_stuck_warps(worker_, thread_count_); !stuck.empty()) {
        fail_block(stuck, ErrorKind::warp_sync);
      }
      if (const std::string stuck = describe_stuck_pipelines(worker_, thread_count_); !stuck.empty()) {
        fail_block(stuck, ErrorKind::pipeline);
      }
      if (const std::string stuck = describe_stuck_mbarriers(worker_, thread_count_); !stuck.empty()) {
        fail_block(stuck, ErrorKind::mbarrier);
      }
      tally_requests(worker_, thread_count_);
      if (!release_barrier()) break;
      release_on_syncthreads(worker_);
      begin_interval(worker_.shared);
      worker_.shared.barrier_interval = worker_.shared.interval;
      ++worker_.block_barriers;
    }
    finish_block();
    worker_.running_block = -1;
  }

 private:
  // Runs one CUDA thread until its next barrier or its end, with its built-ins set.
  static void resume(ThreadState& thread) {
    running_thread = &thread;
    thread.worker->running = &thread;
    threadIdx = thread.index;
    thread.fiber->resume();
    running_thread = nullptr;
    thread.worker->running = nullptr;
  }

  void prepare_threads() {
    const dim3 block = job_.config.block;
    for (unsigned i = 0; i < thread_count_; ++i) {
      ThreadState& thread = *worker_.threads[i];
      if (thread.fiber->abandoned()) {  // it failed inside an instrumentation callback
        thread.fiber = std::make_unique<Fiber>(worker_.stacks->stack_bottom(i),
                                               worker_.stacks->stack_bytes(), thread_main,
                                               &thread);
      }
      thread.linear_index = i;
      thread.index = uint3{i % block.x, i / block.x % block.y, i / block.x / block.y};
      thread.status = ThreadStatus::ready;
      thread.error = nullptr;
      thread.copies.clear();
      thread.wgmmas.clear();
      thread.wgmma_groups = 0;
      thread.wgmma_fenced = false;
      thread.issued_bulk_copy = false;
      thread.last_seen = LastSeen{};
      thread.global_accesses = 0;
      thread.cp_async_issued = 0;
      thread.barrier_pc = nullptr;
      thread.barriers_passed.clear();
      thread.commits = thread.waits = thread.commits_at_last_wait = thread.commits_at_wait_before = 0;
      thread.last_wait = thread.idle_wait = -1;
      thread.commits_at_idle_wait = 0;
      thread.pipeline_commits = thread.pipeline_waits = 0;
      thread.step = 0;
      thread.group_landing_steps.clear();
      thread.shared_loads = 0;
      thread.shared_loads_at_fmas.clear();
    }
  }

  // All threads have run to a barrier or to their end. Returns true when a barrier was
  // released (another round follows), false when the block is finished.
  bool release_barrier() {
    std::vector<unsigned> waiting;
    EarlyExit returned;  // the threads that have left the kernel by this barrier
    for (unsigned i = 0; i < thread_count_; ++i) {
      const ThreadState& thread = *worker_.threads[i];
      if (thread.status == ThreadStatus::at_barrier) waiting.push_back(i);
      if (thread.status == ThreadStatus::done && returned.threads++ == 0) returned.thread = thread.index;
    }
    if (waiting.empty()) return false;
    // Threads that returned count as arrived, as on the GPU (sm_70 and later): a
    // barrier waits only for the threads of the block that have not exited.
    const ThreadState& first = *worker_.threads[waiting.front()];
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
    if (returned.threads > 0 && !early_exit_recorded_) record_early_exit(returned, first);
    // A timeline's logical clock: everyone leaves at the step of the last to arrive.
    std::uint64_t release_step = 0;
    for (unsigned i : waiting) release_step = std::max(release_step, worker_.threads[i]->step);
    for (unsigned i : waiting) {
      worker_.threads[i]->status = ThreadStatus::ready;
      worker_.threads[i]->step = release_step;
    }
    ++worker_.stats.barriers;
    ++worker_.stats.barriers_by_site[{first.barrier_file, first.barrier_line}];
    return true;
  }

  // The block's first barrier that `exit.threads` threads skipped by returning, while
  // `arrived` (and the others waiting) reached it.
  void record_early_exit(EarlyExit exit, const ThreadState& arrived) {
    early_exit_recorded_ = true;
    if (worker_.stats.early_exits.size() >= LaunchStats::kMaxEarlyExits) return;
    exit.block_linear = static_cast<std::uint64_t>(block_linear_);
    exit.block = blockIdx;
    exit.barrier_site = project_relative(site(arrived));
    worker_.stats.early_exits.push_back(exit);
  }

  void finish_block() {
    finish_block_timeline(worker_);
    finish_block_pipelines(worker_);
    finish_block_mbarriers(worker_);
    finish_block_fma_notes(worker_, block_linear_, thread_count_);
    finish_block_last_store(worker_, block_linear_);
    finish_block_wgmmas(worker_, thread_count_);
    std::uint64_t threads_with_pending = 0, pending = 0;
    for (unsigned i = 0; i < thread_count_; ++i) {
      const AsyncCopyQueue& copies = worker_.threads[i]->copies;
      if (worker_.threads[i]->cp_async_issued == 0) ++worker_.stats.threads_without_copies;
      if (copies.not_performed() > 0) {
        ++threads_with_pending;
        pending += copies.not_performed();
      }
    }
    if (threads_with_pending > 0) {
      worker_.stats.copies_never_waited += pending;
      worker_.stats.warnings[
          "threads ended with cp.async copies never waited for (their data never "
          "landed in shared memory)"] += threads_with_pending;
    }
    check_dynamic_guards(worker_.shared);
    finish_block_footprints(worker_, block_linear_);
    ++worker_.stats.blocks;
    worker_.stats.threads += thread_count_;
  }

  // Unwinds every thread of the block still inside the kernel.
  void abort_block() {
    worker_.block_aborting = true;
    for (unsigned i = 0; i < thread_count_; ++i) {
      ThreadState& thread = *worker_.threads[i];
      if (thread.status == ThreadStatus::ready || thread.status == ThreadStatus::at_barrier ||
          thread.status == ThreadStatus::at_warp_sync || thread.status == ThreadStatus::at_pipeline ||
          thread.status == ThreadStatus::at_mbarrier) {
        resume(thread);
      }
    }
    worker_.block_aborting = false;
    worker_.running_block = -1;
  }

  [[noreturn]] void fail_block(const std::string& what, ErrorKind kind = ErrorKind::barrier) {
    abort_block();
    throw KernelError("block " + format_index(blockIdx) + ": " + what, kind);
  }

  // No lane of the warp is ready to run.
  bool warp_stopped(unsigned warp) const {
    const unsigned end = std::min(thread_count_, 32 * warp + 32);
    for (unsigned i = 32 * warp; i < end; ++i) {
      if (worker_.threads[i]->status == ThreadStatus::ready) return false;
    }
    return true;
  }

  bool any_thread(ThreadStatus status) const {
    for (unsigned i = 0; i < thread_count_; ++i) {
      if (worker_.threads[i]->status == status) return true;
    }
    return false;
  }

  static std::string site(const ThreadState& thread) {
    return project_relative(thread.barrier_file) + ":" + std::to_string(thread.barrier_line);
  }

  Worker& worker_;
  const LaunchJob& job_;
  std::uint64_t block_linear_ = 0;
  bool early_exit_recorded_ = false;  // this block's first barrier with threads returned
  unsigned thread_count_ = 0;
};

// The persistent pool of OS threads. One launch at a time: run() hands every worker the
// job and returns when all blocks are done or one failed.
class WorkerPool {
 public:
  WorkerPool() {
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    unsigned count = static_cast<unsigned>(
        env_number("WB_SIM_THREADS", std::min(hardware, kDefaultMaxWorkers)));
    count = std::clamp(count, 1u, kMaxWorkers);
    bound_malloc_arenas();
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, kWorkerStackBytes);
    std::string refusal;
    for (unsigned i = 0; i < count; ++i) {
      auto* start = new StartArguments{this, i};
      pthread_t thread;
      const int status = pthread_create(&thread, &attributes, &WorkerPool::start_worker, start);
      if (status != 0) {
        delete start;
        refusal = std::strerror(status);
        break;
      }
      os_threads_.push_back(thread);
    }
    pthread_attr_destroy(&attributes);
    if (os_threads_.empty()) {
      throw std::runtime_error("the CPU simulator could not start a single worker thread: " + refusal);
    }
    if (os_threads_.size() < count) {
      // Once per process: the launches still run, on fewer workers.
      std::fprintf(stderr,
                   "wb simulator: started %zu of the %u workers asked for (WB_SIM_THREADS): the "
                   "system refused the next one (%s); the kernels run on %zu.\n",
                   os_threads_.size(), count, refusal.c_str(), os_threads_.size());
    }
  }

  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (pthread_t thread : os_threads_) pthread_join(thread, nullptr);
  }

  // Runs the job; the counters of the launch are in `stats` even when it failed.
  void run(LaunchJob& job, LaunchStats& stats) {
    std::unique_lock lock(mutex_);
    total_blocks_ = std::uint64_t{job.config.grid.x} * job.config.grid.y * job.config.grid.z;
    const std::size_t block_threads =
        std::size_t{job.config.block.x} * job.config.block.y * job.config.block.z;
    const std::size_t by_budget = std::max<std::size_t>(1, stack_budget() / block_threads);
    job.workers = static_cast<unsigned>(std::min<std::uint64_t>(
        {os_threads_.size(), total_blocks_, static_cast<std::uint64_t>(by_budget)}));
    job_ = &job;
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
    stats = stats_;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // A worker's own OS stack runs only the scheduler: the kernels run on the fibers'
  // stacks. The default 8 MiB each would put 256 workers at 2 GiB of a step's address
  // space (WB_STEP_MEMORY_MB bounds it), for nothing.
  static constexpr std::size_t kWorkerStackBytes = std::size_t{2} << 20;

  struct StartArguments {
    WorkerPool* pool;
    unsigned index;
  };
  static void* start_worker(void* raw) {
    const StartArguments arguments = *static_cast<StartArguments*>(raw);
    delete static_cast<StartArguments*>(raw);
    arguments.pool->work(arguments.index);
    return nullptr;
  }

  // glibc gives each OS thread that allocates a heap arena of its own, up to 8 per core,
  // each reserving 64 MiB of address space: 64 workers on a 16-core host reserve 4 GiB,
  // the whole of a step's default WB_STEP_MEMORY_MB, and the next allocation or thread
  // fails. The workers allocate little (their stacks and shared memory are mapped), so
  // a few arenas serve them, whatever the number of cores.
  static void bound_malloc_arenas() {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 8);
#endif
  }

  void work(unsigned index) {
    Worker worker;
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
      worker.stats = LaunchStats{};
      if (index < job->workers) {
        run_blocks(worker, *job);
      } else {
        worker.provide_threads(0, 0);  // idle in this launch: keep the stacks in budget
      }
      std::lock_guard lock(mutex_);
      stats_ += worker.stats;
      if (--busy_ == 0) done_.notify_all();
    }
    this_worker = nullptr;
  }

  void record_failure(std::uint64_t block) {
    std::lock_guard lock(mutex_);
    // Keep the failure of the lowest block, so that the message is repeatable.
    if (!error_ || block < error_block_) {
      error_ = std::current_exception();
      error_block_ = block;
    }
    failed_ = true;
  }

  void run_blocks(Worker& worker, const LaunchJob& job) {
    worker.job = &job;
    worker.last_allocation = nullptr;
    blockDim = job.config.block;
    gridDim = job.config.grid;
    try {
      worker.provide_threads(std::size_t{blockDim.x} * blockDim.y * blockDim.z,
                             fiber_stack_bytes());
      worker.provide_dynamic_shared(job.config.dynamic_shared_bytes);
      mark_foreign_variables(worker.shared, job.config.kernel);
    } catch (...) {
      record_failure(0);
      worker.job = nullptr;
      return;
    }
    for (;;) {
      const std::uint64_t block = next_block_.fetch_add(1);
      if (block >= total_blocks_ || failed_.load()) break;
      try {
        BlockRunner(worker, block).run();
      } catch (...) {
        record_failure(block);
      }
    }
    worker.job = nullptr;
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<pthread_t> os_threads_;
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

// "threads 3, 17-20" (with the block's size) for the report of a hang.
std::string where_seen(const ThreadState& thread) {
  const LastSeen& seen = thread.last_seen;
  const std::string call =
      seen.file != nullptr ? project_relative(seen.file) + ":" + std::to_string(seen.line) : "";
  const std::string access = source_line_of(seen.access.pc);
  if (!access.empty() && (seen.access_is_latest || call.empty())) {
    return access + " (its last memory access)";
  }
  if (!call.empty()) return call + " (its last barrier, cp.async or wait)";
  return "the start of the kernel";
}

}  // namespace

void sync_block(const char* file, int line) {
  ThreadState* thread = running_thread;
  if (thread == nullptr) {
    throw Error(project_relative(file) + ":" + std::to_string(line) +
                ": __syncthreads() called outside a kernel launch");
  }
  thread->status = ThreadStatus::at_barrier;
  thread->barrier_file = file;
  thread->barrier_line = line;
  thread->barrier_pc = __builtin_return_address(0);
  note_call_site(*thread, file, line);
  timeline_note(*thread, trace::Event::barrier_begins);
  thread->fiber->suspend();
  if (thread->worker->block_aborting) throw BlockAborted{};
  timeline_note(*thread, trace::Event::barrier_ends);
  std::vector<const void*>& passed = thread->barriers_passed;
  if (std::find(passed.begin(), passed.end(), thread->barrier_pc) == passed.end()) passed.push_back(thread->barrier_pc);
}

ThreadState& require_thread(const char* what, const char* file, int line) {
  ThreadState* thread = current_thread();
  if (thread == nullptr) {
    throw Error(project_relative(file) + ":" + std::to_string(line) + ": " + what +
                " called outside a kernel launch");
  }
  return *thread;
}

void wait_at_warp_rendezvous(ThreadState& thread) {
  thread.status = ThreadStatus::at_warp_sync;
  thread.fiber->suspend();
  if (thread.worker->block_aborting) throw BlockAborted{};
}

void wait_at_pipeline(ThreadState& thread) {
  thread.status = ThreadStatus::at_pipeline;
  thread.fiber->suspend();
  if (thread.worker->block_aborting) throw BlockAborted{};
}

void wait_at_mbarrier(ThreadState& thread) {
  thread.status = ThreadStatus::at_mbarrier;
  thread.fiber->suspend();
  if (thread.worker->block_aborting) throw BlockAborted{};
}

void note_call_site(ThreadState& thread, const char* file, int line) {
  if (thread.pending_bounds) judge_pending_bounds_at_call(thread, project_relative(file) + ":" + std::to_string(line));
  ++thread.step;
  thread.last_seen.file = file;
  thread.last_seen.line = line;
  thread.last_seen.access_is_latest = false;
}

void* dynamic_shared_memory() {
  if (this_worker == nullptr || running_thread == nullptr) {
    throw Error("dynamic shared memory used outside a kernel launch");
  }
  return this_worker->shared.dynamic_begin();
}

const LaunchStats& last_launch_stats() { return last_stats; }

void run_grid(const LaunchConfig& config, void (*invoke)(const void*), const void* closure) {
  detail::validate_launch(config.grid, config.block, config.dynamic_shared_bytes);
  if (running_thread != nullptr) {
    throw Error("wb::launch called from inside a kernel: dynamic parallelism is not "
                "simulated");
  }
  static WorkerPool pool;
  static std::mutex one_launch_at_a_time;
  std::lock_guard lock(one_launch_at_a_time);
  LaunchJob job{config, invoke, closure, current_schedule(), {device_allocations()}, 0};
  last_stats = LaunchStats{};
  try {
    pool.run(job, last_stats);
  } catch (...) {
    print_warnings(last_stats);
    throw;
  }
  print_warnings(last_stats);
  log_launch(config, last_stats);
}

void print_warnings(const LaunchStats& stats) {
  if (std::getenv("WB_SIM_QUIET") != nullptr) return;
  for (const auto& [text, count] : stats.warnings) {
    std::fprintf(stderr, "[wb sim] warning: %llu %s\n", static_cast<unsigned long long>(count),
                 text.c_str());
  }
}

std::string describe_running_blocks() {
  std::ostringstream out;
  std::lock_guard lock(workers_mutex());
  for (const Worker* worker : all_workers()) {
    const std::int64_t block_linear = worker->running_block;
    const LaunchJob* job = worker->job;
    if (block_linear < 0 || job == nullptr) continue;
    const dim3 grid = job->config.grid;
    const auto block = static_cast<std::uint64_t>(block_linear);
    const uint3 block_index{static_cast<unsigned>(block % grid.x),
                            static_cast<unsigned>(block / grid.x % grid.y),
                            static_cast<unsigned>(block / grid.x / grid.y)};
    const unsigned total = static_cast<unsigned>(worker->threads.size());
    std::vector<unsigned> unfinished, waiting;
    for (unsigned i = 0; i < total; ++i) {
      const ThreadStatus status = worker->threads[i]->status;
      if (status == ThreadStatus::ready) unfinished.push_back(i);
      if (status == ThreadStatus::at_barrier) waiting.push_back(i);
    }
    out << "block " << format_index(block_index) << ": ";
    if (const ThreadState* running = worker->running; running != nullptr) {
      out << "thread " << format_index(running->index) << " (linear " << running->linear_index
          << ") is still running, last seen at " << where_seen(*running) << ". ";
    }
    if (!unfinished.empty()) {
      out << format_thread_list(unfinished, total)
          << " have not reached their next barrier or their end";
      if (!waiting.empty()) {
        const ThreadState& first = *worker->threads[waiting.front()];
        out << "; " << format_thread_list(waiting, total) << " wait at the barrier at "
            << project_relative(first.barrier_file) << ":" << first.barrier_line;
      }
      out << ".";
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace wb::sim
