/// \file
/// What a timeline recording holds (wb/trace.hpp records it): plain types, with no
/// backend, so that host tools read them too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wb::trace {

/// What a warp did at a moment of its timeline.
enum class Event : std::uint32_t {
  commit = 1,          ///< closed a group of copies (cp.async.commit_group, producer_commit)
  wait_begins = 2,     ///< entered a wait; value: the groups it lets stay in flight (-1: all but the oldest)
  wait_ends = 3,       ///< left it
  barrier_begins = 4,  ///< arrived at __syncthreads()
  barrier_ends = 5,    ///< left it
};

/// One event: 16 bytes, as the GPU writes it.
struct Record {
  std::uint64_t time;
  std::uint32_t event;
  std::int32_t value;
};

/// The events of one warp of a sampled block, in its order.
struct WarpRecords {
  unsigned block = 0;  ///< the block's index in its grid (x fastest)
  unsigned warp = 0;
  bool overflowed = false;  ///< more events than were kept: the later ones are missing
  std::vector<Record> records;
};

/// A launch's recording.
struct Recording {
  bool logical = false;       ///< simulator steps; else GPU cycles
  double clock_khz = 0.0;     ///< cycles per millisecond, on a GPU (0 in the simulator)
  std::uint64_t copy_steps = 0;  ///< in the simulator, the steps from a commit to its group's landing
  std::vector<WarpRecords> warps;
};

/// In the simulator, the steps a copy takes from its commit to landing, unless start()
/// is told otherwise (a timeline program gives about its reference's work on one tile).
inline constexpr std::uint64_t kSimCopySteps = 100;

}  // namespace wb::trace
