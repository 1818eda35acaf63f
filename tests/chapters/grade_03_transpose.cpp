// The grader of chapter 3, transpose: a test per step, each at several shapes, under the
// forward and the reverse schedule in the simulator and once on the GPU.
//
// Each run: fresh random input, the output poisoned with guard bands around it, then
// (1) nothing written outside the output, (2) every element the input's transposed one,
// a misplaced value traced back to where it came from, (3) in the simulator, the
// technique: step 1 only reports its global sectors per request; step 2 loads through
// cp.async, waits once and writes coalesced; step 3 as step 2, and both shared-memory
// phases conflict-free, checked on the stride chosen (the bank maps of
// wb/bank_map.hpp) and on the wavefronts the simulator counted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "transpose.hpp"
#include "wb/bank_map.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/movement.hpp"
#include "wb/grading/step.hpp"
#include "wb/grading/technique.hpp"
#include "wb/poison.hpp"

namespace {

using wb::grading::Step;

const char* const kFile = "chapters/03_transpose/transpose.cu";

const char* const kBarrierCause =
    "a thread read an element of the tile that another thread's cp.async wrote, with nothing "
    "between them: a wait makes a thread's own copies visible to itself only; the transposed "
    "read takes other threads' elements, which need a __syncthreads() after everyone's wait.";

wb::grading::Causes causes(std::string out_of_bounds) {
  return {
      {wb::ErrorKind::destination_not_shared,
       "the shared index of a cp.async lies outside smem_tile: is the shared offset computed "
       "with the global layout, or from the global row and column?"},
      {wb::ErrorKind::too_many_copies, wb::grading::loop_without_end_cause("...")},
      {wb::ErrorKind::misaligned,
       "wb::cp_async copies sizeof(float) = 4 bytes: both addresses must be multiples of 4."},
      {wb::ErrorKind::source_out_of_bounds, out_of_bounds},
      {wb::ErrorKind::global_out_of_bounds, out_of_bounds},
      {wb::ErrorKind::shared_out_of_bounds, out_of_bounds},
      {wb::ErrorKind::shared_race, kBarrierCause},
      {wb::ErrorKind::warp_sync,
       "this chapter needs no __syncwarp or shuffle: the block's threads meet at "
       "__syncthreads() only."},
  };
}

const char* const kPartialTiles =
    "an access past the end of an array: at the bottom and right edges the tile is partial; "
    "is a loop missing its bound (valid_rows, valid_cols)? In the output tile, the rows are "
    "the input's columns (valid_cols of them) and the columns its rows (valid_rows).";

const Step kStep1{3, 1, "the naive transpose", kFile,
                  causes(kPartialTiles)};
const Step kStep2{3, 2, "transpose through shared memory", kFile,
                  causes("an access past the end of an array: step 2 has no partial tiles, so an "
                         "index leaves the tile. The output tile is 16x" + std::to_string(ch03::kTileRows) +
                         ": rows from 0 to 15, columns from 0 to " + std::to_string(ch03::kTileRows - 1) + ".")};
const Step kStep3{3, 3, "pad the tile, any shape", kFile,
                  causes(kPartialTiles)};

#if WB_BACKEND_SIM
std::string shape_of(int rows, int cols) { return std::to_string(rows) + "x" + std::to_string(cols); }
#endif

// The write out's loops started from the copy in's thread coordinate (load_coord, in the
// 32x8 layout) where the 16x16 store threads' is meant: a model of which output elements
// those loops reach, read as written, that names the mistake where exactly those
// elements, and no others, were written. Tried both ways round (the rows' loop from
// load_coord.row, or from load_coord.col).
std::string store_loops_from_load_coord(const std::vector<float>& output, int rows, int cols) {
  const int out_rows = cols;  // the output is the input transposed
  std::vector<char> unwritten(output.size());
  bool some_unwritten = false;
  for (std::size_t i = 0; i < output.size(); ++i) {
    unwritten[i] = wb::poison::kind_of(output[i]) == wb::poison::Kind::unwritten;
    some_unwritten = some_unwritten || unwritten[i];
  }
  if (!some_unwritten) return "";
  for (const bool exchanged : {false, true}) {
    std::vector<char> written(output.size(), 0);
    for (int tile_row = 0; tile_row < rows; tile_row += ch03::kTileRows) {
      for (int tile_col = 0; tile_col < cols; tile_col += ch03::kTileCols) {
        const int valid_rows = std::min(ch03::kTileRows, rows - tile_row);  // the output tile's columns
        const int valid_cols = std::min(ch03::kTileCols, cols - tile_col);  // and its rows
        for (int thread = 0; thread < ch03::kThreads; ++thread) {
          const wb::Coord load_coord = ch03::load_thread_layout.coord(thread);
          const int first_col = exchanged ? load_coord.row : load_coord.col;
          const int first_row = exchanged ? load_coord.col : load_coord.row;
          for (int col = first_col; col < valid_rows; col += ch03::kStoreThreadCols) {
            for (int row = first_row; row < valid_cols; row += ch03::kStoreThreadRows) {
              written[static_cast<std::size_t>(tile_col + row) + static_cast<std::size_t>(tile_row + col) * out_rows] = 1;
            }
          }
        }
      }
    }
    bool fits = true;
    for (std::size_t i = 0; i < output.size() && fits; ++i) fits = written[i] != unwritten[i];
    if (fits) {
      return std::string("exactly the output elements that the write out's loops reach from load_coord were "
                         "written, and no others: the loops start from the copy in's thread coordinate (the "
                         "32x8 layout, rows 0-31 and columns 0-7") +
             (exchanged ? ", with its row and column exchanged" : "") +
             "), so some threads write nothing and some output columns are never reached. The write out's 16x16 "
             "threads walk the output tile from store_coord: `col = store_coord.col`, `row = store_coord.row`.";
    }
  }
  return "";
}

// A write out that read past the shared tile's end: its word, at the tile's column stride,
// is the transposed view's (row, col) that the thread's walk from its store_coord can
// reach, one past the output tile's last row (16) or last column (256): the column loop
// bounded by `<=`, or the row loop by `<=` or by the input tile's rows (its first step
// past the output's rows is row 16 too). The same word may be an element of the thread's
// walk read through the tile's own layout, smem_layout(row, col) where the transposed view
// is meant: where both fit (thread 0's second read), both are named; where only that one
// does, it alone. "" where no single reading of each kind fits.
std::string write_out_one_past(const wb::Fault& fault, int stride, int step_number) {
  if (!fault.shared_overrun || fault.write || fault.thread[1] != 0) return "";
  const long long word = fault.shared_overrun->word;
  const wb::Coord start = ch03::store_thread_layout.coord(static_cast<int>(fault.thread[0]));
  std::vector<std::pair<long long, long long>> fits;  // (row, col) of the transposed view
  for (long long row = word / stride - 1; row <= word / stride; ++row) {
    const long long col = word - row * stride;
    const bool one_past = (row == ch03::kTileCols && col >= 0 && col < ch03::kTileRows) ||
                          (col == ch03::kTileRows && row >= 0 && row < ch03::kTileCols);
    if (one_past && row % ch03::kStoreThreadRows == start.row && col % ch03::kStoreThreadCols == start.col) {
      fits.emplace_back(row, col);
    }
  }
  // The output tile's (row, col) of the thread's walk, read as smem_layout(row, col).
  const long long own_row = word % stride, own_col = word / stride;
  const bool untransposed = own_row < ch03::kTileCols && own_row % ch03::kStoreThreadRows == start.row &&
                            own_col < ch03::kTileRows && own_col % ch03::kStoreThreadCols == start.col;
  const std::string untransposed_text =
      "the write out reads the shared tile through its own layout, smem_layout(row, col), with the output tile's (" +
      std::to_string(own_row) + ", " + std::to_string(own_col) + "), where the transposed view, smem_transposed(row, "
      "col), is meant: the output tile's " + std::to_string(ch03::kTileRows) + " columns run past the shared tile's 16";
  const std::string opening = "thread " + std::to_string(fault.thread[0]) + " read word " + std::to_string(word) +
                              " of " + fault.shared_overrun->array;
  if (fits.size() != 1) {
    return untransposed && fits.empty() ? opening + ", past the tile's end: " + untransposed_text + "." : "";
  }
  const auto [row, col] = fits.front();
  const bool col_past = col == ch03::kTileRows;
  // Any bound past the tile's edge reaches that edge's first word past it first: `<=`, or
  // a larger bound (the array's extent; for the rows, the input tile's rows too). Named
  // with the bounds the step's code uses: step 2's tiles are whole (kTileRows,
  // kTileCols), step 3's partial (valid_rows, valid_cols).
  const bool whole_tiles = step_number == 2;
  const std::string column_bound = whole_tiles ? "kTileRows" : "valid_rows";
  const std::string row_bound = whole_tiles ? "kTileCols" : "valid_cols";
  const std::string loop_text =  // a sentence or more, after "Either" or alone
      col_past ? "the write out's column loop runs past the output tile's columns. It must stop before " +
                     column_bound + ": the output tile's columns are the input tile's rows. Is it bounded by `<=` "
                     "where `<` is meant" + (whole_tiles ? std::string("?") : ", or by more than valid_rows (the array's rows)?")
               : "the write out's row loop runs past the output tile's rows. It must stop before " + row_bound +
                     ": the output tile's rows are the input tile's columns. Is it bounded by `<=` where `<` is meant, "
                     "or by " + column_bound + ", the input tile's rows" +
                     (whole_tiles ? std::string("?")
                                  : "? If so, the column loop's valid_cols is wrong too: the two bounds are "
                                    "exchanged. Or is it bounded by the array's columns?");
  const std::string where_read =
      opening + ", the transposed view's (" + std::to_string(row) + ", " + std::to_string(col) +
      ") at the tile's column stride " + std::to_string(stride) + ": " +
      (col_past ? "column " + std::to_string(col) + ", one past the output tile's " +
                      std::to_string(ch03::kTileRows) + " columns"
                : "row " + std::to_string(row) + ", one past the output tile's " + std::to_string(ch03::kTileCols) +
                      " rows") + ".";
  if (!untransposed) {
    std::string sentence = loop_text;
    sentence[0] = 'T';
    return where_read + " " + sentence;
  }
  return where_read + " Either " + loop_text + " Or " + untransposed_text + ".";
}

wb::grading::MovementCheck transpose_check(const Step& step, void (*transpose)(const float*, float*, int, int),
                                           int rows, int cols) {
  wb::grading::MovementCheck check;
  check.step = step;
  check.step_wait_call = "wb::cp_async_wait_all()";
  check.input = {rows, cols, ch03::kTileRows, ch03::kTileCols};
  check.output = {cols, rows, ch03::kTileCols, ch03::kTileRows};
  check.grid_x_over_columns = true;  // grid_of: blockIdx.x counts the input's column tiles
  check.run = [=](const float* in, float* out) { transpose(in, out, rows, cols); };
  check.reference = [=](const std::vector<float>& input) {
    return wb::grading::transposed(input, rows, cols);
  };
  // The input tile's loops: load_thread_layout (32,8) column-major puts thread t at
  // (t % 32, t / 32), from where it walks the tile in steps of the layout's extents; step
  // 1 reads and stores each element, steps 2 and 3 copy it.
  check.thread_start = [](unsigned thread) -> std::optional<wb::grading::ThreadStart> {
    const long long row = thread % ch03::kLoadThreadRows, col = thread / ch03::kLoadThreadRows;
    return wb::grading::ThreadStart{row, col, row, col};
  };
  check.row_step = ch03::kLoadThreadRows;
  check.col_step = ch03::kLoadThreadCols;
  check.accesses_per_element = step.number == 1 ? 2 : 1;
  // The stores: step 1 stores each element it reads, at its place in the output tile
  // (col, row); steps 2 and 3 walk the output tile (16,256) from store_thread_layout's
  // (16,16) coordinate, rows inside columns.
  check.store_walk = [step](unsigned thread, long long valid_rows, long long valid_cols) {
    std::vector<std::pair<long long, long long>> walk;
    if (step.number == 1) {  // the input's walk, whose tile is the output's transposed
      const long long first_row = thread % ch03::kLoadThreadRows, first_col = thread / ch03::kLoadThreadRows;
      for (long long col = first_col; col < valid_rows; col += ch03::kLoadThreadCols) {
        for (long long row = first_row; row < valid_cols; row += ch03::kLoadThreadRows) walk.emplace_back(col, row);
      }
      return walk;
    }
    const long long first_row = thread % ch03::kStoreThreadRows, first_col = thread / ch03::kStoreThreadRows;
    for (long long col = first_col; col < valid_cols; col += ch03::kStoreThreadCols) {
      for (long long row = first_row; row < valid_rows; row += ch03::kStoreThreadRows) walk.emplace_back(row, col);
    }
    return walk;
  };
  if (step.number >= 2) {  // step 1 has one thread layout, and no write out of a tile
    check.explain = [=](const std::vector<float>& output, const std::vector<float>&) {
      return store_loops_from_load_coord(output, rows, cols);
    };
    const int stride = step.number == 3 ? ch03::transpose_padded_stride() : ch03::kTileRows;
    check.explain_fault = [stride, number = step.number](const wb::Fault& fault, const float*) {
      return write_out_one_past(fault, stride, number);
    };
  }
  return check;
}

#if WB_BACKEND_SIM
// The transposed read: warp w of the 16x16 store threads on the transposed view of a
// 256x16 tile whose columns are `stride` floats apart; and the copy in, warp w of the
// 32x8 load threads on the tile itself. The thread layouts are the kernels' own, from
// transpose.hpp.
wb::bank_map::BankMap transposed_read_map(int stride, int warp = 0) {
  const auto smem_layout = wb::col_major(ch03::kTileRows, ch03::kTileCols, stride);
  return wb::bank_map::of(smem_layout.transpose(), ch03::store_thread_layout, warp);  // transpose.hpp's
}
wb::bank_map::BankMap copy_in_map(int stride, int warp = 0) {
  const auto smem_layout = wb::col_major(ch03::kTileRows, ch03::kTileCols, stride);
  return wb::bank_map::of(smem_layout, ch03::load_thread_layout, warp);
}

std::string stride_text(int stride) {
  return "stride " + std::to_string(stride) + " (padding " + std::to_string(stride - ch03::kTileRows) + ")";
}
#endif

#if WB_BACKEND_SIM
::testing::AssertionResult both_phases_conflict_free(int stride) {
  const wb::bank_map::BankMap copy_in = copy_in_map(stride);
  const wb::bank_map::BankMap read = transposed_read_map(stride);
  if (copy_in.wavefronts <= copy_in.ideal && read.wavefronts <= read.ideal) {
    return ::testing::AssertionSuccess();
  }
  auto result = ::testing::AssertionFailure();
  result << "with " << stride_text(stride) << ", ";
  if (read.wavefronts > read.ideal) {
    result << "the transposed read (warp 0: output tile rows 0-15, columns 0-1, which are the "
              "tile's rows 0-1, columns 0-15) is "
           << wb::bank_map::verdict(read) << ":\n" << wb::bank_map::text(read);
  } else {
    result << "the copy in (warp 0: tile rows 0-31 of column 0) is " << wb::bank_map::verdict(copy_in)
           << ":\n" << wb::bank_map::text(copy_in);
  }
  result << "Both phases at other strides:\n";
  for (int other : {ch03::kTileRows, ch03::kTileRows + 1, ch03::kTileRows + 2}) {
    result << "  " << stride_text(other) << ": copy in " << wb::bank_map::verdict(copy_in_map(other))
           << ", transposed read " << wb::bank_map::verdict(transposed_read_map(other))
           << (other == stride ? "   <- yours" : "") << "\n";
  }
  return result;
}
#endif

#if WB_BACKEND_SIM
// Loads through cp.async, one wait a thread, coalesced reads and writes of global memory;
// on whole tiles, every lane of a warp storing (the 16x16 layout covers the 16-row output
// tile; the copy's 32x8 layout there would leave half of each warp idle).
::testing::AssertionResult tiled_technique(const wb::sim::LaunchStats& stats, std::uint64_t elements,
                                           double sectors_limit, bool whole_tiles) {
  ::testing::AssertionResult technique = wb::grading::loaded_through_cp_async(stats, elements);
  if (technique) technique = wb::grading::only_copies_store_to_shared_memory(stats);
  if (technique) technique = wb::grading::one_float_per_copy(stats);
  if (technique) technique = wb::grading::waited_once_per_thread(stats);
  if (technique) {
    technique = wb::grading::transactions_per_request_at_most(
        stats, wb::sim::AccessKind::cp_async_read, sectors_limit,
        "the copy in reads global memory scattered: a warp should copy 32 consecutive rows "
        "of one column (load_coord, the 32x8 column-major thread layout).");
  }
  if (technique) {
    technique = wb::grading::transactions_per_request_at_most(
        stats, wb::sim::AccessKind::global_store, sectors_limit,
        "the writes are not coalesced: a warp should write 2 columns of the output tile, "
        "16 consecutive rows each (store_coord, the 16x16 column-major thread layout, "
        "with the row of the output tile varying fastest).");
  }
  if (technique && whole_tiles) {
    technique = wb::grading::lanes_per_request_at_least(
        stats, wb::sim::AccessKind::global_store, 31.5,
        "every lane of a warp stores. The output tile has " + std::to_string(ch03::kTileCols) +
            " rows: the write out's loops start from store_coord (the 16x16 thread layout) and step by "
            "kStoreThreadRows and kStoreThreadCols; the copy in's 32x8 layout (load_coord) there leaves "
            "the lanes of rows 16 to 31 with nothing to store.");
  }
  return technique;
}
#endif

using Chapter3Transpose = wb::grading::KernelTest;

TEST_F(Chapter3Transpose, Step1TheNaiveTranspose) {
  [[maybe_unused]] bool reported = false;
  wb::grading::check_movement_shapes(
      {{1024, 32}, {1200, 40}, {511, 15}, {1, 1}, {513, 17}, {1000, 3}, {5, 100}},
      [&](int rows, int cols) {
        auto check = transpose_check(kStep1, ch03::transpose_naive, rows, cols);
        check.uses_cp_async = false;
#if WB_BACKEND_SIM
        // Its reads coalesced, as the page asks (on whole tiles, where the requests are
        // exact); its scattered writes are what step 2 improves on, and are reported.
        if (rows % ch03::kTileRows == 0 && cols % ch03::kTileCols == 0) {
          check.technique = [](const wb::sim::LaunchStats& stats) {
            return wb::grading::transactions_per_request_at_most(
                stats, wb::sim::AccessKind::global_load, 4.5,
                "the reads are not coalesced: in the naive transpose the reads stay coalesced (a warp reads 32 "
                "consecutive rows of one input column: rows from thread_coord.row stepping by kLoadThreadRows) "
                "and only the writes are scattered.");
          };
        }
        check.on_success = [&reported, rows, cols](const wb::sim::LaunchStats& stats) {
          if (reported) return;
          reported = true;
          std::printf("Chapter 3, step 1, array %s: %s; %s\n", shape_of(rows, cols).c_str(),
                      wb::grading::describe_requests(stats, wb::sim::AccessKind::global_load).c_str(),
                      wb::grading::describe_requests(stats, wb::sim::AccessKind::global_store).c_str());
        };
#endif
        return check;
      });
}

TEST_F(Chapter3Transpose, Step2TransposeThroughSharedMemory) {
  [[maybe_unused]] bool reported = false;
  wb::grading::check_movement_shapes(
      {{1024, 32}, {1024, 64}, {512, 16}, {2048, 48}}, [&](int rows, int cols) {
        auto check = transpose_check(kStep2, ch03::transpose_tiles, rows, cols);
#if WB_BACKEND_SIM
        const std::uint64_t elements = static_cast<std::uint64_t>(rows) * cols;
        // 2 columns of 16 floats, 64-byte aligned in these shapes: 4 sectors a request.
        check.technique = [elements](const wb::sim::LaunchStats& stats) {
          return tiled_technique(stats, elements, 4.5, true);
        };
        check.on_success = [&reported, rows, cols](const wb::sim::LaunchStats& stats) {
          if (reported) return;
          reported = true;
          std::printf("Chapter 3, step 2, array %s: %s; %s (step 3 pads the tile)\n",
                      shape_of(rows, cols).c_str(),
                      wb::grading::describe_requests(stats, wb::sim::AccessKind::global_store).c_str(),
                      wb::grading::describe_requests(stats, wb::sim::AccessKind::shared_load).c_str());
        };
#endif
        return check;
      });
}

TEST_F(Chapter3Transpose, Step3PadTheTileAnyShape) {
  wb::grading::check_movement_shapes(
      {{1024, 32}, {1200, 40}, {511, 15}, {1, 1}, {513, 17}, {1000, 3}, {5, 100}, {2048, 48}},
      [](int rows, int cols) {
        auto check = transpose_check(kStep3, ch03::transpose_padded, rows, cols);
#if WB_BACKEND_SIM
        const std::uint64_t elements = static_cast<std::uint64_t>(rows) * cols;
        // The simulator counts wavefronts exactly where a warp's lanes run the same
        // loop iterations; in a partial tile some lanes stop a row early, and its
        // requests are approximate. So the wavefronts are judged on whole tiles only.
        const bool whole_tiles = rows % ch03::kTileRows == 0 && cols % ch03::kTileCols == 0;
        check.technique = [elements, whole_tiles](const wb::sim::LaunchStats& stats) {
          // Columns of any length: a 64-byte run may straddle 3 sectors, so up to 6.
          ::testing::AssertionResult technique = tiled_technique(stats, elements, 6.0, whole_tiles);
          if (technique) technique = both_phases_conflict_free(ch03::transpose_padded_stride());
          if (technique && whole_tiles) {
            technique = wb::grading::transactions_per_request_at_most(
                stats, wb::sim::AccessKind::shared_load, 1.05,
                "the transposed read conflicts: is it made through padded_smem_layout's "
                "transpose() (not a layout written by hand with " + std::to_string(ch03::kTileRows) + ")?");
          }
          if (technique && whole_tiles) {
            technique = wb::grading::transactions_per_request_at_most(
                stats, wb::sim::AccessKind::cp_async_write, 1.05,
                "the copy in conflicts: a warp should copy 32 consecutive rows of one column.");
          }
          return technique;
        };
#endif
        return check;
      });
}

}  // namespace
