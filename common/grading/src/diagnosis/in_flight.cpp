#include "wb/grading/diagnosis/in_flight.hpp"

namespace wb::grading {

#if WB_BACKEND_SIM
namespace {

std::string index_text(const uint3& index) {
  return "(" + std::to_string(index.x) + ", " + std::to_string(index.y) + ")";
}

}  // namespace

std::string in_flight_read_cause(const sim::LaunchStats& stats, int step_wait, const std::string& step_wait_call,
                                 bool loads_before_the_wait) {
  if (!stats.in_flight_read) return "";
  const sim::InFlightRead& read = *stats.in_flight_read;
  const std::string line = sim::source_line_of(read.pc);
  const std::string issuer = read.issuer.x == read.reader.x && read.issuer.y == read.reader.y
                                 ? "its own"
                                 : "thread " + index_text(read.issuer) + "'s";
  const std::string observed = "thread " + index_text(read.reader) + " of block " + index_text(read.block) +
                               " read, at " + (line.empty() ? std::string("an unknown line") : line) +
                               ", a word that " + issuer + " cp.async was still bringing";
  // A copy issued after the thread's last wait, and in no group: the wait came before the
  // copies (a wait lands only what was issued before it), and nothing after them waited.
  if (read.group >= read.commits && read.last_wait >= 0 && read.issued_after_last_wait) {
    return observed + ", a copy issued after that thread's last wait, and no wait came after it: the wait "
                      "stands before the copies, and a wait lands only the copies issued before it (it does not "
                      "hold back later ones). Issue the copies first, then wait for them, then the barrier.";
  }
  if (read.group >= read.commits && read.last_wait < 0) {
    return observed + ", and that thread had neither committed its copies into a group nor waited: a "
                      "cp_async_commit() and a wait for the group are missing before the barrier and the reads.";
  }
  if (read.group >= read.commits) {
    return observed + ", a copy that no cp_async_commit() had put in a group: a wait<N> waits only for "
                      "committed groups, so a commit is missing after the copies (or comes after the wait).";
  }
  if (read.last_wait < 0) {
    return observed + ", and that thread had not waited at all: a cp_async_wait is missing before the "
                      "barrier and the reads.";
  }
  if (read.issued_after_last_wait) {
    return observed + ", a copy issued after that thread's last wait, into a word read before any wait "
                      "lands it: a stage is refilled while it is read (the refill's stage is the one being "
                      "computed, or the reads use the stage being refilled).";
  }
  const std::string wait = "wait<" + std::to_string(read.last_wait) + ">";
  const std::string left = observed + ", in group " + std::to_string(read.group) + " of that thread; its last " +
                           wait + ", with " + std::to_string(read.commits_at_last_wait) +
                           " groups committed, left the newest " + std::to_string(read.last_wait) +
                           " in flight, this one among them";
  if (step_wait >= 0 && read.last_wait > step_wait) {
    const std::string call = step_wait_call.empty() ? "wait<" + std::to_string(step_wait) + ">" : step_wait_call;
    return left + ": this step waits with " + call + ", which lands " +
           (step_wait == 0 ? "every group before the reads" : "the tile about to be read") +
           "; a wait that leaves " + std::to_string(read.last_wait) + " in flight leaves these copies travelling.";
  }
  if (read.commits_at_last_wait == read.commits_at_wait_before) {
    return left + ", and no group was committed since the wait before it, so this wait landed nothing new: "
                  "commit a group every iteration, an empty one where no tile is left to load, so that "
                  "wait<" + std::to_string(read.last_wait) + "> always lands the tile being computed.";
  }
  if (step_wait >= 0 && read.last_wait == step_wait) {
    // The step loads and commits the next tile, then waits, then reads: a reading thread
    // that committed again between its wait and its read has the wait first.
    const bool own_copy = read.issuer.x == read.reader.x && read.issuer.y == read.reader.y;
    if (loads_before_the_wait && own_copy && read.commits > read.commits_at_last_wait &&
        read.group + 1 == read.commits_at_last_wait) {
      return left + ", and it committed another group after that wait, before this read: the wait comes before the "
                    "next tile's load and its commit, so wait<" + std::to_string(step_wait) +
                    "> finds the tile about to be read the newest group and leaves it in flight. Load and commit the "
                    "next tile first, then wait.";
    }
    // Copies issued and not committed at a wait: the commit comes before the loads it
    // means to close, so each tile's copies join the group committed an iteration later.
    if (stats.waits_with_uncommitted_copies > 0) {
      return left + "; and its waits found copies issued but not committed: the commit comes before the load it "
                    "means to close, so each tile's copies join the group committed an iteration later and "
                    "wait<" + std::to_string(step_wait) + "> leaves them in flight. Commit after the load.";
    }
    return left + ", as the step's pipeline means it to. So the stage read is not the one holding the tile the "
                  "wait has just landed: the read and the load in flight share a stage (the read's stage index "
                  "ahead, or the load's stage index the one being read, where the other stage is meant), or "
                  "copies of two tiles went into one group (a commit missing before), so that the wait counts "
                  "fewer groups than tiles.";
  }
  return "";
}
#endif

}  // namespace wb::grading
