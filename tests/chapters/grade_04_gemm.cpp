// The grader of chapter 4, async GEMM: a test per step, each at several shapes, under the
// forward and the reverse schedule in the simulator and once on the GPU.
//
// Each run: fresh random A and B, C poisoned with guard bands around it, then (1) nothing
// written outside C, (2) C within a relative error of 1e-5, in the Frobenius norm, of a
// double-precision product (wb/grading/gemm.hpp; never exact equality), and (3) in the
// simulator, the technique: steps 2 to 4 load every element of every tile through
// cp.async, exactly once; step 3 keeps a tile in flight behind the one it waits for;
// step 4 reads shared memory conflict-free and few times per FMA.
//
// Sizes: the simulator runs every thread of a 128x128 tile on the CPU, about 6 ms per
// block and k-tile for steps 1 to 3, so its shapes are small (the whole chapter grades in
// seconds on 2 cores); the seed's 2048x2048x256 runs on the GPU backend only.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "gemm.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/diagnosis/gemm_models.hpp"
#include "wb/grading/gemm.hpp"
#include "wb/grading/step.hpp"
#include "wb/grading/technique.hpp"

namespace {

using wb::grading::GemmShape;
using wb::grading::Step;

const char* const kFile = "chapters/04_gemm/gemm.cu";

// One whole-tile shape first (where the messages are simplest), then shapes that are no
// multiple of the tile, K no multiple of 8 among them. The GPU adds the seed's size.
std::vector<GemmShape> shapes() {
  std::vector<GemmShape> list;
#if !WB_BACKEND_SIM
  list.push_back({2048, 2048, 256});
#endif
  for (const GemmShape& shape : std::vector<GemmShape>{
           {256, 256, 64}, {200, 136, 52}, {130, 257, 12}, {1, 1, 1}, {129, 1, 77}}) {
    list.push_back(shape);
  }
  return list;
}

wb::grading::Causes causes(const std::string& race, const wb::grading::Causes& more = {}) {
  return wb::grading::causes_with({
      {wb::ErrorKind::destination_not_shared,
       "the shared address of a cp.async lies outside the tile: is a stage index or the shared "
       "layout wrong?"},
      {wb::ErrorKind::source_out_of_bounds,
       "a cp.async read past the end of A or B: the last tiles are partial; a copy outside the "
       "array must read 0 bytes (load_tile_async does that when given valid_rows and valid_k)."},
      {wb::ErrorKind::global_out_of_bounds,
       "an access past the end of A, B or C: are the rows of A bounded by m, those of B by n "
       "(is A's tile loaded with B's sizes?), and the k-tiles by k?"},
      {wb::ErrorKind::too_many_copies,
       "copies issued without end: is a wait missing from the loop, or the loop not advancing?"},
      {wb::ErrorKind::shared_race, race},
      {wb::ErrorKind::barrier, wb::grading::barrier_divergence_cause()},
  }, more);
}

const Step kStep1{4, 1, "the shared-memory tiled GEMM", kFile,
                  causes("a thread read a word of the tile that another thread wrote with no "
                         "__syncthreads() between: one barrier after the loads (the tile "
                         "complete before anyone reads it), one after the reads (everyone done "
                         "before the next k-tile overwrites it).")};

const Step kStep2{4, 2, "load the tiles with cp.async", kFile,
                  causes("a thread read a word of the tile that another thread's cp.async wrote "
                         "(or wrote one that another thread still read) with no barrier between. "
                         "The wait makes a thread's own copies visible to itself only: the reads "
                         "need a __syncthreads() after everyone's wait (the seed's race), and the "
                         "next tile's copies need one after everyone's reads.")};

const Step kStep3{4, 3, "a multi-stage pipeline", kFile,
                  causes("a stage was written by one thread's cp.async and touched by another "
                         "thread with no barrier between. Either tile k_tile is read before "
                         "the __syncthreads() that follows everyone's wait, or a stage is "
                         "refilled while others still read it: the barrier at the end of the "
                         "loop keeps the next iteration's copies out of the stage just read. "
                         "Check the stage indices too: the reads use k_tile % kStages, the "
                         "loads (k_tile + kStages - 1) % kStages.")};

const Step kStep4{4, 4, "register blocking", kFile,
                  causes("a stage was written by one thread's cp.async and touched by another "
                         "thread with no barrier between. Step 4 has one barrier per k-tile, "
                         "after the wait: it makes tile k_tile visible to all, and it is the "
                         "point past which everyone is done with the previous iteration's "
                         "stage, so load_stage, which refills that stage, must come after it, "
                         "not before. Or the reads reach outside the stage being computed, into "
                         "one being refilled: a float4 read indexes a float4 pointer with an offset "
                         "counted in floats (&stage[offset], then the cast, is the float's address).",
                         {{wb::ErrorKind::misaligned,
                           "a float4 read at an address that is no multiple of 16 bytes: step 4's stages are "
                           "unpadded, smem_a4_layout and smem_b4_layout (128 floats a column), so that every "
                           "column starts at a multiple of 16 bytes, and micro_row and micro_col are multiples of "
                           "4. Either the fragments are read through another layout (a padded one, 129 floats a "
                           "column), or at a row that is no multiple of 4."}})};

const Step kStep5{4, 5, "double-buffered fragments", kFile,
                  causes("a stage was written by one thread's cp.async and read by another with nothing ordering "
                         "the two. Either the copy had not landed when the barrier let the others read it: the wait "
                         "before each barrier must land the tile read next (the prologue commits kStages groups, "
                         "one per stage, and each tile one more: wait<kStages - 1> before the loop, "
                         "wait<kStages - 2> at the last kk). Or a stage was refilled before the barrier that "
                         "follows everyone's last read of it (at kk - 1): load_stage comes after that barrier.",
                         {{wb::ErrorKind::misaligned,
                           "a float4 read at an address that is no multiple of 16 bytes: step 5's stages are "
                           "unpadded, smem_a16_layout and smem_b16_layout (128 floats a column), and micro_row and "
                           "micro_col are multiples of 4. Are the fragments read through another layout, or at a "
                           "row that is no multiple of 4?"}})};

// The k-tiles of `shape`, `tile_k` deep (steps 1 to 4: kTileK; step 5: kDeepTileK).
[[maybe_unused]] int k_tiles_of(const GemmShape& shape, int tile_k = ch04::kTileK) {
  return (shape.k + tile_k - 1) / tile_k;
}

wb::grading::GemmCheck gemm_check(const Step& step,
                                  void (*gemm)(const float*, const float*, float*, int, int, int),
                                  const GemmShape& shape) {
  wb::grading::GemmCheck check;
  check.step = step;
  check.shape = shape;
  check.tile_m = ch04::kTileM;
  check.tile_n = ch04::kTileN;
  check.tile_k = step.number == 5 ? ch04::kDeepTileK : ch04::kTileK;
  check.copy_column_step = ch04::kLoadThreadCols;  // load_thread_layout, (32,8)
  // Step 2 waits for its one group with wait<0>; the pipelines of steps 3 and 4 with
  // wait<kStages - 2>, which lands the tile about to be computed.
  check.step_wait = step.number == 2 ? 0 : step.number >= 3 ? ch04::kStages - 2 : -1;
  check.run = [gemm, shape](const float* a, const float* b, float* c) {
    gemm(a, b, c, shape.m, shape.n, shape.k);
  };
  if (step.number >= 3) {
    check.prologue_commits = step.number == 5 ? ch04::kStages : ch04::kStages - 1;
    check.prologue = step.number == 5
                         ? "Step 5 loads all kStages stages before the loop, one group each (load_stage for stage < "
                           "kStages), so that wait<kStages - 1> lands the first tile."
                         : "Steps 3 and 4 load kStages - 1 stages before the loop, one group each, so that "
                           "wait<kStages - 2> lands the first tile.";
  }
  if (step.number == 4) {
    check.refill_barrier =
        "Step 4 has one __syncthreads() per k-tile, after the wait: past it, everyone is done with the previous "
        "iteration's stage, so load_stage, which refills that stage, must come after it, not before.";
  } else if (step.number == 5) {
    check.refill_barrier =
        "Step 5 refills a stage at the last kk of its tile, after the wait and the __syncthreads() there: past "
        "that barrier every thread has read its last fragments of the stage (at kk - 1), not before.";
    check.refilled_stage_read =
        "Either the refill comes too early (it belongs at the last kk of the tile, after every column of the "
        "stage is read), or the read's stage is this one where the next column to read, column 0 of the next "
        "tile, is in stage (k_tile + 1) % kStages.";
  }
  // Steps 1 to 3: the thread at (r, c) owns rows r + 16i and columns c + 16j; step 4 its
  // micro_row and micro_col (gemm.hpp).
  const bool register_blocked = step.number >= 4;
  check.micro_tile = {ch04::kThreadRows, ch04::kThreadCols, ch04::kMicroM, ch04::kMicroN,
                      [register_blocked](int thread_row, int i) {
                        return register_blocked ? ch04::micro_row(thread_row, i) : thread_row + ch04::kThreadRows * i;
                      },
                      [register_blocked](int thread_col, int j) {
                        return register_blocked ? ch04::micro_col(thread_col, j) : thread_col + ch04::kThreadCols * j;
                      }};
  if (register_blocked) {
    // Per kk, a float4 at each of the thread's first rows micro_row(r, 0) and (r, 4) of A's
    // stage (micro_col for B's), compute_thread_layout (16,16) column-major; the stage's
    // columns are kTileM floats apart (smem_a4_layout).
    const auto first_rows = [](bool rows_of_a) {
      return [rows_of_a](unsigned thread) {
        const int coord = rows_of_a ? static_cast<int>(thread) % ch04::kThreadRows
                                    : static_cast<int>(thread) / ch04::kThreadRows;
        std::vector<int> rows;
        for (int v = 0; v < ch04::kMicroM; v += ch04::kVector) {
          rows.push_back(rows_of_a ? ch04::micro_row(coord, v) : ch04::micro_col(coord, v));
        }
        return rows;
      };
    };
    check.fragment_reads = {{"smem_a", "A", ch04::kTileM, check.tile_k, ch04::kVector, first_rows(true), ch04::kStages},
                            {"smem_b", "B", ch04::kTileN, check.tile_k, ch04::kVector, first_rows(false), ch04::kStages}};
  }
  return check;
}

#if WB_BACKEND_SIM
std::string figure(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// Every element of every tile reached shared memory through cp.async, once, and was
// waited for; nothing was stored into shared memory otherwise.
::testing::AssertionResult tiles_through_cp_async(const wb::sim::LaunchStats& stats, const GemmShape& shape,
                                                  int tile_k = ch04::kTileK) {
  const std::uint64_t expected = stats.blocks * static_cast<std::uint64_t>(k_tiles_of(shape, tile_k)) *
                                 (ch04::kTileM + ch04::kTileN) * tile_k;
  const auto& stores = stats.of(wb::sim::AccessKind::shared_store);
  if (stores.requests > 0) {
    return ::testing::AssertionFailure()
           << "shared memory was written with " << stores.requests
           << " plain store requests: every tile load of this step goes through cp.async "
              "(load_tile_async), and nothing else writes the tiles.";
  }
  if (stats.cp_async_ops() != expected) {
    return ::testing::AssertionFailure()
           << stats.cp_async_ops() << " cp.async copies for " << expected << " tile elements ("
           << stats.blocks << " blocks x " << k_tiles_of(shape, tile_k) << " k-tiles x (" << ch04::kTileM
           << " + " << ch04::kTileN << ") x " << tile_k << "): every element of the A and B "
           << "tiles of every k-tile is copied exactly once, the last partial k-tile included"
           << (stats.cp_async_ops() > expected ? " (is a tile loaded twice?)." : " (is a tile skipped?).");
  }
  if (stats.copies_never_waited > 0) {
    return ::testing::AssertionFailure() << stats.copies_never_waited
                                         << " copies were never waited for: wait for every copy before "
                                            "the kernel ends.";
  }
  return ::testing::AssertionSuccess();
}

// Step 2's copies of a k-tile, A's and B's, travel together: one commit and one wait a
// k-tile. A wait between them (A's tile committed and waited for, then B's) starts B's
// copies only once A's have landed, two trips of the latency a tile where one is asked.
::testing::AssertionResult one_wait_a_tile(const wb::sim::LaunchStats& stats, const GemmShape& shape) {
  const int k_tiles = k_tiles_of(shape);
  const double waits = stats.threads == 0 ? 0.0 : static_cast<double>(stats.waits) / static_cast<double>(stats.threads);
  if (waits <= k_tiles + 0.5) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "the threads waited " << figure(waits) << " times each for " << k_tiles
         << " k-tiles: one wait a k-tile lets all of its copies, A's and B's, travel together. A wait before the "
            "last copies of the tile are issued (after A's, say) holds them back until the earlier ones have "
            "landed, so the tile pays the copies' latency more than once: issue both tiles' copies, commit once, "
            "then wait.";
}

// Steps 1 to 3 meet the block twice a k-tile: once the tile is in shared memory (every
// thread's copies visible to all) and before the next copies overwrite it. A barrier
// inside a loop over the tile stops every warp at each of the loop's iterations.
::testing::AssertionResult two_barriers_a_k_tile(const wb::sim::LaunchStats& stats, const GemmShape& shape) {
  const int k_tiles = k_tiles_of(shape);
  const double barriers =
      stats.blocks == 0 ? 0.0 : static_cast<double>(stats.barriers) / static_cast<double>(stats.blocks);
  if (barriers <= 2 * k_tiles + 1.5) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "each block met " << figure(barriers) << " barriers for " << k_tiles << " k-tiles"
         << wb::grading::busiest_barrier(stats)
         << ", where a k-tile needs two: one once the tile is in shared memory, so that every thread's copies are "
            "visible to all, and one before the next copies overwrite it. A __syncthreads() inside a loop over "
            "the tile (the kk loop, say) stops every warp at each of the loop's iterations, for what one stop a "
            "tile does.";
}

// Step 5 waits and meets the block once a (128,16) k-tile, at its last kk, and once after
// its prologue (and waits once more at the end): a wait and a barrier at every kk stop
// every warp's FMAs sixteen times a k-tile for what one stop does.
::testing::AssertionResult one_wait_and_barrier_a_deep_k_tile(const wb::sim::LaunchStats& stats,
                                                              const GemmShape& shape) {
  const int k_tiles = k_tiles_of(shape, ch04::kDeepTileK);
  const auto per = [](std::uint64_t count, std::uint64_t of) {
    return of == 0 ? 0.0 : static_cast<double>(count) / static_cast<double>(of);
  };
  const double barriers = per(stats.barriers, stats.blocks), waits = per(stats.waits, stats.threads);
  if (barriers <= k_tiles + 1.5 && waits <= k_tiles + 2.5) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "each block met " << figure(barriers) << " barriers, and each thread waited " << figure(waits)
         << " times, for " << k_tiles << " k-tiles of 16 columns: step 5 waits and meets the block once a k-tile, "
            "at its last kk (wait<kStages - 2>, __syncthreads(), then the refill), and once after the prologue ("
         << k_tiles + 1 << " barriers, " << k_tiles + 2
         << " waits with the last wait<0>). A wait and a barrier at every kk stop every warp's FMAs at each "
            "column, which the deeper k-tile exists to spare.";
}

// The pipeline's overlap (wb/grading/technique.hpp), in this chapter's stages and k-tiles.
::testing::AssertionResult loads_overlap(const wb::sim::LaunchStats& stats, const GemmShape& shape,
                                         int tile_k = ch04::kTileK) {
  return wb::grading::loads_overlap(stats, ch04::kStages, k_tiles_of(shape, tile_k),
                                    "wb::cp_async_wait<kStages - 2>()");
}

// Shared-load requests of a warp for each 32 elements of C and each k: 2 when every FMA
// reads its A and B from shared memory (steps 1 to 3), 16 / 64 = 0.25 for an 8x8
// micro-tile read one float at a time, 4 / 64 = 0.0625 read as float4. An SM issues 4
// warp instructions per clock, and its shared memory serves one 128-byte wavefront per
// clock: at more than one shared load for 4 FMAs, the loads rather than the FMAs bound
// the speed. So the limit is 0.25.
constexpr double kMaxLoadsPerFma = 0.25;

double shared_loads_per_fma(const wb::sim::LaunchStats& stats, const GemmShape& shape, int tile_k = ch04::kTileK) {
  const double warp_fmas = static_cast<double>(stats.blocks) * ch04::kTileM * ch04::kTileN *
                           k_tiles_of(shape, tile_k) * tile_k / 32.0;
  return static_cast<double>(stats.of(wb::sim::AccessKind::shared_load).requests) / warp_fmas;
}

// The fragments read as the step asks, 4 float4 a kk for 64 FMAs: 0.0625 on whole tiles (a
// twentieth over it allowed); one operand's 8 values read one float at a time make 0.156,
// both 0.25.
constexpr double kFloat4LoadsPerFma = 4.0 / 64.0;

::testing::AssertionResult register_blocked(const wb::sim::LaunchStats& stats, const GemmShape& shape,
                                            int tile_k = ch04::kTileK) {
  const double loads = shared_loads_per_fma(stats, shape, tile_k);
  if (loads > kMaxLoadsPerFma) {
    return ::testing::AssertionFailure()
           << "the warps made " << figure(loads)
           << " shared-load requests for each 32 elements of C and each k (a warp's FMA); at most "
           << kMaxLoadsPerFma << " (one load for 4 FMAs) keeps shared memory from bounding the speed. "
           << "Read each thread's 8 values of A and 8 of B once per kk into registers (as float4: "
              "0.0625), not once per FMA (2).";
  }
  // Judged where every tile is whole: a partial block's idle lanes still issue requests.
  const bool whole_tiles = shape.m % ch04::kTileM == 0 && shape.n % ch04::kTileN == 0 && shape.k % tile_k == 0;
  if (whole_tiles && loads > kFloat4LoadsPerFma * 1.05) {
    return ::testing::AssertionFailure()
           << "the warps made " << figure(loads)
           << " shared-load requests for each 32 elements of C and each k (a warp's FMA), where the fragments read "
              "as float4 make 0.0625: 2 float4 of A and 2 of B a kk for the thread's 64 FMAs. One operand's 8 "
              "values a kk loaded one float at a time make 0.156, both 0.25: either a fragment is read as floats, "
              "not float4 (kVector), or the FMAs read an operand from shared memory where its fragment's "
              "registers are meant (the compiler then loads each value once a kk, as floats).";
  }
  return wb::grading::within_the_ideal(
      stats, wb::sim::AccessKind::shared_load,
      "the fragment reads conflict: a quarter-warp's 8 float4 should be 8 consecutive float4 "
      "of one column of the tile (rows micro_row(thread_coord.row, v), the tile unpadded).");
}

// Step 5's double buffering: the FMAs of column kk (multiply_fragments, which tells the
// simulator through wb::note_fmas) find the thread's reads of column kk + 1 made. The
// simulator judges each call against the thread's own loads (sim/src/fma_note.cpp).
::testing::AssertionResult fragments_read_ahead(const wb::sim::LaunchStats& stats, const GemmShape& shape) {
  const std::uint64_t expected =
      stats.threads * static_cast<std::uint64_t>(k_tiles_of(shape, ch04::kDeepTileK)) * ch04::kDeepTileK;
  if (stats.fma_notes == 0) {
    return ::testing::AssertionFailure()
           << "multiply_fragments was never called: the simulator sees no arithmetic, and step 5 shows it "
              "where the FMAs run through that call (wb::note_fmas), to check that the next column's reads "
              "come before them. Do each column's 64 FMAs with multiply_fragments(acc, a_frag[kk % 2], "
              "b_frag[kk % 2]).";
  }
  if (stats.fma_notes != expected) {
    return ::testing::AssertionFailure()
           << "multiply_fragments was called " << stats.fma_notes << " times in all, where each thread calls it "
           << "once a column of each k-tile: " << expected << " (" << stats.threads << " threads x "
           << k_tiles_of(shape, ch04::kDeepTileK) << " k-tiles x " << ch04::kDeepTileK << " columns).";
  }
  if (!stats.fmas_before_next_reads) return ::testing::AssertionSuccess();
  const wb::sim::FmasBeforeNextReads& first = *stats.fmas_before_next_reads;
  const std::uint64_t column = first.call % ch04::kDeepTileK;
  const std::uint64_t k_tile = first.call / ch04::kDeepTileK;
  const double per_column = static_cast<double>(first.loads) / static_cast<double>(first.calls + 1);
  return ::testing::AssertionFailure()
         << (stats.fma_notes - stats.fma_notes_after_next_reads) << " of " << stats.fma_notes
         << " calls of multiply_fragments came before the thread had read the next column's fragments. "
         << "The first: thread " << first.thread << " of block (" << first.block.x << ", " << first.block.y
         << "), at the FMAs of column " << column << " of k-tile " << k_tile << ", had made "
         << first.loads_before << " shared loads, where the fragments of the columns up to the next one take "
         << figure(per_column * static_cast<double>(first.call + 2)) << " (" << figure(per_column)
         << " a column). So each column's reads come after the FMAs they should overlap, and each column's FMAs "
            "wait for their own reads: the double buffer hides no latency. Call read_fragments for column kk + 1 "
            "(into buffer (kk + 1) % 2) before multiply_fragments on buffer kk % 2"
         << (column == ch04::kDeepTileK - 1 ? "; at the last kk too, after the wait, the barrier and the refill." : ".");
}

#endif

using Chapter4Gemm = wb::grading::KernelTest;

TEST_F(Chapter4Gemm, Step1TheSharedMemoryTiledGemm) {
  [[maybe_unused]] bool reported = false;
  wb::grading::check_gemm_shapes(shapes(), [&](const GemmShape& shape) {
    auto check = gemm_check(kStep1, ch04::gemm_shared, shape);
    check.uses_cp_async = false;
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) { return two_barriers_a_k_tile(stats, shape); };
    check.on_success = [&reported, shape](const wb::sim::LaunchStats& stats) {
      if (reported) return;
      reported = true;
      std::printf("Chapter 4, step 1, %s: %s shared-load requests per warp FMA (step 4 brings it "
                  "under %s)\n",
                  wb::grading::gemm_shape_text(shape).c_str(), figure(shared_loads_per_fma(stats, shape)).c_str(),
                  figure(kMaxLoadsPerFma).c_str());
    };
#endif
    return check;
  });
}

TEST_F(Chapter4Gemm, Step2LoadTheTilesWithCpAsync) {
  wb::grading::check_gemm_shapes(shapes(), [](const GemmShape& shape) {
    auto check = gemm_check(kStep2, ch04::gemm_async, shape);
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = tiles_through_cp_async(stats, shape);
      if (technique) technique = one_wait_a_tile(stats, shape);
      if (technique) technique = two_barriers_a_k_tile(stats, shape);
      return technique;
    };
#endif
    return check;
  });
}

TEST_F(Chapter4Gemm, Step3AMultiStagePipeline) {
  [[maybe_unused]] bool reported = false;
  wb::grading::check_gemm_shapes(shapes(), [&](const GemmShape& shape) {
    auto check = gemm_check(kStep3, ch04::gemm_pipelined, shape);
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = tiles_through_cp_async(stats, shape);
      if (technique) technique = loads_overlap(stats, shape);
      if (technique) technique = two_barriers_a_k_tile(stats, shape);
      return technique;
    };
    check.on_success = [&reported, shape](const wb::sim::LaunchStats& stats) {
      if (reported || k_tiles_of(shape) < wb::grading::kOverlapMinKTiles) return;
      reported = true;
      std::printf("Chapter 4, step 3, %s: %s tiles in flight at a wait on average\n",
                  wb::grading::gemm_shape_text(shape).c_str(),
                  figure(wb::grading::tiles_in_flight_at_waits(stats, k_tiles_of(shape))).c_str());
    };
#endif
    return check;
  });
}

TEST_F(Chapter4Gemm, Step4RegisterBlocking) {
  [[maybe_unused]] bool reported = false;
  wb::grading::check_gemm_shapes(shapes(), [&](const GemmShape& shape) {
    auto check = gemm_check(kStep4, ch04::gemm_register_blocked, shape);
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = tiles_through_cp_async(stats, shape);
      if (technique) technique = loads_overlap(stats, shape);
      if (technique) technique = register_blocked(stats, shape);
      return technique;
    };
    check.on_success = [&reported, shape](const wb::sim::LaunchStats& stats) {
      if (reported) return;
      reported = true;
      std::printf("Chapter 4, step 4, %s: %s shared-load requests per warp FMA; %s\n",
                  wb::grading::gemm_shape_text(shape).c_str(), figure(shared_loads_per_fma(stats, shape)).c_str(),
                  wb::grading::describe_requests(stats, wb::sim::AccessKind::shared_load).c_str());
    };
#endif
    return check;
  });
}

// Step 5's FMAs on the buffer being filled, (kk + 1) % 2: each column's product takes the
// next column's fragments, so column 0 is never used and the last FMAs take the column 0
// of a tile after the last, which the stage (k_tiles % kStages) still holds from tile
// k_tiles - kStages (unfilled, and reproducing nothing, with fewer k-tiles).
void add_double_buffer_models(wb::grading::Diagnosis& diagnosis, const wb::grading::GemmRun& run) {
  const auto [m, n, k] = run.shape;
  // Step 4's kk loop kept: only the first kTileK of each tile's kDeepTileK columns summed.
  diagnosis.model(
      "C is exactly the product of only the first " + std::to_string(ch04::kTileK) + " columns of each " +
          std::to_string(ch04::kDeepTileK) + "-column k-tile: the kk loop runs to kTileK (step 4's depth) where step "
          "5's tiles are kDeepTileK deep, at its bound, its last kk and the next column's (kk + 1) % kDeepTileK.",
      [&run, m = m, n = n] {
        const auto first_part = [](int p) { return p % ch04::kDeepTileK < ch04::kTileK; };
        return wb::grading::gemm_abt_with(
            run.shape,
            [&run, m, first_part](int row, int p) {
              return first_part(p) ? static_cast<double>(run.a[static_cast<std::size_t>(row) + static_cast<std::size_t>(p) * m])
                                   : 0.0;
            },
            [&run, n](int row, int p) {
              return static_cast<double>(run.b[static_cast<std::size_t>(row) + static_cast<std::size_t>(p) * n]);
            });
      });
  const int k_tiles = k_tiles_of(run.shape, ch04::kDeepTileK);
  if (k_tiles < ch04::kStages) return;
  const int stale = (k_tiles - ch04::kStages) * ch04::kDeepTileK;
  diagnosis.model(
      "C is exactly the product in which every column's FMAs took the next column's fragments: column 0 of A "
      "and B is never multiplied, and the last FMAs take column " + std::to_string(stale) +
          " again (the column 0 that the loop reads after the last tile, from a stage no tile refills). The FMAs of "
          "column kk use buffer kk % 2, read one column earlier; buffer (kk + 1) % 2 is the one being read for kk + 1.",
      [&run, m = m, n = n, k = k, stale] {
        // Sum position p takes column p + 1; the last, k - 1, takes the stale column, which
        // also stands for the zeros past k of a partial last tile.
        const auto next = [k = k, stale](int p) { return p + 1 < k ? p + 1 : stale; };
        return wb::grading::gemm_abt_with(
            run.shape,
            [&run, m, next](int row, int p) {
              return static_cast<double>(run.a[static_cast<std::size_t>(row) + static_cast<std::size_t>(next(p)) * m]);
            },
            [&run, n, next](int row, int p) {
              return static_cast<double>(run.b[static_cast<std::size_t>(row) + static_cast<std::size_t>(next(p)) * n]);
            });
      });
}

// The simulator sees the reads, the copies and the barriers; the FMAs through
// multiply_fragments. It checks the product, the pipeline, one float4 read per fragment,
// and that the reads of column kk + 1 come before the FMAs of column kk.
TEST_F(Chapter4Gemm, Step5DoubleBufferedFragments) {
  [[maybe_unused]] bool reported = false;
  wb::grading::check_gemm_shapes(shapes(), [&](const GemmShape& shape) {
    auto check = gemm_check(kStep5, ch04::gemm_double_buffered, shape);
    check.models = add_double_buffer_models;
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = tiles_through_cp_async(stats, shape, ch04::kDeepTileK);
      if (technique) technique = one_wait_and_barrier_a_deep_k_tile(stats, shape);
      if (technique) technique = loads_overlap(stats, shape, ch04::kDeepTileK);
      if (technique) technique = register_blocked(stats, shape, ch04::kDeepTileK);
      if (technique) technique = fragments_read_ahead(stats, shape);
      return technique;
    };
    check.on_success = [&reported, shape](const wb::sim::LaunchStats& stats) {
      if (reported) return;
      reported = true;
      std::printf("Chapter 4, step 5, %s: %s shared-load requests per warp FMA; %s\n",
                  wb::grading::gemm_shape_text(shape).c_str(),
                  figure(shared_loads_per_fma(stats, shape, ch04::kDeepTileK)).c_str(),
                  wb::grading::describe_requests(stats, wb::sim::AccessKind::shared_load).c_str());
    };
#endif
    return check;
  });
}

}  // namespace
