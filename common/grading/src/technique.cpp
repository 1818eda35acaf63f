#include "wb/grading/technique.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

namespace wb::grading {

#if WB_BACKEND_SIM
::testing::AssertionResult loaded_through_cp_async(const sim::LaunchStats& stats,
                                                   std::uint64_t elements) {
  const std::uint64_t copied = stats.cp_async_bytes / 4;
  if (copied < elements) {
    return ::testing::AssertionFailure()
           << copied << " of " << elements
           << " elements reached shared memory through cp.async (" << stats.cp_async_ops()
           << " cp.async operations in " << stats.blocks << " blocks). The step is about "
           << "asynchronous copies: load every element of the tile with wb::cp_async "
              "instead of a plain assignment.";
  }
  if (copied > elements) {
    return ::testing::AssertionFailure()
           << copied << " elements went through cp.async for " << elements
           << " distinct ones: some elements are copied more than once, by threads whose loops overlap (a "
              "loop's start or step that puts two threads on one element), or by copies of a partial tile's "
              "elements past its edge, brought back onto the edge (a clamped index) where the loop should stop.";
  }
  if (stats.copies_never_waited > 0) {
    return ::testing::AssertionFailure()
           << stats.copies_never_waited
           << " cp.async copies were never waited for: wait for every copy before the "
              "kernel ends.";
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult only_copies_store_to_shared_memory(const sim::LaunchStats& stats) {
  if (const auto& stores = stats.of(sim::AccessKind::shared_store); stores.requests > 0) {
    const sim::AccessSite* most = nullptr;  // the store with the most requests, for its line
    for (const auto& [key, site] : stats.sites) {
      if (site.kind == sim::AccessKind::shared_store && (most == nullptr || site.counts.requests > most->counts.requests)) {
        most = &site;
      }
    }
    const std::string line = most == nullptr ? std::string() : sim::source_line_of(most->pc);
    return ::testing::AssertionFailure()
           << "the threads stored into shared memory with "
           << stores.requests << " plain store requests" << (line.empty() ? std::string() : " (most at " + line + ")")
           << ". In this step the copies alone fill the tile: a store besides them (the tile filled with zeros "
              "before the copies, say) is work done for nothing, and a barrier more.";
  }
  return ::testing::AssertionSuccess();
}

namespace {

// 32.0, 1.5, 1.05: one decimal, or two where one would round a threshold away.
std::string one_decimal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  if (std::abs(std::strtod(text, nullptr) - value) > 1e-9 && std::abs(value) < 100) {
    std::snprintf(text, sizeof text, "%.2f", value);
  }
  return text;
}

}  // namespace

::testing::AssertionResult one_float_per_copy(const sim::LaunchStats& stats) {
  if (stats.cp_async_8 == 0 && stats.cp_async_16 == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "the copies were " << stats.cp_async_4 << " of 4 bytes, " << stats.cp_async_8 << " of 8 and "
         << stats.cp_async_16 << " of 16: this step copies one float per cp.async (wb::cp_async, 4 bytes). "
            "Wider copies move several floats at once and need their addresses at multiples of their width, "
            "which chapter 5 teaches.";
}

::testing::AssertionResult waited_once_per_thread(const sim::LaunchStats& stats) {
  if (stats.threads == 0 || stats.waits <= stats.threads) return ::testing::AssertionSuccess();
  const auto per_thread = [&](std::uint64_t count) {
    return static_cast<double>(count) / static_cast<double>(stats.threads);
  };
  const double in_flight = stats.waits == 0 ? 0.0
                                            : static_cast<double>(stats.copies_in_flight_at_waits) /
                                                  static_cast<double>(stats.waits);
  // These steps have one barrier a block, after the copies: one for each wait as well
  // says the barrier sits in the copy loop beside the wait.
  const double barriers_per_block =
      stats.blocks == 0 ? 0.0 : static_cast<double>(stats.barriers) / static_cast<double>(stats.blocks);
  const bool barrier_in_the_loop = barriers_per_block > 1.5 && barriers_per_block + 0.5 >= per_thread(stats.waits);
  std::string barrier_text;
  if (barrier_in_the_loop) {
    barrier_text = " Each wait has a __syncthreads() after it too (" + std::to_string(stats.barriers / stats.blocks) +
                   " barriers a block where the step has one): move both, the wait and the barrier, after the copy "
                   "loops, once, where every thread of the block reaches them; a barrier inside a loop whose trip "
                   "count differs between threads (at a partial tile) is reached by part of the block only.";
  }
  return ::testing::AssertionFailure()
         << one_decimal(per_thread(stats.waits)) << " waits per thread for " << one_decimal(per_thread(stats.cp_async_ops()))
         << " copies, with " << one_decimal(in_flight)
         << " of them in flight at a wait on average: a wait inside the copy loop lets only the copies issued since "
            "the last wait travel together, where cp.async is meant to keep them all in flight at once. Issue all "
            "of a thread's copies, then wait once." << barrier_text;
}

namespace {

const char* unit(sim::AccessKind kind) {
  return sim::is_shared(kind) ? "wavefronts" : "sectors";
}

// The site of `kind` furthest above its own ideal: the most transactions per request over
// the ideal of the same requests (a 16-byte access's 4 wavefronts are its ideal, a 4-byte
// one's 2 a conflict), then the most per request, then the most requests.
const sim::AccessSite* worst_site(const sim::LaunchStats& stats, sim::AccessKind kind) {
  const auto excess = [](const sim::AccessSite& site) {
    const double ideal = site.counts.ideal_per_request();
    return ideal > 0.0 ? site.counts.per_request() / ideal : site.counts.per_request();
  };
  const sim::AccessSite* worst = nullptr;
  for (const auto& [key, site] : stats.sites) {
    if (site.kind != kind || site.counts.requests == 0) continue;
    const bool worse =
        worst == nullptr || excess(site) > excess(*worst) ||
        (excess(site) == excess(*worst) &&
         (site.counts.per_request() > worst->counts.per_request() ||
          (site.counts.per_request() == worst->counts.per_request() && site.counts.requests > worst->counts.requests)));
    if (worse) worst = &site;
  }
  return worst;
}

}  // namespace

std::string describe_requests(const sim::LaunchStats& stats, sim::AccessKind kind) {
  const sim::RequestCounts& counts = stats.of(kind);
  std::string text = sim::to_string(kind);
  if (counts.requests == 0) return text + ": none";
  text += ": " + one_decimal(counts.per_request()) + " " + unit(kind) + " per request (ideal " +
          one_decimal(counts.ideal_per_request()) + ", " + std::to_string(counts.requests) +
          " requests)";
  if (const sim::AccessSite* worst = worst_site(stats, kind)) {
    const std::string line = sim::source_line_of(worst->pc);
    text += "; worst at " + (line.empty() ? std::string("an unknown line") : line) + ", " +
            one_decimal(worst->counts.per_request()) + " per request for " +
            std::to_string(worst->bytes) + "-byte accesses (ideal " +
            one_decimal(worst->counts.ideal_per_request()) + ")";
  }
  return text;
}

::testing::AssertionResult transactions_per_request_at_most(const sim::LaunchStats& stats,
                                                            sim::AccessKind kind, double limit,
                                                            const std::string& advice) {
  const sim::RequestCounts& counts = stats.of(kind);
  if (counts.requests == 0 || counts.per_request() <= limit) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << describe_requests(stats, kind) << ". The step asks for at most "
         << one_decimal(limit) << " " << unit(kind) << " per request: " << advice;
}

::testing::AssertionResult within_the_ideal(const sim::LaunchStats& stats, sim::AccessKind kind,
                                            const std::string& advice) {
  return transactions_per_request_at_most(stats, kind, stats.of(kind).ideal_per_request() * 1.05, advice);
}

::testing::AssertionResult every_thread_copies(const sim::LaunchStats& stats, const std::string& advice) {
  if (stats.threads_without_copies == 0 || stats.blocks == 0) return ::testing::AssertionSuccess();
  const std::uint64_t block_threads = stats.threads / stats.blocks;
  return ::testing::AssertionFailure()
         << stats.threads_without_copies << " of the launch's " << stats.threads << " threads issued no cp.async ("
         << one_decimal(static_cast<double>(stats.threads_without_copies) / static_cast<double>(stats.blocks))
         << " of each block's " << block_threads << ", on average), though every tile was whole: the others copied "
         << "their share too, in more copies each, from fewer warps. " << advice;
}

::testing::AssertionResult lanes_per_request_at_least(const sim::LaunchStats& stats, sim::AccessKind kind,
                                                      double minimum, const std::string& advice) {
  const sim::RequestCounts& counts = stats.of(kind);
  if (counts.requests == 0 || counts.lanes_per_request() >= minimum) return ::testing::AssertionSuccess();
  const sim::AccessSite* fewest = nullptr;
  for (const auto& [key, site] : stats.sites) {
    if (site.kind != kind || site.counts.requests == 0) continue;
    if (fewest == nullptr || site.counts.lanes_per_request() < fewest->counts.lanes_per_request()) fewest = &site;
  }
  std::string where;
  if (fewest != nullptr) {
    const std::string line = sim::source_line_of(fewest->pc);
    where = "; fewest at " + (line.empty() ? std::string("an unknown line") : line) + ", " +
            one_decimal(fewest->counts.lanes_per_request());
  }
  return ::testing::AssertionFailure()
         << sim::to_string(kind) << ": " << one_decimal(counts.lanes_per_request()) << " active lanes per request of 32 ("
         << counts.requests << " requests" << where << "). The step asks for at least " << one_decimal(minimum)
         << ", as the reference makes: " << advice;
}

::testing::AssertionResult no_one_lane_loops(const sim::LaunchStats& stats, sim::AccessKind kind,
                                             const std::string& advice) {
  if (stats.blocks == 0) return ::testing::AssertionSuccess();
  for (const auto& [key, site] : stats.sites) {
    if (site.kind != kind || site.counts.requests <= 32 * stats.blocks || site.counts.lanes_per_request() >= 2.0) {
      continue;
    }
    const std::string line = sim::source_line_of(site.pc);
    return ::testing::AssertionFailure()
           << "the " << sim::to_string(kind) << " at " << (line.empty() ? std::string("an unknown line") : line)
           << " went one lane at a time: " << site.counts.requests << " requests of "
           << one_decimal(site.counts.lanes_per_request()) << " active lanes on average, in " << stats.blocks
           << (stats.blocks == 1 ? " block" : " blocks")
           << ": one thread walks a loop whose elements the block's threads could share, while the other 31 "
              "lanes of its warp idle. "
           << advice;
  }
  return ::testing::AssertionSuccess();
}

const sim::AccessSite* site_with_most_lanes(const sim::LaunchStats& stats, sim::AccessKind kind, bool by_bytes) {
  const sim::AccessSite* most = nullptr;
  const auto size = [by_bytes](const sim::AccessSite& site) { return by_bytes ? site.counts.bytes : site.counts.lanes; };
  for (const auto& [key, site] : stats.sites) {
    if (site.kind != kind) continue;
    if (most == nullptr || size(site) > size(*most)) most = &site;
  }
  return most;
}

std::uint64_t stored_floats(const sim::LaunchStats& stats) {
  return stats.of(sim::AccessKind::global_store).bytes / sizeof(float);
}

::testing::AssertionResult each_element_stored_once(const sim::LaunchStats& stats, std::uint64_t elements) {
  const std::uint64_t stored = stored_floats(stats);
  if (elements == 0 || stored <= elements) return ::testing::AssertionSuccess();
  std::string where;
  if (const sim::AccessSite* most = site_with_most_lanes(stats, sim::AccessKind::global_store, true)) {
    const std::string line = sim::source_line_of(most->pc);
    where = " (" + std::to_string(most->counts.bytes / sizeof(float)) + " of them at " +
            (line.empty() ? std::string("an unknown line") : line) + ")";
  }
  return ::testing::AssertionFailure()
         << "global stores: " << stored << " elements stored for " << elements << " output elements, "
         << one_decimal(static_cast<double>(stored) / static_cast<double>(elements)) << " each" << where
         << ", where every element is stored once, by one thread. Either the threads of a block store the same "
            "elements again (a store loop that steps by less than they cover together, by 1 where the thread "
            "layout's extent is meant, or that starts every thread at 0 instead of its own first element), or two "
            "blocks store the same tile (a block's loop running past its own tiles into the next block's).";
}

::testing::AssertionResult copies_read_whole_elements(const sim::LaunchStats& stats) {
  if (!stats.odd_source_copy) return ::testing::AssertionSuccess();
  const sim::OddSourceCopy& copy = *stats.odd_source_copy;
  return ::testing::AssertionFailure()
         << stats.cp_async_odd_source << " cp.async copies were given a source size of " << copy.source_bytes
         << (copy.source_bytes == 1 ? " byte" : " bytes") << " for a copy of " << copy.copy_bytes << " (the first at "
         << copy.site << "): the source size is how many bytes the copy reads, and it fills the rest with zeros, "
         << "so an odd size reads part of a float (a value near zero, which a tolerance lets pass). A copy of zeros "
            "reads nothing: its source size is 0.";
}

::testing::AssertionResult no_work_after_the_last_store(const sim::LaunchStats& stats) {
  if (!stats.read_after_last_store) return ::testing::AssertionSuccess();
  const sim::ReadAfterLastStore& read = *stats.read_after_last_store;
  const std::string line = sim::source_line_of(read.pc);
  return ::testing::AssertionFailure()
         << stats.blocks_reading_after_last_store
         << (stats.blocks_reading_after_last_store == 1 ? " block read shared memory after its"
                                                        : " blocks read shared memory after their")
         << " last store of the output: block (" << read.block.x << ","
         << read.block.y << "," << read.block.z << ") read at " << (line.empty() ? std::string("an unknown line") : line)
         << ", " << read.barriers << (read.barriers == 1 ? " barrier" : " barriers")
         << " after its last store. No store takes what that work computes: an iteration of the tile loop past "
            "the block's last tile (its bound `<=` where `<` is meant?) waits, meets the block and computes a "
            "tile whose every store the bounds test skips.";
}

std::string busiest_barrier(const sim::LaunchStats& stats) {
  const std::pair<const char*, int>* busiest = nullptr;
  std::uint64_t most = 0;
  for (const auto& [site, count] : stats.barriers_by_site) {
    if (count > most) busiest = &site, most = count;
  }
  if (busiest == nullptr || busiest->first == nullptr) return {};
  return " (" + std::to_string(most) + " of them at " + sim::project_relative(busiest->first) + ":" +
         std::to_string(busiest->second) + ")";
}

std::string simulator_notes(const sim::LaunchStats& stats) {
  std::string notes;
  for (const auto& [text, count] : stats.warnings) {
    notes += "The simulator noticed: " + std::to_string(count) + " " + text + "\n";
  }
  return notes;
}

void judge_technique(const std::function<::testing::AssertionResult(const sim::LaunchStats&)>& technique,
                     const std::function<void(const sim::LaunchStats&)>& on_success, const sim::LaunchStats& stats,
                     std::uint64_t outputs, const std::string& where, const Step& step,
                     const std::function<std::string(const sim::CopyWindowRace&)>& race_cause) {
  // The output is right, and a copy was touched while in flight: the simulator landed it
  // after the access, a GPU may not.
  if (stats.copy_window_race) {
    const std::string cause = race_cause ? race_cause(*stats.copy_window_race) : std::string();
    ADD_FAILURE() << where << "the output is right here, but " << stats.copy_window_race->message << "\n"
                  << (cause.empty() ? std::string() : "Likely cause: " + cause + "\n") << step.hint_line();
    return;
  }
  // Stores repeated first: a loop that redoes the work also skews every per-request figure
  // (a thread walking the whole tile from its own start reads it unaligned), and only
  // the count of stores says what happened.
  ::testing::AssertionResult result = each_element_stored_once(stats, outputs);
  if (result && technique) result = technique(stats);
  // What no step's own figures look at: a copy that reads part of a float, and work after
  // the block's last store (both leave the output right).
  if (result) result = copies_read_whole_elements(stats);
  if (result) result = no_work_after_the_last_store(stats);
  if (!result) {
    ADD_FAILURE() << where << result.message() << "\n" << step.hint_line();
    return;
  }
  if (on_success) on_success(stats);
}
double tiles_in_flight_at_waits(const sim::LaunchStats& stats, int k_tiles) {
  if (stats.waits == 0 || stats.threads == 0 || k_tiles <= 0) return 0.0;
  const double copies_per_tile =
      static_cast<double>(stats.cp_async_ops()) / static_cast<double>(stats.threads * static_cast<std::uint64_t>(k_tiles));
  const double per_wait = static_cast<double>(stats.copies_in_flight_at_waits) / static_cast<double>(stats.waits);
  return per_wait / copies_per_tile;
}

double pipelined_tiles_at_waits(int stages, int k_tiles) {
  double found = 0.0;
  for (int t = 0; t < k_tiles; ++t) found += std::min(stages - 1, k_tiles - t);
  return found / (k_tiles + 1);
}

::testing::AssertionResult loads_overlap(const sim::LaunchStats& stats, int stages, int k_tiles,
                                         const std::string& wait_call) {
  if (k_tiles < kOverlapMinKTiles) return ::testing::AssertionSuccess();
  const double tiles = tiles_in_flight_at_waits(stats, k_tiles);
  if (tiles >= kOverlapMinTiles) return ::testing::AssertionSuccess();
  // The loop's wait and the one after it, and a commit a tile and one a prologue stage: more
  // a thread says another wait or commit stands elsewhere (in the code that loads a tile,
  // say). An extra wait lands the tiles in flight; an extra commit makes groups of its
  // own, and the loop's wait<N>, which counts groups, then lands the tiles behind this one.
  const auto per_thread = [&stats](std::uint64_t count) {
    return stats.threads == 0 ? 0.0 : static_cast<double>(count) / static_cast<double>(stats.threads);
  };
  std::string cause = " A wait<0> (or a wait_all) lands every copy, the next tile's too, and serialises the "
                      "pipeline: wait with " + wait_call + ".";
  if (per_thread(stats.waits) > k_tiles + 1.5) {
    cause = " The threads waited " + one_decimal(per_thread(stats.waits)) + " times each for " +
            std::to_string(k_tiles) + " k-tiles, where the loop's wait and the one after it make " +
            std::to_string(k_tiles + 1) + ": another wait (in the code that loads a tile, say) lands the tiles in "
            "flight.";
  } else if (per_thread(stats.commit_groups) > k_tiles + stages + 0.5) {
    cause = " The threads committed " + one_decimal(per_thread(stats.commit_groups)) + " groups each for " +
            std::to_string(k_tiles) + " k-tiles, where the pipeline commits one a tile and one a stage of its "
            "prologue (at most " + std::to_string(k_tiles + stages) + "): another commit (in the code that loads a "
            "tile, say) makes groups of its own, and " + wait_call + ", which counts groups, not tiles, then "
            "lands the tiles in flight behind the one it waits for.";
  }
  return ::testing::AssertionFailure()
         << "the waits found " << two_decimals(tiles) << " tiles in flight on average ("
         << stats.copies_in_flight_at_waits << " copies over " << stats.waits << " waits); a pipeline of " << stages
         << " stages keeps the next tiles in flight while one is computed: each wait of the loop finds " << stages - 1
         << " but the last ones, and the wait after the loop none, "
         << two_decimals(pipelined_tiles_at_waits(stages, k_tiles)) << " on average over these " << k_tiles
         << " k-tiles (at least " << one_decimal(kOverlapMinTiles) << " is asked)." << cause;
}

bool overlap_judged(const sim::LaunchStats& stats, std::uint64_t tiles) {
  constexpr std::uint64_t kMinTilesPerBlock = 3;
  return stats.blocks > 0 && tiles >= kMinTilesPerBlock * stats.blocks;
}

namespace {

// "alignof(T) = 4 (the pointers' type; no cuda::aligned_size_t)": where the promise of a
// library call came from, in the library's own rule (sim::static_alignment).
std::string promise_text(const sim::LibraryCopyPromise& promise) {
  const std::string type_part = "alignof of the pointers' type, " + std::to_string(promise.element_alignment);
  if (promise.aligned_size == 0) return type_part + ", and no cuda::aligned_size_t";
  const std::string size_part = "cuda::aligned_size_t<" + std::to_string(promise.aligned_size) + ">";
  return promise.api == sim::LibraryApi::cooperative_groups ? size_part : size_part + " and " + type_part;
}

}  // namespace

std::string library_sites_narrower_than(const sim::LaunchStats& stats, int width,
                                        const std::function<bool(const sim::LibraryCopySite&)>& judged) {
  const int index = width == 4 ? 0 : width == 8 ? 1 : 2;
  std::string text;
  for (const auto& [key, site] : stats.library_sites) {
    if (judged && !judged(site)) continue;
    if (site.cp_async[index] == site.cp_async_ops() && site.synchronous_bytes == 0) continue;
    text += std::string(text.empty() ? "" : " ") + sim::project_relative(site.file) + ":" +
            std::to_string(site.line) + ": " +
            sim::to_string(site.promise.api) + " issued";
    const char* sizes[] = {"4", "8", "16"};
    for (int w = 0; w < 3; ++w) {
      if (site.cp_async[w] != 0) text += " " + std::to_string(site.cp_async[w]) + " copies of " + sizes[w] + " bytes,";
    }
    if (site.synchronous_bytes != 0) {
      text += " " + std::to_string(site.synchronous_bytes) + " bytes with plain loads and stores,";
    }
    text += " as its call promises an alignment of " + std::to_string(sim::static_alignment(site.promise)) +
            " bytes (" + promise_text(site.promise) + ").";
  }
  return text;
}

std::string two_decimals(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}
#endif

}  // namespace wb::grading
