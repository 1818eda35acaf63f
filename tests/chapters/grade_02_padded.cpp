// The grader of chapter 2, padded shared memory: a test per step, each at several
// shapes, under the forward and the reverse schedule in the simulator and once on the GPU.
//
// Step 1, the copy through the padded tile: every element equal to the input, nothing
// written outside the output, every element loaded through cp.async and waited for.
// Step 2, the column sums: every sum within float rounding of the double-precision
// one; then the bank map of a warp's row read under the stride chosen (drawn by
// wb/bank_map.hpp from the hardware rule), and in the simulator the wavefronts its
// shared loads really took, beside those of the same kernel unpadded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "padded.hpp"
#include "wb/bank_map.hpp"
#include "wb/poison.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/compare.hpp"
#include "wb/grading/diagnosis/diagnosis.hpp"
#include "wb/grading/diagnosis/faults.hpp"
#include "wb/grading/diagnosis/footprint.hpp"
#include "wb/grading/guarded_buffer.hpp"
#include "wb/grading/movement.hpp"
#include "wb/grading/random.hpp"
#include "wb/grading/schedules.hpp"
#include "wb/grading/run.hpp"
#include "wb/grading/step.hpp"
#include "wb/grading/technique.hpp"

namespace {

using wb::grading::Step;

const char* const kFile = "chapters/02_padded/padded.cu";

// What a kernel error means in each step.
wb::grading::Causes common_causes() {
  return {
      {wb::ErrorKind::destination_not_shared,
       "the shared index of a cp.async lies outside smem_tile, so the row or the column of "
       "the shared element leaves the tile: a loop bound past the tile's last row or column, "
       "the global layout used for the shared offset, or a coordinate counted from the array "
       "rather than the tile."},
      {wb::ErrorKind::too_many_copies, wb::grading::loop_without_end_cause("kThreadRows")},
      {wb::ErrorKind::misaligned,
       "wb::cp_async copies sizeof(float) = 4 bytes: both addresses must be multiples of 4; "
       "is an address cast from a byte offset?"},
      {wb::ErrorKind::source_out_of_bounds,
       "the copy reads past the end of the input: is the copy missing a bounds check "
       "(row < valid_rows, col < valid_cols) for the last, partial tile?"},
      {wb::ErrorKind::warp_sync,
       "this chapter needs no __syncwarp or shuffle: the block's threads meet at "
       "__syncthreads() only."},
  };
}

const Step kStep1{2, 1, "copy through the padded tile", kFile,
                  wb::grading::causes_with(common_causes(), {{wb::ErrorKind::shared_race,
                              "a thread read an element of the tile that another thread's "
                              "cp.async wrote, with nothing between them: a wait makes a "
                              "thread's own copies visible to itself only; the others need a "
                              "__syncthreads() after everyone's wait."}})};
const Step kStep2{2, 2, "choose the padding for row reads", kFile,
                  wb::grading::causes_with(common_causes(), {{wb::ErrorKind::shared_race,
                              "a warp's reads of one tile and the copies of the next tile "
                              "into the same shared floats have no barrier between them: "
                              "the __syncthreads() at the end of the loop body makes every "
                              "warp finish reading before the next tile's copies overwrite "
                              "it."}})};

using CopyFunction = void (*)(const float*, float*, int, int);

using Chapter2Padded = wb::grading::KernelTest;

// Whether the unwritten outputs are exactly the elements inside the array that a store
// loop never reaches, where `reached(valid_rows, valid_cols)` marks the elements of a
// (128,16) tile, column-major, that the loop stores, and some are unwritten.
bool unwritten_exactly_unreached(const std::vector<float>& output, int rows, int cols,
                                 const std::function<std::vector<bool>(int, int)>& reached) {
  bool any = false;
  for (int tile_col = 0; tile_col < cols; tile_col += ch02::kTileCols) {
    for (int tile_row = 0; tile_row < rows; tile_row += ch02::kTileRows) {
      const int valid_rows = std::min(ch02::kTileRows, rows - tile_row);
      const int valid_cols = std::min(ch02::kTileCols, cols - tile_col);
      const std::vector<bool> stored = reached(valid_rows, valid_cols);
      for (int col = 0; col < valid_cols; ++col) {
        for (int row = 0; row < valid_rows; ++row) {
          const std::size_t at = static_cast<std::size_t>(tile_row + row) +
                                 static_cast<std::size_t>(tile_col + col) * static_cast<std::size_t>(rows);
          const bool unwritten = wb::poison::matches(output[at], wb::poison::Kind::unwritten);
          if (unwritten == stored[static_cast<std::size_t>(row + col * ch02::kTileRows)]) return false;
          any = any || unwritten;
        }
      }
    }
  }
  return any;
}

// Two store loops that leave elements unwritten: walking the padded layout's coord() over
// the tile's size (coord() inverts a compact layout only, and on the padded
// (128,16):(1,130) it reaches some elements twice and others never), and bounding the
// walk of tile_layout by the valid elements' count, which coord() spreads over the whole
// tile's 128 rows a column. Each is named where the unwritten outputs are exactly those
// its walk (wb::Layout::coord itself) never reaches.
std::string store_walk_cause(const std::vector<float>& output, int rows, int cols) {
  using wb::Int;
  constexpr int kSize = ch02::kTileRows * ch02::kTileCols;
  const auto walk = [](auto layout, int count) {
    return [layout, count](int valid_rows, int valid_cols) {
      std::vector<bool> reached(kSize, false);
      for (int index = 0; index < (count < 0 ? valid_rows * valid_cols : count); ++index) {
        const wb::Coord element = layout.coord(index);
        if (element.row < valid_rows && element.col < valid_cols) {
          reached[static_cast<std::size_t>(element.row + element.col * ch02::kTileRows)] = true;
        }
      }
      return reached;
    };
  };
  constexpr auto padded = wb::col_major(Int<ch02::kTileRows>{}, Int<ch02::kTileCols>{}, Int<ch02::kPaddedStride>{});
  constexpr auto compact = wb::col_major(Int<ch02::kTileRows>{}, Int<ch02::kTileCols>{});
  if (unwritten_exactly_unreached(output, rows, cols, walk(padded, kSize))) {
    return "the unwritten elements are exactly those of each tile that a walk of the padded layout's coord() never "
           "reaches (smem_layout.coord(index) for index < " + std::to_string(kSize) + "): coord() inverts a compact "
           "layout only, and on the padded one it reaches some elements twice and others never. Walk the elements "
           "with tile_layout.coord(index), and find each one's place with smem_layout(row, col).";
  }
  if (unwritten_exactly_unreached(output, rows, cols, walk(compact, -1))) {
    return "the unwritten elements are exactly those of each partial tile that the store's loop never reaches when "
           "bounded by the count of valid elements (index < valid_rows * valid_cols): tile_layout.coord(index) "
           "puts 128 rows in each column whatever the tile's valid rows, so that count ends the walk early. Walk "
           "all tile_layout.size() elements and let the test row < valid_rows && col < valid_cols skip those "
           "outside the array.";
  }
  return "";
}

// The store's loop: index from threadIdx.x in steps of the block's threads, over
// tile_layout (128,16) column-major, storing the elements inside the array. Thread
// `thread`'s elements, in order, in a tile of valid_rows x valid_cols.
std::vector<std::pair<long long, long long>> store_walk(unsigned thread, long long valid_rows, long long valid_cols) {
  std::vector<std::pair<long long, long long>> walk;
  constexpr int kThreads = ch02::kThreadRows * ch02::kThreadCols;
  for (long long index = thread; index < ch02::kTileRows * ch02::kTileCols; index += kThreads) {
    const long long row = index % ch02::kTileRows, col = index / ch02::kTileRows;
    if (row < valid_rows && col < valid_cols) walk.emplace_back(row, col);
  }
  return walk;
}

// A store's read past smem_tile: the thread's store walk, read with each element's row
// and column exchanged, smem_layout(col, row), reaches this word, and its earlier reads by
// that line (the fault's earlier words) at the walk's earlier elements the same way. ""
// where any of them differs.
std::string store_read_exchanged_cause(const wb::Fault& fault, int rows, int cols) {
  if (!fault.shared_overrun || fault.write || fault.thread[1] != 0 || fault.thread[2] != 0) return "";
  const wb::SharedOverrun& overrun = *fault.shared_overrun;
  const int valid_rows = std::min(ch02::kTileRows, rows - static_cast<int>(fault.block[0]) * ch02::kTileRows);
  const int valid_cols = std::min(ch02::kTileCols, cols - static_cast<int>(fault.block[1]) * ch02::kTileCols);
  const std::vector<std::pair<long long, long long>> walk = store_walk(fault.thread[0], valid_rows, valid_cols);
  const std::size_t number = overrun.earlier_words.size();
  if (number >= walk.size()) return "";
  const auto exchanged = [](const std::pair<long long, long long>& element) {
    return element.second + element.first * ch02::kPaddedStride;
  };
  for (std::size_t i = 0; i < number; ++i) {
    if (overrun.earlier_words[i] != exchanged(walk[i])) return "";
  }
  const auto [row, col] = walk[number];
  if (row == col || overrun.word != exchanged(walk[number])) return "";
  return "thread " + std::to_string(fault.thread[0]) + "'s store read number " + std::to_string(number + 1) +
         ", of element (" + std::to_string(row) + ", " + std::to_string(col) + ") of the tile, reached word " +
         std::to_string(overrun.word) + " of " + overrun.array + ", which is smem_layout(" + std::to_string(col) +
         ", " + std::to_string(row) + ")" + (number > 0 ? " (its earlier reads fit the same)" : "") +
         ": the row and the column are exchanged in the shared read's index, smem_layout(element.col, "
         "element.row) where smem_layout(element.row, element.col) is meant.";
}

TEST_F(Chapter2Padded, Step1CopyThroughThePaddedTile) {
  wb::grading::check_movement_shapes(
      {{256, 32}, {300, 40}, {127, 15}, {1, 1}, {129, 17}, {512, 48}, {1000, 3}, {5, 100}},
      [](int rows, int cols) {
        wb::grading::MovementCheck check;
        check.step = kStep1;
        check.step_wait_call = "wb::cp_async_wait_all()";
        check.shared_layouts = {{ch02::kPaddedStride, "smem_layout, the padded tile"}};
        check.input = {rows, cols, ch02::kTileRows, ch02::kTileCols};
        check.output = check.input;
        check.run = [=](const float* in, float* out) { ch02::copy_tiles_padded(in, out, rows, cols); };
        check.reference = [](const std::vector<float>& input) {
          return std::vector<double>(input.begin(), input.end());
        };
        check.explain = [rows, cols](const std::vector<float>& output, const std::vector<float>&) {
          return store_walk_cause(output, rows, cols);
        };
        check.explain_fault = [rows, cols](const wb::Fault& fault, const float*) {
          return store_read_exchanged_cause(fault, rows, cols);
        };
        // The copy's loops: copy_thread_layout (32,8) puts thread t at (t % 32, t / 32).
        check.thread_start = [](unsigned thread) -> std::optional<wb::grading::ThreadStart> {
          const long long row = thread % ch02::kThreadRows, col = thread / ch02::kThreadRows;
          return wb::grading::ThreadStart{row, col, row, col};
        };
        check.row_step = ch02::kThreadRows;
        check.col_step = ch02::kThreadCols;
        check.store_walk = store_walk;
#if WB_BACKEND_SIM
        const std::uint64_t elements = static_cast<std::uint64_t>(rows) * cols;
        const bool whole_tiles = rows % ch02::kTileRows == 0 && cols % ch02::kTileCols == 0;
        check.technique = [elements, whole_tiles](const wb::sim::LaunchStats& stats) {
          ::testing::AssertionResult technique = wb::grading::loaded_through_cp_async(stats, elements);
          if (technique) technique = wb::grading::only_copies_store_to_shared_memory(stats);
          if (technique) technique = wb::grading::one_float_per_copy(stats);
          if (technique) technique = wb::grading::waited_once_per_thread(stats);
          // The copies coalesced, as chapter 1's (on whole tiles, where the requests are exact).
          if (technique && whole_tiles) {
            technique = wb::grading::within_the_ideal(
                stats, wb::sim::AccessKind::cp_async_read,
                "the copies read global memory scattered. As in chapter 1, a warp's k-th copies read 32 "
                "consecutive rows of one column: lane t at row t % 32 (the copy's thread layout, column-major), "
                "each loop stepping by the layout's extent.");
          }
          if (technique) {
            technique = wb::grading::transactions_per_request_at_most(
                stats, wb::sim::AccessKind::shared_load, 1.05,
                "the store walks the tile in its own order, tile_layout.coord(index), so that "
                "a warp reads 32 consecutive rows of one column: 32 consecutive words, "
                "whatever the padding.");
          }
          // The step teaches the padded layout: a compact walk of both sides gives the same
          // results and conflict-free reads, and only the footprint tells it apart.
          if (technique) {
            technique = wb::grading::padding_walked(stats, "smem_tile", ch02::kTileRows, ch02::kTileCols,
                                                    ch02::kPaddedStride);
          }
          return technique;
        };
#endif
        return check;
      });
}

// Step 2's read: warp 0 of the sum loop, as column_sums_kernel arranges its threads, on
// a 128x32 tile whose columns are `stride` floats apart.
wb::bank_map::BankMap row_read_map(int stride) {
  const auto smem_layout = wb::col_major(ch02::kTileRows, ch02::kStripCols, stride);
  return wb::bank_map::of(smem_layout, ch02::sum_thread_layout, 0);  // the kernel's, from padded.hpp
}

std::string stride_text(int stride) {
  return "stride " + std::to_string(stride) + " (padding " + std::to_string(stride - ch02::kTileRows) + ")";
}

// The bank maps of the row read at the strides chapter 2 compares, and at the one chosen.
std::string row_read_maps(int chosen) {
  std::string text;
  for (int stride : {128, 130, 129}) {
    text += "  " + stride_text(stride) + ": " + wb::bank_map::verdict(row_read_map(stride)) +
            (stride == chosen ? "   <- yours" : "") + "\n";
  }
  return text;
}

// Step 2, the first check: the stride chosen makes the row read conflict-free, as the
// hardware rule counts it (wb/memory_transactions.hpp). On both backends: a GPU computes
// the right sums at any padding, so without it an unpadded kernel would pass there.
::testing::AssertionResult row_read_is_conflict_free(int stride) {
  const wb::bank_map::BankMap map = row_read_map(stride);
  if (map.wavefronts <= map.ideal) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "with " << stride_text(stride)
         << ", warp 0 reading row 0 of the tile, columns 0-31, is " << wb::bank_map::verdict(map)
         << ":\n"
         << wb::bank_map::text(map) << "The row read at other strides:\n"
         << row_read_maps(stride);
}

std::vector<double> column_sums_of(const std::vector<float>& input, int rows, int cols) {
  std::vector<double> sums(static_cast<std::size_t>(cols), 0.0);
  for (int col = 0; col < cols; ++col) {
    for (int row = 0; row < rows; ++row) {
      sums[static_cast<std::size_t>(col)] += input[static_cast<std::size_t>(row) + static_cast<std::size_t>(col) * rows];
    }
  }
  return sums;
}

#if WB_BACKEND_SIM
// The shared loads of the same kernel at stride 128: the "before" of the report.
std::string unpadded_requests(const float* gmem_in, int rows, int cols) {
  wb::DeviceBuffer<float> sums(static_cast<std::size_t>(cols));
  ch02::column_sums_unpadded(gmem_in, sums.data(), rows, cols);
  return wb::grading::describe_requests(wb::sim::last_launch_stats(), wb::sim::AccessKind::shared_load);
}
#endif

void grade_column_sums(int rows, int cols, const std::string& configuration) {
  const Step& step = kStep2;
  const auto seed = wb::grading::fresh_seed();
  const std::string where = step.heading() + ", array " + std::to_string(rows) + "x" +
                            std::to_string(cols) + ", " + configuration + " (WB_SEED=" +
                            std::to_string(seed) + "):\n";
  const std::size_t count = static_cast<std::size_t>(rows) * cols;
  const std::vector<float> input = wb::grading::random_floats(count, seed);
  wb::DeviceBuffer<float> gmem_in(count);
  gmem_in.upload(input);
  wb::grading::GuardedBuffer<float> gmem_sums(static_cast<std::size_t>(cols));
  // Two copies onto one word of the strip's tile: block x copies columns 32x to 32x + 31,
  // 128 rows at a time, the first 128 in the first barrier interval.
  const auto explain_fault = [&](const wb::Error& error) -> std::string {
    if (!error.fault()) return "";
    const wb::grading::FaultedArray strip{gmem_in.data(), {rows, cols, ch02::kTileRows, ch02::kStripCols}, true,
                                          "the input"};
    return wb::grading::overlapping_writes_cause(*error.fault(), strip);
  };
  if (!wb::grading::run_kernel([&] { ch02::column_sums(gmem_in.data(), gmem_sums.data(), rows, cols); }, where,
                               step, "", explain_fault)) {
    return;
  }
#if WB_BACKEND_SIM
  const wb::sim::LaunchStats stats = wb::sim::last_launch_stats();
#endif
  // Float sums in the kernel's order against double ones: within a few units of float
  // rounding of the sum of the |values| (at most `rows`, the inputs lie in [-1, 1]).
  wb::grading::CompareOptions options;
  options.tolerance.absolute = 1e-6 * rows;
  const std::vector<float> sums = gmem_sums.download();
#if WB_BACKEND_SIM
  // Sums of stale words: the race check saw no read of another thread's copy unordered,
  // so what the footprint shows (which words the copies filled, which the reads took) is
  // the evidence, not a missing barrier.
  options.find_cause = [&] {
    return wb::grading::unfilled_read_cause(stats, wb::grading::holds_poison(sums, wb::poison::Kind::stale));
  };
#endif
  const auto same =
      wb::grading::matches_reference(sums, column_sums_of(input, rows, cols), {1, cols, 1, ch02::kStripCols}, options);
  if (const auto guards = gmem_sums.guards_intact(); !guards) {
    ADD_FAILURE() << where << guards.message() << "\n" << step.hint_line();
    return;
  }
  if (!same) {
    std::string note;
#if WB_BACKEND_SIM
    note = wb::grading::simulator_notes(stats);
#endif
    ADD_FAILURE() << where << "the sums (an array 1x" << cols << ", one per column) are wrong. "
                  << same.message() << "\n" << note << step.hint_line();
    return;
  }
  if (const ::testing::AssertionResult padded = row_read_is_conflict_free(ch02::column_sums_stride()); !padded) {
    ADD_FAILURE() << where << padded.message() << "\n" << step.hint_line();
    return;
  }
#if WB_BACKEND_SIM
  ::testing::AssertionResult technique = wb::grading::loaded_through_cp_async(stats, count);
  if (technique) {
    technique = wb::grading::transactions_per_request_at_most(
        stats, wb::sim::AccessKind::shared_load, 1.05,
        "the row reads of the sum loop conflict. Unpadded, the same kernel measures " +
            unpadded_requests(gmem_in.data(), rows, cols) +
            ". Are the copies and the reads both made through smem_layout (no index written "
            "by hand with 128), and does the padding put the columns of a row in different "
            "banks?");
  }
  if (!technique) {
    ADD_FAILURE() << where << technique.message() << "\n" << step.hint_line();
    return;
  }
#endif
}

TEST_F(Chapter2Padded, Step2ChooseThePaddingForRowReads) {
  const std::vector<std::pair<int, int>> shapes = {
      {256, 32}, {1000, 70}, {129, 33}, {1, 1}, {300, 64}, {5, 100}, {128, 32}};
  for (const auto& [rows, cols] : shapes) {
    wb::grading::for_each_schedule(
        [&](const std::string& configuration) { grade_column_sums(rows, cols, configuration); });
    if (HasFailure()) return;  // one clear failure, not a flood
  }
#if WB_BACKEND_SIM
  // Passed: what the padding changed, before and after, on the seed's 256x32.
  const int rows = 256, cols = 32;
  wb::DeviceBuffer<float> gmem_in(static_cast<std::size_t>(rows) * cols);
  gmem_in.upload(wb::grading::random_floats(gmem_in.size(), wb::grading::fresh_seed()));
  wb::DeviceBuffer<float> sums(cols);
  const std::string before = unpadded_requests(gmem_in.data(), rows, cols);
  ch02::column_sums(gmem_in.data(), sums.data(), rows, cols);
  std::printf("Chapter 2, step 2: the row read, stride 128: %s\n  %s: %s\n  measured, unpadded: %s\n"
              "  measured, yours: %s\n",
              wb::bank_map::verdict(row_read_map(128)).c_str(),
              stride_text(ch02::column_sums_stride()).c_str(),
              wb::bank_map::verdict(row_read_map(ch02::column_sums_stride())).c_str(), before.c_str(),
              wb::grading::describe_requests(wb::sim::last_launch_stats(),
                                             wb::sim::AccessKind::shared_load)
                  .c_str());
  // A padding past one bank row is conflict-free too, but the tile grows with it: 129 is
  // the stride taken for the padding (a stride of 257), twice the shared memory.
  const int padding = ch02::column_sums_stride() - ch02::kTileRows;
  if (padding >= 32) {
    const auto kib = [](int stride) { return stride * ch02::kStripCols * sizeof(float) / 1024.0; };
    std::printf("  Note: padding %d makes the stride %d, and the strip's tile %.1f KB where padding 1 (stride 129) "
                "makes it %.1f KB: the padding is what is added to the 128 rows, and any odd padding from 1 is "
                "conflict-free.\n",
                padding, ch02::column_sums_stride(), kib(ch02::column_sums_stride()), kib(129));
  }
#endif
}

}  // namespace
