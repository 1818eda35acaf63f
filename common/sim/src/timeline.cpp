// The simulator's side of wb::trace (wb/trace.hpp): timelines in logical time. A thread's
// clock is its `step`, one per instrumented access and simulator call; a barrier releases
// every thread at the step of the last to arrive, and a copy group lands a number of steps
// after its commit (start() says how many), so that a wait issued sooner waits until then. That is a model of
// what the code allows to overlap, not a measurement of what a GPU does.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>

#include "worker.hpp"

namespace wb::sim {

namespace {

std::atomic<unsigned> sampled_blocks{0};  // 0: not recording
std::atomic<std::uint64_t> copy_steps{trace::kSimCopySteps};
std::mutex recorded_mutex;
std::vector<std::pair<std::uint64_t, std::vector<trace::WarpRecords>>> recorded;  // by block, unsorted

}  // namespace

void begin_block_timeline(Worker& worker, std::uint64_t block_linear, unsigned threads) {
  worker.timeline.clear();
  if (block_linear >= sampled_blocks.load(std::memory_order_relaxed)) return;
  worker.timeline.resize((threads + 31) / 32);
  for (unsigned warp = 0; warp < worker.timeline.size(); ++warp) {
    worker.timeline[warp].block = static_cast<unsigned>(block_linear);
    worker.timeline[warp].warp = warp;
  }
}

void finish_block_timeline(Worker& worker) {
  if (worker.timeline.empty()) return;
  const std::uint64_t block = worker.timeline.front().block;
  std::lock_guard lock(recorded_mutex);
  recorded.emplace_back(block, std::move(worker.timeline));
  worker.timeline.clear();
}

void timeline_note(ThreadState& thread, trace::Event event, int value) {
  std::vector<trace::WarpRecords>& timeline = thread.worker->timeline;
  if (timeline.empty() || thread.lane() != 0) return;
  timeline[thread.warp()].records.push_back({thread.step, static_cast<std::uint32_t>(event), value});
}

std::uint64_t timeline_landing_step(const ThreadState& thread) { return thread.step + copy_steps; }

void timeline_land_oldest_group(ThreadState& thread) {
  if (thread.group_landing_steps.empty()) return;
  thread.step = std::max(thread.step, thread.group_landing_steps.front());
  thread.group_landing_steps.pop_front();
}

}  // namespace wb::sim

namespace wb::trace {

void start(unsigned sample_blocks, std::uint64_t sim_copy_steps) {
  sim::copy_steps = sim_copy_steps;
  {
    std::lock_guard lock(sim::recorded_mutex);
    sim::recorded.clear();
  }
  sim::sampled_blocks = sample_blocks;
}

Recording stop() {
  sim::sampled_blocks = 0;
  Recording recording;
  recording.logical = true;
  recording.copy_steps = sim::copy_steps;
  std::lock_guard lock(sim::recorded_mutex);
  // Blocks run in parallel: put them back in order (launch after launch keeps its order
  // only within a block number, which a recording of one launch never meets).
  std::stable_sort(sim::recorded.begin(), sim::recorded.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [block, warps] : sim::recorded) {
    for (WarpRecords& warp : warps) {
      if (!warp.records.empty()) recording.warps.push_back(std::move(warp));
    }
  }
  sim::recorded.clear();
  return recording;
}

}  // namespace wb::trace
