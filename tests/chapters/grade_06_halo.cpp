// The grader of chapter 6, halo convolution: a test per step, each at several sizes,
// under the forward and the reverse schedule in the simulator and once on the GPU.
//
// Each run: fresh random input and weights, the output poisoned with guard bands around
// it, then (1) nothing written outside the output, (2) every output within a tolerance of
// a double-precision reference, tile edges and both ends of the array included, the
// pattern of the wrong outputs named (wb/grading/convolution.hpp), and (3) in the
// simulator, the technique: every element of every span, its halo included, reaches shared
// memory through cp.async, exactly once; in steps 2 and 3 each wait finds two groups in
// flight (this tile's and the next one's, issued before this tile's arithmetic) and
// leaves the next one travelling.
//
// Sizes: the seed's 16384, sizes that are no multiple of the tile, a single partial
// tile, and arrays shorter than the halo. The simulator runs grids of
// wb::kSimulatedResidentBlocks (2) blocks in steps 2 and 3, so that a block walks several
// tiles at these sizes; the GPU adds 2^24 elements.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "halo.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/convolution.hpp"
#include "wb/grading/step.hpp"
#include "wb/grading/technique.hpp"

namespace {

using wb::grading::ConvolutionCheck;
using wb::grading::Step;
#if WB_BACKEND_SIM
using wb::grading::tiles_of;
using wb::grading::two_decimals;
#endif

const char* const kFile = "chapters/06_halo/halo.cu";

std::vector<int> sizes() {
  std::vector<int> list{ch06::kSeedSize, ch06::kSeedSize + 77, 40960 + 333, 1000, 256, 3, 1};
#if !WB_BACKEND_SIM
  list.push_back(1 << 24);
#endif
  return list;
}

wb::grading::Causes causes(const std::string& race) {
  return {
      {wb::ErrorKind::source_out_of_bounds,
       "a cp.async read outside the input: the span reaches halo elements before the array's "
       "start and after its end. A copy of an element outside [0, n) must read 0 bytes (its source "
       "then is never read, and it writes a zero)."},
      {wb::ErrorKind::source_not_device,
       "a cp.async read outside the input: the span reaches halo elements before the array's "
       "start and after its end. A copy of an element outside [0, n) must read 0 bytes (its source "
       "then is never read, and it writes a zero)."},
      {wb::ErrorKind::destination_not_shared,
       "the shared address of a cp.async lies outside the span's buffer: does the loop over the span "
       "stop at tile + 2 * halo elements, and is the buffer index 0 or 1?"},
      {wb::ErrorKind::global_out_of_bounds,
       "an access past the end of the input, the weights or the output: are the stores bounded by n "
       "(the last tile is partial), and the weights' loads by the width?"},
      {wb::ErrorKind::too_many_copies,
       "copies issued without end: is a wait missing from the loop over tiles?"},
      {wb::ErrorKind::shared_race, race},
      {wb::ErrorKind::barrier, wb::grading::barrier_divergence_cause("out_index < n")},
      {wb::ErrorKind::shared_write_overlap,
       "two copies wrote one word of a span buffer between two barriers: their destinations overlap. "
       "Word j of a buffer holds input[tile_start - Halo + j], for j below Tile + 2 * Halo: does each copy "
       "land at its own j, inside its own buffer?"},
  };
}

const Step kStep1{6, 1, "the tile and its halo through cp.async", kFile,
                  causes("a thread read a word of shared memory that another thread wrote (a cp.async "
                         "of the span or a store of the weights) with no barrier between. Each "
                         "thread's copies are visible to itself after its wait, the others' after "
                         "a __syncthreads() that follows everyone's wait and everyone's stores of "
                         "the weights: one barrier, after both, before the sums.")};

const Step kStep2{6, 2, "several tiles a block, double-buffered", kFile,
                  causes("a buffer was written by one thread's cp.async and touched by another thread "
                         "with no barrier between. Either this tile is read before the __syncthreads() "
                         "that follows everyone's wait, or a buffer is refilled while others still "
                         "read it: the barrier at the end of each iteration keeps the next "
                         "iteration's copies out of the buffer just read.")};

const Step kStep3{6, 3, "the width as a template parameter", kFile,
                  kStep2.causes};

const std::string kInFlightCause =
    "outputs were computed from a buffer whose copies were still in flight: wb::cp_async_wait<1>() lands "
    "every group but the newest, which is the next tile's. Read this tile's buffer, smem_span[buffer], "
    "refill the other, smem_span[buffer ^ 1], and wait before the barrier and the reads.";

// The two ways a double buffer's groups come out one short, each recognised by where the
// outputs read in flight lie (wb/grading/convolution.hpp).
const std::string kFirstTileInFlightCause =
    "only each block's first tile was read while its copies were in flight, and waits waited for nothing: "
    "the first tile's copies, issued before the loop, were not committed there, so they joined the next "
    "tile's group in the first iteration, and wb::cp_async_wait<1>() let that one group travel on. Commit "
    "the first tile as a group of its own before the loop (wb::cp_async_commit() after its "
    "load_span_async).";
const std::string kLastTileInFlightCause =
    "only each block's last tile was read while its copies were in flight: in the last iteration no group "
    "was committed after this tile's, so wb::cp_async_wait<1>() let this tile's group, the newest, travel "
    "on. Commit in every iteration, an empty group when there is no next tile (the commit outside the "
    "`if`), so that wait<1> always means 'all but the next tile'.";

ConvolutionCheck convolution_check(const Step& step, void (*convolve)(const float*, const float*, float*, int),
                                   int n, int width, int tile) {
  ConvolutionCheck check;
  check.step = step;
  check.n = n;
  check.width = width;
  check.tile = tile;
  check.other_tile_sizes = {{ch06::kTile, "step 1's tiles (kTile)"}, {ch06::kStreamTile, "step 2's tiles (kStreamTile)"}};
  check.run = [convolve, n](const float* in, const float* weights, float* out) { convolve(in, weights, out, n); };
  return check;
}

#if WB_BACKEND_SIM
std::string figure(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// Every element of every span, halo included, reached shared memory through cp.async,
// once, and was waited for.
::testing::AssertionResult spans_through_cp_async(const wb::sim::LaunchStats& stats, int n, int width, int tile) {
  const int halo = ch06::halo_of(width);
  const auto span = static_cast<std::uint64_t>(tile + 2 * halo);
  const std::uint64_t expected = static_cast<std::uint64_t>(tiles_of(n, tile)) * span;
  if (stats.cp_async_ops() < expected) {
    // What is missing says which: whole spans (a tile loaded another way), or the halos.
    const std::uint64_t missing = expected - stats.cp_async_ops();
    const std::uint64_t halos = static_cast<std::uint64_t>(tiles_of(n, tile)) * 2 * static_cast<std::uint64_t>(halo);
    std::string which;
    if (missing % span == 0) {
      which = std::to_string(missing / span) + (missing / span == 1 ? " span" : " whole spans") + " of " +
              std::to_string(span) + " elements are missing: a tile's span reached shared memory another way "
              "(plain loads and stores, which wait where they stand and let nothing travel) or not at all. Every "
              "span goes through load_span_async.";
    } else if (missing == halos) {
      which = "exactly the halos are missing, " + std::to_string(halo) + " elements on each side of every tile: "
              "the halo goes to shared memory through cp.async too (zero-filled outside the array, never skipped "
              "or stored with a plain assignment).";
    } else {
      which = "every element of every span, the halo too, goes to shared memory through cp.async (zero-filled "
              "outside the array, never skipped or stored with a plain assignment).";
    }
    return ::testing::AssertionFailure()
           << stats.cp_async_ops() << " cp.async copies for " << expected << " span elements ("
           << tiles_of(n, tile) << " tiles x (" << tile << " + 2 x " << halo << ")): " << which;
  }
  if (stats.cp_async_ops() > expected) {
    // One span more a block, almost all of it zeros: each block copied a span past its last
    // tile (the next tile's copies issued in the last iteration too). A tile loaded twice
    // adds a span a block as well, but of the array's elements, not zeros.
    std::uint64_t zeros_needed = 0;  // the span elements outside [0, n): zero-filled rightly
    for (long long first = -halo; first < static_cast<long long>(n) - halo; first += tile) {
      for (long long element = first; element < first + static_cast<long long>(span); ++element) {
        zeros_needed += element < 0 || element >= n ? 1 : 0;
      }
    }
    const std::uint64_t extra = stats.cp_async_ops() - expected;
    if (stats.blocks > 0 && extra == stats.blocks * span &&
        stats.cp_async_zero_filled >= zeros_needed + stats.blocks * (span - static_cast<std::uint64_t>(halo))) {
      return ::testing::AssertionFailure()
             << stats.cp_async_ops() << " cp.async copies for " << expected << " span elements: " << extra
             << " more, one span (" << span << " copies) for each of the " << stats.blocks << " blocks, and "
             << stats.cp_async_zero_filled - zeros_needed << " more zero-filled copies than the spans' elements "
             << "outside the array: every block copied a span past its last tile. The next tile's copies are "
             << "issued only while there is a next tile (next < tiles); in the last iteration only the commit "
             << "runs, an empty group, so that the wait's count stays the same.";
    }
    return ::testing::AssertionFailure()
           << stats.cp_async_ops() << " cp.async copies for " << expected << " span elements: some are "
           << "copied twice (is a tile loaded twice, or do the threads' loops overlap?).";
  }
  if (stats.copies_never_waited > 0) {
    return ::testing::AssertionFailure() << stats.copies_never_waited
                                         << " copies were never waited for: wait for every copy before the "
                                            "kernel ends.";
  }
  return ::testing::AssertionSuccess();
}

// Tiles in flight at a wait and after it, on average, in units of one thread's copies of
// one tile. A block of T tiles that issues the next tile before waiting with wait<1>
// finds 2 at each wait but the last, (2T - 1) / T on average, and leaves 1, (T - 1) / T.
// Judged where every block has at least 3 tiles: at least 1.5 and 0.5.
struct Overlap {
  double at_waits;
  double after_waits;
};

Overlap overlap(const wb::sim::LaunchStats& stats, int n) {
  if (stats.waits == 0 || stats.cp_async_ops() == 0) return {0.0, 0.0};
  const double copies_per_thread_tile =
      static_cast<double>(stats.cp_async_ops()) / (static_cast<double>(tiles_of(n, ch06::kStreamTile)) * ch06::kThreads);
  const double waits = static_cast<double>(stats.waits);
  return {static_cast<double>(stats.copies_in_flight_at_waits) / waits / copies_per_thread_tile,
          static_cast<double>(stats.copies_in_flight_after_waits) / waits / copies_per_thread_tile};
}

constexpr double kMinTilesAtWaits = 1.5;
constexpr double kMinTilesAfterWaits = 0.5;

bool overlap_judged(const wb::sim::LaunchStats& stats, int n) {
  return wb::grading::overlap_judged(stats, static_cast<std::uint64_t>(tiles_of(n, ch06::kStreamTile)));
}

::testing::AssertionResult copies_overlap(const wb::sim::LaunchStats& stats, int n) {
  if (!overlap_judged(stats, n)) return ::testing::AssertionSuccess();
  const Overlap found = overlap(stats, n);
  if (found.at_waits >= kMinTilesAtWaits && found.after_waits >= kMinTilesAfterWaits) {
    return ::testing::AssertionSuccess();
  }
  // One commit a tile and one for a block's first: more a thread says an extra (empty)
  // group, the one wait<1> then leaves in flight, so that the wait lands the next tile too.
  const std::uint64_t threads_per_block = stats.blocks == 0 ? 0 : stats.threads / stats.blocks;
  const std::uint64_t commits_expected =
      threads_per_block * (static_cast<std::uint64_t>(tiles_of(n, ch06::kStreamTile)) + stats.blocks);
  if (commits_expected > 0 && stats.commit_groups * 5 > commits_expected * 6) {
    return ::testing::AssertionFailure()
           << "the waits found " << two_decimals(found.at_waits) << " tiles in flight and left "
           << two_decimals(found.after_waits) << " travelling, on average: the copies and the arithmetic take turns. "
           << "The threads committed " << stats.commit_groups << " groups in all, where one a tile and one for each "
           << "block's first tile make " << commits_expected << ": an extra commit makes a group of its own (an "
              "empty one), and wb::cp_async_wait<1>(), which leaves the newest group in flight, then leaves that "
              "one and lands the next tile too. Commit once an iteration, after the next tile's copies.";
  }
  return ::testing::AssertionFailure()
         << "the waits found " << two_decimals(found.at_waits) << " tiles in flight and left "
         << two_decimals(found.after_waits) << " travelling, on average (" << stats.waits << " waits, "
         << stats.blocks << " blocks of " << tiles_of(n, ch06::kStreamTile) / static_cast<int>(stats.blocks)
         << " or more tiles): the copies and the arithmetic take turns. Double buffering has two groups "
            "in flight at each wait, this tile's and the next one's (at least "
         << kMinTilesAtWaits << " on average), and leaves the next one travelling while this tile is "
            "computed (at least "
         << kMinTilesAfterWaits << "). Issue the next tile's copies, into the other buffer, before this "
            "tile's wait and arithmetic, not after them; and wait with wb::cp_async_wait<1>(), which lands "
            "this tile's group only: a wb::cp_async_wait<0>() lands the next one too and serialises the "
            "copies and the arithmetic.";
}
#endif

#if WB_BACKEND_SIM
// The span's copies coalesced: a warp's copies take 32 consecutive floats, 4 sectors, or 5
// where the span, which starts `halo` floats before its tile, crosses one more boundary
// (the reference measures 4.4 to 4.9 sectors a request where the ideal is 3.6 to 3.9).
::testing::AssertionResult span_copies_coalesced(const wb::sim::LaunchStats& stats) {
  const double ideal = stats.of(wb::sim::AccessKind::cp_async_read).ideal_per_request();
  return wb::grading::transactions_per_request_at_most(
      stats, wb::sim::AccessKind::cp_async_read, ideal + 1.25,
      "the span's copies read global memory scattered. The copy loop gives consecutive elements to "
      "consecutive threads (j = threadIdx.x, then j += kThreads), so that a warp's copies read 32 consecutive "
      "floats; a thread that copies a run of its own puts its lanes a run apart.");
}

// The weights, the same for every tile, loaded once a block: kWidth plain loads each (one
// a thread of the first kWidth), never again for each tile.
::testing::AssertionResult weights_loaded_once(const wb::sim::LaunchStats& stats, int width) {
  const std::uint64_t once = stats.blocks * static_cast<std::uint64_t>(width);
  if (stats.global_loads <= once) return ::testing::AssertionSuccess();
  const wb::sim::AccessSite* most = wb::grading::site_with_most_lanes(stats, wb::sim::AccessKind::global_load);
  const std::string line = most == nullptr ? std::string() : wb::sim::source_line_of(most->pc);
  return ::testing::AssertionFailure()
         << stats.global_loads << " plain loads of global memory (the weights') in " << stats.blocks << " blocks"
         << (line.empty() ? std::string() : ", most at " + line) << ", where " << width << " a block load them once ("
         << once << "): the weights are the same for every tile, so a block loads them once, before its tile loop, "
            "not again for each tile.";
}

// The weights' plain loads made while the thread's copies of the span travel (after they
// are issued, before the wait): the latency the step gives them to hide behind. The
// reference makes every one there; a load before the copies are issued, or after the
// wait, overlaps nothing.
::testing::AssertionResult weights_loaded_while_copies_travel(const wb::sim::LaunchStats& stats) {
  if (stats.global_loads == 0 || stats.global_loads_while_copies_travel == stats.global_loads) {
    return ::testing::AssertionSuccess();
  }
  const std::uint64_t outside = stats.global_loads - stats.global_loads_while_copies_travel;
  std::string lines;
  for (const auto& [pc, count] : stats.global_loads_without_copies_by_site) {
    const std::string line = wb::sim::source_line_of(pc);
    lines += (lines.empty() ? "" : ", ") + (line.empty() ? std::string("an unknown line") : line) + " (" +
             std::to_string(count) + ")";
  }
  return ::testing::AssertionFailure()
         << outside << " of the " << stats.global_loads << " plain loads of global memory (the weights') were made "
         << "with none of the thread's copies in flight, at " << lines << "; the reference makes all of them while "
         << "the span's copies travel. Load the weights after the span's copies are issued and committed, and "
            "before the wait: then their latency overlaps the copies'. Before the copies, or after the wait, "
            "nothing overlaps them.";
}
#endif

using Chapter6Halo = wb::grading::KernelTest;

TEST_F(Chapter6Halo, Step1TheTileAndItsHaloThroughCpAsync) {
  wb::grading::check_convolution_sizes(sizes(), [](int n) {
    ConvolutionCheck check = convolution_check(kStep1, ch06::convolve_tiles, n, ch06::kWidth, ch06::kTile);
#if WB_BACKEND_SIM
    check.technique = [n](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = spans_through_cp_async(stats, n, ch06::kWidth, ch06::kTile);
      if (technique) technique = span_copies_coalesced(stats);
      if (technique) technique = weights_loaded_once(stats, ch06::kWidth);
      if (technique) technique = weights_loaded_while_copies_travel(stats);
      return technique;
    };
#endif
    return check;
  });
}

TEST_F(Chapter6Halo, Step2SeveralTilesABlockDoubleBuffered) {
  [[maybe_unused]] bool reported = false;
  wb::grading::check_convolution_sizes(sizes(), [&](int n) {
    ConvolutionCheck check =
        convolution_check(kStep2, ch06::convolve_double_buffered, n, ch06::kWidth, ch06::kStreamTile);
    check.in_flight_cause = kInFlightCause;
    check.step_wait = 1;  // the double buffer's wait<1>: this tile's group lands, the next one's travels
    check.first_tile_in_flight_cause = kFirstTileInFlightCause;
    check.buffers = 2;
    check.last_tile_in_flight_cause = kLastTileInFlightCause;
#if WB_BACKEND_SIM
    check.technique = [n](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = spans_through_cp_async(stats, n, ch06::kWidth, ch06::kStreamTile);
      if (technique) technique = span_copies_coalesced(stats);
      if (technique) technique = copies_overlap(stats, n);
      if (technique) technique = weights_loaded_once(stats, ch06::kWidth);
      if (technique) technique = weights_loaded_while_copies_travel(stats);
      return technique;
    };
    check.on_success = [&reported, n](const wb::sim::LaunchStats& stats) {
      if (reported || !overlap_judged(stats, n)) return;
      reported = true;
      const Overlap found = overlap(stats, n);
      std::printf("Chapter 6, step 2, %d elements, %llu blocks: %s tiles in flight at a wait, %s after it, "
                  "on average\n",
                  n, static_cast<unsigned long long>(stats.blocks), figure(found.at_waits).c_str(),
                  figure(found.after_waits).c_str());
    };
#endif
    return check;
  });
}

template <int Width>
void check_width() {
  std::string note;
  if (Width > 32) {
    note = "This width, " + std::to_string(Width) + ", is wider than a warp: are all " + std::to_string(Width) +
           " weights loaded (a loop over k from threadIdx.x to Width, not one warp's lanes), and is the halo, " +
           std::to_string(ch06::halo_of(Width)) + " on each side, loaded whole?";
  }
  // Width 5 runs first: a kernel that fails at another width below a warp's has passed at
  // the seed's, on the same sizes, so the width alone is what breaks it.
  std::string proven_cause;
  if (Width != ch06::kWidth && Width <= 32) {
    proven_cause = "the same kernel passed at width 5, the seed's, and fails at width " +
                   std::to_string(Width) + " (halo " + std::to_string(ch06::halo_of(Width)) +
                   "): something in it is right for 5 weights only. Look for step 2's constants, kWidth or "
                   "kHalo, where the template's Width or halo belongs (a span's halo, the weights loaded, the "
                   "convolution's width, a buffer's size), or a size written for width 5 (a span of "
                   "kStreamTile + 4).";
  }
  std::vector<int> list{ch06::kSeedSize + 77, 40960 + 333, 2000, Width / 2 + 1};
#if !WB_BACKEND_SIM
  // 2^22, not steps 1 and 2's 2^24: five widths, each checked against a reference
  // computed on the CPU, must grade within the step's time limit (20 s).
  list.push_back(1 << 22);
#endif
  wb::grading::check_convolution_sizes(list, [&](int n) {
    ConvolutionCheck check = convolution_check(kStep3, ch06::convolve_width<Width>, n, Width, ch06::kStreamTile);
    check.in_flight_cause = kInFlightCause;
    check.step_wait = 1;  // the double buffer's wait<1>: this tile's group lands, the next one's travels
    check.first_tile_in_flight_cause = kFirstTileInFlightCause;
    check.buffers = 2;
    check.last_tile_in_flight_cause = kLastTileInFlightCause;
    check.note = note;
    check.proven_cause = proven_cause;
#if WB_BACKEND_SIM
    check.technique = [n](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = spans_through_cp_async(stats, n, Width, ch06::kStreamTile);
      if (technique) technique = span_copies_coalesced(stats);
      if (technique) technique = copies_overlap(stats, n);
      if (technique) technique = weights_loaded_once(stats, Width);
      if (technique) technique = weights_loaded_while_copies_travel(stats);
      return technique;
    };
#endif
    return check;
  });
}

TEST_F(Chapter6Halo, Step3TheWidthAsATemplateParameter) {
  check_width<5>();
  if (HasFailure()) return;
  check_width<3>();
  if (HasFailure()) return;
  check_width<7>();
  if (HasFailure()) return;
  check_width<9>();
  if (HasFailure()) return;
  check_width<33>();
}

}  // namespace
