// The CUDA C++ library's asynchronous copies in the simulator, on top of its cp.async.
//
// cooperative_groups::memcpy_async(group, dst, src, bytes) is called by every thread of
// the group with the same arguments; each thread issues its share of the copy as cp.async
// operations (chunk i of the copy goes to the thread of rank i % size), and closes them
// into one cp.async group. The copies are as wide as the call's static alignment promises,
// as nvcc compiles the library (plan_copy): alignof(T) of typed pointers, the N of a
// cuda::aligned_size_t<N>; a float* copy is 4-byte copies however aligned its addresses. cooperative_groups::wait(group) is cp.async.wait_group 0 and the group's
// barrier. So everything chapters 1 to 6 check of cp.async (poison until the wait, sizes,
// alignment, address spaces, races) holds for the library's copies too.
//
// A block-scoped cuda::pipeline keeps its copies apart from the thread's cp.async groups.
// Every thread's k-th producer_acquire ... producer_commit is batch k, in stage k % stages.
// consumer_wait makes the copies of the oldest batch of *every* thread visible: it blocks
// until every thread of the block has committed the batch, and the first thread through
// lands it (copy late: a read before the wait sees poison), each copy checked for races as
// a write of the thread that issued it; then a new barrier interval begins (the race
// check's ordering: reads after consumer_wait are ordered after the copies, and after every
// store the producers made before their producer_commit). consumer_release counts the threads done with a batch; when
// the last one releases it, a new interval begins again, and producer_acquire of the same
// stage, which blocks until then, may refill it. A thread that calls the four out of order,
// or acquires a stage it never released itself, fails at once with the reason; threads
// that wait for one another forever fail with a report of who waits where.
#include <algorithm>
#include <cstring>

#include "wb/poison.hpp"
#include "worker.hpp"

namespace wb::sim {
namespace {

const char* call_name(PipelineCall call) {
  switch (call) {
    case PipelineCall::acquire: return "producer_acquire()";
    case PipelineCall::commit: return "producer_commit()";
    case PipelineCall::wait: return "consumer_wait()";
    case PipelineCall::release: return "consumer_release()";
  }
  return "?";
}

unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }

BlockPipeline* find_pipeline(Worker& worker, const void* shared_state) {
  for (BlockPipeline& pipeline : worker.pipelines) {
    if (pipeline.shared_state == shared_state) return &pipeline;
  }
  return nullptr;
}

BlockPipeline& require_pipeline(Worker& worker, const void* shared_state, const char* what, const char* file,
                                int line) {
  BlockPipeline* pipeline = find_pipeline(worker, shared_state);
  if (pipeline == nullptr) {
    kernel_fail(file, line,
                std::string(what) + " on a pipeline this thread's block never made: call "
                                    "cuda::make_pipeline(block, &shared_state) in every thread first",
                ErrorKind::pipeline);
  }
  return *pipeline;
}

PipelineBatch& batch_of(BlockPipeline& pipeline, std::uint32_t index, unsigned threads) {
  PipelineBatch& batch = pipeline.batches[index];
  if (batch.copies.size() != threads) batch.copies.resize(threads);
  return batch;
}

std::string stage_text(const BlockPipeline& pipeline, std::uint32_t batch) {
  return "stage " + std::to_string(batch % static_cast<std::uint32_t>(pipeline.stages)) + " (its use " +
         std::to_string(batch / static_cast<std::uint32_t>(pipeline.stages) + 1) + ", the block's batch " +
         std::to_string(batch) + " of copies)";
}

// Lets the threads blocked in `call` on this pipeline run again (they check again).
void wake(Worker& worker, PipelineCall call) {
  const char* name = call_name(call);
  for (unsigned i = 0; i < block_threads(); ++i) {
    ThreadState& other = *worker.threads[i];
    if (other.status == ThreadStatus::at_pipeline && other.pipeline_call == name) {
      other.status = ThreadStatus::ready;
    }
  }
}

void block_in(ThreadState& thread, PipelineCall call, const char* file, int line) {
  thread.pipeline_call = call_name(call);
  thread.pipeline_file = file;
  thread.pipeline_line = line;
  wait_at_pipeline(thread);
}

// What a race of a pipeline's copies usually means.
std::string pipeline_race_hint(const Worker& worker) {
  if (worker.stats.pipeline_copies_outside_stage > 0) {
    return "This thread issued cuda::memcpy_async with no stage acquired, after a producer_commit() and "
           "before the next producer_acquire(): its copies joined the next stage instead of the one "
           "committed. Is producer_commit() before the copies instead of after them, or producer_acquire() "
           "after them instead of before?";
  }
  return "Does a thread read this stage before its consumer_wait(), or refill a stage before every "
         "thread's consumer_release()?";
}

// The last thread committed the batch: every thread's copies of it land now.
void land_batch(Worker& worker, const BlockPipeline& pipeline, std::uint32_t index, PipelineBatch& batch) {
  for (unsigned owner = 0; owner < batch.copies.size(); ++owner) {
    ThreadState& issuer = *worker.threads[owner];
    for (const PendingCopy& copy : batch.copies[owner]) {
      for (int offset = 0; offset < copy.copy_bytes && !worker.reads_after_release.empty(); offset += 4) {
        const auto read = worker.reads_after_release.find(copy.destination + offset);
        if (read == worker.reads_after_release.end() || read->second.thread == owner) continue;
        const Worker::ReadAfterRelease& reader = read->second;
        kernel_fail_at(
            source_line_of(copy.pc),
            "cuda::pipeline: thread " + format_index(worker.threads[reader.thread]->index) + " read " +
                describe_shared_address(worker.shared, copy.destination + offset, 4, reader.pc) + " at " +
                source_line_of(reader.pc) + " after its consumer_release() at " + project_relative(reader.release_file) + ":" +
                std::to_string(reader.release_line) + ", which hands the stage back; thread " +
                format_index(issuer.index) + "'s copy of " + stage_text(pipeline, index) +
                " lands on that word: once every thread has released a stage, the next producer_acquire() may "
                "refill it while a thread still reads it. consumer_release() comes after the stage's last "
                "read (after the tile is computed), not right after consumer_wait().",
            ErrorKind::pipeline);
      }
      SharedConflict conflict;
      if (!check_shared_race(issuer, copy.destination, static_cast<std::size_t>(copy.copy_bytes), true, copy.pc,
                             conflict, copy.source)) {
        const std::string landing = "cuda::pipeline: the copies of " + stage_text(pipeline, index) +
                                    " land at the first consumer_wait() for it, which makes them visible to the "
                                    "block; here thread " + format_index(issuer.index) + "'s copy of it ";
        // Two copies onto one word are an overlap of their destinations, which no
        // ordering of the pipeline's calls mends.
        if (conflict.kind == ErrorKind::shared_write_overlap) {
          kernel_fail_conflict(source_line_of(copy.pc), landing + "lands on a word another thread wrote: ", conflict);
        }
        kernel_fail_at(source_line_of(copy.pc),
                       landing + "lands on a word another thread touched before: " + conflict.message + " " +
                           pipeline_race_hint(worker),
                       conflict.kind);
      }
      std::memcpy(copy.destination, copy.source, static_cast<std::size_t>(copy.source_bytes));
    }
    batch.copies[owner].clear();
  }
  batch.landed = true;
  begin_interval(worker.shared);
}

// A broken cuda::aligned_size_t<N> promise: the library would issue misaligned copies.
void check_aligned_size_promise(const LibraryCopyPromise& promise, const void* dst, const void* src,
                                std::size_t bytes, const std::string& what, const char* file, int line) {
  const std::size_t n = promise.aligned_size;
  if (n <= 1) return;
  const auto dst_address = reinterpret_cast<std::uintptr_t>(dst);
  const auto src_address = reinterpret_cast<std::uintptr_t>(src);
  if (dst_address % n == 0 && src_address % n == 0 && bytes % n == 0) return;
  const std::string text = std::to_string(n);
  kernel_fail(file, line,
              what + "cuda::aligned_size_t<" + text + "> promises that both addresses and the size are multiples of " +
                  text + " bytes, and they are not (destination % " + text + " == " +
                  std::to_string(dst_address % n) + ", source % " + text + " == " + std::to_string(src_address % n) +
                  ", size % " + text + " == " + std::to_string(bytes % n) +
                  "): the library would issue misaligned copies",
              ErrorKind::misaligned);
}

// How the library splits one call, as nvcc compiles it: `head` bytes copied with plain
// loads and stores in pieces of `piece` bytes, then `chunks` cp.async of `width` bytes,
// then the rest again in pieces. Piece i (and chunk i) of each part goes to rank i % size.
struct CopyPlan {
  std::size_t head = 0;
  int width = 4;
  std::size_t chunks = 0;
  std::size_t piece = 1;
};

// A size that is no multiple of the library's copies: what the library's code would do.
void check_whole_pieces(const LibraryCopyPromise& promise, std::size_t bytes, std::size_t piece,
                        const std::string& what, const char* file, int line) {
  const std::size_t rest = bytes % piece;
  if (rest == 0) return;
  const std::string why = promise.aligned_size != 0
                              ? "the cuda::aligned_size_t"
                              : "alignof of the pointers' type, with no cuda::aligned_size_t";
  const std::string consequence =
      promise.api == LibraryApi::cooperative_groups
          ? "cooperative_groups::memcpy_async would leave the last " + std::to_string(rest) + " bytes uncopied"
          : "cuda::memcpy_async would copy " + std::to_string(piece - rest) + " bytes past its end";
  kernel_fail(file, line,
              what + "the size is not a multiple of the library's " + std::to_string(piece) + "-byte copies (from " +
                  why + "): " + consequence,
              ErrorKind::misaligned);
}

// Both libraries take the copy width from the static alignment alone: cp.async of that
// many bytes (16 at most) from 4 bytes up. Below 4, cooperative_groups chooses at run
// time from how far apart the two addresses are modulo 16 (the widest power of two that
// divides their difference, or 16), copying the bytes before the source's first aligned
// address and after the last whole chunk with plain loads and stores (and everything so
// where the size is smaller than that width); cuda::memcpy_async copies everything with
// plain loads and stores of the static alignment. (CUDA 13.0's headers:
// cooperative_groups/details/async.h, cuda/__memcpy_async/dispatch_memcpy_async.h.)
CopyPlan plan_copy(const LibraryCopyPromise& promise, const void* dst, const void* src, std::size_t bytes,
                   const std::string& what, const char* file, int line) {
  const std::size_t alignment = std::min<std::size_t>(static_alignment(promise), 16);
  CopyPlan plan;
  if (alignment >= 4) {
    check_whole_pieces(promise, bytes, alignment, what, file, line);
    plan.width = static_cast<int>(alignment);
    plan.chunks = bytes / alignment;
    return plan;
  }
  if (promise.api == LibraryApi::cuda) {
    check_whole_pieces(promise, bytes, alignment, what, file, line);
    plan.piece = alignment;
    plan.head = bytes;
    return plan;
  }
  const auto src_address = reinterpret_cast<std::uintptr_t>(src);
  const std::uintptr_t apart = (src_address ^ reinterpret_cast<std::uintptr_t>(dst)) & 15;
  std::size_t width = 16;
  for (std::size_t candidate = 8; candidate >= alignment; candidate /= 2) {
    if ((apart & candidate) != 0) width = candidate;
  }
  if (bytes < width) width = alignment;
  if (width < 4) {
    check_whole_pieces(promise, bytes, width, what, file, line);
    plan.piece = width;
    plan.head = bytes;
    return plan;
  }
  plan.width = static_cast<int>(width);
  plan.head = (width - src_address % width) % width;
  plan.chunks = (bytes - plan.head) / width;
  return plan;
}

// One piece of a library copy done with a plain load and store by this thread, checked
// as a cp.async is (a shared destination, a source inside its allocation, races).
void copy_synchronously(ThreadState& thread, std::byte* dst, const std::byte* src, std::size_t bytes,
                        const std::string& what, const char* file, int line, const void* pc) {
  Worker& worker = *thread.worker;
  if (const std::string bad = explain_bad_destination(worker, dst, bytes, pc); !bad.empty()) {
    kernel_fail(file, line, what + bad, bad_destination_kind(dst, bytes));
  }
  const Allocation* source = worker.job->allocations.around(src);
  if (source == nullptr || src + bytes > source->begin + source->bytes) {
    const BadSource bad = explain_bad_source(src, bytes);
    kernel_fail(file, line, what + bad.message, bad.kind);
  }
  if (worker.shared.in_static(dst)) touch_static_shared(worker.shared, dst, bytes);
  if (SharedConflict conflict; !check_shared_race(thread, dst, bytes, true, pc, conflict, src)) {
    kernel_fail_conflict(std::string(file) + ":" + std::to_string(line), what, conflict);
  }
  record_access(thread, reinterpret_cast<std::uintptr_t>(src), bytes, AccessKind::global_load, pc);
  record_access(thread, reinterpret_cast<std::uintptr_t>(dst), bytes, AccessKind::shared_store, pc);
  std::memcpy(dst, src, bytes);
}

}  // namespace

const char* to_string(LibraryApi api) {
  return api == LibraryApi::cooperative_groups ? "cooperative_groups::memcpy_async" : "cuda::memcpy_async";
}

std::size_t static_alignment(const LibraryCopyPromise& promise) {
  if (promise.api == LibraryApi::cooperative_groups) {
    return promise.aligned_size != 0 ? promise.aligned_size : promise.element_alignment;
  }
  return std::max(promise.element_alignment, promise.aligned_size);
}

void library_memcpy_async(void* dst, const void* src, std::size_t bytes, const LibraryCopyPromise& promise,
                          unsigned rank, unsigned group_size, const void* pipeline_state, const char* file,
                          int line) {
  const char* api = to_string(promise.api);
  ThreadState& thread = require_thread(api, file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  const void* pc = __builtin_return_address(0);  // in the kernel: names its line
  const std::string what = std::string(api) + " of " + std::to_string(bytes) + " bytes: ";
  check_aligned_size_promise(promise, dst, src, bytes, what, file, line);
  if (group_size == 0 || rank >= group_size) {
    kernel_fail(file, line, what + "the thread's rank is not inside its group");
  }
  const CopyPlan plan = plan_copy(promise, dst, src, bytes, what, file, line);
  LaunchStats& stats = worker.stats;
  ++stats.library_copies;
  LibraryCopySite& site = stats.library_sites[{file, line}];
  site.file = file;
  site.line = line;
  site.promise = promise;
  ++site.calls;
  const auto src_address = reinterpret_cast<std::uintptr_t>(src);
  site.source_begin = site.calls == 1 ? src_address : std::min(site.source_begin, src_address);
  site.source_end = std::max(site.source_end, src_address + bytes);
  std::size_t& largest = stats.library_copy_bytes[pc];
  largest = std::max(largest, bytes);

  std::vector<PendingCopy>* destination_queue = nullptr;
  if (pipeline_state != nullptr) {
    BlockPipeline& pipeline = require_pipeline(worker, pipeline_state, api, file, line);
    const unsigned self = thread.linear_index;
    if (pipeline.acquired[self] == pipeline.committed[self]) {
      ++stats.pipeline_copies_outside_stage;
      stats.warnings["cuda::memcpy_async calls with no stage acquired, after a producer_commit() and before the "
                     "next producer_acquire(): their copies join the next stage committed, not the one waited "
                     "for. Is producer_commit() before the copies instead of after them, or producer_acquire() "
                     "after them instead of before?"]++;
    }
    PipelineBatch& batch = batch_of(pipeline, pipeline.committed[self], block_threads());
    destination_queue = &batch.copies[self];
    batch.has_copies = true;
  }
  auto* const dst_bytes = static_cast<std::byte*>(dst);
  const auto* const src_bytes = static_cast<const std::byte*>(src);
  const auto copy_pieces = [&](std::size_t first, std::size_t count, std::size_t piece) {
    for (std::size_t index = rank; index < count; index += group_size) {
      const std::size_t offset = first + index * piece;
      copy_synchronously(thread, dst_bytes + offset, src_bytes + offset, piece, what, file, line, pc);
      stats.library_synchronous_bytes += piece;
      site.synchronous_bytes += piece;
      site.bytes += piece;
    }
  };
  copy_pieces(0, plan.head / plan.piece, plan.piece);

  const auto width = static_cast<std::size_t>(plan.width);
  const CacheLevel level = plan.width == 16 ? CacheLevel::global : CacheLevel::all;
  for (std::size_t chunk = rank; chunk < plan.chunks; chunk += group_size) {
    const std::size_t offset = plan.head + chunk * width;
    void* chunk_dst = dst_bytes + offset;
    const void* chunk_src = src_bytes + offset;
    if (destination_queue != nullptr) {
      check_copies_in_flight(destination_queue->size(), what, file, line);
      try {
        destination_queue->push_back(
            issue_copy(thread, chunk_dst, chunk_src, plan.width, plan.width, level, file, line, pc));
      } catch (const KernelError& error) {
        if (error.kind() != ErrorKind::shared_race) throw;  // an overlap: no pipeline call order mends it
        throw KernelError(std::string(error.what()) + " The copy is a cuda::memcpy_async into a pipeline "
                          "stage. " + pipeline_race_hint(worker), ErrorKind::shared_race);
      }
    } else {
      check_copies_in_flight(thread.copies.not_performed(), what, file, line);
      thread.copies.copies.push_back(
          issue_copy(thread, chunk_dst, chunk_src, plan.width, plan.width, level, file, line, pc));
    }
    ++stats.library_cp_async;
    ++site.cp_async[plan.width == 4 ? 0 : plan.width == 8 ? 1 : 2];
    site.bytes += width;
  }
  const std::size_t tail_start = plan.head + plan.chunks * width;
  copy_pieces(tail_start, (bytes - tail_start) / plan.piece, plan.piece);
  if (destination_queue == nullptr) cp_async_commit(file, line);
}

void library_group_wait(int pending_groups, const char* file, int line) {
  ThreadState& thread = require_thread("cooperative_groups::wait", file, line);
  ++thread.worker->stats.group_waits;
  cp_async_wait(pending_groups, file, line);
  sync_block(file, line);
}

void pipeline_attach(const void* shared_state, int stages, unsigned group_size, const char* file, int line) {
  ThreadState& thread = require_thread("cuda::make_pipeline", file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  const unsigned threads = block_threads();
  if (group_size != threads) {
    kernel_fail(file, line,
                "cuda::make_pipeline: the simulator models a pipeline of the whole block "
                "(cooperative_groups::this_thread_block())",
                ErrorKind::pipeline);
  }
  if (stages < 1) kernel_fail(file, line, "cuda::make_pipeline: a pipeline has at least 1 stage", ErrorKind::pipeline);
  if (find_pipeline(worker, shared_state) != nullptr) return;  // another thread made it
  BlockPipeline pipeline;
  pipeline.shared_state = shared_state;
  pipeline.stages = stages;
  pipeline.acquired.assign(threads, 0);
  pipeline.committed.assign(threads, 0);
  pipeline.waited.assign(threads, 0);
  pipeline.released.assign(threads, 0);
  worker.pipelines.push_back(std::move(pipeline));
}

void pipeline_call(const void* shared_state, PipelineCall call, const char* file, int line) {
  const std::string name = std::string("cuda::pipeline::") + call_name(call);
  ThreadState& thread = require_thread(name.c_str(), file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  LaunchStats& stats = worker.stats;
  const unsigned threads = block_threads();
  const unsigned self = thread.linear_index;
  BlockPipeline& pipeline = require_pipeline(worker, shared_state, name.c_str(), file, line);
  const auto stages = static_cast<std::uint32_t>(pipeline.stages);
  const std::string stages_text = std::to_string(stages) + (stages == 1 ? " stage" : " stages");

  switch (call) {
    case PipelineCall::acquire: {
      const std::uint32_t batch = pipeline.acquired[self];
      if (batch > pipeline.committed[self]) {
        kernel_fail(file, line,
                    name + ": this thread acquired a stage before and has not committed it: each "
                           "producer_acquire() is followed by its copies and one producer_commit()",
                    ErrorKind::pipeline);
      }
      if (batch >= stages) {
        const std::uint32_t previous = batch - stages;  // the batch that used this stage before
        if (pipeline.released[self] <= previous) {
          kernel_fail(file, line,
                      name + ": stage " + std::to_string(batch % stages) +
                          " was never released: is consumer_release() missing? The pipeline has " +
                          stages_text + "; this thread's producer_acquire() number " + std::to_string(batch + 1) +
                          " needs the stage back from its use " +
                          std::to_string(previous / stages + 1) + ", which this thread waited for (" +
                          std::to_string(pipeline.waited[self]) + " consumer_wait() so far) but released only " +
                          std::to_string(pipeline.released[self]) +
                          " times. On a GPU the thread would wait for itself forever.",
                      ErrorKind::pipeline);
        }
        // The other threads' reads of the stage come before its refill.
        while (pipeline.batches.count(previous) != 0) block_in(thread, call, file, line);
      }
      ++pipeline.acquired[self];
      ++stats.pipeline_acquires;
      break;
    }
    case PipelineCall::commit: {
      const std::uint32_t batch = pipeline.committed[self];
      if (pipeline.acquired[self] == batch) {
        kernel_fail(file, line,
                    name + ": no stage acquired: every producer_commit() closes the copies issued "
                           "since a producer_acquire()",
                    ErrorKind::pipeline);
      }
      ++pipeline.committed[self];
      ++thread.pipeline_commits;
      ++stats.pipeline_commits;
      thread.group_landing_steps.push_back(timeline_landing_step(thread));
      timeline_note(thread, trace::Event::commit);
      PipelineBatch& state = batch_of(pipeline, batch, threads);
      if (++state.committed == threads) wake(worker, PipelineCall::wait);
      break;
    }
    case PipelineCall::wait: {
      const std::uint32_t batch = pipeline.waited[self];
      if (pipeline.committed[self] <= batch) {
        kernel_fail(file, line,
                    name + ": this thread has committed no stage that it has not waited for yet (" +
                        std::to_string(pipeline.committed[self]) + " producer_commit(), " +
                        std::to_string(batch) +
                        " consumer_wait() before this one): is a producer_commit() missing before it? "
                        "On a GPU the thread would wait for itself forever.",
                    ErrorKind::pipeline);
      }
      stats.pipeline_stages_at_waits += pipeline.committed[self] - batch;
      timeline_note(thread, trace::Event::wait_begins, -1);
      while (batch_of(pipeline, batch, threads).committed < threads) block_in(thread, call, file, line);
      timeline_land_oldest_group(thread);
      timeline_note(thread, trace::Event::wait_ends);
      PipelineBatch& state = pipeline.batches[batch];
      if (!state.landed) land_batch(worker, pipeline, batch, state);  // the first consumer to get here
      if (!state.has_copies) ++stats.pipeline_empty_waits;
      ++pipeline.waited[self];
      ++thread.pipeline_waits;
      thread.released_file = nullptr;  // what it reads from here on is the stage it waited for
      ++stats.pipeline_waits;
      break;
    }
    case PipelineCall::release: {
      const std::uint32_t batch = pipeline.released[self];
      if (pipeline.waited[self] <= batch) {
        kernel_fail(file, line,
                    name + ": no stage to release: consumer_release() hands back the stage of the "
                           "last consumer_wait(), and this thread has released every stage it waited for",
                    ErrorKind::pipeline);
      }
      ++pipeline.released[self];
      ++stats.pipeline_releases;
      thread.released_file = file;
      thread.released_line = line;
      PipelineBatch& state = batch_of(pipeline, batch, threads);
      if (++state.released == threads) {
        pipeline.batches.erase(batch);
        begin_interval(worker.shared);  // every thread's reads of the stage come before its refill
        wake(worker, PipelineCall::acquire);
      }
      break;
    }
  }
}

void begin_block_pipelines(Worker& worker) {
  worker.pipelines.clear();
  worker.reads_after_release.clear();
  for (auto& thread : worker.threads) {
    thread->pipeline_call = nullptr;
    thread->released_file = nullptr;
  }
}

void finish_block_pipelines(Worker& worker) {
  std::uint64_t never_landed = 0;
  for (const BlockPipeline& pipeline : worker.pipelines) {
    for (const auto& [index, batch] : pipeline.batches) {
      if (batch.landed) continue;
      for (const auto& copies : batch.copies) never_landed += copies.size();
    }
  }
  if (never_landed > 0) {
    worker.stats.copies_never_waited += never_landed;
    worker.stats.warnings[
        "cuda::pipeline copies never landed (their stage was never committed by every thread of "
        "the block: is a producer_commit() missing?)"] += never_landed;
  }
  worker.pipelines.clear();
}

std::string describe_stuck_pipelines(const Worker& worker, unsigned threads) {
  std::vector<unsigned> blocked;
  for (unsigned i = 0; i < threads; ++i) {
    if (worker.threads[i]->status == ThreadStatus::at_pipeline) blocked.push_back(i);
  }
  if (blocked.empty()) return {};
  const ThreadState& first = *worker.threads[blocked.front()];
  std::vector<unsigned> elsewhere;
  for (unsigned i = 0; i < threads; ++i) {
    if (worker.threads[i]->status != ThreadStatus::at_pipeline) elsewhere.push_back(i);
  }
  std::string text = "a cuda::pipeline that can never go on: threads " + index_runs(blocked) + " (of " +
                     std::to_string(threads) + ") wait in " + first.pipeline_call + " at " +
                     first.pipeline_file + ":" + std::to_string(first.pipeline_line);
  if (!elsewhere.empty()) {
    text += ", for threads " + index_runs(elsewhere) +
            ", which ended or wait at a __syncthreads() without having " +
            (std::string(first.pipeline_call) == "consumer_wait()" ? "committed" : "released") +
            " that stage";
  }
  text += ". Every thread of the block calls producer_acquire(), producer_commit(), consumer_wait() "
          "and consumer_release() the same number of times, in that order for each stage.";
  return text;
}

}  // namespace wb::sim
