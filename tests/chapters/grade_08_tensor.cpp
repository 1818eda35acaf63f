// The grader of chapter 8, tensor cores: a test per step, each at several shapes, under
// the forward and the reverse schedule in the simulator and once on the GPU.
//
// Each run: fresh random A and B rounded to bf16 (the kernel's inputs, and the reference's),
// C poisoned with guard bands around it, then (1) nothing written outside C, (2) C within a
// relative error of 1e-5, in the Frobenius norm, of a double-precision product
// (wb/grading/gemm.hpp: bf16 products are exact, their sums in float), and (3) in the
// simulator, the technique: every tile through cp.async, a tile in flight behind the one
// waited for, the fragments loaded by ldmatrix, conflict-free and once each, and exactly
// one mma.sync for each 16x8x16 piece of the product.
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

namespace {

using wb::grading::GemmShape;
using wb::grading::Step;

const char* const kFile = "chapters/08_tensor/tensor.cu";

// A whole-tile shape deep enough for the pipeline's overlap to be judged (8 k-tiles),
// then m and n no multiple of the tile, K no multiple of 16, several blocks, the least.
std::vector<GemmShape> shapes() {
  std::vector<GemmShape> list;
#if !WB_BACKEND_SIM
  list.push_back({2048, 2048, 512});
#endif
  for (const GemmShape& shape : std::vector<GemmShape>{{128, 128, 256}, {136, 72, 40}, {256, 256, 32}, {8, 8, 1}}) {
    list.push_back(shape);
  }
  return list;
}

const Step kStep1{
    8, 1, "mma.sync from cp.async tiles", kFile,
    wb::grading::Causes{
        {wb::ErrorKind::shared_out_of_bounds,
         "an ldmatrix row lies outside the stage: a lane's row is (k, element) of the stage, at k * kRowStride + "
         "element, with k below kTileK (32) and the element below kTileM (128). Is a row index or a stride "
         "exchanged?"},
        {wb::ErrorKind::misaligned,
         "an ldmatrix row at an address that is no multiple of 16 bytes: each lane gives the start of 8 bf16, at "
         "an element that is a multiple of 8 of a stage's row (kRowStride, 136, keeps every row 16-byte aligned)."},
        {wb::ErrorKind::global_out_of_bounds,
         "a store past the end of C: are the rows bounded by m and the columns by n, and is C's leading "
         "dimension m (column-major)?"},
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
void add_fragment_models(wb::grading::Diagnosis& diagnosis, const wb::grading::GemmRun& run) {
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
  // The accumulator not carried: each mma's C operand zero (or a fresh array), so C is the
  // product of the last 16 of K alone.
  const int last = ((k + ch08::kMmaK - 1) / ch08::kMmaK - 1) * ch08::kMmaK;
  diagnosis.model(
      "C is exactly the product of the last 16 of K alone (k " + std::to_string(last) + " to " +
          std::to_string(last + 15) +
          "): each mma.sync started from zeros instead of the accumulator, so every step of K replaced the sum. "
          "Pass acc[i][j] as the C operand as well as D: d = a b + c, with c the sum so far.",
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

// The warp instructions the reference issues: per block, warp and 16 of K, 4 ldmatrix.x4
// of A and 2 of B (6, 24 matrices), and 4 x 4 mma.sync.
struct Expected {
  std::uint64_t mma_steps;  // blocks x warps x 16-deep steps of K
  std::uint64_t mmas() const { return mma_steps * ch08::kWarpMmasM * ch08::kWarpMmasN; }
  std::uint64_t matrices() const { return mma_steps * 4 * (ch08::kWarpMmasM + ch08::kWarpMmasN / 2); }
};

Expected expected_for(const wb::sim::LaunchStats& stats, const GemmShape& shape) {
  const std::uint64_t warps = ch08::kThreads / 32;
  return {stats.blocks * warps * static_cast<std::uint64_t>(k_tiles_of(shape)) * (ch08::kTileK / ch08::kMmaK)};
}

::testing::AssertionResult on_the_tensor_cores(const wb::sim::LaunchStats& stats, const GemmShape& shape) {
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
           << expected.matrices() << " (each 16 of K: 4 fragments of A of 4 matrices, 4 of B of 2, a warp): the "
           << "others were gathered with plain loads (" << stats.of(wb::sim::AccessKind::shared_load).requests
           << " shared-load requests in all, ldmatrix's rows among them), a load for each pair a lane holds. "
              "Load every fragment of A and of B with wb::ldmatrix_x4_trans.";
  }
  if (stats.ldmatrix_matrices > expected.matrices()) {
    return ::testing::AssertionFailure()
           << "ldmatrix loaded " << stats.ldmatrix_matrices << " 8x8 matrices where the product needs "
           << expected.matrices() << " (each 16 of K: 4 fragments of A of 4 matrices, 4 of B of 2, a warp): "
           << figure(static_cast<double>(stats.ldmatrix_matrices) / static_cast<double>(expected.matrices()))
           << " times each. Load each fragment once per 16 of K, before the mma loops, not inside them.";
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
  return wb::grading::within_the_ideal(
      stats, wb::sim::AccessKind::shared_load,
      "the ldmatrix rows conflict: the 8 rows of a matrix are 8 k-rows of the stage, kRowStride (136 bf16, 272 "
      "bytes) apart, which puts them in 8 different groups of 4 banks. Are the rows' addresses taken with "
      "kTileM (128 bf16, 256 bytes: every row in the same banks) where the stage's stride is kRowStride?");
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
#endif

wb::grading::GemmCheck gemm_check(const Step& step, const GemmShape& shape) {
  wb::grading::GemmCheck check;
  check.step = step;
  check.shape = shape;
  check.tile_m = ch08::kTileM;
  check.tile_n = ch08::kTileN;
  check.tile_k = ch08::kTileK;
  check.step_wait = ch08::kStages - 2;
  check.input_rounding = bf16_rounded;
  // The kernel takes bf16: the inputs, already bf16 values in float, rounded (exactly) into
  // bf16 arrays on the device first.
  check.run = [shape](const float* a, const float* b, float* c) {
    const auto [m, n, k] = shape;
    wb::DeviceBuffer<ch08::bf16> a16(static_cast<std::size_t>(m) * k), b16(static_cast<std::size_t>(n) * k);
    ch08::round_to_bf16(a, a16.data(), a16.size());
    ch08::round_to_bf16(b, b16.data(), b16.size());
    ch08::gemm_mma(a16.data(), b16.data(), c, m, n, k);
  };
  check.models = add_fragment_models;
  check.store_readings = store_readings;
  // As chapter 4's step 3: kStages - 1 groups before the loop, one a k-tile after.
  check.prologue_commits = ch08::kStages - 1;
  check.prologue = "The pipeline commits kStages - 1 groups before the loop, one a k-tile, and one every iteration "
                   "after (empty past the last tile), so that wait<kStages - 2> always lands the tile about to be "
                   "read.";
  return check;
}

using Chapter8Tensor = wb::grading::KernelTest;

TEST_F(Chapter8Tensor, Step1MmaSyncFromCpAsyncTiles) {
  [[maybe_unused]] bool reported = false;
  wb::grading::check_gemm_shapes(shapes(), [&](const GemmShape& shape) {
    auto check = gemm_check(kStep1, shape);
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = tiles_through_cp_async(stats, shape);
      if (technique) technique = on_the_tensor_cores(stats, shape);
      return technique;
    };
    check.on_success = [&reported, shape](const wb::sim::LaunchStats& stats) {
      if (reported) return;
      reported = true;
      std::printf("Chapter 8, step 1, %s: %llu mma.sync, %llu ldmatrix (%llu matrices); %s\n",
                  wb::grading::gemm_shape_text(shape).c_str(), static_cast<unsigned long long>(stats.mma_calls),
                  static_cast<unsigned long long>(stats.ldmatrix_calls),
                  static_cast<unsigned long long>(stats.ldmatrix_matrices),
                  wb::grading::describe_requests(stats, wb::sim::AccessKind::shared_load).c_str());
    };
#endif
    return check;
  });
}

}  // namespace
