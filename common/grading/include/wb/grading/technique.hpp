// Technique checks: did the step really use what it teaches? Read from the simulator's
// counters of the last launch; on the GPU there are no counters, and these checks are
// not made there (the simulator build of the same grader makes them).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "wb/grading/step.hpp"

#include "wb/wb.cuh"

namespace wb::grading {

#if WB_BACKEND_SIM
// Every one of `elements` floats reached shared memory through cp.async, each once, and
// every copy was waited for.
::testing::AssertionResult loaded_through_cp_async(const sim::LaunchStats& stats,
                                                   std::uint64_t elements);

// No plain store to shared memory: in a step whose copies alone fill the tile, a store
// besides them is work done for nothing (the tile zeroed before the copies, say).
::testing::AssertionResult only_copies_store_to_shared_memory(const sim::LaunchStats& stats);

// Every cp.async of 4 bytes: the steps before chapter 5 copy one float per copy.
::testing::AssertionResult one_float_per_copy(const sim::LaunchStats& stats);

// Every thread of every block issued a cp.async: where a step's thread layout gives each
// thread its share of a whole tile, threads with none leave the copies to fewer warps
// (the requests stay full, so only this count shows it). `advice`: how the step shares them.
::testing::AssertionResult every_thread_copies(const sim::LaunchStats& stats, const std::string& advice);

// Each thread issued all its copies and then waited once: not a wait after every copy,
// which keeps one copy in flight at a time (the very thing cp.async is for).
::testing::AssertionResult waited_once_per_thread(const sim::LaunchStats& stats);

// The requests of `kind` took at most `limit` transactions (wavefronts or sectors) per
// request on average. The failure gives the figure, the ideal, the worst source line
// with its own figure, and `advice` (what to change).
::testing::AssertionResult transactions_per_request_at_most(const sim::LaunchStats& stats,
                                                            sim::AccessKind kind, double limit,
                                                            const std::string& advice);

// The requests of `kind` took at most 5% more transactions than the ideal of the same
// requests: coalesced global accesses, conflict-free shared ones (judged on whole tiles,
// where the simulator's requests are exact).
::testing::AssertionResult within_the_ideal(const sim::LaunchStats& stats, sim::AccessKind kind,
                                            const std::string& advice);

// The requests of `kind` had at least `minimum` active lanes on average (32 is a whole
// warp): a thread layout wider than the tile leaves lanes idle, and the same work takes
// more requests. The failure gives the figure, the line with the fewest, and `advice`.
::testing::AssertionResult lanes_per_request_at_least(const sim::LaunchStats& stats, sim::AccessKind kind,
                                                      double minimum, const std::string& advice);

// No code address of `kind` made its accesses one lane at a time in bulk: more than 32
// requests a block, of fewer than 2 active lanes each, is one thread walking a loop that
// the block's threads could share, while its warp's other lanes idle. The failure names
// the line and the figures, then `advice`.
::testing::AssertionResult no_one_lane_loops(const sim::LaunchStats& stats, sim::AccessKind kind,
                                             const std::string& advice);

// The float elements the launch stored to global memory, counted in bytes: a lane's float4
// store is 4 of them.
std::uint64_t stored_floats(const sim::LaunchStats& stats);

// The launch stored at most `elements` floats to global memory: every output element
// once, whether a lane stores one or a float4 of four. A loop that steps by less than the
// threads cover together, or that starts every thread at 0, stores the same elements
// again, and so do two blocks that store one tile; the output stays right, and the failure
// gives the count, the line that stored most, and the two ways there.
::testing::AssertionResult each_element_stored_once(const sim::LaunchStats& stats, std::uint64_t elements);

// Every sized cp.async read whole elements: no odd source size (1 byte of a float where 0,
// nothing read, is meant: the float comes out as a denormal near zero, which a tolerance
// lets pass). The failure gives the size, the copy's and the line.
::testing::AssertionResult copies_read_whole_elements(const sim::LaunchStats& stats);

// No block read shared memory after a barrier that followed its last store of the output:
// that work feeds no store, as an iteration of a tile loop past the block's last tile. The
// failure names the block, the line and the barriers between.
::testing::AssertionResult no_work_after_the_last_store(const sim::LaunchStats& stats);

// " (N of them at chapters/04_gemm/gemm.cu:185)" for the barrier that was released most, or
// "" where none was: the line to name when a block meets more barriers than a step needs.
std::string busiest_barrier(const sim::LaunchStats& stats);

// The code site whose requests of `kind` had the most active lanes (the most accesses),
// null where the launch made none: the line to name when a count runs over. With
// `by_bytes`, the site that accessed the most bytes (the most elements, a float4 lane
// counting four).
const sim::AccessSite* site_with_most_lanes(const sim::LaunchStats& stats, sim::AccessKind kind,
                                            bool by_bytes = false);

// "shared loads: 16.5 wavefronts per request (ideal 1.0); worst copy.cu:60, 32.0" for a
// message, or "shared loads: none".
std::string describe_requests(const sim::LaunchStats& stats, sim::AccessKind kind);

// The last judgement of a run whose result is right: the step's technique, then that each
// of the `outputs` elements was stored once, whatever the step asks (a failure names
// `where` and the step's hint), then, if both hold, the step's report of a pass.
// `technique` and `on_success` may be empty. A copy touched in flight fails first, with
// the cause `race_cause` reads from it where one fits (empty, or "": none named).
void judge_technique(const std::function<::testing::AssertionResult(const sim::LaunchStats&)>& technique,
                     const std::function<void(const sim::LaunchStats&)>& on_success, const sim::LaunchStats& stats,
                     std::uint64_t outputs, const std::string& where, const Step& step,
                     const std::function<std::string(const sim::CopyWindowRace&)>& race_cause = {});

// A cp.async pipeline of `stages` stages over `k_tiles` tiles (chapters 4 and 5's GEMMs).
// Tiles in flight at a wait, on average: the copies a wait found not yet landed, over the
// copies of one tile of one thread. A wait that lets one group stay in flight finds two
// tiles (the one it waits for and the next), except at the end; one that waits for all
// finds one, as nothing was left in flight by the wait before.
double tiles_in_flight_at_waits(const sim::LaunchStats& stats, int k_tiles);
// The same for a correct pipeline: the wait of iteration t finds min(stages - 1,
// k_tiles - t) (its own tile and those issued behind it), and the wait after the loop
// none. For 3 stages that is (2T - 1) / (T + 1): 1.67 over 8 k-tiles. The book quotes it.
double pipelined_tiles_at_waits(int stages, int k_tiles);
// Judged where the loop is long enough for the ends not to dominate (8 k-tiles or more,
// where the correct pipeline finds 1.67 or more); a pipeline serialised by a wait<0>
// finds 1.0 or fewer. `wait_call` is the step's own wait ("wb::cp_async_wait<kStages - 2>()").
inline constexpr int kOverlapMinKTiles = 8;
inline constexpr double kOverlapMinTiles = 1.5;
::testing::AssertionResult loads_overlap(const sim::LaunchStats& stats, int stages, int k_tiles,
                                         const std::string& wait_call);

// Tiles of `tile` elements that cover `n` elements, the last one possibly partial.
inline int tiles_of(int n, int tile) { return (n + tile - 1) / tile; }

// Whether a launch streaming `tiles` tiles gave its blocks enough of them (3 or more
// each, on average) for the overlap of copies and work to be judged: with fewer, a
// block's first and last tiles, which nothing can overlap, decide its averages.
bool overlap_judged(const sim::LaunchStats& stats, std::uint64_t tiles);

// "1.75": an average measured by the simulator, for a message.
std::string two_decimals(double value);

// The library's call sites (cooperative_groups::memcpy_async, cuda::memcpy_async) among
// those `judged` accepts (every one without it) whose copies are not all cp.async of
// `width` bytes, a sentence each: its line, what it issued, and the static alignment its
// call promised, from which the library chose that width. "" when every one is.
std::string library_sites_narrower_than(
    const sim::LaunchStats& stats, int width,
    const std::function<bool(const sim::LibraryCopySite&)>& judged = nullptr);

// "The simulator noticed: ..." lines for the launch's warnings, or "" if none: a
// failure message carries them, so that they are never lost on a stderr that
// WB_SIM_QUIET silences.
std::string simulator_notes(const sim::LaunchStats& stats);
#endif

}  // namespace wb::grading
