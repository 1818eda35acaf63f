// The grader of chapter 7, the library way: a test per step, each at several sizes, under
// the forward and the reverse schedule in the simulator and once on the GPU.
//
// Step 1 is graded as chapter 1's copy (fresh random input, the output poisoned with guard
// bands, the exact copy), and in the simulator every element went to shared memory through
// cooperative_groups::memcpy_async, as 16-byte cp.async (the width its cuda::aligned_size_t<16>
// promises; a failure names the lines that promise less), each thread waiting once. Step 2
// is graded as chapter 6's convolution (a double-precision reference, tile edges and both
// ends of the array), and in the simulator every input of every span went through one
// cuda::memcpy_async of 16-byte copies, through the pipeline, with the next tile's stage
// committed before this tile's consumer_wait. Steps 3 and 4 need Hopper on a GPU (an
// older one reports them skipped, never passed) and run anywhere in the simulator: step 3
// is graded as a copy of a flat array, each tile by one bulk copy that completes on a
// barrier, two tiles in flight at each wait; step 4 as chapter 3's transpose, each box by
// one tensor copy, the swizzled tile read without bank conflicts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "library.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/convolution.hpp"
#include "wb/grading/movement.hpp"
#include "wb/grading/step.hpp"
#include "wb/grading/technique.hpp"

namespace {

using wb::grading::Step;
#if WB_BACKEND_SIM
using wb::grading::tiles_of;
using wb::grading::two_decimals;
#endif

const char* const kFile = "chapters/07_library/library.cu";
const char* const kHopperFile = "chapters/07_library/hopper.cu";

const Step kStep1{
    7, 1, "chapter 1's copy with cooperative_groups::memcpy_async", kFile,
    {{wb::ErrorKind::shared_race,
      "a thread read a word of smem_tile that another thread's copy writes, with nothing between: "
      "cg::wait(block) lands this thread's copies and then synchronises the block, so that every "
      "thread's copies are visible to all. It belongs after the copies and before the reads."},
     {wb::ErrorKind::source_out_of_bounds,
      "a copy reads past the end of the input: a call copies one column of the tile, kTileRows "
      "floats, from &gmem_tile_in[gmem_layout(0, col)]; is the size or the column's start wrong?"},
     {wb::ErrorKind::destination_not_shared,
      "a copy writes outside smem_tile: one column of the tile is kTileRows floats from "
      "&smem_tile[smem_layout(0, col)]; is the size or the column's start wrong (the size in "
      "bytes, sizeof(float) * kTileRows, and the start an index in floats)?"},
     {wb::ErrorKind::barrier,
      "threads wait at different barriers: cg::wait(block) is a barrier of the whole block, so "
      "every thread calls it, as every thread calls cg::memcpy_async."}}};

const std::string kPipelineRace =
    "a thread touched a word of a stage that another thread's copies write, unordered by the "
    "pipeline: this tile's stage is read only after consumer_wait(), and a stage is refilled only "
    "after producer_acquire(), which waits until every thread's consumer_release() of it.";

const Step kStep2{
    7, 2, "chapter 6's double buffer with cuda::pipeline", kFile,
    {{wb::ErrorKind::shared_race, kPipelineRace},
     {wb::ErrorKind::after_the_commit,
      "a store to shared memory (the weights?) placed after a producer_commit(): consumer_wait() "
      "publishes what each thread stored before its commit of the batch waited for, and nothing after. "
      "Store the weights between the first producer_acquire() and producer_commit(), with the first "
      "tile's copies."},
     {wb::ErrorKind::pipeline,
      "the pipeline's calls out of order: each stage is producer_acquire(), its copies, "
      "producer_commit(), and later consumer_wait(), its reads, consumer_release(), in every thread."},
     {wb::ErrorKind::misaligned,
      "cuda::aligned_size_t<16> promises 16-byte aligned addresses and size: the span starts "
      "kSpanPad = 8 elements (32 bytes) before its tile, and [first, last) are multiples of 4. "
      "Each copy's size is in bytes, sizeof(float) times its elements: last - tile_start for the "
      "tile's part, tile_start - first for the left pad."},
     {wb::ErrorKind::source_out_of_bounds,
      "a copy reads outside the input: only the span's part inside [0, n), [first, last), is "
      "copied; the rest of the span is zeros stored by the threads."},
     {wb::ErrorKind::source_not_device,
      "a copy reads outside the input: only the span's part inside [0, n), [first, last), is "
      "copied; the rest of the span is zeros stored by the threads."},
     {wb::ErrorKind::destination_not_shared,
      "a copy writes outside the stage's span: the tile's part goes to smem_span + kSpanPad, the "
      "left pad to smem_span + (first - span_start)."},
     {wb::ErrorKind::global_out_of_bounds,
      "an access past the end of the input, the weights or the output: are the stores bounded by n?"},
     {wb::ErrorKind::too_many_copies,
      "copies issued without end: does every loop advance, and is every stage committed?"}}};

const std::string kStuckBarrierCause =
    "the block waits on a barrier phase that can never complete: the producer's barrier_arrive_tx "
    "must be given the bytes its copies bring, and every arrival the barrier was initialised for must "
    "come. The message above names the barrier, the arrivals it lacks and the bytes expected and "
    "brought.";

const Step kStep3{
    7, 3, "a bulk copy a tile, completing on a cuda::barrier", kHopperFile,
    {{wb::ErrorKind::mbarrier, kStuckBarrierCause},
     {wb::ErrorKind::shared_race,
      "a thread read a tile before its barrier's phase completed, or a stage was refilled while threads "
      "still read it: each use of a stage is one phase of its barrier; wait for that phase's parity before "
      "the reads, and refill the stage only after the __syncthreads() that follows them."},
     {wb::ErrorKind::tensor_map,
      "a bulk copy moves a multiple of 16 bytes: n is a multiple of 4, and so is every tile's size."},
     {wb::ErrorKind::misaligned,
      "both addresses of a bulk copy are 16-byte aligned: the tile's first float is a multiple of 4 "
      "floats from the array's start."},
     {wb::ErrorKind::source_out_of_bounds,
      "a copy reads past the end of the input: the last tile may be partial; its bytes are "
      "sizeof(float) * (n - first)."},
     {wb::ErrorKind::destination_not_shared,
      "a copy writes outside the stage's tile: the destination is smem_tile (the stage's), the size "
      "at most kBulkTile floats."},
     {wb::ErrorKind::global_out_of_bounds,
      "an access past the end of the output: the store of the last, partial tile stops at n."},
     {wb::ErrorKind::too_many_copies, "copies issued without end: does every loop advance?"}}};

const Step kStep4{
    7, 4, "chapter 3's transpose through the TMA", kHopperFile,
    {{wb::ErrorKind::mbarrier,
      kStuckBarrierCause + " A tensor copy brings its whole box, sizeof(smem_box), zeros for the part "
                           "outside the array included."},
     {wb::ErrorKind::tensor_map,
      "the tensor map breaks a rule of the TMA (the message names the value and the rule): its dimensions "
      "are the input's, innermost (rows) first; its one stride is the bytes from a column to the next; "
      "its box is kBoxRows x kBoxCols."},
     {wb::ErrorKind::destination_not_shared,
      "the tensor copy writes outside smem_box: the box given to the tensor map is larger than the "
      "shared tile (kBoxRows x kBoxCols floats)."},
     {wb::ErrorKind::misaligned,
      "the TMA writes a 128-byte-swizzled box to a 1024-byte aligned address: smem_box is declared "
      "__align__(1024)."},
     {wb::ErrorKind::shared_race,
      "a thread read the box before the barrier's phase completed: every thread waits with "
      "full.wait_parity(0) before reading smem_box. If the race names a tensor copy issued by a thread "
      "other than 0: only thread 0 issues the box's copy and arrives on `full` (if (threadIdx.x == 0))."},
     {wb::ErrorKind::global_out_of_bounds,
      "a store past the end of the output: outputs of a box that lies partly outside the array are "
      "stored only where box_row + row < rows and box_col + col < cols."}}};


// ---------------------------------------------------------------------------------
// Step 1

#if WB_BACKEND_SIM
// Every element through the library's copies, 16 bytes each, and one wait a thread.
::testing::AssertionResult copied_by_the_library(const wb::sim::LaunchStats& stats, std::uint64_t elements) {
  if (stats.library_copies == 0) {
    return ::testing::AssertionFailure()
           << "no cooperative_groups::memcpy_async was called: the step copies the tile with the "
              "library's collective copy, not with wb::cp_async or plain loads.";
  }
  if (stats.library_cp_async != stats.cp_async_ops()) {
    return ::testing::AssertionFailure()
           << stats.cp_async_ops() - stats.library_cp_async
           << " cp.async were issued by hand beside the library's: every copy of the step goes "
              "through cg::memcpy_async.";
  }
  if (const std::string narrower = wb::grading::library_sites_narrower_than(stats, 16); !narrower.empty()) {
    return ::testing::AssertionFailure()
           << "the step copies the tile with 16-byte copies, and " << narrower
           << " The library copies as wide as the call promises at compile time, never wider because the "
              "addresses allow it: wrap the size in cuda::aligned_size_t<16>(...), the promise that both "
              "addresses and the size are multiples of 16 bytes, as every column of the tile is.";
  }
  if (stats.cp_async_16 * 4 != elements) {
    return ::testing::AssertionFailure()
           << "the library issued " << stats.cp_async_16 << " 16-byte copies for " << elements
           << " floats, where each float goes once: is a call given a column's start and its whole size?";
  }
  if (stats.group_waits != stats.threads) {
    return ::testing::AssertionFailure()
           << stats.group_waits << " cooperative_groups::wait for " << stats.threads
           << " threads: one wait a thread, after all of its calls, lands every copy at once.";
  }
  return ::testing::AssertionSuccess();
}
#endif

void grade_copy(const std::vector<std::pair<int, int>>& shapes) {
  wb::grading::check_movement_shapes(shapes, [&](int rows, int cols) {
    wb::grading::MovementCheck check;
    check.step = kStep1;
    check.step_wait_call = "cg::wait(block)";
    check.copy_bytes = 0;  // several widths: the step checks them itself
    check.input = {rows, cols, ch07::kTileRows, ch07::kTileCols};
    check.output = check.input;
    check.run = [=](const float* gmem_in, float* gmem_out) { ch07::copy_tiles(gmem_in, gmem_out, rows, cols); };
    check.reference = [](const std::vector<float>& input) { return std::vector<double>(input.begin(), input.end()); };
#if WB_BACKEND_SIM
    const std::uint64_t elements = static_cast<std::uint64_t>(rows) * cols;
    check.technique = [elements](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = wb::grading::loaded_through_cp_async(stats, elements);
      if (technique) technique = wb::grading::only_copies_store_to_shared_memory(stats);
      if (technique) technique = copied_by_the_library(stats, elements);
      return technique;
    };
#endif
    return check;
  });
}

// ---------------------------------------------------------------------------------
// Step 2

std::vector<int> sizes() {
  // n a multiple of 4: the seed's, sizes that are no multiple of the tile, a single partial
  // tile, an array shorter than the span's pad.
  std::vector<int> list{16384, 16384 + 76, 40960 + 332, 1000, 256, 4};
#if !WB_BACKEND_SIM
  list.push_back(1 << 24);
#endif
  return list;
}

// Where the launch's inputs lie, to tell the spans' copies (they read the input) from a
// copy of the weights, which may go through the pipeline too (see the page).
struct ConvolutionInputs {
  const float* weights = nullptr;
};

#if WB_BACKEND_SIM

// Bytes of input the spans' copies read: the part of each span inside [0, n).
std::uint64_t span_bytes(int n) {
  std::uint64_t bytes = 0;
  for (int tile = 0; tile < tiles_of(n, ch07::kStreamTile); ++tile) {
    const int span_start = tile * ch07::kStreamTile - ch07::kSpanPad;
    const int first = span_start > 0 ? span_start : 0;
    const int last = span_start + ch07::kSpan < n ? span_start + ch07::kSpan : n;
    bytes += 4u * static_cast<std::uint64_t>(last - first);
  }
  return bytes;
}

constexpr double kMinStagesAtWaits = 1.5;

// The library's copies of a span: every call site but those that read the weights.
bool copies_spans(const wb::sim::LibraryCopySite& site, const ConvolutionInputs& inputs) {
  const auto weights_begin = reinterpret_cast<std::uintptr_t>(inputs.weights);
  const auto weights_end = weights_begin + sizeof(float) * ch07::kWidth;
  return !(site.source_begin >= weights_begin && site.source_end <= weights_end);
}

::testing::AssertionResult pipelined(const wb::sim::LaunchStats& stats, int n, const ConvolutionInputs& inputs) {
  if (stats.pipeline_waits == 0) {
    return ::testing::AssertionFailure()
           << "no consumer_wait(): the step streams the tiles through the cuda::pipeline.";
  }
  if (stats.library_cp_async != stats.cp_async_ops()) {
    return ::testing::AssertionFailure()
           << stats.cp_async_ops() - stats.library_cp_async
           << " cp.async were issued by hand beside the library's: every span goes through cuda::memcpy_async.";
  }
  const auto spans = [&inputs](const wb::sim::LibraryCopySite& site) { return copies_spans(site, inputs); };
  if (const std::string narrower = wb::grading::library_sites_narrower_than(stats, 16, spans); !narrower.empty()) {
    return ::testing::AssertionFailure()
           << "every span goes through the library's copy as 16-byte copies, with cuda::aligned_size_t<16>, and "
           << narrower;
  }
  std::uint64_t copied = 0;
  for (const auto& [key, site] : stats.library_sites) copied += spans(site) ? site.bytes : 0;
  const std::uint64_t expected = span_bytes(n);
  if (copied == 0) {
    return ::testing::AssertionFailure()
           << "no span went through cuda::memcpy_async (" << stats.library_copies
           << " library copies in all, none of a span's bytes): the spans reached shared memory some other way, "
              "with plain loads and stores, which the thread waits for itself. Each span is one cuda::memcpy_async "
              "into the stage the pipeline acquired, committed, and waited for at consumer_wait().";
  }
  if (copied != expected) {
    return ::testing::AssertionFailure()
           << "the spans' copies read " << copied << " bytes where the spans' parts inside the array are "
           << expected << ": "
           << (copied < expected ? "some of a span is missing (a halo, or the last, partial tile?)"
                                 : "some inputs are copied twice")
           << ".";
  }
  if (stats.copies_never_waited > 0) {
    return ::testing::AssertionFailure() << stats.copies_never_waited
                                         << " copies never landed: every stage is committed and waited for.";
  }
  if (stats.pipeline_copies_outside_stage > 0) {
    return ::testing::AssertionFailure()
           << stats.pipeline_copies_outside_stage
           << " cuda::memcpy_async calls came with no stage acquired (after a producer_commit(), before "
              "the next producer_acquire()): is producer_commit() before the copies?";
  }
  if (auto spread = wb::grading::no_one_lane_loops(
          stats, wb::sim::AccessKind::shared_store,
          "Spread them over the block, as the copy is: j from block.thread_rank(), stepping by kThreads.");
      !spread) {
    return spread;
  }
  if (stats.pipeline_empty_waits > 0) {
    return ::testing::AssertionFailure()
           << stats.pipeline_empty_waits
           << " consumer_wait() calls (each thread's counted) waited for a stage into which no thread had copied: "
              "there was no tile to wait for, nor to compute. The tile loop runs past the block's last tile (its "
              "bound `<=` where `<` is meant?): the stage that the last tile's iteration committed empty, with no "
              "next tile to load, is waited for and computed, and the bounds test skips its stores.";
  }
  const bool judged =
      wb::grading::overlap_judged(stats, static_cast<std::uint64_t>(tiles_of(n, ch07::kStreamTile)));
  const double at_waits =
      static_cast<double>(stats.pipeline_stages_at_waits) / static_cast<double>(stats.pipeline_waits);
  if (judged && at_waits < kMinStagesAtWaits) {
    return ::testing::AssertionFailure()
           << "each consumer_wait() found " << two_decimals(at_waits)
           << " stages committed on average: the copies and the arithmetic take turns. Acquire, load and "
              "commit the next tile's stage before this tile's consumer_wait(), so that two stages are in "
              "flight at each wait.";
  }
  return ::testing::AssertionSuccess();
}
#endif

// ---------------------------------------------------------------------------------
// Steps 3 and 4

#if WB_BACKEND_SIM
// What a read before the copies landed means here: the wait on the barrier, or its phase.
std::string barrier_in_flight_cause() {
  if (wb::sim::last_launch_stats().mbarrier_waits_on_a_past_phase > 0) {
    return "elements were read from shared memory before their copy had landed, after a wait that returned "
           "at once: it waited for a phase of the barrier that had completed before, not for the one this "
           "tile's copy completes. A stage's k-th use is its barrier's phase k, of parity k % 2; the parity "
           "1 before any phase completed counts as completed.";
  }
  return "elements were read from shared memory before their copy had landed: every thread waits on the "
         "tile's barrier (wait_parity) before it reads the tile.";
}
#else
std::string barrier_in_flight_cause() {
  return "elements were read from shared memory before their copy had landed: every thread waits on the "
         "tile's barrier, for the phase of this use of it, before it reads the tile.";
}
#endif

// The output read before the copies landed (the simulator's in-flight poison), if it was;
// in the simulator, first, a step that issued no copy at all.
std::string explain_barrier_reads(const std::vector<float>& output, const std::vector<float>&) {
#if WB_BACKEND_SIM
  const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
  if (stats.bulk_copies + stats.tensor_copies == 0) {
    return "no bulk or tensor copy was issued at all, so nothing was copied into shared memory (is the TODO "
           "of the copy still empty?).";
  }
#endif
  const bool in_flight = std::any_of(output.begin(), output.end(), [](float value) {
    return wb::poison::matches(value, wb::poison::Kind::in_flight);
  });
  return in_flight ? barrier_in_flight_cause() : std::string();
}

#if WB_BACKEND_SIM
// Each tile by one bulk copy of its bytes, no cp.async, and the next tile in flight at
// each wait.
::testing::AssertionResult streamed_by_bulk_copies(const wb::sim::LaunchStats& stats, int n) {
  const auto tiles = static_cast<std::uint64_t>(tiles_of(n, ch07::kBulkTile));
  if (stats.bulk_copies == 0) {
    return ::testing::AssertionFailure()
           << "no bulk copy was issued: thread 0 brings each tile in with one "
              "cuda::device::memcpy_async_tx, not with cp.async or plain loads.";
  }
  if (stats.cp_async_ops() != 0 || stats.tensor_copies != 0) {
    return ::testing::AssertionFailure() << stats.cp_async_ops() << " cp.async and " << stats.tensor_copies
                                         << " tensor copies beside the bulk copies: the step copies with "
                                            "bulk copies only.";
  }
  if (stats.bulk_copies != tiles || stats.bulk_bytes != 4u * static_cast<std::uint64_t>(n)) {
    return ::testing::AssertionFailure()
           << stats.bulk_copies << " bulk copies brought " << stats.bulk_bytes << " bytes, for " << tiles
           << " tiles of an array of " << 4u * static_cast<std::uint64_t>(n)
           << " bytes: one copy brings a whole tile, each byte once.";
  }
  if (stats.mbarrier_waits == 0) {
    return ::testing::AssertionFailure() << "no thread waited on a barrier: each waits for its tile's phase.";
  }
  const double in_flight =
      static_cast<double>(stats.bulk_copies_in_flight_at_issue) / static_cast<double>(stats.bulk_copies);
  if (wb::grading::overlap_judged(stats, tiles) && in_flight < kMinStagesAtWaits) {
    return ::testing::AssertionFailure()
           << "each bulk copy went out with " << two_decimals(in_flight)
           << " tiles in flight on average, itself included: the copies and the stores take turns. Each "
              "stage's first tile goes out before any wait, and a stage's next tile as soon as the stage is "
              "free, so that it travels while the other stage is waited for and stored."
           << (2 * stats.bulk_waits_right_after_issue >= stats.bulk_copies
                   ? "\nLikely cause: " + std::to_string(stats.bulk_waits_right_after_issue) + " of the " +
                         std::to_string(stats.bulk_copies) +
                         " bulk copies were waited for by the thread that issued them, on their own phase, before "
                         "it issued another: the producer waits for each copy it sends (a wait on its arrival's "
                         "token, or on the stage's parity, right after the copy), so the next copy goes out only "
                         "when this one has landed. Issue the copy and move on, dropping the arrival's token "
                         "((void)cuda::device::barrier_arrive_tx(...)): the wait on a stage's phase belongs before "
                         "its stores."
                   : std::string());
  }
  return ::testing::AssertionSuccess();
}

// Each box by one tensor copy, no other copies, the swizzled box read conflict-free.
::testing::AssertionResult transposed_by_the_tma(const wb::sim::LaunchStats& stats, int rows, int cols) {
  const auto boxes = static_cast<std::uint64_t>(tiles_of(rows, ch07::kBoxRows)) * tiles_of(cols, ch07::kBoxCols);
  const std::uint64_t box_bytes = 4u * ch07::kBoxRows * ch07::kBoxCols;
  if (stats.tensor_copies == 0) {
    return ::testing::AssertionFailure() << "no tensor copy was issued: thread 0 brings the box in with "
                                            "cde::cp_async_bulk_tensor_2d_global_to_shared.";
  }
  if (stats.cp_async_ops() != 0 || stats.bulk_copies != 0) {
    return ::testing::AssertionFailure() << stats.cp_async_ops() << " cp.async and " << stats.bulk_copies
                                         << " bulk copies beside the tensor copies: the step copies with the "
                                            "TMA only.";
  }
  if (stats.tensor_copies != boxes || stats.tensor_bytes != boxes * box_bytes) {
    return ::testing::AssertionFailure() << stats.tensor_copies << " tensor copies of " << stats.tensor_bytes
                                         << " bytes in all, for " << boxes << " boxes of " << box_bytes
                                         << " bytes: one copy a block, of one whole box.";
  }
  return wb::grading::transactions_per_request_at_most(
      stats, wb::sim::AccessKind::shared_load, 1.0,
      "the reads of the swizzled box conflict: a warp reads one column of 16 neighbouring rows and one "
      "4 columns further, whose chunks the 128-byte swizzle spreads over all 32 banks; does swizzled_word "
      "apply the swizzle the tensor map asked for?");
}
#endif

void grade_bulk_copy(const std::vector<int>& sizes) {
  std::vector<std::pair<int, int>> shapes;
  for (int n : sizes) shapes.emplace_back(n, 1);
  wb::grading::check_movement_shapes(shapes, [&](int n, int) {
    wb::grading::MovementCheck check;
    check.step = kStep3;
    check.copy_bytes = 0;  // several widths: the step checks them itself
    check.input = {n, 1, ch07::kBulkTile, 1};
    check.tiles_per_block = ch07::kBlockTiles;
    check.output = check.input;
    check.uses_cp_async = false;
    check.run = [=](const float* gmem_in, float* gmem_out) { ch07::copy_bulk(gmem_in, gmem_out, n); };
    check.reference = [](const std::vector<float>& input) { return std::vector<double>(input.begin(), input.end()); };
    check.explain = explain_barrier_reads;
#if WB_BACKEND_SIM
    check.technique = [n](const wb::sim::LaunchStats& stats) { return streamed_by_bulk_copies(stats, n); };
#endif
    return check;
  });
}

// Wrong outputs explained by where the tensor copy took its box. Each wrong output holds
// another element of its own box: the copy brought the right box, and the reads look for
// elements where the TMA did not put them (the swizzles of the map and of swizzled_word
// differ). Or each holds the element that the box at the exchanged coordinates, (box_col,
// box_row), has in its place (zero outside the tensor): the copy was given its
// coordinates the wrong way round.
std::string explain_box_reads(const std::vector<float>& output, const std::vector<float>& input, int rows, int cols) {
  if (std::string cause = explain_barrier_reads(output, input); !cause.empty()) return cause;
  const auto in = [&](int r, int c) {
    return r < rows && c < cols ? input[static_cast<std::size_t>(r) + static_cast<std::size_t>(c) * rows] : 0.0f;
  };
  int checked = 0;
  bool all_in_own_box = true, all_from_exchanged_box = true;
  for (int r = 0; r < rows && checked < 64; ++r) {
    for (int c = 0; c < cols && checked < 64; ++c) {
      const float got = output[static_cast<std::size_t>(c) + static_cast<std::size_t>(r) * cols];
      if (got == in(r, c)) continue;
      ++checked;
      const int box_row = r / ch07::kBoxRows * ch07::kBoxRows, box_col = c / ch07::kBoxCols * ch07::kBoxCols;
      bool in_box = false;
      for (int cc = box_col; cc < std::min(cols, box_col + ch07::kBoxCols) && !in_box; ++cc) {
        for (int rr = box_row; rr < std::min(rows, box_row + ch07::kBoxRows) && !in_box; ++rr) {
          in_box = in(rr, cc) == got;
        }
      }
      all_in_own_box = all_in_own_box && in_box;
      all_from_exchanged_box = all_from_exchanged_box && got == in(box_col + (r - box_row), box_row + (c - box_col));
    }
  }
  if (checked == 0) return {};
  if (all_in_own_box) {
    return "each wrong output holds another element of its own box: the tensor copy brought the right box, and "
           "the reads look for elements where the TMA did not put them. The map's swizzle "
           "(CU_TENSOR_MAP_SWIZZLE_128B) moves chunk row / 4 of column col to chunk (row / 4) ^ (col % 8); "
           "swizzled_word must undo the same one.";
  }
  if (all_from_exchanged_box) {
    return "each wrong output holds the element that the box at (box_col, box_row) has in its place: the tensor "
           "copy took the box with its coordinates exchanged. They are the box's first element's, innermost "
           "dimension (rows) first, as in the tensor map: (box_row, box_col).";
  }
  return {};
}

void grade_tma_transpose(const std::vector<std::pair<int, int>>& shapes) {
  wb::grading::check_movement_shapes(shapes, [&](int rows, int cols) {
    wb::grading::MovementCheck check;
    check.step = kStep4;
    check.copy_bytes = 0;  // several widths: the step checks them itself
    check.input = {rows, cols, ch07::kBoxRows, ch07::kBoxCols};
    check.output = {cols, rows, ch07::kBoxCols, ch07::kBoxRows};
    check.uses_cp_async = false;
    check.run = [=](const float* gmem_in, float* gmem_out) { ch07::transpose_tma(gmem_in, gmem_out, rows, cols); };
    check.reference = [=](const std::vector<float>& input) { return wb::grading::transposed(input, rows, cols); };
    check.explain = [=](const std::vector<float>& output, const std::vector<float>& input) {
      return explain_box_reads(output, input, rows, cols);
    };
#if WB_BACKEND_SIM
    check.technique = [rows, cols](const wb::sim::LaunchStats& stats) {
      return transposed_by_the_tma(stats, rows, cols);
    };
#endif
    return check;
  });
}

using Chapter7Library = wb::grading::KernelTest;

TEST_F(Chapter7Library, Step1CopyTheTileWithCooperativeGroups) {
  grade_copy({{256, 32}, {256, 64}, {128, 16}, {512, 48}});
}

TEST_F(Chapter7Library, Step2DoubleBufferWithCudaPipeline) {
  [[maybe_unused]] bool reported = false;
  wb::grading::check_convolution_sizes(sizes(), [&](int n) {
    wb::grading::ConvolutionCheck check;
    check.step = kStep2;
    check.n = n;
    check.width = ch07::kWidth;
    check.tile = ch07::kStreamTile;
    check.span_pad = ch07::kSpanPad;  // the span starts 32 bytes before its tile, not the halo's 2 floats
    check.span_copied_clipped = true;  // one library copy of the part inside the array
    auto inputs = std::make_shared<ConvolutionInputs>();
    check.run = [n, inputs](const float* in, const float* weights, float* out) {
      inputs->weights = weights;
      ch07::convolve_pipelined(in, weights, out, n);
    };
    check.in_flight_cause =
        "outputs were computed from a stage whose copies had not landed: consumer_wait() lands the "
        "oldest committed stage, this tile's; read smem_span[stage] after it, and load the next tile "
        "into smem_span[stage ^ 1], between its own producer_acquire() and producer_commit().";
#if WB_BACKEND_SIM
    check.technique = [n, inputs](const wb::sim::LaunchStats& stats) { return pipelined(stats, n, *inputs); };
    check.on_success = [&reported, n](const wb::sim::LaunchStats& stats) {
      if (reported || stats.pipeline_waits == 0) return;
      reported = true;
      std::printf("Chapter 7, step 2, %d elements, %llu blocks: %s stages committed at each consumer_wait, "
                  "%llu cp.async of 16 bytes through cuda::memcpy_async\n",
                  n, static_cast<unsigned long long>(stats.blocks),
                  two_decimals(static_cast<double>(stats.pipeline_stages_at_waits) /
                               static_cast<double>(stats.pipeline_waits)).c_str(),
                  static_cast<unsigned long long>(stats.cp_async_16));
    };
#endif
    return check;
  });
}

TEST_F(Chapter7Library, Step3BulkCopyOnABarrier) {
  WB_SKIP_WITHOUT(wb::hopper_available);  // steps 3 and 4 need Hopper
  // Tiles of 1024: 8 whole ones, a partial last one, a single partial tile, one vector.
  std::vector<int> sizes{8 * ch07::kBulkTile, 5 * ch07::kBulkTile + 12, 1000, 4};
#if !WB_BACKEND_SIM
  sizes.push_back(1 << 24);
#endif
  grade_bulk_copy(sizes);
}

TEST_F(Chapter7Library, Step4TransposeThroughTheTma) {
  WB_SKIP_WITHOUT(wb::hopper_available);  // steps 3 and 4 need Hopper
  // Boxes of 32 x 64: whole ones, partial ones on both edges, a single box, the smallest.
  std::vector<std::pair<int, int>> shapes{{128, 128}, {100, 70}, {32, 64}, {4, 1}, {196, 200}};
#if !WB_BACKEND_SIM
  shapes.emplace_back(4096, 2048);
#endif
  grade_tma_transpose(shapes);
}

}  // namespace
