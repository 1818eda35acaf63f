#include "wb/grading/technique.hpp"

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
           << " distinct ones: some elements are copied more than once (do the loops of "
              "the threads overlap?).";
  }
  if (stats.copies_never_waited > 0) {
    return ::testing::AssertionFailure()
           << stats.copies_never_waited
           << " cp.async copies were never waited for: wait for every copy before the "
              "kernel ends.";
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

// The site of `kind` with the most transactions per request (ties: the most requests).
const sim::AccessSite* worst_site(const sim::LaunchStats& stats, sim::AccessKind kind) {
  const sim::AccessSite* worst = nullptr;
  for (const auto& [key, site] : stats.sites) {
    if (site.kind != kind || site.counts.requests == 0) continue;
    if (worst == nullptr || site.counts.per_request() > worst->counts.per_request() ||
        (site.counts.per_request() == worst->counts.per_request() &&
         site.counts.requests > worst->counts.requests)) {
      worst = &site;
    }
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

std::string simulator_notes(const sim::LaunchStats& stats) {
  std::string notes;
  for (const auto& [text, count] : stats.warnings) {
    notes += "The simulator noticed: " + std::to_string(count) + " " + text + "\n";
  }
  return notes;
}

void judge_technique(const std::function<::testing::AssertionResult(const sim::LaunchStats&)>& technique,
                     const std::function<void(const sim::LaunchStats&)>& on_success, const sim::LaunchStats& stats,
                     const std::string& where, const Step& step) {
  // The output is right, and a copy was touched while in flight: the simulator landed it
  // after the access, a GPU may not.
  if (stats.copy_window_race) {
    ADD_FAILURE() << where << "the output is right here, but " << *stats.copy_window_race << "\n" << step.hint_line();
    return;
  }
  if (technique) {
    if (const ::testing::AssertionResult result = technique(stats); !result) {
      ADD_FAILURE() << where << result.message() << "\n" << step.hint_line();
      return;
    }
  }
  if (on_success) on_success(stats);
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
