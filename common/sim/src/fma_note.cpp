// wb::note_fmas(): where a thread's FMAs run, in a simulator that sees no arithmetic.
//
// Each call records how many shared loads the thread had made by then; at the block's end
// the calls are judged against the thread's own loads. A thread that reads one column of
// fragments ahead of its FMAs (chapter 4's double buffering) reads calls + 1 columns in
// all, an equal share of its loads each, and at its call i has read columns 0 to i + 1:
// (i + 2) shares. One that reads each column just before its FMAs has (i + 1). So a call
// found the next fragments read when loads_before x (calls + 1) >= (i + 2) x loads: this
// holds for the look-ahead whether or not it skips the last, unused read, and fails for
// FMAs that come first, at every call.
#include "worker.hpp"

namespace wb::sim {

void note_fmas(const char* file, int line) {
  ThreadState& thread = require_thread("wb::note_fmas", file, line);
  note_call_site(thread, file, line);
  thread.shared_loads_at_fmas.push_back(thread.shared_loads);
}

void finish_block_fma_notes(Worker& worker, std::uint64_t block_linear, unsigned threads) {
  LaunchStats& stats = worker.stats;
  for (unsigned i = 0; i < threads; ++i) {
    const ThreadState& thread = *worker.threads[i];
    const std::vector<std::uint64_t>& at = thread.shared_loads_at_fmas;
    const std::uint64_t calls = at.size();
    const std::uint64_t loads = thread.shared_loads;
    for (std::uint64_t call = 0; call < calls; ++call) {
      if (at[call] * (calls + 1) >= (call + 2) * loads) {
        ++stats.fma_notes_after_next_reads;
      } else if (!stats.fmas_before_next_reads || stats.fmas_before_next_reads->block_linear > block_linear) {
        stats.fmas_before_next_reads = FmasBeforeNextReads{block_linear, blockIdx, i, call, calls, at[call], loads};
      }
    }
    stats.fma_notes += calls;
  }
}

}  // namespace wb::sim
