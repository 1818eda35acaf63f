// Footprints of shared memory: the evidence of a gap in a block's copies.
//
// The race check (race_check.cpp) keeps, for each word of shared memory, the barrier
// interval of its last write and of its last read. The running block's intervals are the
// newest, so a word whose last write is older than the block's first interval holds
// nothing the block wrote: a load of it reads what a GPU leaves undefined (the simulator's
// stale poison). A worker records the first such load of its launch with what its block
// had written of that array by then; at the block's end, the block's other loads of
// unfilled words there and its whole footprint of the array. Block (0,0,0)'s footprint of
// every array it touched is recorded at its end too. A kernel that reads only what it
// wrote pays one comparison per word loaded (in the race check) and a scan of the arrays
// at the end of one block a launch.
#include <algorithm>

#include "worker.hpp"

namespace wb::sim {
namespace {

// The words of one shared array in the race check's histories.
struct ArrayWords {
  std::string name;
  bool in_static = true;
  std::size_t first = 0;  // its first word's index in the histories
  std::size_t count = 0;  // 0: no array known there
};

const std::vector<WordHistory>& histories_of(const SharedMemory& shared, bool in_static) {
  return in_static ? shared.static_history : shared.dynamic_history;
}

// Whether an access of barrier interval `interval` was made by the running block.
bool of_running_block(const SharedMemory& shared, std::uint32_t interval) {
  return interval != 0 && interval >= shared.block_first_interval;
}

// The array whose words are `first`, `count` words long, clipped to the histories.
ArrayWords clipped(const SharedMemory& shared, ArrayWords array) {
  const std::size_t size = histories_of(shared, array.in_static).size();
  array.count = array.first >= size ? 0 : std::min(array.count, size - array.first);
  return array;
}

ArrayWords static_array(const SharedMemory& shared, const SharedVariable& variable) {
  if (variable.bytes == 0 || variable.begin < shared.static_begin) return {};
  const auto first = static_cast<std::size_t>(variable.begin - shared.static_begin) / 4;
  return clipped(shared, {variable.name, true, first, (variable.bytes + 3) / 4});
}

ArrayWords dynamic_array(const SharedMemory& shared) {
  return clipped(shared, {"the dynamic shared memory", false, 0, shared.dynamic_history.size()});
}

ArrayWords array_holding(const SharedMemory& shared, bool in_static, std::size_t history_index) {
  if (!in_static) return dynamic_array(shared);
  return static_array(shared, shared_variable_at(shared, shared.static_begin + 4 * history_index));
}

ArrayFootprint footprint_of(const SharedMemory& shared, const ArrayWords& array) {
  ArrayFootprint footprint;
  footprint.array = array.name;
  footprint.written.resize(array.count);
  footprint.read.resize(array.count);
  const std::vector<WordHistory>& histories = histories_of(shared, array.in_static);
  for (std::size_t i = 0; i < array.count; ++i) {
    const WordHistory& word = histories[array.first + i];
    footprint.written[i] = of_running_block(shared, word.write_interval);
    footprint.read[i] = of_running_block(shared, word.read_interval);
  }
  return footprint;
}

bool touched(const ArrayFootprint& footprint) {
  const auto any = [](const std::vector<bool>& flags) {
    return std::find(flags.begin(), flags.end(), true) != flags.end();
  };
  return any(footprint.written) || any(footprint.read);
}

}  // namespace

void note_unfilled_read(ThreadState& thread, bool in_static, std::size_t history_index, std::size_t bytes,
                        const void* pc) {
  Worker& worker = *thread.worker;
  const SharedMemory& shared = worker.shared;
  std::optional<UnfilledRead>& record = worker.stats.unfilled_read;
  if (record) {  // later loads of the same block and array join it; the rest is left out
    if (worker.unfilled_read_running && in_static == worker.unfilled_array_in_static &&
        history_index >= worker.unfilled_array_first &&
        history_index - worker.unfilled_array_first < record->read_unfilled.size()) {
      record->read_unfilled[history_index - worker.unfilled_array_first] = true;
    }
    return;
  }
  const ArrayWords array = array_holding(shared, in_static, history_index);
  if (array.count == 0 || history_index < array.first || history_index - array.first >= array.count) return;
  UnfilledRead read;
  read.block_linear = static_cast<std::uint64_t>(worker.running_block);
  read.block = blockIdx;
  read.thread = thread.index;
  read.pc = pc;
  read.bytes = static_cast<unsigned>(bytes);
  read.word = history_index - array.first;
  read.filled = footprint_of(shared, array).written;
  const std::vector<WordHistory>& histories = histories_of(shared, in_static);
  for (std::size_t i = read.word; i-- > 0;) {
    if (read.filled[i]) {
      read.nearest_write_pc = histories[array.first + i].write_pc;
      break;
    }
  }
  read.read_unfilled.assign(array.count, false);
  read.read_unfilled[read.word] = true;
  read.footprint.array = array.name;
  record = std::move(read);
  worker.unfilled_read_running = true;
  worker.unfilled_array_in_static = in_static;
  worker.unfilled_array_first = array.first;
}

void finish_block_footprints(Worker& worker, std::uint64_t block_linear) {
  const SharedMemory& shared = worker.shared;
  if (worker.unfilled_read_running) {
    UnfilledRead& read = *worker.stats.unfilled_read;
    read.footprint = footprint_of(shared, {read.footprint.array, worker.unfilled_array_in_static,
                                           worker.unfilled_array_first, read.read_unfilled.size()});
    worker.unfilled_read_running = false;
  }
  if (block_linear != 0) return;
  std::vector<ArrayFootprint>& footprints = worker.stats.first_block_footprints;
  for (const SharedVariable& variable : shared_variables(shared)) {
    const ArrayWords array = static_array(shared, variable);
    if (array.count == 0) continue;
    ArrayFootprint footprint = footprint_of(shared, array);
    if (touched(footprint)) footprints.push_back(std::move(footprint));
  }
  if (ArrayFootprint footprint = footprint_of(shared, dynamic_array(shared)); touched(footprint)) {
    footprints.push_back(std::move(footprint));
  }
}

}  // namespace wb::sim
