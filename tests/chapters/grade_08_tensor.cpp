// The grader of chapter 8, tensor cores: a test per step, each at several shapes, under
// the forward and the reverse schedule in the simulator and once on the GPU.
//
// Each run: fresh random A and B rounded to bf16 (the kernel's inputs, and the reference's),
// C poisoned with guard bands around it, then (1) nothing written outside C, (2) C within a
// relative error of 1e-5, in the Frobenius norm, of a double-precision product
// (wb/grading/gemm.hpp: bf16 products are exact, their sums in float), and (3) in the
// simulator, the technique: every tile through cp.async (steps 1 and 2) or the TMA (step
// 3), tiles in flight behind the one waited for, the fragments loaded by ldmatrix,
// conflict-free and once each, and exactly one mma.sync for each 16x8x16 piece of the
// product. Step 2's layout is read first, on the host, against the TMA's.
//
// Sizes: the simulator meets a warp's 32 lanes at every ldmatrix and mma.sync, so its
// shapes are small; the GPU adds 2048x2048x512.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tensor.hpp"
#include "wb/buffer.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/diagnosis/diagnosis.hpp"
#include "wb/grading/diagnosis/gemm_models.hpp"
#include "wb/grading/gemm.hpp"
#include "wb/grading/random.hpp"
#include "wb/grading/step.hpp"
#include "wb/grading/technique.hpp"
#include "wb/wgmma.hpp"

namespace {

using wb::grading::GemmShape;
using wb::grading::Step;

const char* const kFile = "chapters/08_tensor/tensor.cu";

// Whole tiles deep enough for the pipeline's overlap to be judged (8 k-tiles), two blocks
// whose row and column origins differ (a refill that takes one for the other shows), then
// m and n no multiple of the tile, K no multiple of 16, several blocks, the least.
std::vector<GemmShape> shapes() {
  std::vector<GemmShape> list;
#if !WB_BACKEND_SIM
  list.push_back({2048, 2048, 512});
#endif
  for (const GemmShape& shape : std::vector<GemmShape>{{256, 128, 512}, {136, 72, 72}, {256, 256, 64}, {8, 8, 1}}) {
    list.push_back(shape);
  }
  return list;
}

const Step kStep1{
    8, 1, "mma.sync from cp.async tiles", kFile,
    wb::grading::Causes{
        {wb::ErrorKind::shared_out_of_bounds,
         "an ldmatrix row lies outside the stage: a lane's row is (k, element) of the stage, at k * kRowStride + "
         "element, with k below kTileK (64) and the element below kTileM (128). Is a row index or a stride "
         "exchanged?"},
        {wb::ErrorKind::misaligned,
         "an ldmatrix row at an address that is no multiple of 16 bytes: each lane gives the start of 8 bf16, at "
         "an element that is a multiple of 8 of a stage's row (kRowStride, 136, keeps every row 16-byte aligned)."},
        {wb::ErrorKind::global_out_of_bounds,
         "a store past the end of C: are the rows bounded by m and the columns by n, and is C's leading "
         "dimension m (column-major)?"},
    }};

const Step kStep2{
    8, 2, "a swizzled shared layout", kFile,
    wb::grading::Causes{
        {wb::ErrorKind::shared_out_of_bounds,
         "a row or a copy outside the stage: every element of a k-tile is at swizzled(kk, element), below "
         "kTileK * kTileM (4096) bf16 from the tile's start; does the ldmatrix address go through at(k row, "
         "element)?"},
        {wb::ErrorKind::misaligned,
         "an ldmatrix row or a 16-byte copy at an address that is no multiple of 16 bytes: a chunk of 8 bf16 "
         "starts at a multiple of 8 in the swizzled layout, and each lane's row starts a chunk."},
    }};

const Step kStep4{
    8, 4, "wgmma from shared memory", kFile,
    wb::grading::Causes{
        {wb::ErrorKind::global_out_of_bounds,
         "a store past the end of C: are the rows bounded by m and the columns by n?"},
    }};

const Step kStep5{
    8, 5, "warp specialization", kFile,
    wb::grading::Causes{
        {wb::ErrorKind::global_out_of_bounds,
         "a store past the end of C: are the rows bounded by m and the columns by n?"},
    }};

const Step kStep3{
    8, 3, "TMA into an mbarrier ring", kFile,
    wb::grading::Causes{
        {wb::ErrorKind::global_out_of_bounds,
         "a store past the end of C: are the rows bounded by m and the columns by n?"},
        {wb::ErrorKind::destination_not_shared,
         "a tensor copy's box lands outside the ring of stages: a stage starts 2 * kRingTileElements bf16 after the "
         "last, and within it A's boxes go to smem_a + half * kBoxElements and B's to smem_b + half * "
         "kBoxElements. Both offsets count bf16 elements (a bf16 pointer steps an element, not a byte): is the "
         "box's offset or the stage's off?"},
    }};

// The bf16 nearest to a float, as a float: what round_to_bf16 makes of it.
float bf16_rounded(float value) { return wb::grading::bf16_value(wb::grading::bf16_bits(value)); }

[[maybe_unused]] int k_tiles_of(const GemmShape& shape) { return (shape.k + ch08::kTileK - 1) / ch08::kTileK; }

// A's or B's element (row, p), as the column-major array holds it; 0 past its rows or k.
double element(const std::vector<float>& operand, int rows, int k, int row, int p) {
  if (row < 0 || p < 0 || row >= rows || p >= k) return 0.0;
  return operand[static_cast<std::size_t>(row) + static_cast<std::size_t>(p) * rows];
}

// The fragments' mistakes, each a product of A and B as the wrong fragments read them.
void add_fragment_models(wb::grading::Diagnosis& diagnosis, const wb::grading::GemmRun& run, bool wgmma) {
  const auto [m, n, k] = run.shape;
  // Within each aligned 8x8 block (8 rows, 8 of k): element (r, c) read as (c, r).
  const auto block_transposed = [](int row, int p) {
    return std::pair{row - row % 8 + p % 8, p - p % 8 + row % 8};
  };
  // Within each aligned 16x16 block: the (rows 8-15, k 0-7) and (rows 0-7, k 8-15) quarters exchanged.
  const auto quarters_exchanged = [](int row, int p) {
    const int row_half = row % 16 / 8, p_half = p % 16 / 8;
    return std::pair{row - row % 16 + p_half * 8 + row % 8, p - p % 16 + row_half * 8 + p % 8};
  };
  struct Slip {
    const char* name;
    std::pair<int, int> (*where)(int, int);
  };
  const Slip slips[] = {{"transposed", block_transposed}, {"exchanged", quarters_exchanged}};
  for (int side = 0; side < 2; ++side) {
    const bool of_a = side == 0;
    for (const Slip& slip : slips) {
      const std::string cause =
          std::string(slip.name) == "transposed"
              ? std::string("C is exactly the product in which every 8x8 matrix of ") + (of_a ? "A" : "B") +
                    "'s fragments is transposed: each lane got element (k, " + (of_a ? "row" : "column") +
                    ") where (" + (of_a ? "row" : "column") +
                    ", k) belongs. The stage holds the operand's k-rows (8 elements along " + (of_a ? "m" : "n") +
                    " at each k); the fragment wants them along k, so the load must be ldmatrix's .trans form " +
                    "(wb::ldmatrix_x4_trans)."
              : std::string("C is exactly the product in which ") + (of_a ? "A" : "B") +
                    "'s fragments took two of an ldmatrix.x4's four matrices in each other's place: its " +
                    (of_a ? "rows 8-15 at k 0-7 and rows 0-7 at k 8-15" : "columns 8-15 at k 0-7 and columns 0-7 at k 8-15") +
                    ". Lanes 8-15 give the rows of the second matrix, 16-23 of the third: " +
                    (of_a ? "A's a[1] is rows 8-15 at k 0-7 (matrix / 2 picks k + 8, matrix % 2 the row + 8)"
                          : "B's pair is (k 0-7, k 8-15) of columns j, then of columns j + 8 (matrix % 2 picks k + "
                            "8, matrix / 2 the column + 8)") +
                    ".";
      diagnosis.model(cause, [&run, m = m, n = n, k = k, of_a, where = slip.where] {
        return wb::grading::gemm_abt_with(
            run.shape,
            [&run, m, k, of_a, where](int row, int p) {
              if (!of_a) return element(run.a, m, k, row, p);
              const auto [r, q] = where(row, p);
              return element(run.a, m, k, r, q);
            },
            [&run, n, k, of_a, where](int row, int p) {
              if (of_a) return element(run.b, n, k, row, p);
              const auto [r, q] = where(row, p);
              return element(run.b, n, k, r, q);
            });
      });
    }
  }
  // A's fragments stepped by kMmaN (8 rows) where kMmaM (16) is meant: fragment i of a
  // warp's part holds rows 8 i to 8 i + 15, stored as rows 16 i to 16 i + 15.
  diagnosis.model(
      "C is exactly the product in which A's fragments start 8 rows apart instead of 16: fragment i of a warp's "
      "part read rows warp_m + 8 i to + 15 of the stage and was stored as rows warp_m + 16 i to + 15, so the "
      "fragments overlap and half of the part's rows are never read. A fragment of A is kMmaM (16) rows tall: "
      "its rows start at warp_m + i * kMmaM.",
      [&run, m = m, n = n, k = k] {
        return wb::grading::gemm_abt_with(
            run.shape,
            [&run, m, k](int row, int p) {
              const int local = row % ch08::kWarpTileM;
              const int fragment = local / ch08::kMmaM, r = local % ch08::kMmaM;
              return element(run.a, m, k, row - local + fragment * ch08::kMmaN + r, p);
            },
            [&run, n, k](int row, int p) { return element(run.b, n, k, row, p); });
      });
  // Step 3's tensor copies with their two coordinates exchanged, (k0, row) for (row, k0): the
  // box at (c0, c1) holds the operand's (c0 + i, c1 + kk) where the stage expects row c0 + i
  // at k c1 + kk, so the element used for (row, p) is the operand's (k0 + row % 64, the
  // box's first row + p % kTileK), zero outside the operand. A's boxes, B's, or both.
  for (const int sides : {1, 2, 3}) {
    const auto exchanged = [&run](const std::vector<float>& operand, int rows, int k, int row, int p) {
      const int box_row = row - row % ch08::kLineElements, k0 = p - p % ch08::kTileK;
      return element(operand, rows, k, k0 + row % ch08::kLineElements, box_row + p % ch08::kTileK);
    };
    const std::string which = sides == 1 ? "A's" : sides == 2 ? "B's" : "A's and B's";
    diagnosis.model(
        "C is exactly the product in which " + which +
            " boxes were copied with their two coordinates exchanged: the TMA read each box at (k0, the box's "
            "first row) where (first row, k0) is meant. A tensor copy's coordinates follow the map's dimensions, "
            "innermost first: dimension 0 is the operand's rows (m for A, n for B), dimension 1 is k.",
        [&run, m = m, n = n, k = k, sides, exchanged] {
          return wb::grading::gemm_abt_with(
              run.shape,
              [&run, m, k, sides, exchanged](int row, int p) {
                return (sides & 1) ? exchanged(run.a, m, k, row, p) : element(run.a, m, k, row, p);
              },
              [&run, n, k, sides, exchanged](int row, int p) {
                return (sides & 2) ? exchanged(run.b, n, k, row, p) : element(run.b, n, k, row, p);
              });
        });
  }
  // Step 4's warpgroups both reading A's box 0: rows 64-127 of each tile get rows 0-63's
  // products.
  if (wgmma) {
    diagnosis.model(
        "C is exactly the product in which both warpgroups read A's first box (rows 0-63 of the tile): rows 64-127 "
        "of every tile hold rows 0-63's products. Warpgroup w multiplies rows 64 w to 64 w + 63, which are A's box "
        "w of the stage, kBoxElements bf16 after box 0.",
        [&run, m = m, n = n, k = k] {
          return wb::grading::gemm_abt_with(
              run.shape,
              [&run, m, k](int row, int p) {
                const int local = row % ch08::kTileM;
                return element(run.a, m, k, row - local + local % 64, p);
              },
              [&run, n, k](int row, int p) { return element(run.b, n, k, row, p); });
        });
  }
  // The accumulator not carried: each mma's C operand zero (or a fresh array), so C is the
  // product of the last 16 of K alone.
  const int last = ((k + ch08::kMmaK - 1) / ch08::kMmaK - 1) * ch08::kMmaK;
  diagnosis.model(
      "C is exactly the product of the last 16 of K alone (k " + std::to_string(last) + " to " +
          std::to_string(last + 15) +
          (wgmma ? std::string("): each wgmma started from zeros instead of the accumulators, so every step of K "
                               "replaced the sum. Its last argument says whether it adds to the accumulators "
                               "(scale-d): true, D = A B + D.")
                 : std::string("): each mma.sync started from zeros instead of the accumulator, so every step of K "
                               "replaced the sum. Pass acc[i][j] as the C operand as well as D: d = a b + c, with c "
                               "the sum so far.")),
      [&run, m = m, n = n, k = k, last] {
        return wb::grading::gemm_abt_with(
            run.shape, [&run, m, k, last](int row, int p) { return p >= last ? element(run.a, m, k, row, p) : 0.0; },
            [&run, n, k](int row, int p) { return element(run.b, n, k, row, p); });
      });
}

// Where the store put C's elements, against the mistakes that move them: the block's
// origin counted twice (in the row, the column or both), C's leading dimension taken as n,
// and the C fragment read with g and q exchanged (lane % 4 for the row, lane / 4 for the
// column pair). Each is tried against C as a whole, unwritten elements included.
std::string store_readings(const std::vector<float>& c, const wb::grading::GemmRun& run, double tolerance) {
  const auto [m, n, k] = run.shape;
  // Where an element lands: clipped (the store's bound tests where it lands) or flat (the
  // bound tests the element meant, and the index runs on past it, into other columns or
  // past C's end).
  bool clipped = true;
  const auto inside = [m = m, n = n, &clipped](long long row, long long col) -> long long {
    if (clipped) return row < m && col < n ? row + col * m : -1;
    return row + col * m;
  };
  const auto origin_m = [](int row) { return row / ch08::kTileM * ch08::kTileM; };
  const auto origin_n = [](int col) { return col / ch08::kTileN * ch08::kTileN; };
  struct Reading {
    std::string cause;
    std::function<long long(int, int)> place;
  };
  const std::vector<Reading> readings = {
      {"C is exactly what a store with the block's row origin counted twice leaves: each element lands tile_m rows "
       "further down (2 tile_m + its row in the tile), past m for every block but the first row of blocks, whose "
       "rows stay unwritten. The accumulator's row already counts from the tile's first row; add tile_m once.",
       [&](int row, int col) { return inside(row + origin_m(row), col); }},
      {"C is exactly what a store with the block's column origin counted twice leaves: each element lands tile_n "
       "columns further along, past n for every block but the first column of blocks. Add tile_n once.",
       [&](int row, int col) { return inside(row, col + origin_n(col)); }},
      {"C is exactly what a store with both of the block's origins counted twice leaves: each element lands at "
       "(2 tile_m + its row, 2 tile_n + its column). Add the tile's origin once.",
       [&](int row, int col) { return inside(row + origin_m(row), col + origin_n(col)); }},
      {"C is exactly what a store with n as C's leading dimension leaves (row + col * n): C is column-major, m x "
       "n, its columns m elements apart (row + col * m).",
       [n = n](int row, int col) { return static_cast<long long>(row) + static_cast<long long>(col) * n; }},
      {"C is exactly what a row-major store leaves (row * n + col): each row's n elements stored one after the "
       "other. C is column-major, m x n: element (row, col) is at row + col * m, its columns m elements apart.",
       [n = n](int row, int col) { return static_cast<long long>(row) * n + static_cast<long long>(col); }},
      {"C is exactly what a store with the C fragment's g and q exchanged leaves: lane t holds rows t / 4 (and "
       "+ 8) and columns 2 (t % 4), 2 (t % 4) + 1 of each 16x8 tile; with g = lane % 4 and q = lane / 4 each "
       "element lands at another row and column, some past its tile's 8 columns.",
       [&](int row, int col) {
         const int r16 = row % ch08::kMmaM, c8 = col % ch08::kMmaN;
         const int g = r16 % 8, half = r16 / 8, q = c8 / 2, e = c8 % 2;
         return inside(row - r16 + q + 8 * half, col - c8 + 2 * g + e);
       }},
  };
  for (const Reading& reading : readings) {
    for (const bool bound_where_it_lands : {true, false}) {
      clipped = bound_where_it_lands;
      if (wb::grading::stored_as(c, run, tolerance, reading.place)) return reading.cause;
    }
  }
  return "";
}

#if WB_BACKEND_SIM
std::string figure(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// The warp instructions the reference issues: per block, warp and 16 of K, one
// ldmatrix.x4 for each fragment of A and one for each two of B, and one mma.sync for each
// pair (4 of A and 8 of B: 8 loads, 32 matrices, 32 mma.sync).
struct Expected {
  std::uint64_t mma_steps;  // blocks x warps x 16-deep steps of K
  std::uint64_t mmas() const { return mma_steps * ch08::kWarpMmasM * ch08::kWarpMmasN; }
  std::uint64_t matrices() const { return mma_steps * 4 * (ch08::kWarpMmasM + ch08::kWarpMmasN / 2); }
};

Expected expected_for(const wb::sim::LaunchStats& stats, const GemmShape& shape) {
  const std::uint64_t warps = ch08::kThreads / 32;
  return {stats.blocks * warps * static_cast<std::uint64_t>(k_tiles_of(shape)) * (ch08::kTileK / ch08::kMmaK)};
}

const char* const kPaddedConflicts =
    "the ldmatrix rows conflict: the 8 rows of a matrix are 8 k-rows of the stage, kRowStride (136 bf16, 272 "
    "bytes) apart, which puts them in 8 different groups of 4 banks. Are the rows' addresses taken with "
    "kTileM (128 bf16, 256 bytes: every row in the same banks) where the stage's stride is kRowStride?";
const char* const kSwizzledConflicts =
    "the ldmatrix rows conflict, though the layout (swizzled) is the TMA's: the 8 rows of a matrix are the same "
    "chunk of 8 k-rows, which the swizzle puts in 8 different groups of 4 banks. Does every row's address go "
    "through at(k row, element), with the element a multiple of 8?";

::testing::AssertionResult on_the_tensor_cores(const wb::sim::LaunchStats& stats, const GemmShape& shape,
                                               const char* conflict_advice) {
  const Expected expected = expected_for(stats, shape);
  if (stats.mma_calls == 0) {
    return ::testing::AssertionFailure()
           << "no mma.sync was issued: the products are the tensor cores' (wb::mma_m16n8k16_bf16), one for each "
              "16x8 tile of the warp's part of C and each 16 of K.";
  }
  if (stats.mma_calls != expected.mmas()) {
    return ::testing::AssertionFailure()
           << stats.mma_calls << " mma.sync for " << expected.mmas() << " 16x8x16 pieces of the product ("
           << expected.mma_steps << " warp steps of 16 along K, " << ch08::kWarpMmasM * ch08::kWarpMmasN
           << " tiles of 16x8 a warp): one mma.sync a piece"
           << (stats.mma_calls > expected.mmas() ? " (is a piece multiplied twice?)." : " (is a piece skipped?).");
  }
  if (stats.ldmatrix_calls == 0) {
    return ::testing::AssertionFailure()
           << "no ldmatrix was issued: the fragments were gathered from shared memory with plain loads, a load a "
              "pair of bf16 per lane, where one ldmatrix.x4 hands the warp a whole 16x16 fragment of A (or two of "
              "B's) in one instruction.";
  }
  if (stats.ldmatrix_matrices < expected.matrices()) {
    return ::testing::AssertionFailure()
           << "ldmatrix loaded " << stats.ldmatrix_matrices << " 8x8 matrices where the product needs "
           << expected.matrices() << " (each 16 of K, a warp: " << ch08::kWarpMmasM << " fragments of A of 4 matrices, " << ch08::kWarpMmasN << " of B of 2): the "
           << "others were gathered with plain loads (" << stats.of(wb::sim::AccessKind::shared_load).requests
           << " shared-load requests in all, ldmatrix's rows among them), a load for each pair a lane holds. "
              "Load every fragment of A and of B with wb::ldmatrix_x4_trans.";
  }
  if (stats.ldmatrix_matrices > expected.matrices()) {
    return ::testing::AssertionFailure()
           << "ldmatrix loaded " << stats.ldmatrix_matrices << " 8x8 matrices where the product needs "
           << expected.matrices() << " (each 16 of K, a warp: " << ch08::kWarpMmasM << " fragments of A of 4 matrices, " << ch08::kWarpMmasN << " of B of 2): "
           << figure(static_cast<double>(stats.ldmatrix_matrices) / static_cast<double>(expected.matrices()))
           << " times each. Load each fragment once per 16 of K, each operand's in a loop of its own before the "
              "mma loops, not inside another loop of fragments or of mma.";
  }
  // Four matrices a call: the page's loads are all .x4 (4 of A and 2 of B a warp, each 16 of K).
  const std::uint64_t x4_calls = expected.matrices() / 4;
  if (stats.ldmatrix_calls > x4_calls) {
    return ::testing::AssertionFailure()
           << stats.ldmatrix_calls << " ldmatrix for " << stats.ldmatrix_matrices << " matrices, "
           << figure(static_cast<double>(stats.ldmatrix_matrices) / static_cast<double>(stats.ldmatrix_calls))
           << " a call, where the step's .x4 loads make " << x4_calls
           << " calls of 4: an .x1 (.x2) reads its matrix (matrices) with 8 (16) of the warp's lanes giving rows "
              "while the others idle, and takes a whole instruction for a quarter (a half) of the work. Load four "
              "matrices a call: one wb::ldmatrix_x4_trans for each fragment of A, one for each two of B.";
  }
  return wb::grading::within_the_ideal(stats, wb::sim::AccessKind::shared_load, conflict_advice);
}

::testing::AssertionResult tiles_through_cp_async(const wb::sim::LaunchStats& stats, const GemmShape& shape) {
  const std::uint64_t expected =
      stats.blocks * static_cast<std::uint64_t>(k_tiles_of(shape)) * 2 * ch08::kTileK * (ch08::kTileM / 8);
  if (stats.of(wb::sim::AccessKind::shared_store).requests > 0) {
    return ::testing::AssertionFailure()
           << "shared memory was written with " << stats.of(wb::sim::AccessKind::shared_store).requests
           << " plain store requests: the stages are filled by cp.async alone.";
  }
  if (stats.cp_async_4 + stats.cp_async_8 > 0) {
    return ::testing::AssertionFailure()
           << stats.cp_async_4 << " cp.async of 4 bytes and " << stats.cp_async_8 << " of 8 beside "
           << stats.cp_async_16 << " of 16: each 16-byte piece of a k-tile (8 bf16) is one 16-byte copy "
              "(wb::cp_async_cg), which the stage's 16-byte rows and the operands' alignment allow.";
  }
  if (stats.cp_async_ops() != expected) {
    return ::testing::AssertionFailure()
           << stats.cp_async_ops() << " cp.async of 16 bytes for the " << expected
           << " 16-byte pieces of the k-tiles: each piece is copied once"
           << (stats.cp_async_ops() > expected ? " (is a tile loaded twice?)." : " (is a tile skipped?).");
  }
  // Judged on whole tiles: where m or n is no multiple of 128, a k-row of a tile starts off
  // a sector's boundary and the ideal is not the reference's.
  const bool whole_tiles = shape.m % ch08::kTileM == 0 && shape.n % ch08::kTileN == 0;
  if (auto coalesced = !whole_tiles ? ::testing::AssertionSuccess() : wb::grading::within_the_ideal(
          stats, wb::sim::AccessKind::cp_async_read,
          "the copies' global reads are not coalesced: 16 consecutive lanes copy the 16 pieces of one k-row of "
          "the tile (256 contiguous bytes of the operand), chunk % 16 along the row and chunk / 16 down k.");
      !coalesced) {
    return coalesced;
  }
  return wb::grading::loads_overlap(stats, ch08::kStages, k_tiles_of(shape), "wb::cp_async_wait<kStages - 2>()");
}

// Step 3: every box by one tensor copy, nothing else into shared memory, and the ring
// kept full: a copy issued with the other stages' copies still in flight. The reference's
// thread 0 issues the first fill's 12 copies before any wait (6.5 in flight at each on
// average, itself included), then each refill's 4 with 2 stages' 8 unseen: 9 a copy over
// 8 k-tiles; a producer that waits for each stage it sends sees 2.5.
constexpr int kCopiesPerStage = 4;  // A's and B's two boxes
constexpr double kMinCopiesInFlight = 1.5 * kCopiesPerStage;

::testing::AssertionResult tiles_through_the_tma(const wb::sim::LaunchStats& stats, const GemmShape& shape,
                                                 int warps) {
  const std::uint64_t stages = stats.blocks * static_cast<std::uint64_t>(k_tiles_of(shape));
  const std::uint64_t box_bytes = 2u * ch08::kLineElements * ch08::kTileK;
  if (stats.tensor_copies == 0) {
    return ::testing::AssertionFailure()
           << "no tensor copy was issued: thread 0 fills each stage with four "
              "cde::cp_async_bulk_tensor_2d_global_to_shared, one a box (A's and B's two halves).";
  }
  if (stats.cp_async_ops() != 0 || stats.bulk_copies != 0) {
    return ::testing::AssertionFailure() << stats.cp_async_ops() << " cp.async and " << stats.bulk_copies
                                         << " bulk copies beside the tensor copies: the step copies with the "
                                            "TMA only.";
  }
  if (stats.of(wb::sim::AccessKind::shared_store).requests > 0) {
    return ::testing::AssertionFailure()
           << "shared memory was written with " << stats.of(wb::sim::AccessKind::shared_store).requests
           << " plain store requests: the stages are filled by the TMA alone.";
  }
  if (stats.tensor_copies != stages * kCopiesPerStage || stats.tensor_bytes != stages * kCopiesPerStage * box_bytes) {
    return ::testing::AssertionFailure()
           << stats.tensor_copies << " tensor copies of " << stats.tensor_bytes << " bytes in all, for "
           << stages << " k-tiles of the blocks' (" << stats.blocks << " blocks, " << k_tiles_of(shape)
           << " k-tiles each): four copies a k-tile, A's and B's two boxes of " << box_bytes << " bytes"
           << (stats.tensor_copies > stages * kCopiesPerStage ? " (is a tile loaded twice?)."
                                                             : " (is a tile or a half skipped?).");
  }
  if (stats.mbarrier_waits == 0) {
    return ::testing::AssertionFailure()
           << "no thread waited on a barrier: each warp waits for its stage's full phase before it reads.";
  }
  // A k-tile's stage takes one arrival on its full barrier (the producer's, with the bytes)
  // and one a warp on its empty barrier: more complete a phase before every warp released
  // the stage (fewer leave a phase that never completes, which the simulator reports).
  const std::uint64_t kArrivalsPerTile = 1 + static_cast<std::uint64_t>(warps);
  if (stats.mbarrier_arrivals != stages * kArrivalsPerTile) {
    const double per_tile = static_cast<double>(stats.mbarrier_arrivals) / static_cast<double>(stages);
    return ::testing::AssertionFailure()
           << stats.mbarrier_arrivals << " arrivals on the ring's barriers for " << stages << " k-tiles, "
           << wb::grading::two_decimals(per_tile) << " a k-tile, where each takes " << kArrivalsPerTile
           << ": the producer's one on the stage's full barrier (with the bytes) and one a warp on its empty "
              "barrier, whose count init gives as the block's warps. A phase completes as soon as its count of arrivals is "
              "in, so extra arrivals complete phases before every warp has released the stage, and the "
              "producer's wait on it can return while warps still read."
           << (stats.mbarrier_arrivals == stages * (1 + 32 * static_cast<std::uint64_t>(warps))
                   ? "\nLikely cause: every thread arrives on the empty barrier (1 + kThreads arrivals a k-tile), "
                     "which counts one a warp: lane 0 alone arrives for its warp, after a __syncwarp()."
                   : std::string());
  }
  const double in_flight =
      static_cast<double>(stats.bulk_copies_in_flight_at_issue) / static_cast<double>(stats.tensor_copies);
  if (k_tiles_of(shape) > ch08::kRingStages && in_flight < kMinCopiesInFlight) {
    return ::testing::AssertionFailure()
           << "each tensor copy went out with " << wb::grading::two_decimals(in_flight)
           << " copies in flight on average, itself included, where a full ring keeps the other stages' in "
              "flight (4 copies a stage, kRingStages - 1 stages besides the one being filled): the copies and the "
              "products take turns. Thread 0 fills every stage before the loop, and refills a stage as soon as every warp has "
              "released it, without waiting for its copies to land."
           << (2 * stats.bulk_waits_right_after_issue >= stats.tensor_copies / kCopiesPerStage
                   ? "\nLikely cause: " + std::to_string(stats.bulk_waits_right_after_issue) +
                         " times thread 0 waited for the stage it had just filled, on that phase, before it "
                         "issued another: the wait on a stage's full phase belongs before the stage is read, in "
                         "every warp, not after its copies."
                   : std::string());
  }
  return ::testing::AssertionSuccess();
}

// Step 3's barriers in a failing run: a k-tile's stage takes one arrival with bytes (the
// producer's barrier_arrive_tx on its full barrier, whose count is 1). More complete the
// full phase while copies of the stage are still in flight, and complete more phases than
// the stage has uses, which the waits' parity (the stage's use % 2) no longer follows.
std::string step3_barrier_counts(const wb::sim::LaunchStats& stats, const GemmShape& shape) {
  const std::uint64_t stages = stats.blocks * static_cast<std::uint64_t>(k_tiles_of(shape));
  if (stages == 0 || stats.mbarrier_arrivals_with_bytes <= stages) return "";
  const double per_tile = static_cast<double>(stats.mbarrier_arrivals_with_bytes) / static_cast<double>(stages);
  return std::to_string(stats.mbarrier_arrivals_with_bytes) + " arrivals with bytes (barrier_arrive_tx) for " +
         std::to_string(stages) + " k-tiles, " + wb::grading::two_decimals(per_tile) +
         " a k-tile, on full barriers whose count init gives as 1. Each arrival completes a phase as soon as the "
         "bytes it announced have landed, so a stage's use completes several phases where the waits count one a "
         "use (parity (k_tile / kRingStages) % 2): a warp's wait returns once the first arrival's bytes are in, "
         "with the stage's other boxes still in flight, and later waits find phases completed before. The "
         "producer arrives once a stage, after its four copies, with all of the stage's bytes (kStageBytes).";
}

// The committed groups a wgmma wait found in flight, on average over the waits.
double groups_in_flight_at_waits(const wb::sim::LaunchStats& stats) {
  return static_cast<double>(stats.wgmma_groups_at_waits) /
         static_cast<double>(std::max<std::uint64_t>(stats.wgmma_waits, 1));
}

// A k-tile's wgmmas are one group: one commit and one wait a k-tile in each thread that
// multiplies (`threads` of them), where a commit and a wait after every wgmma makes the
// tensor cores finish each before the next is issued.
::testing::AssertionResult one_group_a_k_tile(const wb::sim::LaunchStats& stats, std::uint64_t threads,
                                              std::uint64_t k_tiles) {
  const std::uint64_t groups = threads * k_tiles;
  if (stats.wgmma_commits <= groups) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << stats.wgmma_commits / threads << " commit groups (and " << stats.wgmma_waits / threads
         << " waits) a multiplying thread for " << k_tiles << " k-tiles, "
         << wb::grading::two_decimals(static_cast<double>(stats.wgmma_commits) / static_cast<double>(groups))
         << " a k-tile, where a k-tile's " << ch08::kTileK / ch08::kMmaK
         << " wgmmas are one group: fence once, issue them all, commit once, wait once. A commit and a wait after "
            "each wgmma make the tensor cores finish it before the next is issued, and wgmmas into the same "
            "accumulators need no wait between them.";
}

// Step 4: the products by wgmma alone, one a warpgroup for each 16 of K of each k-tile
// (counted once a warp: 4 a warpgroup), each k-tile's group waited for before the stage
// is released, and every warpgroup whole.
::testing::AssertionResult on_wgmma(const wb::sim::LaunchStats& stats, const GemmShape& shape) {
  if (!stats.wgmma_partial_warpgroup.empty()) return ::testing::AssertionFailure() << stats.wgmma_partial_warpgroup;
  const std::uint64_t warps = 4 * ch08::kWarpgroups;
  const std::uint64_t expected =
      stats.blocks * warps * static_cast<std::uint64_t>(k_tiles_of(shape)) * (ch08::kTileK / ch08::kMmaK);
  if (stats.mma_calls + stats.ldmatrix_calls > 0) {
    return ::testing::AssertionFailure()
           << stats.mma_calls << " mma.sync and " << stats.ldmatrix_calls
           << " ldmatrix beside the wgmmas: in this step the tensor cores read the stages themselves, through the "
              "descriptors, and no fragment passes through registers.";
  }
  if (stats.wgmma_calls != expected) {
    return ::testing::AssertionFailure()
           << stats.wgmma_calls / 4 << " wgmma a warpgroup in all, where " << expected / 4 << " multiply the "
           << stats.blocks << " blocks' k-tiles (" << ch08::kWarpgroups << " warpgroups a block, "
           << ch08::kTileK / ch08::kMmaK << " wgmma m64n128k16 a warpgroup and k-tile)"
           << (stats.wgmma_calls > expected ? " (is a k-slice multiplied twice?)." : " (is a k-slice skipped?).");
  }
  if (stats.wgmma_never_waited > 0) {
    return ::testing::AssertionFailure()
           << stats.wgmma_never_waited
           << " wgmmas were never waited for: every group is waited for (wgmma_wait_group) before the stage it "
              "reads is released and before the accumulators are stored.";
  }
  return one_group_a_k_tile(stats, stats.blocks * 128 * ch08::kWarpgroups, static_cast<std::uint64_t>(k_tiles_of(shape)));
}

// Step 5: the roles kept apart and the ring kept full. The producer's warpgroup gives
// registers back and issues every copy (six a k-tile: A's two boxes, B's four), no
// consumer warp copies, the consumers take registers and multiply (one wgmma a consumer
// warpgroup for each 16 of K), keep a k-tile's group in flight while they wait for the
// one before (2 in flight at most waits), and release each stage once, a warp at a time.
::testing::AssertionResult specialized(const wb::sim::LaunchStats& stats, const GemmShape& shape) {
  const std::uint64_t k_tiles = static_cast<std::uint64_t>(k_tiles_of(shape));
  const std::uint64_t blocks = stats.blocks;
  constexpr std::uint64_t kBoxes = (ch08::kTileM + ch08::kWideTileN) / ch08::kLineElements;  // 6
  constexpr std::uint64_t kConsumerWarps = 4 * ch08::kConsumerWarpgroups;
  if (!stats.wgmma_partial_warpgroup.empty()) return ::testing::AssertionFailure() << stats.wgmma_partial_warpgroup;
  if (stats.tensor_copies != blocks * k_tiles * kBoxes || stats.cp_async_ops() + stats.bulk_copies > 0 ||
      stats.of(wb::sim::AccessKind::shared_store).requests > 0) {
    return ::testing::AssertionFailure()
           << stats.tensor_copies << " tensor copies (and " << stats.cp_async_ops() << " cp.async, "
           << stats.bulk_copies << " bulk copies, " << stats.of(wb::sim::AccessKind::shared_store).requests
           << " shared store requests) for " << blocks * k_tiles << " k-tiles of the blocks': the stages are filled "
           << "by the TMA alone, " << kBoxes << " boxes a k-tile (A's 2, B's 4).";
  }
  if (stats.wgmma_by_copying_warps > 0) {
    return ::testing::AssertionFailure()
           << stats.wgmma_by_copying_warps
           << " wgmmas were issued by warps whose threads also issue the copies: the producer's warpgroup only "
              "copies, and the consumers only multiply, so that neither waits on the other's work.";
  }
  const std::uint64_t expected = blocks * kConsumerWarps * k_tiles * (ch08::kTileK / ch08::kMmaK);
  if (stats.mma_calls + stats.ldmatrix_calls > 0 || stats.wgmma_calls != expected) {
    return ::testing::AssertionFailure()
           << stats.wgmma_calls / 4 << " wgmma a warpgroup (and " << stats.mma_calls << " mma.sync) where "
           << expected / 4 << " multiply the k-tiles: " << ch08::kConsumerWarpgroups
           << " consumer warpgroups a block, " << ch08::kTileK / ch08::kMmaK << " wgmma m64n256k16 each a k-tile.";
  }
  if (stats.wgmma_never_waited > 0) {
    return ::testing::AssertionFailure() << stats.wgmma_never_waited
                                         << " wgmmas were never waited for: wgmma_wait_group<0> after the loop.";
  }
  if (stats.setmaxnreg_decreases != blocks * 128 || stats.setmaxnreg_increases != blocks * 128 * ch08::kConsumerWarpgroups) {
    return ::testing::AssertionFailure()
           << stats.setmaxnreg_decreases << " threads gave registers back (setmaxnreg_decrease) and "
           << stats.setmaxnreg_increases << " took more (setmaxnreg_increase), for " << blocks
           << " blocks: the producer's warpgroup (128 threads a block) decreases, every consumer warpgroup increases.";
  }
  if (auto groups = one_group_a_k_tile(stats, blocks * 128 * ch08::kConsumerWarpgroups, k_tiles); !groups) {
    return groups;
  }
  // A consumer warp releases each stage it read once (all but the last k-tile's, which no
  // copy follows), and the producer arrives once a k-tile.
  const std::uint64_t arrivals = blocks * (k_tiles + kConsumerWarps * (k_tiles - 1));
  if (stats.mbarrier_arrivals != arrivals) {
    return ::testing::AssertionFailure()
           << stats.mbarrier_arrivals << " arrivals on the ring's barriers where " << arrivals << " are the "
           << "producer's one a k-tile and one a consumer warp for each k-tile but the last (released once its "
              "group is done, lane 0 after a __syncwarp()).";
  }
  const double in_flight_groups =
      groups_in_flight_at_waits(stats);
  if (k_tiles >= 4 && in_flight_groups < 1.5) {
    return ::testing::AssertionFailure()
           << "the consumers' waits found " << wb::grading::two_decimals(in_flight_groups)
           << " groups in flight on average, where a consumer keeps this k-tile's group running while it waits "
              "for the previous one's (wgmma_wait_group<1>, then the previous stage's release): with "
              "wgmma_wait_group<0> every k-tile's products and the next k-tile's issue take turns.";
  }
  return ::testing::AssertionSuccess();
}

// A stage holds A's tile (kTileM x kTileK bf16), then B's.
constexpr long long kATileBytes = 2LL * ch08::kTileM * ch08::kTileK;

// Where the first wgmma's operands start in their stage, where the ring's start is known
// (the first block's lowest box): B's tile follows A's, 16384 bytes in. A B start moved
// is named as B's, and a stage's start moved as the stage's, not read as A's (empty where
// B is in place or the ring's start is unknown).
std::string operands_in_their_stage(const wb::sim::LaunchStats& stats, const wb::MatrixDescriptorFields& b,
                                    long long stage_bytes) {
  if (!stats.tensor_copy_lowest_destination || stats.wgmma_first_desc_a_of_warpgroup.empty()) return "";
  const long long ring = static_cast<long long>(*stats.tensor_copy_lowest_destination);
  const auto in_stage = [&](long long start) { return ((start - ring) % stage_bytes + stage_bytes) % stage_bytes; };
  const long long b_at = in_stage(b.start);
  if (b_at == kATileBytes) return "";
  long long a_at = -1;
  for (std::uint64_t first : stats.wgmma_first_desc_a_of_warpgroup) {
    if (first != 0) {
      a_at = in_stage(wb::decode_matrix_descriptor(first).start);
      break;
    }
  }
  const std::string stage_text = " (stages of " + std::to_string(stage_bytes) + " bytes from byte " +
                                 std::to_string(ring) + " of the dynamic shared memory, where the first box landed)";
  if (a_at > 0 && b_at - a_at == kATileBytes) {
    return "the first wgmma reads A from byte " + std::to_string(a_at) + " and B from byte " + std::to_string(b_at) +
           " of its stage" + stage_text + ", both " + std::to_string(a_at) +
           " bytes past their tiles (A's at byte 0, B's at 16384): the stage's start is off, not one operand's.";
  }
  return "the first wgmma's descriptor of B starts at byte " + std::to_string(b_at) + " of its stage" + stage_text +
         ", where B's tile follows A's kTileM x kTileK bf16, at byte " + std::to_string(kATileBytes) +
         (b_at == 2LL * ch08::kWideTileN * ch08::kTileK && stage_bytes > 2 * kATileBytes
              ? ": 32768 bytes is B's own kWideTileN x kTileK, where A's tile, kTileM x kTileK, is what comes before "
                "B's."
          : b_at == kATileBytes / 2 ? ": 8192 is A's tile counted in bf16 elements, taken as bytes."
                                    : ".");
}

// Step 4's descriptors, as the first wgmma gave them, against the ring's stages: 128-byte
// swizzle, 8 lines of 128 bytes from one 8 k-rows to the next (the stride byte offset),
// and B's two boxes kBoxBytes apart (its leading byte offset: A's warpgroup reads one box).
// Step 5 reads them too, with its stages of `stage_bytes`.
std::string step4_descriptors(const wb::sim::LaunchStats& stats, long long stage_bytes) {
  if (stats.wgmma_calls == 0) return "";
  const auto decode = wb::decode_matrix_descriptor;
  const wb::MatrixDescriptorFields a = decode(stats.wgmma_first_desc_a), b = decode(stats.wgmma_first_desc_b);
  constexpr unsigned long long kStride = 8 * 128, kBoxBytes = 2ull * ch08::kLineElements * ch08::kTileK;
  const auto layout_name = [](wb::Swizzle layout) {
    return layout == wb::Swizzle::bytes128 ? std::string("the 128-byte swizzle (wb::Swizzle::bytes128)")
           : layout == wb::Swizzle::none   ? std::string("no swizzle (wb::Swizzle::none)")
                                           : std::to_string(layout == wb::Swizzle::bytes64 ? 64 : 32) + "-byte swizzle";
  };
  for (const auto& [name, fields] : {std::pair{"A", a}, std::pair{"B", b}}) {
    if (fields.layout != wb::Swizzle::bytes128) {
      return std::string("the first wgmma's descriptor of ") + name + " gives " + layout_name(fields.layout) +
             ", where the TMA wrote the stages with the 128-byte swizzle: a descriptor says how the operand lies in "
             "shared memory, and the tensor cores read the chunks where that layout puts them.";
    }
    if (fields.stride_byte_offset != kStride) {
      return std::string("the first wgmma's descriptor of ") + name + " gives a stride byte offset of " +
             std::to_string(fields.stride_byte_offset) +
             ", where 8 k-rows of a box, 8 lines of 128 bytes, span 1024 bytes: " +
             "the stride byte offset steps from k-rows 0-7 to 8-15" +
             (fields.stride_byte_offset == kStride / 2 ? " (512 is 8 lines counted in bf16 elements, or 4 lines)."
                                                       : ".");
    }
  }
  // One 16 of K further along an operand is 16 lines of 128 bytes.
  if (stats.wgmma_first_two_desc_b.size() == 2) {
    const long long step = static_cast<long long>(decode(stats.wgmma_first_two_desc_b[1]).start) -
                           static_cast<long long>(decode(stats.wgmma_first_two_desc_b[0]).start);
    if (step != 16 * 128) {
      return "a warp's first two wgmmas read B " + std::to_string(step) +
             " bytes apart, where the next 16 k-rows of a box are 16 lines of 128 bytes on, 2048 bytes: k-row kk "
             "starts kk lines into the tile, kk * kLineElements bf16" +
             (step == 2 * 16 * 128 ? " (4096: a count of bytes, kk * kLineBytes, added to a bf16 pointer, which "
                                     "steps in elements: twice as far)."
                                   : ".");
    }
  }
  if (std::string placed = operands_in_their_stage(stats, b, stage_bytes); !placed.empty()) return placed;
  // Each multiplying warpgroup's 64 rows are A's box in order (the i-th: box i): A's tile
  // is the stage's first 16384 bytes, B's follows, where the first wgmma's B starts.
  const long long stage = static_cast<long long>(b.start) - kATileBytes;
  const std::vector<std::uint64_t>& firsts = stats.wgmma_first_desc_a_of_warpgroup;
  int multiplying = 0;
  for (int group = 0; group < static_cast<int>(firsts.size()); ++group) {
    if (firsts[group] == 0) continue;
    const long long at = static_cast<long long>(decode(firsts[group]).start) - stage;
    const long long meant = static_cast<long long>(multiplying) * static_cast<long long>(kBoxBytes);
    if (at != meant) {
      return "warpgroup " + std::to_string(group) + ", the " + (multiplying == 0 ? "first" : "second") +
             " that multiplies, reads A from byte " + std::to_string(at) + " of the stage, where its 64 rows, A's box " +
             std::to_string(multiplying) + ", start at byte " + std::to_string(meant) +
             " (A's tile is the stage's first 16384 bytes, box i at i x 8192)" +
             (at == meant + static_cast<long long>(kBoxBytes)
                  ? ": one box too far. The box counts the warpgroups that multiply, from 0 (in step 5, consumer = "
                    "warpgroup - 1)."
              : multiplying > 0 && at == 2LL * ch08::kLineElements * multiplying
                  ? ": 64 bf16 a warpgroup is one line of a box, not a box (kBoxElements)."
                  : ".");
    }
    ++multiplying;
  }
  if (b.leading_byte_offset != kBoxBytes) {
    return "the first wgmma's descriptor of B gives a leading byte offset of " +
           std::to_string(b.leading_byte_offset) +
           ", where B's two boxes (elements 0-63 and 64-127 of each k-row, along n) are " + std::to_string(kBoxBytes) +
           " bytes apart (kTileK lines of 128 bytes): the leading byte offset steps from one run of 64 elements "
           "along n to the next" +
           (b.leading_byte_offset == kBoxBytes / 2
                ? " (4096 is the box counted in bf16 elements, kBoxElements, not bytes)."
                : ".");
  }
  return "";
}
#endif

// Step 2's layout, read through swizzled_offset on the host for every element of a
// k-tile, against the TMA's: box h (elements 64 h to 64 h + 63 of every k-row) as kTileK
// lines of 128 bytes, one a k-row, box 0's then box 1's, and chunk c of line kk at chunk
// c ^ (kk % 8). "" where it is that layout; otherwise what was found, the first element
// that breaks it, and why step 3 needs it.
std::string swizzled_layout_problem() {
  constexpr int kLine = ch08::kLineElements;
  constexpr int kElements = ch08::kTileK * ch08::kTileM;
  const auto at = [](int kk, int element) { return ch08::swizzled_offset(kk, element); };
  const auto where = [](int kk, int element) {
    return "(k-row " + std::to_string(kk) + ", element " + std::to_string(element) + ")";
  };
  const std::string layout =
      " The TMA writes a box of 64 x kTileK bf16 as kTileK lines of 128 bytes, one a k-row, and with the 128-byte "
      "swizzle puts the 16-byte chunk c of line kk at chunk c ^ (kk % 8); step 3's stages are two such boxes an "
      "operand (elements 0-63 of the k-rows, then 64-127), so element (kk, e) belongs at line (e / 64) * kTileK "
      "+ kk, chunk (e % 64 / 8) ^ (kk % 8), position e % 8.";
  // The first element, in k-row order, that is not where the TMA's layout puts it: both
  // places as (line, chunk, position), so that the term that moved it shows.
  const auto place = [](int offset) {
    return std::to_string(offset) + " (line " + std::to_string(offset / kLine) + ", chunk " +
           std::to_string(offset % kLine / 8) + ", position " + std::to_string(offset % 8) + ")";
  };
  std::string first_misplaced;
  for (int kk = 0; kk < ch08::kTileK && first_misplaced.empty(); ++kk) {
    for (int element = 0; element < ch08::kTileM; ++element) {
      const int expected = (element / kLine * ch08::kTileK + kk) * kLine + ((element % kLine / 8) ^ (kk % 8)) * 8 +
                           element % 8;
      if (at(kk, element) != expected) {
        first_misplaced = " The first element in k-row order that is not where the TMA puts it: " + where(kk, element) +
                          ", at " + place(at(kk, element)) + " where the TMA's layout has " + place(expected) + ".";
        break;
      }
    }
  }
  // The mistakes whose whole layout is known, each checked against every element: the
  // first that swizzled follows everywhere is named after what was found.
  struct LayoutSlip {
    const char* cause;
    int (*offset)(int kk, int element);
  };
  const LayoutSlip slips[] = {
      {"swizzled follows, for every element, the layout whose chunk is element / 8 where (element % 64) / 8 is "
       "meant: the chunk is counted along the whole k-row (0 to 15), not within the element's line of 64 (0 to "
       "7), so the chunks of elements 64-127 run past the end of their line into the next one. The line already "
       "counts element / 64; the chunk is the element's place within it.",
       [](int kk, int element) {
         return (element / kLine * ch08::kTileK + kk) * kLine + ((element / 8) ^ (kk % 8)) * 8 + element % 8;
       }},
  };
  std::string likely;
  for (const LayoutSlip& slip : slips) {
    bool follows = true;
    for (int kk = 0; kk < ch08::kTileK && follows; ++kk) {
      for (int element = 0; element < ch08::kTileM && follows; ++element) {
        follows = at(kk, element) == slip.offset(kk, element);
      }
    }
    if (follows) {
      likely = std::string("\nLikely cause: ") + slip.cause;
      break;
    }
  }
  std::vector<int> owner(kElements, -1);
  for (int kk = 0; kk < ch08::kTileK; ++kk) {
    for (int element = 0; element < ch08::kTileM; ++element) {
      const int offset = at(kk, element);
      if (offset < 0 || offset >= kElements) {
        return "swizzled" + where(kk, element) + " is " + std::to_string(offset) + ", outside the tile's " +
               std::to_string(kElements) + " bf16 (offsets 0 to " + std::to_string(kElements - 1) + ")." +
               first_misplaced + layout + likely;
      }
      const int chunk_start = at(kk, element - element % 8);
      if (chunk_start % 8 != 0 || offset != chunk_start + element % 8) {
        return "element " + where(kk, element) + " is at " + std::to_string(offset) + " and its chunk's first, " +
               where(kk, element - element % 8) + ", at " + std::to_string(chunk_start) +
               ": a chunk of 8 bf16 (16 bytes) stays whole and in order, at a multiple of 8, since each 16-byte "
               "copy and each ldmatrix row moves one." + first_misplaced + layout + likely;
      }
      const int other = owner[offset];
      if (other >= 0) {
        return "elements " + where(other / ch08::kTileM, other % ch08::kTileM) + " and " + where(kk, element) +
               " are both at offset " + std::to_string(offset) +
               ": two elements of the tile in one place, so one copy overwrites the other." + first_misplaced + layout + likely;
      }
      owner[offset] = kk * ch08::kTileM + element;
    }
  }
  int unswizzled = 0;  // chunks left where they were, c at c, in lines that should move them
  std::string first_line, first_chunk;
  for (int kk = 0; kk < ch08::kTileK; ++kk) {
    for (int element = 0; element < ch08::kTileM; element += 8) {
      const int offset = at(kk, element);
      const int line = element / kLine * ch08::kTileK + kk;
      const int chunk = (element % kLine / 8) ^ (kk % 8);
      if (offset / kLine != line && first_line.empty()) {
        first_line = "element " + where(kk, element) + " is in line " + std::to_string(offset / kLine) +
                     " (offset " + std::to_string(offset) + " / 64), where the TMA's box puts it in line " +
                     std::to_string(line) + ".";
      }
      if (offset % kLine / 8 != chunk) {
        if (kk % 8 != 0 && offset % kLine / 8 == element % kLine / 8) ++unswizzled;
        if (first_chunk.empty()) {
          first_chunk = "element " + where(kk, element) + " is in chunk " + std::to_string(offset % kLine / 8) +
                        " of its line, where the swizzle puts chunk " + std::to_string(element % kLine / 8) +
                        " of k-row " + std::to_string(kk) + " at chunk " + std::to_string(chunk) + ".";
        }
      }
    }
  }
  if (!first_line.empty()) {
    return "the layout keeps every element once, but not in the TMA's lines: " + first_line + layout + likely;
  }
  if (!first_chunk.empty()) {
    const int moving_chunks = ch08::kTileK * ch08::kTileM / 8 / 8 * 7;  // all chunks of the lines kk % 8 != 0
    return "the layout keeps every element once, in the TMA's lines, but not at the swizzle's chunks: " +
           first_chunk +
           (unswizzled == moving_chunks
                ? " No chunk moves: the layout is not swizzled, so the 8 k-rows an ldmatrix matrix reads, 8 lines "
                  "128 bytes apart, are all in the same 4 banks (8 wavefronts where 1 does)."
                : std::string()) +
           layout + likely;
  }
  return "";
}

wb::grading::GemmCheck gemm_check(const Step& step, const GemmShape& shape) {
  wb::grading::GemmCheck check;
  check.step = step;
  check.shape = shape;
  check.tile_m = ch08::kTileM;
  check.tile_n = step.number == 5 ? ch08::kWideTileN : ch08::kTileN;
  check.tile_k = ch08::kTileK;
  check.step_wait = ch08::kStages - 2;
  check.input_rounding = bf16_rounded;
  // The kernel takes bf16: the inputs, already bf16 values in float, rounded (exactly) into
  // bf16 arrays on the device first.
  const auto gemm = step.number == 1   ? ch08::gemm_mma
                    : step.number == 2 ? ch08::gemm_mma_swizzled
                    : step.number == 3 ? ch08::gemm_mma_tma
                    : step.number == 4 ? ch08::gemm_wgmma
                                       : ch08::gemm_wgmma_specialized;
  check.run = [shape, gemm](const float* a, const float* b, float* c) {
    const auto [m, n, k] = shape;
    wb::DeviceBuffer<ch08::bf16> a16(static_cast<std::size_t>(m) * k), b16(static_cast<std::size_t>(n) * k);
    ch08::round_to_bf16(a, a16.data(), a16.size());
    ch08::round_to_bf16(b, b16.data(), b16.size());
    gemm(a16.data(), b16.data(), c, m, n, k);
  };
  check.models = [wgmma = step.number >= 4](wb::grading::Diagnosis& diagnosis, const wb::grading::GemmRun& run) {
    add_fragment_models(diagnosis, run, wgmma);
  };
  check.store_readings = store_readings;
  if (step.number >= 3) {  // the TMA's ring: no cp.async, no group to wait for
    check.wgmma = step.number >= 4;
    check.uses_cp_async = false;
    check.copies_on_mbarriers = true;
    check.step_wait = -1;
#if WB_BACKEND_SIM
    const long long stage_bytes =
        kATileBytes + 2LL * (step.number == 5 ? ch08::kWideTileN : ch08::kTileN) * ch08::kTileK;
    check.barrier_counts = [shape, wgmma = check.wgmma, stage_bytes](const wb::sim::LaunchStats& stats) {
      std::string cause = step3_barrier_counts(stats, shape);
      if (cause.empty() && wgmma) cause = step4_descriptors(stats, stage_bytes);
      return cause;
    };
#endif
    return check;
  }
  // As chapter 4's step 3: kStages - 1 groups before the loop, one a k-tile after.
  check.prologue_commits = ch08::kStages - 1;
  check.prologue = "The pipeline commits kStages - 1 groups before the loop, one a k-tile, and one every iteration "
                   "after (empty past the last tile), so that wait<kStages - 2> always lands the tile about to be "
                   "read.";
  return check;
}

using Chapter8Tensor = wb::grading::KernelTest;

// Steps 2 and 3 run step 1's warp_mma_k_tile and store_accumulators: where step 1 failed
// in this run, they fail saying so, rather than report step 1's mistake as their own.
bool step1_failed = false;
bool step3_failed = false;

// A step that runs an earlier step's code, where that step failed in this run: it fails
// saying so (`uses`: what of the earlier step it runs) rather than report the earlier
// step's mistake as its own.
bool runs_on_a_failed_step(const Step& step, bool failed, int earlier, const std::string& uses) {
  if (!failed) return false;
  ADD_FAILURE() << step.heading() << ":\nnot run: this step " << uses << ", and step " << earlier
                << " failed above. Make step " << earlier << " pass first.\n"
                << "Hint: TODO(step " << earlier << ") in " << step.file << ".";
  return true;
}

bool runs_on_a_failed_step1(const Step& step) {
  return runs_on_a_failed_step(step, step1_failed, 1, "multiplies and stores with step 1's warp_mma_k_tile and "
                                                      "store_accumulators");
}

#if WB_BACKEND_SIM
// The first success's figures, once a step: what the simulator counted.
void report_once(bool& reported, int step, const GemmShape& shape, const wb::sim::LaunchStats& stats) {
  if (reported) return;
  reported = true;
  std::printf("Chapter 8, step %d, %s: %llu mma.sync, %llu ldmatrix (%llu matrices), %llu tensor copies; %s\n", step,
              wb::grading::gemm_shape_text(shape).c_str(), static_cast<unsigned long long>(stats.mma_calls),
              static_cast<unsigned long long>(stats.ldmatrix_calls),
              static_cast<unsigned long long>(stats.ldmatrix_matrices),
              static_cast<unsigned long long>(stats.tensor_copies),
              wb::grading::describe_requests(stats, wb::sim::AccessKind::shared_load).c_str());
}
#endif

TEST_F(Chapter8Tensor, Step1MmaSyncFromCpAsyncTiles) {
  WB_SKIP_WITHOUT(wb::hopper_available);  // the chapter's file is built for Hopper
  [[maybe_unused]] bool reported = false;
  wb::grading::check_gemm_shapes(shapes(), [&](const GemmShape& shape) {
    auto check = gemm_check(kStep1, shape);
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = tiles_through_cp_async(stats, shape);
      if (technique) technique = on_the_tensor_cores(stats, shape, kPaddedConflicts);
      return technique;
    };
    check.on_success = [&reported, shape](const wb::sim::LaunchStats& stats) {
      report_once(reported, 1, shape, stats);
    };
#endif
    return check;
  });
  step1_failed = HasFailure();
}

TEST_F(Chapter8Tensor, Step2ASwizzledSharedLayout) {
  WB_SKIP_WITHOUT(wb::hopper_available);
  if (const std::string problem = swizzled_layout_problem(); !problem.empty()) {
    ADD_FAILURE() << kStep2.heading() << ", the layout (swizzled_offset, every element of a k-tile):\n"
                  << problem << "\n"
                  << kStep2.hint_line();
    return;
  }
  if (runs_on_a_failed_step1(kStep2)) return;
  [[maybe_unused]] bool reported = false;
  wb::grading::check_gemm_shapes(shapes(), [&](const GemmShape& shape) {
    auto check = gemm_check(kStep2, shape);
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = tiles_through_cp_async(stats, shape);
      if (technique) technique = on_the_tensor_cores(stats, shape, kSwizzledConflicts);
      return technique;
    };
    check.on_success = [&reported, shape](const wb::sim::LaunchStats& stats) {
      report_once(reported, 2, shape, stats);
    };
#endif
    return check;
  });
}

TEST_F(Chapter8Tensor, Step3TmaIntoAnMbarrierRing) {
  WB_SKIP_WITHOUT(wb::hopper_available);
  if (runs_on_a_failed_step1(kStep3)) return;
  [[maybe_unused]] bool reported = false;
  wb::grading::check_gemm_shapes(shapes(), [&](const GemmShape& shape) {
    auto check = gemm_check(kStep3, shape);
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = tiles_through_the_tma(stats, shape, ch08::kThreads / 32);
      if (technique) technique = on_the_tensor_cores(stats, shape, kSwizzledConflicts);
      return technique;
    };
    check.on_success = [&reported, shape](const wb::sim::LaunchStats& stats) {
      report_once(reported, 3, shape, stats);
    };
#endif
    return check;
  });
  step3_failed = HasFailure();
}

bool step4_failed = false;

TEST_F(Chapter8Tensor, Step4WgmmaFromSharedMemory) {
  WB_SKIP_WITHOUT(wb::wgmma_available);  // compute capability 9.0 alone has wgmma
  if (runs_on_a_failed_step(kStep4, step3_failed, 3,
                            "runs step 3's ring (load_stage_tma, its waits and releases) with wgmma for the "
                            "arithmetic")) {
    return;
  }
  [[maybe_unused]] bool reported = false;
  wb::grading::check_gemm_shapes(shapes(), [&](const GemmShape& shape) {
    auto check = gemm_check(kStep4, shape);
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = tiles_through_the_tma(stats, shape, 4 * ch08::kWarpgroups);
      if (technique) technique = on_wgmma(stats, shape);
      return technique;
    };
    check.on_success = [&reported, shape](const wb::sim::LaunchStats& stats) {
      if (reported) return;
      reported = true;
      std::printf("Chapter 8, step 4, %s: %llu wgmma (a warpgroup), %llu tensor copies, %.2f groups in flight "
                  "at each wait\n",
                  wb::grading::gemm_shape_text(shape).c_str(), static_cast<unsigned long long>(stats.wgmma_calls / 4),
                  static_cast<unsigned long long>(stats.tensor_copies),
                  groups_in_flight_at_waits(stats));
    };
#endif
    return check;
  });
  step4_failed = HasFailure();
}

TEST_F(Chapter8Tensor, Step5WarpSpecialization) {
  WB_SKIP_WITHOUT(wb::wgmma_available);
  if (runs_on_a_failed_step(kStep5, step4_failed, 4, "multiplies with step 4's k_slice_descriptor")) return;
  [[maybe_unused]] bool reported = false;
  wb::grading::check_gemm_shapes(shapes(), [&](const GemmShape& shape) {
    auto check = gemm_check(kStep5, shape);
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) { return specialized(stats, shape); };
    check.on_success = [&reported, shape](const wb::sim::LaunchStats& stats) {
      if (reported) return;
      reported = true;
      std::printf("Chapter 8, step 5, %s: %llu wgmma (a warpgroup), %llu tensor copies, %.2f copies in flight at "
                  "each, %.2f groups in flight at each wait\n",
                  wb::grading::gemm_shape_text(shape).c_str(), static_cast<unsigned long long>(stats.wgmma_calls / 4),
                  static_cast<unsigned long long>(stats.tensor_copies),
                  static_cast<double>(stats.bulk_copies_in_flight_at_issue) /
                      static_cast<double>(std::max<std::uint64_t>(stats.tensor_copies, 1)),
                  groups_in_flight_at_waits(stats));
    };
#endif
    return check;
  });
}

}  // namespace
