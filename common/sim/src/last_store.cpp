// Work after a block's last store: shared loads in a barrier interval after the one where
// the block last stored to global memory. Whatever they read feeds no store, so it is
// work thrown away: an iteration of a tile loop past the block's last tile (a bound `<=`
// where `<` is meant) waits, passes a barrier and computes a tile whose every store its
// bounds test skips, with the output still right. A kernel that loads, computes and
// stores in one interval, or stores last, makes none.
#include "worker.hpp"

namespace wb::sim {

void begin_block_last_store(Worker& worker) {
  worker.block_barriers = 0;
  worker.stored = false;
  worker.barriers_at_last_store = 0;
  worker.barriers_at_last_load = 0;
  worker.last_load_pc = nullptr;
}

void finish_block_last_store(Worker& worker, std::uint64_t block_linear) {
  if (!worker.stored || worker.last_load_pc == nullptr) return;
  if (worker.barriers_at_last_load <= worker.barriers_at_last_store) return;
  LaunchStats& stats = worker.stats;
  ++stats.blocks_reading_after_last_store;
  if (!stats.read_after_last_store || stats.read_after_last_store->block_linear > block_linear) {
    stats.read_after_last_store = ReadAfterLastStore{block_linear, blockIdx, worker.last_load_pc,
                                                     worker.barriers_at_last_load - worker.barriers_at_last_store};
  }
}

}  // namespace wb::sim
