#include "wb/grading/diagnosis/faults.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace wb::grading {

namespace {

std::string pair_text(long long row, long long col) {
  return "(" + std::to_string(row) + ", " + std::to_string(col) + ")";
}

// An address's offset in floats from the array's start (negative before it).
long long offset_of(const void* pointer, const FaultedArray& array) {
  const auto address = reinterpret_cast<std::intptr_t>(pointer);
  const auto base = reinterpret_cast<std::intptr_t>(array.begin);
  return static_cast<long long>((address - base) / static_cast<std::intptr_t>(sizeof(float)));
}

// The faulting element's offset.
long long offset_of(const Fault& fault, const FaultedArray& array) { return offset_of(fault.address, array); }

// The faulting element's (row, col) in `array`, counted on past its end (a column past
// the last; in an array of one column, rows past the last), or nothing where the fault
// lies before the array.
struct Element {
  long long row;
  long long col;
};
std::optional<Element> element_of(const Fault& fault, const FaultedArray& array) {
  const long long element = offset_of(fault, array);
  const int rows = array.shape.rows;
  if (element < 0 || rows <= 0) return std::nullopt;
  if (array.shape.cols == 1) return Element{element, 0};
  return Element{element % rows, element / rows};
}

// The origin of the faulting block's tile.
Element tile_origin(const Fault& fault, const FaultedArray& array) {
  const unsigned tile_x = array.grid_transposed ? fault.block[1] : fault.block[0];
  const unsigned tile_y = array.grid_transposed ? fault.block[0] : fault.block[1];
  if (array.rows_only) return {static_cast<long long>(tile_x) * array.shape.tile_rows, 0};
  return {static_cast<long long>(tile_x) * array.shape.tile_rows, static_cast<long long>(tile_y) * array.shape.tile_cols};
}

// The fault's element counted from its tile's origin, once.
Element local_to_tile(const Fault& fault, const FaultedArray& array, const Element& origin) {
  const long long rows = array.shape.rows;
  const long long local = offset_of(fault, array) - (origin.row + origin.col * rows);
  return {local % rows, local / rows};
}

// Whether `local` lies one past the tile's last row (or column), inside it the other way:
// where a loop bound one past the tile (`<=` for `<`) reaches.
bool one_past_the_tile(const Element& local, const FaultedArray& array) {
  const long long tile_cols = array.rows_only ? array.shape.cols : array.shape.tile_cols;
  const bool row_inside = local.row >= 0 && local.row < array.shape.tile_rows;
  const bool col_inside = local.col >= 0 && local.col < tile_cols;
  return (local.row == array.shape.tile_rows && col_inside) || (local.col == tile_cols && row_inside);
}

// "a", "a or b", "a, b or c".
std::string either_of(const std::vector<std::string>& texts) {
  std::string joined;
  for (std::size_t i = 0; i < texts.size(); ++i) joined += (i == 0 ? "" : i + 1 == texts.size() ? " or " : ", ") + texts[i];
  return joined;
}

// The parts of a tile's origin an index may count twice: the whole origin, its row, its
// column (a part that is 0 adds nothing), and their names.
std::vector<Element> origin_parts(const Element& origin) {
  std::vector<Element> parts;
  for (const Element part : {origin, Element{origin.row, 0}, Element{0, origin.col}}) {
    if (part.row != 0 || part.col != 0) parts.push_back(part);
  }
  return parts;
}
std::string origin_part_name(const Element& part) {
  return part.row != 0 && part.col != 0 ? "origin" : part.row != 0 ? "row origin" : "column origin";
}

// Whether the tile at `origin` lies wholly inside the array (a GEMM operand's: its rows).
bool tile_is_whole(const Element& origin, const FaultedArray& array) {
  const ArrayShape& shape = array.shape;
  return origin.row + shape.tile_rows <= shape.rows && (array.rows_only || origin.col + shape.tile_cols <= shape.cols);
}

}  // namespace

namespace {

// One loop's bound, as a hypothesis: its value, in the tile's coordinates, and its words.
struct LoopBound {
  long long value;
  std::string text;
  bool right;
};

// A loop's bounds to try, the right one first: the tile's valid extent, one more (`<=`),
// the other loop's (exchanged), the array's extent and the whole tile's. `side` names the
// loop's coordinate ("rows"), `other` the other loop's ("columns"), `valid` and
// `other_valid` their variables' names.
std::vector<LoopBound> bounds_to_try(long long valid, long long other_valid, long long extent, long long tile,
                                     const std::string& side, const std::string& other, const std::string& valid_name,
                                     const std::string& other_valid_name) {
  return {{valid, valid_name, true},
          {valid + 1, "one past " + valid_name + " (`<=` where `<` is meant)", false},
          {other_valid, other_valid_name + ", the " + other + "' bound (the two bounds exchanged)", false},
          {extent, "the array's " + side + " (" + std::to_string(extent) + ")", false},
          {tile, "the whole tile's " + side + " (" + std::to_string(tile) + "), not " + valid_name, false}};
}

// The element that a thread starting at `start` and walking its tile, rows (row_step)
// inside columns (col_step), under the bounds reaches as its element number `count` (from
// 0), or none where the walk ends before. `rows_outside`: columns inside rows instead.
std::optional<Element> walk_element(const ThreadStart& start, int row_step, int col_step, long long row_bound,
                                    long long col_bound, unsigned long long count, bool rows_outside = false) {
  constexpr unsigned long long kMostAccesses = 1 << 20;  // no walk goes further
  unsigned long long index = 0;
  const long long outer_first = rows_outside ? start.first_row : start.first_col;
  const long long inner_first = rows_outside ? start.first_col : start.first_row;
  const long long outer_bound = rows_outside ? row_bound : col_bound;
  const long long inner_bound = rows_outside ? col_bound : row_bound;
  const int outer_step = rows_outside ? row_step : col_step, inner_step = rows_outside ? col_step : row_step;
  for (long long outer = outer_first; outer < outer_bound; outer += outer_step) {
    for (long long inner = inner_first; inner < inner_bound; inner += inner_step, ++index) {
      if (index > kMostAccesses) return std::nullopt;
      if (index == count) return rows_outside ? Element{outer, inner} : Element{inner, outer};
    }
  }
  return std::nullopt;
}

// Whether that element is `target`.
bool walk_reaches(const ThreadStart& start, int row_step, int col_step, long long row_bound, long long col_bound,
                  const Element& target, unsigned long long count, bool rows_outside = false) {
  const std::optional<Element> reached =
      walk_element(start, row_step, col_step, row_bound, col_bound, count, rows_outside);
  return reached && reached->row == target.row && reached->col == target.col;
}

// A read that faulted, placed on its thread's walk of its tile (the array's thread_start
// and loop steps): the element, in the array and in the block's tile, the tile's part
// inside the array, where the walk began and how many elements it had walked before.
struct WalkedRead {
  Element element;
  Element local;
  long long valid_rows;
  long long valid_cols;
  ThreadStart start;
  unsigned long long walked;
};

// Where the step gives its walk and the fault is a thread's first access to an element
// (accesses_per_element to each, the read first); none otherwise.
std::optional<WalkedRead> walked_read(const Fault& fault, const FaultedArray& array) {
  if (!array.thread_start || array.row_step <= 0 || array.col_step <= 0 || array.rows_only) return std::nullopt;
  const auto per_element = static_cast<unsigned long long>(std::max(1, array.accesses_per_element));
  if (fault.write || fault.earlier_accesses % per_element != 0) return std::nullopt;
  const std::optional<Element> element = element_of(fault, array);
  if (!element || fault.thread[1] != 0 || fault.thread[2] != 0) return std::nullopt;
  const std::optional<ThreadStart> start = array.thread_start(fault.thread[0]);
  if (!start) return std::nullopt;
  const Element origin = tile_origin(fault, array);
  return WalkedRead{*element,
                    local_to_tile(fault, array, origin),
                    std::min<long long>(array.shape.tile_rows, array.shape.rows - origin.row),
                    std::min<long long>(array.shape.tile_cols, array.shape.cols - origin.col),
                    *start,
                    fault.earlier_accesses / per_element};
}

}  // namespace

namespace {

// The readings of a walked read that lands on `local` where the walk is at `meant`: each a
// mistake whose model moves the one to the other.
std::vector<std::string> readings_of_a_walk(const Fault& fault, const FaultedArray& array, const WalkedRead& read,
                                            const Element& meant) {
  const Element& local = read.local;
  std::vector<std::string> readings;
  if (local.row == meant.row && local.col == meant.col) return readings;
  const long long rows = array.shape.rows;
  // The rows and the columns the thread's walk takes in its tile, from its start.
  const auto steps_between = [](long long first, long long bound, int step) {
    return first < bound ? (bound - first + step - 1) / step : 0;
  };
  const long long walk_rows = steps_between(read.start.first_row, read.valid_rows, array.row_step);
  const long long walk_cols = steps_between(read.start.first_col, read.valid_cols, array.col_step);
  // The element the walk meant, read with its row and column exchanged: a different one.
  if (meant.row != meant.col && local.row == meant.col && local.col == meant.row) {
    readings.push_back("the row and the column are exchanged in the index of that read (layout(col, row) where "
                       "layout(row, col) is meant)");
  }
  if (local.col == meant.col && local.row == meant.row + array.row_step) {
    readings.push_back("its row loop is one step (" + std::to_string(array.row_step) +
                       ") ahead: each copy goes one step further down than the loop means (a counter from 1 "
                       "written i * step where (i - 1) * step is meant, or a start one step late)");
  }
  if (local.row == meant.row && local.col == meant.col + array.col_step) {
    readings.push_back("its column loop is one step (" + std::to_string(array.col_step) +
                       ") ahead: each copy goes one step further along than the loop means (a counter from 1 "
                       "written i * step where (i - 1) * step is meant, or a start one step late)");
  }
  // The row's offset counted in floats on a pointer to vectors (the vector's float row
  // added to a float2* or float4*, which counts pairs or quads), or in bytes on a float
  // pointer: the element lies that many times the row further on, in the array's flat
  // order (into the columns after its own).
  for (const long long scale : {2LL, 4LL}) {
    if (meant.row > 0 && local.row + local.col * rows == scale * meant.row + meant.col * rows) {
      readings.push_back("its row offset is counted " + std::string(scale == 2 ? "twice" : "four times") +
                         " over: the row in floats added to a pointer to " +
                         (scale == 2 ? std::string("float2, which counts pairs (the pair's index, row / 2, is meant)")
                                     : std::string("float4, which counts quads (the quad's index, row / 4, is meant), "
                                                   "or the row in bytes added to a float pointer")));
    }
  }
  for (const long long scale : {2LL, 4LL}) {
    if (local.row == meant.row && meant.col > 0 && local.col == scale * meant.col) {
      readings.push_back("its columns lie " + std::string(scale == 2 ? "twice" : "four times") +
                         " as far apart as the array's: the leading dimension counted in " +
                         (scale == 2 ? "floats on a pointer to float2, which counts pairs"
                                     : "bytes on a float pointer, or in floats on a pointer to float4") +
                         " (rows / " + std::to_string(scale) + " is meant there)");
    }
  }
  // A flat count over the thread's elements split into (row, column) with the wrong
  // extent: the column from count / (its columns) where count / (its rows) is meant, so
  // the column advances too soon and runs past the tile.
  if (walk_rows > 0 && walk_cols > 0 && walk_rows != walk_cols) {
    const auto count = static_cast<long long>(read.walked);
    if (local.row == read.start.first_row + count % walk_rows * array.row_step &&
        local.col == read.start.first_col + count / walk_cols * array.col_step) {
      readings.push_back("its flat count of elements is split with the wrong extent: the column taken as count / " +
                         std::to_string(walk_cols) + " (the thread's columns) where count / " +
                         std::to_string(walk_rows) + " (its rows, the extent of count % " +
                         std::to_string(walk_rows) + ") is meant, so the column advances too soon");
    }
  }
  // Each column's walk starting where the column before ended: a pointer (or index)
  // advanced in the row loop and never set back for the next column, so the element
  // lies the rows walked in the earlier columns further on, in the array's flat order.
  const long long columns_before = walk_rows > 0 ? static_cast<long long>(read.walked) / walk_rows : 0;
  const long long drift = columns_before * walk_rows * array.row_step;  // the rows walked before this column
  if (columns_before > 0 && local.row + local.col * rows == meant.row + meant.col * rows + drift) {
    readings.push_back("its row loop carries on from where the column before it ended: each column's walk starts " +
                       std::to_string(walk_rows * array.row_step) + " elements (the " +
                       std::to_string(walk_rows) + " rows it walked, steps of " +
                       std::to_string(array.row_step) + ") further than the last, as a pointer or index advanced "
                       "in the row loop and not set back for the next column does: start each column from its "
                       "own first element (a copy of the pointer, or the index computed afresh)");
    // The walk of a whole tile's column is the tile's rows: where the block's row origin
    // (or whole origin) is as far, that origin counted twice reaches the same element.
    for (const Element& part : origin_parts(tile_origin(fault, array))) {
      if (part.row + part.col * rows != drift) continue;
      readings.push_back("the tile's " + origin_part_name(part) + " " + pair_text(part.row, part.col) +
                         " is counted twice, in an index that already counts from the tile's first element (its "
                         "earlier reads then left the tile too, inside the array)");
      break;
    }
  }
  return readings;
}

}  // namespace

std::string walk_off_its_steps(const Fault& fault, const FaultedArray& array) {
  const std::optional<WalkedRead> read = walked_read(fault, array);
  if (!read) return "";
  // The page's loops walk down each column (rows inside); a learner may nest them the other
  // way. Where the two orders put the walk at different elements, the fault alone cannot say
  // which the kernel's loops are: the readings of both are named, each with its order.
  const std::optional<Element> down = walk_element(read->start, array.row_step, array.col_step, read->valid_rows,
                                                   read->valid_cols, read->walked);
  const std::optional<Element> along = walk_element(read->start, array.row_step, array.col_step, read->valid_rows,
                                                    read->valid_cols, read->walked, true);
  const bool orders_differ = down && along && (down->row != along->row || down->col != along->col);
  struct Reading {
    std::string cause;
    const Element* meant;
    bool along;
  };
  std::vector<Reading> readings;
  if (down) {
    for (std::string& cause : readings_of_a_walk(fault, array, *read, *down)) readings.push_back({cause, &*down, false});
  }
  if (orders_differ) {
    for (std::string& cause : readings_of_a_walk(fault, array, *read, *along)) readings.push_back({cause, &*along, true});
  }
  if (readings.empty() || readings.size() > 2) return "";
  const Element& local = read->local;
  std::string observed = "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " +
                         pair_text(fault.thread[0], fault.thread[1]) + " read element " +
                         pair_text(read->element.row, read->element.col) + " of " + array.name + ", (" +
                         std::to_string(local.row) + ", " + std::to_string(local.col) + ") of its tile, as element number " +
                         std::to_string(read->walked + 1) + " of its walk from " +
                         pair_text(read->start.first_row, read->start.first_col);
  const auto at = [](const Element& meant) {
    return "(" + std::to_string(meant.row) + ", " + std::to_string(meant.col) + ")";
  };
  const bool one_order = readings.size() == 1 || readings.front().along == readings.back().along;
  if (one_order) {
    const Reading& first = readings.front();
    observed += ", where the walk" + std::string(first.along ? " along each row (its loop over rows outside)" : "") +
                " is at " + at(*first.meant) + ": ";
    if (readings.size() == 1) return observed + first.cause + ".";
    return observed + "either " + first.cause + ", or " + readings.back().cause + ".";
  }
  return observed + ". Where its loops walk down each column, as the page's do, the walk is at " +
         at(*readings.front().meant) + ": " + readings.front().cause + ". Where they walk along each row (the loop " +
         "over rows outside), it is at " + at(*readings.back().meant) + ": " + readings.back().cause + ".";
}

std::string loop_bounds_cause(const Fault& fault, const FaultedArray& array) {
  const std::optional<WalkedRead> read = walked_read(fault, array);
  if (!read) return "";
  const ArrayShape& shape = array.shape;
  const Element& local = read->local;
  const long long valid_rows = read->valid_rows, valid_cols = read->valid_cols;
  const unsigned long long walked = read->walked;
  if (valid_rows <= 0 || valid_cols <= 0 || local.row < 0 || local.col < 0) return "";
  // Inside the tile's valid part, the element says nothing about the bounds.
  if (local.row < valid_rows && local.col < valid_cols) return "";
  const std::vector<LoopBound> row_bounds =
      bounds_to_try(valid_rows, valid_cols, shape.rows, shape.tile_rows, "rows", "columns", "valid_rows", "valid_cols");
  const std::vector<LoopBound> col_bounds =
      bounds_to_try(valid_cols, valid_rows, shape.cols, shape.tile_cols, "columns", "rows", "valid_cols", "valid_rows");
  // Every (row bound, column bound) under which the thread's walk reaches the fault where
  // it did; the tile's own bounds never leave the tile, so they never fit.
  std::vector<std::pair<const LoopBound*, const LoopBound*>> fits;
  for (const LoopBound& row_bound : row_bounds) {
    for (const LoopBound& col_bound : col_bounds) {
      // The column loop outside, as the pages teach, or the row loop outside, as a learner
      // may write it: where the two orders reach the fault under different bounds, the
      // fits disagree and nothing is named.
      for (const bool rows_outside : {false, true}) {
        if (walk_reaches(read->start, array.row_step, array.col_step, row_bound.value, col_bound.value, local, walked,
                         rows_outside)) {
          fits.emplace_back(&row_bound, &col_bound);
          break;
        }
      }
    }
  }
  if (fits.empty()) return "";
  // What the fits agree on: a loop whose bound is the same wrong one in every fit is named;
  // one whose fits differ, or include its right bound, is left unnamed.
  const auto agreed = [&fits](bool rows) -> const LoopBound* {
    const LoopBound* first = rows ? fits.front().first : fits.front().second;
    for (const auto& [row_bound, col_bound] : fits) {
      const LoopBound* bound = rows ? row_bound : col_bound;
      if (bound->text != first->text) return nullptr;
    }
    return first->right ? nullptr : first;
  };
  const LoopBound* row_bound = agreed(true);
  const LoopBound* col_bound = agreed(false);
  // A loop whose fits differ, where the other loop's bound is a wrong one for certain:
  // the same mistake in both loops, where it is among the fits, is the one named.
  const auto same_kind = [&](bool rows, const LoopBound* other) -> const LoopBound* {
    const std::vector<LoopBound>& mine = rows ? row_bounds : col_bounds;
    const std::vector<LoopBound>& theirs = rows ? col_bounds : row_bounds;
    const LoopBound& counterpart = mine[static_cast<std::size_t>(other - theirs.data())];
    for (const auto& [fit_row, fit_col] : fits) {
      if ((rows ? fit_row : fit_col) == &counterpart) return &counterpart;
    }
    return nullptr;
  };
  const LoopBound* likely = nullptr;  // a bound named as the other loop's mistake repeated
  if (row_bound == nullptr && col_bound != nullptr) row_bound = likely = same_kind(true, col_bound);
  if (col_bound == nullptr && row_bound != nullptr) col_bound = likely = same_kind(false, row_bound);
  // The loop that let the element out must be named: else the fits disagree on the cause.
  // Where they disagree only on which wrong bound the loop has (every fit's bound for it is
  // wrong: one past, the array's, the whole tile's), the loop is named with those bounds.
  const bool row_out = local.row >= valid_rows, col_out = local.col >= valid_cols;
  const auto past_its_valid_part = [&fits](bool rows) -> std::string {
    std::vector<std::string> texts;
    for (const auto& [fit_row, fit_col] : fits) {
      const LoopBound* bound = rows ? fit_row : fit_col;
      if (bound->right) return "";
      if (std::find(texts.begin(), texts.end(), bound->text) == texts.end()) texts.push_back(bound->text);
    }
    return either_of(texts);
  };
  // In a whole tile the ways one past its edge are index_leaves_a_whole_tile's to weigh.
  const bool partial = valid_rows < shape.tile_rows || valid_cols < shape.tile_cols;
  if (partial && row_out != col_out && (row_out ? row_bound : col_bound) == nullptr) {
    if (const std::string loose = past_its_valid_part(row_out); !loose.empty()) {
      const std::string side = row_out ? "row" : "column";
      return "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " +
             pair_text(fault.thread[0], fault.thread[1]) + " read element " +
             pair_text(read->element.row, read->element.col) + " of " + array.name + ", (" +
             std::to_string(local.row) + ", " + std::to_string(local.col) + ") of its tile, which holds " +
             std::to_string(valid_rows) + " x " + std::to_string(valid_cols) + " elements of the array, as element "
             "number " + std::to_string(walked + 1) + " of its walk from " +
             pair_text(read->start.first_row, read->start.first_col) + ": its " + side + " loop ran past the tile's " +
             (row_out ? "valid_rows" : "valid_cols") + ", as it does when bounded by " + loose +
             ". The loops count from the tile's origin, so they stop at the tile's valid part: row < valid_rows, "
             "col < valid_cols.";
    }
  }
  if ((row_out && row_bound == nullptr) || (col_out && col_bound == nullptr) || (!row_bound && !col_bound)) return "";
  std::string bounds;
  if (row_bound != nullptr) {
    bounds = std::string(row_bound == likely ? "likely " : "") + "the row loop bounded by " + row_bound->text;
  }
  if (col_bound != nullptr) {
    bounds += std::string(bounds.empty() ? "" : " and ") + (col_bound == likely ? "likely, the same way, " : "") +
              "the column loop bounded by " + col_bound->text;
  }
  return "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " +
         pair_text(fault.thread[0], fault.thread[1]) + " read element " +
         pair_text(read->element.row, read->element.col) + " of " + array.name + ", (" + std::to_string(local.row) + ", " +
         std::to_string(local.col) + ") of its tile, which holds " + std::to_string(valid_rows) + " x " +
         std::to_string(valid_cols) + " elements of the array, as element number " + std::to_string(walked + 1) +
         " of its walk from " + pair_text(read->start.first_row, read->start.first_col) +
         ": that is where its loops reach with " + bounds +
         ". The loops count from the tile's origin, so they stop at the tile's valid part: row < valid_rows, "
         "col < valid_cols.";
}

std::string origin_counted_twice(const Fault& fault, const FaultedArray& array) {
  const std::optional<Element> element = element_of(fault, array);
  if (!element) return "";
  const Element origin = tile_origin(fault, array);
  // In a partial tile a bound past its edge reaches the same addresses: no evidence there.
  if (!tile_is_whole(origin, array)) return "";
  // One past the tile's edge, a bound `<=` reaches the same address as the origin added
  // again (row 128 of a tile at row 128 is row 0 of the tile at 256), unless this was the
  // thread's first access: a bound errs only after the elements inside the tile.
  if (fault.earlier_accesses > 0 && one_past_the_tile(local_to_tile(fault, array, origin), array)) return "";
  // Offsets, not coordinates: twice a row origin may run past a column's end into the
  // next column, as the index does. The origin added again whole, or one coordinate of
  // it (none that adds nothing), each named by the coordinates it adds.
  const long long rows = array.shape.rows;
  const long long tile_cols = array.rows_only ? array.shape.cols : array.shape.tile_cols;
  for (const Element& extra : origin_parts(origin)) {
    const long long local = offset_of(fault, array) - (origin.row + extra.row + (origin.col + extra.col) * rows);
    if (local < 0) continue;
    const long long local_row = local % rows, local_col = local / rows;
    if (local_row >= array.shape.tile_rows || local_col >= tile_cols) continue;
    const bool row_twice = extra.row != 0, col_twice = extra.col != 0;
    const std::string twice_what = origin_part_name(extra);
    return "the tile's " + twice_what + " is counted twice: block " + pair_text(fault.block[0], fault.block[1]) +
           "'s tile of " + array.name + " starts at " + pair_text(origin.row, origin.col) + ", and its thread " +
           pair_text(fault.thread[0], fault.thread[1]) + " " + (fault.write ? "wrote" : "read") + " element " +
           pair_text(element->row, element->col) + " = (element " + pair_text(local_row, local_col) +
           " of the tile) + that origin + its " + twice_what + " again. An index that already counts from the "
           "tile's first element (a pointer to the tile) was given the global " +
           (row_twice && col_twice ? "row and column" : row_twice ? "row" : "column") +
           " too: index the tile with its own (row, col), or the array with global ones.";
  }
  return "";
}

std::string index_leaves_a_whole_tile(const Fault& fault, const FaultedArray& array) {
  const std::optional<Element> element = element_of(fault, array);
  if (!element) return "";
  const ArrayShape& shape = array.shape;
  // Only a fault within reach of this array: up to one array's length past its end.
  if (offset_of(fault, array) >= 2 * static_cast<long long>(shape.rows) * shape.cols) return "";
  const Element origin = tile_origin(fault, array);
  if (!tile_is_whole(origin, array)) return "";
  const Element local = local_to_tile(fault, array, origin);
  // An element inside the tile: this index is right (a copy's source, where its
  // destination faulted), and the fault says nothing about it.
  const long long tile_cols = array.rows_only ? shape.cols : shape.tile_cols;
  if (local.row >= 0 && local.row < shape.tile_rows && local.col >= 0 && local.col < tile_cols) return "";
  if (array.rows_only && local.col == shape.cols && local.row >= 0 && local.row < shape.tile_rows) {
    // A GEMM operand read one column past its last: the end of k, or an index that
    // strides its columns by another array's leading dimension and runs past the end.
    const bool partial = array.k_tile > 0 && shape.cols % array.k_tile != 0;
    // With every k-tile whole, an index with row and column exchanged (col + row * ld,
    // for a row of the tile and a column of a k-tile) reaches the same address.
    const long long from_tile = offset_of(fault, array) - origin.row;
    const long long exchanged_row = from_tile / shape.rows, exchanged_col = from_tile % shape.rows;
    const bool exchanged = !partial && array.k_tile > 0 && exchanged_row < shape.tile_rows &&
                           exchanged_col < array.k_tile;
    // Where the step fixes each thread's first column and the column loop's step: the
    // column of the last k-tile read, against the thread's walk (a bound one past reaches
    // it only if the walk lands there) and against its first column counted twice.
    if (array.thread_start && array.col_step > 0 && array.k_tile > 0) {
      if (const std::optional<ThreadStart> start = array.thread_start(fault.thread[0])) {
        const long long in_tile = shape.cols - ((shape.cols - 1) / array.k_tile) * array.k_tile;
        const auto lands = [&](long long first) {
          return in_tile >= first && (in_tile - first) % array.col_step == 0;
        };
        if (!lands(start->first_col) && start->first_col > 0 && lands(2 * start->first_col)) {
          return "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " +
                 pair_text(fault.thread[0], fault.thread[1]) + " read element " +
                 pair_text(element->row, element->col) + " of " + array.name + ", column " + std::to_string(in_tile) +
                 " of the last k-tile, past its end. The thread's copies walk the columns " +
                 std::to_string(start->first_col) + ", " + std::to_string(start->first_col + array.col_step) +
                 ", ... of a k-tile (its first column, then steps of " + std::to_string(array.col_step) +
                 "), which never land on " + std::to_string(in_tile) + "; with the thread's first column counted "
                 "twice (" + std::to_string(2 * start->first_col) + ", " +
                 std::to_string(2 * start->first_col + array.col_step) + ", ...) they do: the thread's column is "
                 "added to an index or pointer that already starts at it.";
        }
      }
    }
    return "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " +
           pair_text(fault.thread[0], fault.thread[1]) + " read element " + pair_text(element->row, element->col) +
           " of " + array.name + ", one column past its last (" + std::to_string(shape.cols - 1) + "): either " +
           (partial ? "the last k-tile, which is partial (k = " + std::to_string(shape.cols) + " is not a multiple of " +
                          std::to_string(array.k_tile) + "), reads past k where its columns must be zero-filled "
                          "(a source size of 0 past valid_k)"
                    : std::string("a bound on k one past its end (`<=` where `<` is meant)")) +
           (exchanged ? ", " : ", or ") + array.name + "'s columns are strided by another array's leading dimension (" +
           array.name + "'s is " + (array.leading_dimension.empty() ? std::string("its rows") : array.leading_dimension) +
           ")" +
           (exchanged ? ", or the row and the column are exchanged in the index (col + row * ld reaches it from (" +
                            std::to_string(exchanged_row) + ", " + std::to_string(exchanged_col) + ") of the tile)"
                      : std::string()) +
           ".";
  }
  if (one_past_the_tile(local, array)) {
    const bool row_past = local.row == shape.tile_rows;
    const long long last = row_past ? shape.tile_rows - 1 : shape.tile_cols - 1;
    // Where the step gives the thread's walk, a bound one past lets the walk on to the
    // element its steps reach next, in either loop order; an element elsewhere (another
    // column's row one past) came from an index off the walk, not from the bound.
    bool bound_possible = true;
    // The ways there: a bound one past; the origin counted twice, where the block's origin
    // is not 0 along that side (at 0 it adds nothing); the tile's two bounds exchanged,
    // where the side run past is the tile's shorter one (the other bound lets it on).
    bool origin_possible = row_past ? origin.row != 0 : origin.col != 0;
    bool exchanged_possible = row_past ? shape.tile_rows < shape.tile_cols : shape.tile_cols < shape.tile_rows;
    // Where the step gives the walk, each is tried against it, in either loop order: the
    // walk under the bounds that reading means reaches the element, or the walk under the
    // tile's own bounds, moved by the origin, does.
    if (const std::optional<WalkedRead> read = walked_read(fault, array)) {
      const long long row_bound = read->valid_rows + (row_past ? 1 : 0);
      const long long col_bound = read->valid_cols + (row_past ? 0 : 1);
      bool exchanged_walk = false, origin_walk = false;
      bound_possible = false;
      for (const bool rows_outside : {false, true}) {
        bound_possible = bound_possible || walk_reaches(read->start, array.row_step, array.col_step, row_bound,
                                                        col_bound, read->local, read->walked, rows_outside);
        exchanged_walk = exchanged_walk || walk_reaches(read->start, array.row_step, array.col_step, read->valid_cols,
                                                        read->valid_rows, read->local, read->walked, rows_outside);
        if (const std::optional<Element> meant = walk_element(read->start, array.row_step, array.col_step,
                                                              read->valid_rows, read->valid_cols, read->walked,
                                                              rows_outside)) {
          origin_walk = origin_walk ||
                        (read->local.row == meant->row + origin.row && read->local.col == meant->col + origin.col);
        }
      }
      exchanged_possible = exchanged_possible && exchanged_walk;
      origin_possible = origin_possible && origin_walk;
    }
    std::vector<std::string> found;
    if (bound_possible) found.push_back("a loop bound one past the tile (`<=` where `<` is meant)");
    if (origin_possible) found.push_back("the tile's origin added to an index that already counts from it");
    if (exchanged_possible) {
      found.push_back(std::string("the two loops' bounds exchanged (the ") + (row_past ? "rows" : "columns") +
                      " bounded by the tile's " + (row_past ? "columns (valid_cols)" : "rows (valid_rows)") + ")");
    }
    if (found.empty()) return "";
    const std::string ways = either_of(found);
    return "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " +
           pair_text(fault.thread[0], fault.thread[1]) + " " + (fault.write ? "wrote" : "read") + " element " +
           pair_text(element->row, element->col) + " of " + array.name + ", which is " +
           (row_past ? "row " : "column ") + std::to_string(row_past ? local.row : local.col) +
           " of its tile, one past the tile's last (" + std::to_string(last) + "): " + ways +
           " reaches this element.";
  }
  // A GEMM operand's columns run over every k, whose last tile may be partial: a bound
  // there may be at fault.
  if (array.rows_only) return "";
  return "block " + pair_text(fault.block[0], fault.block[1]) + "'s tile of " + array.name + ", rows " +
         std::to_string(origin.row) + " to " + std::to_string(origin.row + shape.tile_rows - 1) + " and columns " +
         std::to_string(origin.col) + " to " + std::to_string(origin.col + shape.tile_cols - 1) +
         ", lies wholly inside the array, yet its thread " + pair_text(fault.thread[0], fault.thread[1]) + " " +
         (fault.write ? "wrote" : "read") + " element " + pair_text(element->row, element->col) +
         ", outside its tile. Either a loop runs past the tile (bounded by the array's rows or columns, or by the "
         "tile's two bounds exchanged, where the tile's own are meant), or the index of that " +
         (fault.write ? "store" : "read") +
         " is computed wrongly for an element inside the tile (the leading dimension, a stride, a coordinate taken "
         "twice or exchanged).";
}

namespace {

// The element of `array` that `source` points at, from its first element (nothing where
// it lies outside the array or between two floats).
std::optional<long long> element_at(const void* source, const FaultedArray& array) {
  const auto bytes = reinterpret_cast<std::intptr_t>(source) - reinterpret_cast<std::intptr_t>(array.begin);
  if (source == nullptr || bytes % static_cast<std::intptr_t>(sizeof(float)) != 0) return std::nullopt;
  const long long element = offset_of(source, array);
  if (element < 0 || element >= static_cast<long long>(array.shape.rows) * array.shape.cols) return std::nullopt;
  return element;
}

std::string thread_text(const std::array<unsigned, 3>& thread) {
  return "thread " + pair_text(thread[0], thread[1]);
}

// Where a thread's accesses stood at a write: its first, or after others.
std::string nth_text(unsigned long long earlier) {
  return earlier == 0 ? "its first copy" : "after " + std::to_string(earlier) + " earlier accesses";
}

// The elements two copies brought into one word are different, both inside the tile:
// the index that puts both on `word`, where one of the usual forms does.
std::string shared_index_fit(const Element& first, const Element& second, long long word,
                             const FaultedArray& array) {
  const long long tile_rows = array.shape.tile_rows;
  // A coordinate counted twice over the tile's own column stride (its rows, plus a padding
  // of up to 8): 2 row + col * stride, or row + 2 col * stride, puts both exactly on the
  // word with a stride the tile really has, which a smaller stride only imitates (from
  // some other start).
  for (const bool row_twice : {true, false}) {
    const long long row_scale = row_twice ? 2 : 1, col_scale = row_twice ? 1 : 2;
    const long long rows_apart = row_scale * (second.row - first.row), cols_apart = col_scale * (first.col - second.col);
    if (cols_apart == 0 || rows_apart % cols_apart != 0) continue;
    const long long stride = rows_apart / cols_apart;
    if (stride < tile_rows || stride > tile_rows + 8) continue;
    // Exactly on the word: the array's first stage, where the copies that overlap meet first.
    if (word != row_scale * first.row + col_scale * first.col * stride) continue;
    const std::string side = row_twice ? "row" : "column";
    return " Both fit a shared index " + std::string(row_twice ? "2 * row + col * " : "row + 2 * col * ") +
           std::to_string(stride) + ", the tile's own column stride with the " + side +
           " counted twice: a pointer or offset that already includes the thread's " + side +
           " (the destination's start), then indexed with the " + side + " again. Over such a pointer the index "
           "counts from 0 along that side.";
  }
  // Column-major, row + col * stride: the stride that makes both meet.
  if (first.col != second.col && (second.row - first.row) % (first.col - second.col) == 0) {
    const long long stride = (second.row - first.row) / (first.col - second.col);
    if (stride > 0 && stride < tile_rows && word - (first.row + first.col * stride) >= 0) {
      return " Both fit a shared index row + col * " + std::to_string(stride) + ": a column stride of " +
             std::to_string(stride) + " where a column of the tile holds " + std::to_string(tile_rows) +
             " rows, so one column's last rows land on the next column's first. The stride between columns "
             "is at least the tile's rows (plus any padding).";
    }
  }
  // Row and column exchanged: col + row * stride, with the tile's own column stride.
  if (first.row != second.row && (second.col - first.col) % (first.row - second.row) == 0) {
    const long long stride = (second.col - first.col) / (first.row - second.row);
    if (stride >= tile_rows && stride <= tile_rows + 8 && word - (first.col + first.row * stride) >= 0) {
      return " Both fit a shared index col + row * " + std::to_string(stride) +
             ", the tile's column stride applied to the row: the row and the column are exchanged in the "
             "shared index (layout(col, row) where layout(row, col) is meant, or the coordinates swapped in "
             "the offset).";
    }
  }
  return "";
}

// Of the two threads that copied one element, one whose first copy lies at its own start
// plus its coordinate again (in rows, columns or both; in the coordinate's units or the
// element's): the coordinate counted in a pointer that already points at the thread's
// first element and again in the loop's start ("" where none fits).
std::string coordinate_counted_twice(const Fault& fault, const FaultedArray& array, const Element& copied) {
  if (!array.thread_start || !fault.overlap) return "";
  const OverlappingWrite& overlap = *fault.overlap;
  const std::pair<std::array<unsigned, 3>, unsigned long long> threads[] = {
      {fault.thread, fault.earlier_accesses}, {overlap.first_thread, overlap.first_earlier_accesses}};
  for (const auto& [thread, earlier] : threads) {
    if (earlier != 0 || thread[1] != 0 || thread[2] != 0) continue;
    const std::optional<ThreadStart> start = array.thread_start(thread[0]);
    if (!start) continue;
    // Each side's extra distance: none, or the coordinate again (in either unit).
    const auto counted_again = [](long long extra, long long coord, long long first) {
      return extra == 0 || extra == coord || extra == first;
    };
    const long long extra_row = copied.row - start->first_row, extra_col = copied.col - start->first_col;
    if ((extra_row == 0 && extra_col == 0) || !counted_again(extra_row, start->coord_row, start->first_row) ||
        !counted_again(extra_col, start->coord_col, start->first_col)) {
      continue;
    }
    const std::string side = extra_row != 0 && extra_col != 0 ? "row and column"
                             : extra_row != 0                 ? "row"
                                                              : "column";
    return thread_text(thread) + "'s first copy brought element " + pair_text(copied.row, copied.col) +
           " of its block's tile of " + array.name + ", where its first element is " +
           pair_text(start->first_row, start->first_col) + " (its coordinate " +
           pair_text(start->coord_row, start->coord_col) + " in the copy layout): the thread's " + side +
           " is counted twice, once in a pointer or offset that already points at the thread's first element "
           "and again in the loop's start, so its copies land on other threads' elements. Over a pointer that "
           "includes the thread's coordinate, the loop counts from 0.";
  }
  return "";
}

}  // namespace

std::string refilled_while_read_cause(const Fault& fault, const std::string& buffer, const std::string& fix) {
  if (!fault.racing_copy) return "";
  const RacingCopy& copy = *fault.racing_copy;
  if (copy.landed_after_the_barrier) return "";
  if (copy.reader_commits == 0 || copy.group < copy.reader_commits) return "";
  const bool reader_faulted = copy.writer != fault.thread;
  const std::string reader = reader_faulted ? thread_text(fault.thread) : "another thread";
  return thread_text(copy.writer) + " copied into a " + buffer + " in its commit group " +
         std::to_string(copy.group + 1) + " while " + reader + ", which had committed " +
         std::to_string(copy.reader_commits) + " groups, still read it: the copying thread was already in the next "
         "iteration, refilling the " + buffer + " that the other still read. " +
         (fix.empty() ? "A __syncthreads() after the reads of a " + buffer +
                            " and before the copies that refill it (at the end of the loop) keeps them apart."
                      : fix);
}

std::string read_of_the_buffer_just_refilled(const Fault& fault, const std::string& buffer, const std::string& fix) {
  if (!fault.racing_copy || fix.empty()) return "";
  const RacingCopy& copy = *fault.racing_copy;
  if (copy.landed_after_the_barrier) return "";
  if (copy.reader_commits == 0 || copy.group + 1 != copy.reader_commits) return "";
  const bool reader_faulted = copy.writer != fault.thread;
  const std::string reader = reader_faulted ? thread_text(fault.thread) : "another thread";
  return thread_text(copy.writer) + " copied into a " + buffer + " in its commit group " +
         std::to_string(copy.group + 1) + ", and " + reader + " read that " + buffer +
         " with no barrier between, after committing that same group itself: the reader had refilled the " + buffer +
         " in this iteration and read it after. " + fix;
}

std::string prologue_too_short(const Fault& fault, int prologue_commits, const std::string& fix) {
  if (!fault.racing_copy || prologue_commits <= 0) return "";
  const RacingCopy& copy = *fault.racing_copy;
  const int wait = copy.writer_idle_wait;
  const unsigned long long committed = copy.writer_commits_at_idle_wait;
  // Commits only grow, so a wait with fewer than the prologue's is the first one, before
  // the loop.
  if (wait < 0 || committed >= static_cast<unsigned long long>(prologue_commits)) return "";
  return thread_text(copy.writer) + "'s first wait, wait<" + std::to_string(wait) + ">, found only " +
         std::to_string(committed) + " group" + (committed == 1 ? "" : "s") +
         " committed, and wait<N> leaves the newest N in flight, so it landed none of them: the prologue committed " +
         std::to_string(committed) + " where this step's commits " + std::to_string(prologue_commits) +
         ", so each tile is read while it is still travelling. " + fix;
}

std::string wait_leaves_too_many(const Fault& fault, int step_wait, int prologue_commits, const std::string& buffer) {
  if (!fault.racing_copy || step_wait < 0) return "";
  const RacingCopy& copy = *fault.racing_copy;
  const int wait = copy.writer_idle_wait;
  const unsigned long long committed = copy.writer_commits_at_idle_wait;
  if (wait <= step_wait || committed < static_cast<unsigned long long>(std::max(prologue_commits, 1))) return "";
  return thread_text(copy.writer) + "'s wait<" + std::to_string(wait) + "> landed nothing: wait<N> lets the " +
         "newest N groups stay in flight, and no more than " + std::to_string(wait) + " were (" +
         std::to_string(committed) + " committed so far), so the " + buffer +
         " read after it was still travelling. This step waits with wait<" +
         std::to_string(step_wait) + ">: it lands the oldest group, the " + buffer +
         " about to be read, and leaves the newer ones in flight (N is how many may still travel, not how many "
         "the ring holds).";
}

std::string commits_stopped_before_the_waits(const Fault& fault, int step_wait, int prologue_commits,
                                             const std::string& buffer) {
  if (!fault.racing_copy || step_wait <= 0 || prologue_commits <= 0) return "";
  const RacingCopy& copy = *fault.racing_copy;
  const int wait = copy.writer_idle_wait;
  const unsigned long long committed = copy.writer_commits_at_idle_wait;
  // The step's own wait, after the loop had committed some groups of its own: the commits
  // were there, then stopped while the waits went on.
  if (wait != step_wait || committed <= static_cast<unsigned long long>(prologue_commits)) return "";
  return thread_text(copy.writer) + "'s wait<" + std::to_string(wait) + ">, after its " + std::to_string(committed) +
         " commits, landed nothing: no more than " + std::to_string(wait) + " group" + (wait == 1 ? " was" : "s were") +
         " in flight, where the step keeps " + std::to_string(wait + 1) + " there at each wait, so the " + buffer +
         " read after it was still travelling. The loop's commits stopped before its waits did: a refill skipped "
         "where no tile is left (a guard around the load, or the commit inside its if) commits no group, and each "
         "wait<" + std::to_string(wait) + "> after it counts one group short. Commit a group every iteration, an "
         "empty one past the last tile, so that wait<" + std::to_string(wait) + "> always lands the " + buffer +
         " about to be read.";
}

std::string prologue_read_before_the_barrier(const Fault& fault, int prologue_commits, const std::string& buffer) {
  if (!fault.racing_copy || prologue_commits <= 0 || !fault.write) return "";
  const RacingCopy& copy = *fault.racing_copy;
  if (copy.landed_after_the_barrier) return "";
  // The copy came after the read (the fault is the copy's write), in a group of the
  // writer's prologue, while the reader had committed its whole prologue: no barrier stood
  // between the prologue's copies and the first reads, for a barrier there waits until
  // every thread has issued them.
  if (copy.group >= static_cast<unsigned long long>(prologue_commits) ||
      copy.reader_commits < static_cast<unsigned long long>(prologue_commits)) {
    return "";
  }
  return thread_text(fault.thread) + " issued its copy into the " + buffer + " in its commit group " +
         std::to_string(copy.group + 1) + ", one of the prologue's, after another thread had read that word: the "
         "reader had committed its " + std::to_string(copy.reader_commits) + " groups, waited, and read the first "
         "tile while this thread had not yet issued its part of it. A wait lands only its own thread's copies; "
         "the __syncthreads() after the prologue's wait, before the first reads, makes the others' visible too, "
         "and it is missing there.";
}

std::string operand_index_row_major(const Fault& fault, const FaultedArray& operand) {
  if (!operand.rows_only || !operand.thread_start || operand.col_step <= 0 || operand.k_tile <= 0) return "";
  if (fault.write || fault.thread[1] != 0 || fault.thread[2] != 0) return "";
  const long long offset = offset_of(fault, operand);
  const long long ld = operand.shape.rows;
  if (offset < ld * operand.shape.cols) return "";  // inside the array: the fault is elsewhere
  const std::optional<ThreadStart> start = operand.thread_start(fault.thread[0]);
  if (!start) return "";
  const Element origin = tile_origin(fault, operand);
  const long long k_tile_floats = static_cast<long long>(operand.k_tile) * ld;
  for (long long col = start->first_col; col < operand.k_tile; col += operand.col_step) {
    const long long row = start->first_row;
    if (row == col) continue;
    const long long k_tile_start = offset - origin.row - row * ld - col;
    if (k_tile_start < 0 || k_tile_start % k_tile_floats != 0) continue;
    return "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " +
           pair_text(fault.thread[0], fault.thread[1]) + " read " + operand.name + " at float " +
           std::to_string(offset) + " = its k-tile's start + " + std::to_string(row) + " * " + std::to_string(ld) +
           " + " + std::to_string(col) + ", for its element (" + std::to_string(row) + ", " + std::to_string(col) +
           ") of the tile: row * ld + col, the index of a row-major array. " + operand.name +
           " is column-major: element (row, col) lies at row + col * ld.";
  }
  return "";
}

std::string overlapping_writes_cause(const Fault& fault, const FaultedArray& array) {
  if (!fault.overlap) return "";
  const OverlappingWrite& overlap = *fault.overlap;
  const std::optional<long long> first = element_at(overlap.first_source, array);
  const std::optional<long long> second = element_at(overlap.source, array);
  if (!first || !second) return "";
  const long long rows = array.shape.rows;
  const Element first_element{*first % rows, *first / rows}, second_element{*second % rows, *second / rows};
  const Element origin = tile_origin(fault, array);
  const Element first_local{first_element.row - origin.row, first_element.col - origin.col};
  const Element second_local{second_element.row - origin.row, second_element.col - origin.col};
  const std::string word = (overlap.array.empty() ? std::string("the dynamic shared memory") : overlap.array) +
                           "[" + std::to_string(overlap.word) + "]";
  const std::string first_thread = thread_text(overlap.first_thread), second_thread = thread_text(fault.thread);
  const std::string block = "block " + pair_text(fault.block[0], fault.block[1]);
  // The rows and columns of the tile that lie inside the array.
  const long long tile_cols = array.rows_only ? array.shape.cols : array.shape.tile_cols;
  const long long valid_rows = std::min<long long>(array.shape.tile_rows, rows - origin.row);
  const long long valid_cols = std::min<long long>(tile_cols, array.shape.cols - origin.col);
  const auto outside = [&](const Element& local) {
    return local.row < 0 || local.row >= valid_rows || local.col < 0 || local.col >= valid_cols;
  };
  const std::string tile_text = block + "'s tile of " + array.name + " (rows " + std::to_string(origin.row) + " to " +
                                std::to_string(origin.row + valid_rows - 1) + ", columns " +
                                std::to_string(origin.col) + " to " + std::to_string(origin.col + valid_cols - 1) + ")";
  for (const bool second_is_out : {true, false}) {
    const Element& local = second_is_out ? second_local : first_local;
    if (!outside(local)) continue;
    const Element& element = second_is_out ? second_element : first_element;
    const bool row_past = local.row == valid_rows && local.col >= 0 && local.col < valid_cols;
    const bool col_past = local.col == valid_cols && local.row >= 0 && local.row < valid_rows;
    return (second_is_out ? second_thread : first_thread) + " copied element " +
           pair_text(element.row, element.col) + " of " + array.name + " into " + word + ", outside " + tile_text +
           (row_past || col_past
                ? std::string(": one past its last ") + (row_past ? "row" : "column") +
                      ", where a loop bound one past the tile (`<=` where `<` is meant) reaches"
                : std::string(": the index of its source leaves the tile")) +
           ", and its copy lands on the word another thread filled with an element of the tile.";
  }
  const std::string pair_of_threads = first_thread + " (" + nth_text(overlap.first_earlier_accesses) + ") and " +
                                      second_thread + " (" + nth_text(fault.earlier_accesses) + ")";
  if (*first == *second) {
    if (std::string cause = coordinate_counted_twice(fault, array, first_local); !cause.empty()) return cause;
    // The element both brought is the partial tile's last row (column), and one of the two
    // threads' walks over the whole tile stood past it at that copy: a coordinate clamped to
    // the edge (min(row, valid_rows - 1)) instead of the loop bounded by it.
    const bool last_row = valid_rows < array.shape.tile_rows && first_local.row == valid_rows - 1;
    const bool last_col = valid_cols < tile_cols && first_local.col == valid_cols - 1;
    if ((last_row || last_col) && array.thread_start && array.row_step > 0 && array.col_step > 0) {
      const std::pair<std::array<unsigned, 3>, unsigned long long> walkers[] = {
          {fault.thread, fault.earlier_accesses}, {overlap.first_thread, overlap.first_earlier_accesses}};
      for (const auto& [thread, earlier] : walkers) {
        const std::optional<ThreadStart> start = array.thread_start(thread[0]);
        if (!start || earlier % static_cast<unsigned long long>(array.accesses_per_element) != 0) continue;
        const std::optional<Element> at =
            walk_element(*start, array.row_step, array.col_step, array.shape.tile_rows, tile_cols,
                         earlier / static_cast<unsigned long long>(array.accesses_per_element));
        if (!at) continue;
        const bool clamped_row = last_row && at->row >= valid_rows && at->col == first_local.col;
        const bool clamped_col = last_col && at->col >= valid_cols && at->row == first_local.row;
        if (!clamped_row && !clamped_col) continue;
        const std::string side = clamped_row ? "row" : "column";
        return pair_of_threads + " both copied element " + pair_text(first_local.row, first_local.col) + " of " +
               tile_text + " into " + word + ", its last " + side + " inside the array; " + thread_text(thread) +
               "'s walk over the tile was at " + pair_text(at->row, at->col) + ", past that " + side +
               ": its " + side + " was clamped to the edge (the last valid " + side + ") where the loop should stop "
               "at it. Bound the loops by valid_rows and valid_cols, so that a thread past the edge copies "
               "nothing, instead of moving its index back onto an element another thread copies.";
      }
    }
    std::string cause = pair_of_threads + " both copied element " + pair_text(first_local.row, first_local.col) +
                        " of " + tile_text + " into " + word +
                        ": two threads meant the same element, so their (row, col) overlap and some other "
                        "element is copied by no thread. The destination index is not at fault; ";
    if (overlap.first_earlier_accesses == 0 && fault.earlier_accesses == 0) {
      // A loop that counts from 0 where it starts at the thread's coordinate puts every
      // thread of a row (or column) of the layout on that row's (column's) first element.
      const auto starts_at_0 = [&](bool col) -> bool {
        if (col ? first_local.col != 0 : first_local.row != 0) return false;
        if (!array.thread_start) return true;  // the threads' starts unknown: possible
        const std::optional<ThreadStart> a = array.thread_start(overlap.first_thread[0]);
        const std::optional<ThreadStart> b = array.thread_start(fault.thread[0]);
        return a && b && (col ? a->first_row == b->first_row && a->first_col != b->first_col
                              : a->first_col == b->first_col && a->first_row != b->first_row);
      };
      const bool from_0 = starts_at_0(true) || starts_at_0(false);
      const std::string extent = "a coordinate taken with the wrong extent (the row and column of a non-square thread "
                                 "layout exchanged, a division or remainder by the wrong count)";
      if (!from_0) {
        return cause + "both threads start at that element, so the (row, col) each computes from threadIdx "
                       "coincide: " + extent + ".";
      }
      const std::string loop = starts_at_0(true) ? "column" : "row";
      return cause + "both threads start at that element: either the " + loop + " loop counts from 0 where it "
                     "starts at the thread's " + loop + " (thread_coord." + (loop == "column" ? "col" : "row") +
                     "), or the (row, col) each computes from threadIdx coincide, " + extent + ".";
    }
    return cause + "either a loop's step is too small (less than the rows or columns that the block's threads "
                   "cover together, or the other dimension's count), or the (row, col) a thread starts from, "
                   "computed from threadIdx, puts it on another thread's elements (the row and column of a "
                   "non-square thread layout exchanged).";
  }
  return pair_of_threads + " copied two different elements of " + tile_text + ", " +
         pair_text(first_local.row, first_local.col) + " and " + pair_text(second_local.row, second_local.col) +
         ", into one word, " + word +
         ": the threads copy the right elements, but the shared index puts both on one word." +
         shared_index_fit(first_local, second_local, static_cast<long long>(overlap.word), array);
}

std::string span_overlap_cause(const Fault& fault, const float* input, int n, int tile, int width, int span_pad,
                               bool clipped) {
  if (!fault.overlap || tile <= 0) return "";
  const OverlappingWrite& overlap = *fault.overlap;
  const int pad = span_pad >= 0 ? span_pad : (width - 1) / 2;  // the span's elements before its tile
  const long long span = tile + 2LL * pad;
  const auto word = static_cast<long long>(overlap.word);
  const long long tile_start = static_cast<long long>(fault.block[0]) * tile;
  const long long span_start = tile_start - pad;
  const FaultedArray array{input, {n, 1, tile, 1}, false, "the input"};
  const std::string word_text = overlap.array + "[" + std::to_string(overlap.word) + "]";
  for (const bool second : {true, false}) {
    const std::optional<long long> element = element_at(second ? overlap.source : overlap.first_source, array);
    if (!element) continue;
    const std::string copier = thread_text(second ? fault.thread : overlap.first_thread);
    // Where this copy puts input[e] at word w, its span starts at e - w, used_pad before the tile.
    const long long used_pad = tile_start - (*element - word);
    const std::string put = copier + " of block " + std::to_string(fault.block[0]) + " copied input[" +
                            std::to_string(*element) + "] into " + word_text;
    if (used_pad == width && width != pad) {
      return put + ": a span that starts " + std::to_string(width) + " elements before the tile (tile * " +
             std::to_string(tile) + " = " + std::to_string(tile_start) + "), the width, where the span starts " +
             std::to_string(pad) + " before it (the halo, (width - 1) / 2): the Halo parameter was given the width, so the span runs " +
             "past its buffer onto the words another copy writes.";
    }
    if (word >= span) {
      // Beyond the first buffer: a copy of the block's first tile that ran on past it.
      if (used_pad != pad) continue;
      // A span clipped at the array's start begins -span_start words into its buffer: a
      // copy of the whole span's length from there overruns it by that much.
      if (clipped && span_start < 0 && word - span < -span_start) {
        return put + ", word " + std::to_string(word) + " of the span of the block's first tile, which has " +
               std::to_string(span) + " words: that span starts at input[" + std::to_string(span_start) +
               "], before the array, so its copy begins at input[0], " + std::to_string(-span_start) +
               " words into the buffer, and a copy of the whole span's length from there runs past the buffer's "
               "end. The copy's size must shrink with the span where the span is clipped: the elements inside, "
               "last - first, not the whole span.";
      }
      return put + ", word " + std::to_string(word) + " of the span of the block's first tile, which has " +
             std::to_string(span) + " words (tile " + std::to_string(tile) + " + 2 * " + std::to_string(pad) +
             "): the copy ran past its buffer onto the words another copy writes. The span copied is longer than "
             "Tile + 2 * Halo: is the Tile parameter given the span's length, or the halo counted twice?";
    }
    const long long expected = span_start + word;
    if (*element == expected) continue;
    const long long distance = *element - expected;
    const std::string observed = put + ", which holds input[" + std::to_string(expected) +
                                 "] in the span of the block's first tile (it starts at " + std::to_string(span_start) +
                                 " = tile * " + std::to_string(tile) + " - " + std::to_string(pad) +
                                 "), so the copy is " + std::to_string(distance) +
                                 " elements off and lands on a word another thread wrote";
    if (distance == pad || distance == -pad) {
      return observed + ": the " + std::to_string(pad) + " elements that the span starts before its tile. Word j "
             "of the span holds input[span_start + j]: a copy of elements from `first` goes to the span at "
             "(first - span_start), and the source counts from span_start = tile_start - " + std::to_string(pad) + ".";
    }
    // The other write brought the first tile's own element: this copy belongs to a later
    // tile's span, at word j of it, so that span's buffer starts at word - j, inside the
    // first buffer (0 is the first buffer itself). Its tile is a multiple of the tile whose
    // span holds the element.
    const std::optional<long long> other = element_at(second ? overlap.first_source : overlap.source, array);
    std::vector<long long> starts_inside;
    if (other && *other == expected) {
      for (long long later = (*element + pad) / tile * tile; later > tile_start && *element < later - pad + span;
           later -= tile) {
        const long long start = word - (*element - (later - pad));
        if (start > 0 && start < span) starts_inside.push_back(start);
      }
    }
    const bool whole_tiles = distance % tile == 0 && distance > 0;
    const std::string same_buffer =
        std::to_string(distance / tile) + " whole tile" + (distance / tile > 1 ? "s" : "") +
        ", a later tile of this block copied into the buffer that its first tile fills, before any barrier let the "
        "first be read. The next tile goes to the other buffer (stage ^ 1), not the one being computed.";
    if (!starts_inside.empty() && starts_inside.size() <= 2) {
      std::string starts = std::to_string(starts_inside.front());
      if (starts_inside.size() == 2) starts += " or " + std::to_string(starts_inside.back());
      const std::string overlapping =
          "the copy belongs to a later tile's span, and puts it in a buffer that starts at word " + starts +
          " of the first one, which is " + std::to_string(span) + " words long (tile " + std::to_string(tile) +
          " + 2 * " + std::to_string(pad) + "): the buffers overlap. In a flat array of buffers, buffer s starts "
          "s * " + std::to_string(span) + " words in, the whole span's length (not the tile's, nor tile + one halo).";
      if (whole_tiles) return observed + ". Two readings fit: " + same_buffer + " Or " + overlapping;
      return observed + ": " + overlapping;
    }
    if (whole_tiles) return observed + ": " + same_buffer;
    return observed + ".";
  }
  return "";
}

std::string span_read_at_the_global_index(const Fault& fault, int tile, int width) {
  if (!fault.shared_overrun || fault.write || tile <= 0 || width <= 0) return "";
  if (fault.block[0] == 0 || fault.block[1] != 0 || fault.thread[1] != 0 || fault.thread[2] != 0) return "";
  const SharedOverrun& overrun = *fault.shared_overrun;
  const long long tile_start = static_cast<long long>(fault.block[0]) * tile;
  const long long first = tile_start + fault.thread[0];  // the output's global index
  const std::size_t k = overrun.earlier_words.size();
  if (k >= static_cast<std::size_t>(width) || overrun.word != first + static_cast<long long>(k)) return "";
  for (std::size_t i = 0; i < k; ++i) {
    if (overrun.earlier_words[i] != first + static_cast<long long>(i)) return "";
  }
  return "block " + std::to_string(fault.block[0]) + "'s thread " + std::to_string(fault.thread[0]) + " read word " +
         std::to_string(overrun.word) + " of " + overrun.array + " for its weight " + std::to_string(k) + ": " +
         std::to_string(first) + " + " + std::to_string(k) + ", its output's index in the whole array (tile_start " +
         std::to_string(tile_start) + " + " + std::to_string(fault.thread[0]) + "), where the span counts from its "
         "own first element: the weights of output tile_start + t read " + overrun.array + "[t + k].";
}

std::string span_read_a_halo_further(const Fault& fault, int width, int pad) {
  if (!fault.shared_overrun || fault.write || width <= 0 || pad <= 0) return "";
  if (fault.thread[1] != 0 || fault.thread[2] != 0) return "";
  const SharedOverrun& overrun = *fault.shared_overrun;
  const long long thread = fault.thread[0];
  const std::size_t k = overrun.earlier_words.size();
  const long long first = thread + pad;  // where this thread's taps began
  if (k >= static_cast<std::size_t>(width) || overrun.word != first + static_cast<long long>(k)) return "";
  for (std::size_t i = 0; i < k; ++i) {
    if (overrun.earlier_words[i] != first + static_cast<long long>(i)) return "";
  }
  return "thread " + std::to_string(thread) + " read word " + std::to_string(overrun.word) + " of " + overrun.array +
         " for its weight " + std::to_string(k) + ": its taps began at word " + std::to_string(first) + " = " +
         std::to_string(thread) + " + " + std::to_string(pad) + ", where the weights of output t read " +
         overrun.array + "[t + k] from t: the span already starts the halo (" + std::to_string(pad) +
         ") before the tile, so output t's window is words t to t + " + std::to_string(2 * pad) +
         ". The halo is counted twice: once by the span's start, once more in the read index.";
}

std::string leading_dimension_of_a_fault(const Fault& fault, const FaultedArray& array,
                                         const std::vector<std::pair<int, std::string>>& candidates) {
  if (array.rows_only || !element_of(fault, array)) return "";
  const ArrayShape& shape = array.shape;
  const Element origin = tile_origin(fault, array);
  if (!tile_is_whole(origin, array)) return "";
  // One past the tile's edge, a bound `<=` reaches the fault as well: no evidence here.
  if (one_past_the_tile(local_to_tile(fault, array, origin), array)) return "";
  // A fault inside the array is no index past it (a copy's right source, where its
  // destination faulted).
  const long long at = offset_of(fault, array);
  if (at >= 0 && at < static_cast<long long>(shape.rows) * shape.cols) return "";
  const long long from_tile = at - (origin.row + origin.col * static_cast<long long>(shape.rows));
  std::string found;
  int fits = 0;
  std::vector<int> tried;
  for (const auto& [ld, name] : candidates) {
    if (ld <= 0 || ld == shape.rows || from_tile < 0) continue;
    if (std::find(tried.begin(), tried.end(), ld) != tried.end()) continue;
    tried.push_back(ld);
    const long long row = from_tile % ld, col = from_tile / ld;
    if (row >= shape.tile_rows || col >= shape.tile_cols) continue;
    // Where the step gives the thread's walk, the element must lie on it.
    if (array.thread_start && array.row_step > 0 && array.col_step > 0) {
      const std::optional<ThreadStart> start = array.thread_start(fault.thread[0]);
      if (!start || row < start->first_row || col < start->first_col || (row - start->first_row) % array.row_step != 0 ||
          (col - start->first_col) % array.col_step != 0) {
        continue;
      }
    }
    if (++fits > 1) return "";  // two readings: no evidence for either
    found = "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " +
            pair_text(fault.thread[0], fault.thread[1]) + " " + (fault.write ? "wrote" : "read") + " " +
            std::to_string(from_tile) + " floats from its tile's first element of " + array.name +
            ", past the array's end: that is element " + pair_text(row, col) + " of the tile with " + std::to_string(ld) +
            " floats a column, " + name + ", where " + array.name + "'s columns are " + std::to_string(shape.rows) +
            " floats apart. Is " + name + " used as " + array.name + "'s leading dimension?";
  }
  return found;
}

namespace {

// How many elements a thread's walk of its tile reaches under the tile's valid bounds.
unsigned long long walk_length(const ThreadStart& start, int row_step, int col_step, long long row_bound,
                               long long col_bound) {
  if (start.first_row >= row_bound || start.first_col >= col_bound) return 0;
  const auto steps = [](long long first, long long bound, int step) {
    return static_cast<unsigned long long>((bound - first + step - 1) / step);
  };
  return steps(start.first_row, row_bound, row_step) * steps(start.first_col, col_bound, col_step);
}

// The number of the faulting store in its thread's store walk (from 0): after the
// thread's copies of its walk of the input, or each after its element's read.
std::optional<unsigned long long> store_number(const Fault& fault, const FaultedArray& walked_input) {
  if (!fault.write || fault.thread[1] != 0 || fault.thread[2] != 0) return std::nullopt;
  if (!walked_input.thread_start || walked_input.row_step <= 0 || walked_input.col_step <= 0) return std::nullopt;
  if (walked_input.accesses_per_element == 2) {
    if (fault.earlier_accesses % 2 != 1) return std::nullopt;
    return fault.earlier_accesses / 2;
  }
  if (walked_input.accesses_per_element != 1) return std::nullopt;
  const std::optional<ThreadStart> start = walked_input.thread_start(fault.thread[0]);
  if (!start) return std::nullopt;
  const Element origin = tile_origin(fault, walked_input);
  const ArrayShape& shape = walked_input.shape;
  const unsigned long long copies =
      walk_length(*start, walked_input.row_step, walked_input.col_step,
                  std::min<long long>(shape.tile_rows, shape.rows - origin.row),
                  std::min<long long>(shape.tile_cols, shape.cols - origin.col));
  if (fault.earlier_accesses < copies) return std::nullopt;
  return fault.earlier_accesses - copies;
}

}  // namespace

std::string store_index_cause(const Fault& fault, const FaultedArray& walked_input, const FaultedArray& output,
                              const StoreWalk& store_walk,
                              const std::vector<std::pair<int, std::string>>& candidates) {
  const std::optional<Element> element = element_of(fault, output);
  if (!store_walk || output.rows_only || !element) return "";
  const std::optional<unsigned long long> number = store_number(fault, walked_input);
  if (!number) return "";
  const ArrayShape& shape = output.shape;
  const Element origin = tile_origin(fault, output);
  const long long valid_rows = std::min<long long>(shape.tile_rows, shape.rows - origin.row);
  const long long valid_cols = std::min<long long>(shape.tile_cols, shape.cols - origin.col);
  if (valid_rows <= 0 || valid_cols <= 0) return "";
  const std::vector<std::pair<long long, long long>> walk = store_walk(fault.thread[0], valid_rows, valid_cols);
  if (*number >= walk.size()) return "";
  const auto [row, col] = walk[*number];
  const long long ld = shape.rows;
  const long long at = offset_of(fault, output);
  const long long tile_first = origin.row + origin.col * ld;
  // The index mistakes, each with the offset it gives the element the walk meant.
  std::vector<std::string> fits;
  if (row != col && tile_first + col + row * ld == at) {
    fits.push_back("the row and the column exchanged in the store's index (layout(col, row) where layout(row, col) "
                   "is meant, or the coordinates swapped in the offset)");
  }
  std::vector<long long> tried{ld};
  for (const auto& [other_ld, name] : candidates) {
    if (other_ld <= 0 || std::find(tried.begin(), tried.end(), other_ld) != tried.end()) continue;
    tried.push_back(other_ld);
    if (tile_first + row + col * other_ld == at) {
      fits.push_back(name + " (" + std::to_string(other_ld) + ") as the leading dimension in the store's index, "
                     "where the output's is " + std::to_string(ld));
    } else if (origin.row + origin.col * other_ld + row + col * other_ld == at) {
      fits.push_back(name + " (" + std::to_string(other_ld) + ") as the output's leading dimension, in the tile's "
                     "pointer and in the store's index, where the output's is " + std::to_string(ld));
    }
  }
  if (fits.empty()) return "";
  std::string ways = fits.front();
  for (std::size_t i = 1; i < fits.size(); ++i) ways += (i + 1 == fits.size() ? ", or " : ", ") + fits[i];
  return "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " +
         pair_text(fault.thread[0], fault.thread[1]) + "'s store number " + std::to_string(*number + 1) +
         " is meant for element " + pair_text(origin.row + row, origin.col + col) + " of " + output.name + " ((" +
         std::to_string(row) + ", " + std::to_string(col) + ") of its tile), and it wrote " +
         pair_text(element->row, element->col) + " instead, outside the output. That is where the element lands with " +
         (fits.size() == 1 ? "" : "either ") + ways + ".";
}

std::string past_the_end_of_a_vector(const Fault& fault, const FaultedArray& array) {
  if (array.shape.cols != 1 || fault.write || fault.bytes == 0) return "";
  const long long length = array.shape.rows;
  const long long first = offset_of(fault, array);
  const long long last = first + (fault.bytes + sizeof(float) - 1) / sizeof(float) - 1;
  if (fault.bytes <= sizeof(float) && first == length) {
    return "a " + std::to_string(fault.bytes) + "-byte read of element " + std::to_string(first) + " of " + array.name +
           ", the first past its end (it has " + std::to_string(length) + ", 0 to " + std::to_string(length - 1) +
           "): a loop bound that lets the index reach the length. Either `<=` where `<` is meant, or a bound "
           "other than the array's valid count: the end of a vector (first + 4) where the array ends inside it.";
  }
  // A vector (8 or 16 bytes), not a bulk copy, whose size is the tile's, not a vector's.
  if (fault.bytes > sizeof(float) && fault.bytes <= 16 && first < length && last >= length) {
    return "a " + std::to_string(fault.bytes) + "-byte read of elements " + std::to_string(first) + " to " +
           std::to_string(last) + " of " + array.name + ", which has " + std::to_string(length) + ": only " +
           std::to_string(length - first) + " of them lie inside, and a vector copy addresses all of its bytes "
           "whatever its source size. Either the test that sends a vector to the wide copy lets a partial one "
           "through (all of its floats must lie inside: first + " + std::to_string(fault.bytes / sizeof(float)) +
           " <= the valid count, both counted from the same start), or a partial vector has no path of its own: "
           "copy the floats of a partial vector with 4-byte copies.";
  }
  return "";
}

std::string other_operands_valid_rows(const Fault& fault, const FaultedArray& operand, const FaultedArray& other) {
  if (!operand.rows_only || !other.rows_only) return "";
  const long long rows = operand.shape.rows, cols = operand.shape.cols;
  const long long offset = offset_of(fault, operand);
  if (offset < rows * cols || offset >= rows * cols + other.shape.tile_rows) return "";
  // The block's tiles: B's along the grid's y, A's along its x.
  const long long tile_first = static_cast<long long>(operand.grid_transposed ? fault.block[1] : fault.block[0]) *
                               operand.shape.tile_rows;
  const long long other_first = static_cast<long long>(other.grid_transposed ? fault.block[1] : fault.block[0]) *
                                other.shape.tile_rows;
  const long long row = offset - (cols - 1) * rows - tile_first;  // in the tile, in the last column
  const long long valid = std::min<long long>(operand.shape.tile_rows, rows - tile_first);
  const long long other_valid = std::min<long long>(other.shape.tile_rows, other.shape.rows - other_first);
  if (row < valid || row >= other_valid || valid == other_valid) return "";
  const std::string observed =
      "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " + pair_text(fault.thread[0], fault.thread[1]) +
      " read row " + std::to_string(row) + " of its tile of " + operand.name + " in the last column, past " +
      operand.name + "'s end: its tile has " + std::to_string(valid) + " valid rows, and " + other.name + "'s has " +
      std::to_string(other_valid) + ". ";
  // No bound on the rows at all (the whole tile's) reaches every row past the valid ones
  // too: the fault alone cannot tell the two apart.
  const std::string other_bound = operand.name + "'s tile is loaded with " + other.name +
                                  "'s valid rows or with no bound on its rows (the whole tile's " +
                                  std::to_string(operand.shape.tile_rows) + "): bound it by its own (valid_" +
                                  operand.leading_dimension + ")";
  // A quad's thread whose coordinate, not its first row, is under the valid rows: a test of
  // the coordinate where the row is meant lets it through as well.
  if (operand.thread_start && fault.thread[1] == 0) {
    if (const std::optional<ThreadStart> start = operand.thread_start(fault.thread[0]);
        start && start->first_row == row && start->coord_row != start->first_row && start->coord_row < valid) {
      return observed + "Either the row test compares the thread's coordinate (thread_coord.row = " +
             std::to_string(start->coord_row) + ") with the valid rows where its first row (" +
             std::to_string(start->first_row) + ") is meant, or " + other_bound + ".";
    }
  }
  return observed + other_bound + ".";
}

std::string first_access_one_below_its_start(const Fault& fault, const FaultedArray& array) {
  const long long element = offset_of(fault, array);
  if (element >= 0 || fault.earlier_accesses != 0 || !array.thread_start) return "";
  const std::optional<ThreadStart> start = array.thread_start(fault.thread[0]);
  if (!start) return "";
  const Element origin = tile_origin(fault, array);
  const long long rows = array.shape.rows;
  const long long first = origin.row + start->first_row + (origin.col + start->first_col) * rows;
  std::string side;
  if (element == first - 1 && start->first_row == 0) side = "row";
  if (element == first - rows && start->first_col == 0 && array.shape.cols > 1) side = "column";
  if (side.empty()) return "";
  return "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " + std::to_string(fault.thread[0]) +
         " made its first access at element " + std::to_string(element) + " of " + array.name +
         ", before its start, where its first element is " + pair_text(start->first_row, start->first_col) +
         " of the tile: its " + side + " index is one less, " + side + " -1. A loop counted from 1, with `- 1` in "
         "the index, must start at the thread's coordinate + 1; or, counted from the coordinate, index without "
         "the `- 1`.";
}

std::string start_counted_in_bytes(const Fault& fault, const FaultedArray& array) {
  const long long length = array.shape.rows, tile = array.shape.tile_rows;
  if (array.shape.cols != 1 || tile <= 0) return "";
  const long long first = offset_of(fault, array);
  const long long start = first / static_cast<long long>(sizeof(float));
  if (first < length || first % static_cast<long long>(sizeof(float)) != 0 || start % tile != 0 || start >= length) {
    return "";
  }
  const bool whole = length % tile == 0;
  return "the copy starts at element " + std::to_string(first) + " of " + array.name + ", past its end (it has " +
         std::to_string(length) + "), which is " + std::to_string(sizeof(float)) + " times the first element of tile " +
         std::to_string(start / tile) + " (" + std::to_string(start) + "): the tile's start counted in bytes, "
         "sizeof(float) * first, and added to a float pointer, which counts floats already (gmem_in + first)." +
         (whole ? " Every tile of this array is whole, so the last tile's size is not at fault." : "");
}

std::string copy_wider_than_the_step(const Fault& fault, ErrorKind kind, unsigned step_bytes) {
  if (kind != ErrorKind::misaligned || fault.bytes == 0 || step_bytes == 0 || fault.bytes <= step_bytes) return "";
  return "a cp.async of " + std::to_string(fault.bytes) + " bytes where each copy of this step moves one float, " +
         std::to_string(step_bytes) + " bytes: wb::cp_async (or wb::cp_async_ca<4>) copies a float; "
         "wb::cp_async_cg always copies 16 bytes and wb::cp_async_ca<N> copies N, which also need addresses "
         "at multiples of N.";
}

namespace {

// The offsets outside a column-major array of `shape` (sorted, each once) that the stores
// of every tile reach: its rows below `row_bound` and columns below `col_bound`, counted
// from the tile's origin, whose row and column are taken `row_times` and `col_times`
// times; `valid_only` keeps each tile's stores to its part inside the array as well.
std::vector<long long> stores_outside(const ArrayShape& shape, long long row_bound, long long col_bound,
                                      int row_times = 1, int col_times = 1, bool valid_only = false) {
  const long long size = static_cast<long long>(shape.rows) * shape.cols;
  std::vector<long long> reached;
  for (long long tile_col = 0; tile_col * shape.tile_cols < shape.cols; ++tile_col) {
    for (long long tile_row = 0; tile_row * shape.tile_rows < shape.rows; ++tile_row) {
      const long long origin_row = tile_row * shape.tile_rows, origin_col = tile_col * shape.tile_cols;
      const long long rows = std::min<long long>({shape.tile_rows, row_bound, valid_only ? shape.rows - origin_row : row_bound});
      const long long cols = std::min<long long>({shape.tile_cols, col_bound, valid_only ? shape.cols - origin_col : col_bound});
      for (long long col = 0; col < cols; ++col) {
        for (long long row = 0; row < rows; ++row) {
          const long long offset = row_times * origin_row + row + (col_times * origin_col + col) * shape.rows;
          if (offset < 0 || offset >= size) reached.push_back(offset);
        }
      }
    }
  }
  std::sort(reached.begin(), reached.end());
  reached.erase(std::unique(reached.begin(), reached.end()), reached.end());
  return reached;
}

}  // namespace

std::string store_origin_counted_twice(const std::vector<long long>& outside, const ArrayShape& shape) {
  if (outside.empty() || shape.tile_rows <= 0 || shape.tile_cols <= 0) return "";
  struct Model {
    int row_times, col_times;
    const char* part;
  };
  const Model models[] = {{2, 1, "row origin (tile_row)"}, {1, 2, "column origin (tile_col)"}, {2, 2, "origin"}};
  const Model* fit = nullptr;
  for (const Model& model : models) {
    if (stores_outside(shape, shape.tile_rows, shape.tile_cols, model.row_times, model.col_times, true) != outside) {
      continue;
    }
    if (fit != nullptr) return "";  // two models reach the same elements: neither is singled out
    fit = &model;
  }
  if (fit == nullptr) return "";
  return "the " + std::to_string(outside.size()) + " elements outside the output are exactly those that the stores "
         "reach with the tile's " + fit->part + " counted twice: a store's index that already counts from the "
         "tile's first element (a pointer to the tile's origin) given the global row or column too. Index from "
         "the tile's pointer with the row and column inside the tile, or from the array's start with the global "
         "ones, not both.";
}

std::string store_one_past_the_tile(const std::vector<long long>& outside, const std::vector<float>& output,
                                    const std::vector<double>& reference, const ArrayShape& shape) {
  const long long size = static_cast<long long>(shape.rows) * shape.cols;
  if (outside.empty() || outside.front() != size) return "";
  for (std::size_t i = 0; i < outside.size(); ++i) {
    if (outside[i] != size + static_cast<long long>(i)) return "";
  }
  const int last_rows = shape.rows - (shape.rows - 1) / shape.tile_rows * shape.tile_rows;
  const bool row_past = outside.size() == 1 && shape.rows % shape.tile_rows != 0;
  const bool col_past = !row_past && outside.size() == static_cast<std::size_t>(last_rows) && shape.cols > 1 &&
                        shape.cols % shape.tile_cols != 0;
  // Both bounds one past: the column after the last, every row of it, and one more (the
  // row past the last of that column).
  const bool both_past = !row_past && !col_past && outside.size() == static_cast<std::size_t>(shape.rows) + 1 &&
                         shape.rows % shape.tile_rows != 0 && shape.cols % shape.tile_cols != 0 && shape.cols > 1;
  if (!row_past && !col_past && !both_past) {
    // Stores with no bound, or kept to the array's extent where the tile's valid extent is
    // meant (a tile's (row, col), counted from its origin, tested against rows and cols):
    // named where the offsets past the end are exactly those such stores reach, both where
    // the two reach the same (the array at least a tile each way).
    const bool no_bound = stores_outside(shape, shape.tile_rows, shape.tile_cols) == outside;
    const bool array_bound = stores_outside(shape, shape.rows, shape.cols) == outside;
    if (!no_bound && !array_bound) return "";
    const std::string how = no_bound && array_bound
                                ? "stores with no bound, or bounded by the array's extent (a tile's (row, col), counted "
                                  "from its origin, tested against rows and cols), reach"
                            : no_bound ? "stores with no bound reach"
                                       : "stores bounded by the array's extent reach: a tile's (row, col), counted "
                                         "from its origin, tested against rows and cols";
    return "the " + std::to_string(outside.size()) + " elements past the output's end are exactly those that " + how +
           ". The tiles at the edges then store past the array: keep each store to the tile's valid part, row < "
           "valid_rows and col < valid_cols.";
  }
  // Inside, only what such a store overwrote: a tile's first row (the row past the tile
  // above, or past a column's end) or its first column.
  for (std::size_t i = 0; i < output.size() && i < reference.size(); ++i) {
    if (static_cast<double>(output[i]) == reference[i]) continue;
    const int row = static_cast<int>(i % static_cast<std::size_t>(shape.rows));
    const int col = static_cast<int>(i / static_cast<std::size_t>(shape.rows));
    const bool first_row = row % shape.tile_rows == 0, first_col = col % shape.tile_cols == 0;
    if (row_past ? !first_row : col_past ? !first_col : !first_row && !first_col) return "";
  }
  if (both_past) {
    return "the " + std::to_string(outside.size()) + " elements past the output's end are the column after its "
           "last and one more, where row " + std::to_string(shape.rows) + " of that column would be: the stores "
           "went one column past the tiles' last (valid) column and one row past their last row. Bounds that let "
           "the row reach valid_rows and the column reach valid_cols (`<=` where `<` is meant, on both) do this.";
  }
  if (row_past) {
    return "the one element past the output's end is where row " + std::to_string(shape.rows) +
           " of the last column would be: a store of the tiles at the bottom edge went one row past their last "
           "(valid) row, and in the other columns that row lands on the next column's first element. A bound "
           "that lets the row reach the tile's valid rows (`<=` where `<` is meant) does this.";
  }
  return "the " + std::to_string(outside.size()) + " elements past the output's end are the column after its "
         "last: a store of the tiles at the right edge went one column past their last (valid) column. A bound "
         "that lets the column reach the tile's valid columns (`<=` where `<` is meant) does this.";
}

namespace {

// A shared destination whose byte offset is the float offset the copy's element has in a
// tile layout: an index in floats added to a byte pointer (char*), where every float
// counts sizeof(float) bytes. The whole index (row + col * stride) or its column's part
// alone (a row in bytes already) taken as bytes; "" where neither lands there.
// The column strides a shared index may have used, each with its name: the step's layouts'
// and the tile's rows.
std::vector<std::pair<long long, std::string>> strides_to_try(const std::vector<SharedLayout>& layouts,
                                                              long long tile_rows) {
  std::vector<std::pair<long long, std::string>> strides;
  for (const SharedLayout& layout : layouts) strides.emplace_back(layout.stride, "the stride of " + layout.name);
  strides.emplace_back(tile_rows, "the tile's rows");
  return strides;
}

std::string floats_counted_as_bytes(const Fault& fault, const Element& local, const std::string& array_name,
                                    const std::vector<SharedLayout>& layouts, long long tile_rows) {
  if (!fault.destination || (local.row == 0 && local.col == 0)) return "";
  const long long byte = static_cast<long long>(fault.destination->word) * 4 +
                         static_cast<long long>(reinterpret_cast<std::uintptr_t>(fault.address) % 4);
  const std::string element = "the " + std::to_string(fault.bytes) + "-byte copy of element " +
                              pair_text(local.row, local.col) + " of block " +
                              pair_text(fault.block[0], fault.block[1]) + "'s tile went to byte " +
                              std::to_string(byte) + " of " + array_name;
  const std::string advice = " On a char* every float counts sizeof(float) bytes: multiply the float offset by 4 (or "
                             "index the float array itself, &tile[index], and let the pointer's type count the bytes).";
  // A 16-byte copy's float index a quarter of the element's is the same address: the
  // index counted in quads (a float4 index) on a float pointer. Where it fits, both are
  // named: the address cannot tell them apart.
  const auto in_quads_too = [&](long long floats) {
    return fault.bytes == 16 && floats % 4 == 0 && byte == floats;
  };
  const std::string quads = "its index counted in quads (a float4 index, a quarter of the element's) on a float "
                            "pointer, which counts floats";
  // In column 0 no stride shows: the row alone, in floats, taken as bytes.
  if (local.col == 0) {
    if (byte != local.row) return "";
    const std::string as_bytes = "its row, " + std::to_string(local.row) + " floats, added to a byte pointer as " +
                                 std::to_string(local.row) + " bytes, where the element lies at byte " +
                                 std::to_string(local.row * 4);
    if (in_quads_too(local.row)) {
      return element + ": either " + as_bytes + ", or " + quads + " (row " + std::to_string(local.row / 4) +
             " where " + std::to_string(local.row) + " is meant): both put the copy there." + advice;
    }
    return element + ": " + as_bytes + "." + advice;
  }
  for (const auto& [stride, name] : strides_to_try(layouts, tile_rows)) {
    const long long floats = local.row + local.col * stride;
    const bool whole = byte == floats;
    const bool column_part = byte == local.row * 4 + local.col * stride;
    if (!whole && !column_part) continue;
    const std::string counted = whole ? std::to_string(local.row) + " + " + std::to_string(local.col) + " * " +
                                            std::to_string(stride)
                                      : std::to_string(local.row) + " * 4 + " + std::to_string(local.col) + " * " +
                                            std::to_string(stride);
    const std::string as_bytes =
        (whole ? "its index in floats, row + col * " + std::to_string(stride) + " (" + name + "),"
               : "its column's offset in floats, col * " + std::to_string(stride) + " (" + name + "),") +
        std::string(" added to a byte pointer, where the element lies at byte ") + std::to_string(floats * 4);
    // The rival that reaches the same byte: the whole index in quads, or the column's
    // stride in quads (stride / 4 floats a column) on a float pointer.
    std::string rival;
    if (whole && in_quads_too(floats)) {
      rival = quads;
    } else if (!whole && stride % 4 == 0) {
      rival = "the columns' stride counted in quads, col * " + std::to_string(stride / 4) +
              ", on a float pointer, which counts floats";
    }
    if (!rival.empty()) {
      return element + " = " + counted + ": either " + as_bytes + ", or " + rival + ": both put the copy there." +
             advice;
    }
    return element + " = " + counted + ": " + as_bytes + "." + advice;
  }
  return "";
}

}  // namespace

std::string misaligned_destination_cause(const Fault& fault, const FaultedArray& array,
                                         const std::vector<SharedLayout>& layouts) {
  if (!fault.destination || fault.bytes == 0) return "";
  const MisalignedDestination& destination = *fault.destination;
  Fault source_access = fault;
  source_access.address = destination.source;
  const std::optional<Element> element = element_of(source_access, array);
  if (!element) return "";
  const Element origin = tile_origin(source_access, array);
  const Element local{element->row - origin.row, element->col - origin.col};
  const long long tile_cols = array.rows_only ? array.shape.cols : array.shape.tile_cols;
  if (local.row < 0 || local.row >= array.shape.tile_rows || local.col < 0 || local.col >= tile_cols) return "";
  // Only an element of the tile's row 0, where every way of computing a row from the
  // thread's (4 * thread_coord.row or another) gives 0: elsewhere the destination's row may
  // differ from the source's, and a word reached by another row would be read as another
  // stride. In column 0 there is no stride to read.
  const auto word = static_cast<long long>(destination.word);
  const std::string array_name = destination.array.empty() ? "the dynamic shared memory" : destination.array;
  if (std::string cause = floats_counted_as_bytes(fault, local, array_name, layouts, array.shape.tile_rows);
      !cause.empty()) {
    return cause;
  }
  if (local.row != 0 || local.col == 0 || word % local.col != 0) return "";
  const long long stride = word / local.col;
  if (stride < array.shape.tile_rows) return "";
  const long long floats = fault.bytes / 4;
  std::string cause = "the " + std::to_string(fault.bytes) + "-byte copy of element " +
                      pair_text(local.row, local.col) + " of block " + pair_text(fault.block[0], fault.block[1]) +
                      "'s tile went to float " + std::to_string(word) + " of " + array_name + " = " +
                      std::to_string(local.col) + " * " + std::to_string(stride) +
                      ": the destination's columns are " + std::to_string(stride) + " floats apart";
  for (const SharedLayout& layout : layouts) {
    if (layout.stride != stride) continue;
    return cause + ": the stride of " + layout.name + ". A copy of " + std::to_string(fault.bytes) +
           " bytes needs every column at a multiple of " + std::to_string(fault.bytes) +
           " bytes: index its tile with the layout padded for " + std::to_string(fault.bytes) +
           "-byte copies, by a multiple of " + std::to_string(floats) + " floats.";
  }
  if (stride % floats == 0) return "";
  const long long padding = stride - array.shape.tile_rows;
  return cause + " (padded by " + std::to_string(padding) + (padding == 1 ? " float" : " floats") + "), so column " +
         std::to_string(local.col) + " starts at byte " + std::to_string(local.col * stride * 4) +
         ", no multiple of " + std::to_string(fault.bytes) + ": a copy of " + std::to_string(fault.bytes) +
         " bytes needs a padding that is a multiple of " + std::to_string(floats) + " floats.";
}

std::string destination_past_the_array_cause(const Fault& fault, const FaultedArray& array,
                                             const std::vector<SharedLayout>& layouts) {
  if (!fault.destination || fault.address != fault.destination->source) return "";
  const std::optional<Element> element = element_of(fault, array);
  if (!element) return "";
  const Element origin = tile_origin(fault, array);
  const Element local{element->row - origin.row, element->col - origin.col};
  if (local.row < 0 || local.row >= array.shape.tile_rows || local.col < 0 || local.col >= array.shape.tile_cols) {
    return "";
  }
  const auto word = static_cast<long long>(fault.destination->word);
  // The index in floats times sizeof(float), on a float pointer that counts floats already.
  for (const auto& [stride, name] : strides_to_try(layouts, array.shape.tile_rows)) {
    const long long floats = local.row + local.col * stride;
    if (floats == 0 || word != floats * static_cast<long long>(sizeof(float))) continue;
    return "the copy of element " + pair_text(local.row, local.col) + " of block " +
           pair_text(fault.block[0], fault.block[1]) + "'s tile went to float " + std::to_string(word) + " of " +
           fault.destination->array + " = 4 * (" + std::to_string(local.row) + " + " + std::to_string(local.col) +
           " * " + std::to_string(stride) + "), past its end: its index, row + col * " + std::to_string(stride) +
           " (" + name + "), counted in bytes (times sizeof(float)) on a float pointer, which counts floats "
           "already. Index the tile in floats; bytes belong only on a char*.";
  }
  // The shared index written row-major, row * stride + col, in a column-major tile.
  if (local.row > 0) {
    std::vector<std::pair<long long, std::string>> strides;
    for (const SharedLayout& layout : layouts) strides.emplace_back(layout.stride, layout.name);
    strides.emplace_back(array.shape.tile_rows, "the tile's rows");
    for (const auto& [stride, name] : strides) {
      if (word != local.row * stride + local.col) continue;
      return "the copy of element " + pair_text(local.row, local.col) + " of block " +
             pair_text(fault.block[0], fault.block[1]) + "'s tile went to float " + std::to_string(word) + " of " +
             fault.destination->array + " = " + std::to_string(local.row) + " * " + std::to_string(stride) + " + " +
             std::to_string(local.col) + ", past its end: row * stride + col, a row-major index (the stride " +
             name + "), in a tile whose columns lie one after another: element (row, col) is at row + col * stride.";
    }
  }
  if (local.col == 0 || (word - local.row) % local.col != 0) return "";
  const long long stride = (word - local.row) / local.col;
  for (const SharedLayout& layout : layouts) {
    if (layout.stride != stride) continue;
    return "the copy of element " + pair_text(local.row, local.col) + " of block " +
           pair_text(fault.block[0], fault.block[1]) + "'s tile went to float " + std::to_string(word) + " of " +
           fault.destination->array + " = " + std::to_string(local.row) + " + " + std::to_string(local.col) + " * " +
           std::to_string(stride) + ", past its end: columns " + std::to_string(stride) + " floats apart, the stride of " +
           layout.name + ". The tile is declared smaller: index it with the layout it is declared with, the one "
           "its other accesses use.";
  }
  return "";
}

namespace {

// The same slip in the thread's start alone: its first column stepped by the array's
// leading dimension, the loop's columns by the tile's stride (a pointer to the thread's
// first word, `smem + row + start_col * ld`, walked on by the layout). The word is then
// row + start_col * ld + (col - start_col) * stride, for the start that the threads'
// layout gives the faulting thread and one of the tile's strides.
std::string start_column_strided_by_the_arrays_rows(const Fault& fault, const FaultedArray& array,
                                                    const std::vector<SharedLayout>& layouts, Element local,
                                                    long long word, const std::string& rows_name) {
  if (!array.thread_start || array.rows_only) return "";
  const std::optional<ThreadStart> start = array.thread_start(fault.thread[0]);
  if (!start || start->first_col <= 0 || start->first_col > local.col) return "";
  const long long ld = array.shape.rows;
  std::vector<std::pair<long long, std::string>> strides;
  for (const SharedLayout& layout : layouts) strides.emplace_back(layout.stride, layout.name);
  strides.emplace_back(array.shape.tile_rows, "the tile's rows");
  for (const auto& [stride, name] : strides) {
    if (word != local.row + start->first_col * ld + (local.col - start->first_col) * stride) continue;
    return "the copy of element " + pair_text(local.row, local.col) + " of block " +
           pair_text(fault.block[0], fault.block[1]) + "'s tile of " + array.name + " went to float " +
           std::to_string(word) + " of " + fault.destination->array + " = " + std::to_string(local.row) + " + " +
           std::to_string(start->first_col) + " * " + std::to_string(ld) + " + " +
           std::to_string(local.col - start->first_col) + " * " + std::to_string(stride) +
           ", past its end: the thread's first column, " + std::to_string(start->first_col) + ", is stepped by " +
           std::to_string(ld) + ", " + array.name + "'s leading dimension (" + rows_name +
           "), and the loop's columns after it by " + std::to_string(stride) + " (" + name +
           "). The shared index takes the tile's layout for the thread's column too; only the global index "
           "takes " + rows_name + ".";
  }
  return "";
}

}  // namespace

std::string destination_strided_by_the_arrays_rows(const Fault& fault, const FaultedArray& array,
                                                  const std::vector<SharedLayout>& layouts) {
  if (!fault.destination || fault.address != fault.destination->source) return "";
  const std::optional<Element> element = element_of(fault, array);
  if (!element) return "";
  const Element origin = tile_origin(fault, array);
  long long row = element->row - origin.row;
  long long col = element->col - origin.col;
  // A GEMM operand's tile runs across every k: its shared tile holds one k-tile a stage.
  const long long tile_cols = array.rows_only ? array.k_tile : array.shape.tile_cols;
  if (array.rows_only && tile_cols > 0) col %= tile_cols;
  if (row < 0 || row >= array.shape.tile_rows || col <= 0 || col >= tile_cols) return "";
  const long long ld = array.shape.rows;
  if (ld == array.shape.tile_rows) return "";  // the tile's own stride: no slip to see
  const auto word = static_cast<long long>(fault.destination->word);
  const long long stage_start = word - row - col * ld;
  const long long stage_floats = array.rows_only ? array.shape.tile_rows * tile_cols : 0;
  const std::string rows_name = array.leading_dimension.empty() ? "rows" : array.leading_dimension;
  if (stage_start < 0 || (stage_floats == 0 ? stage_start != 0 : stage_start % stage_floats != 0)) {
    return start_column_strided_by_the_arrays_rows(fault, array, layouts, {row, col}, word, rows_name);
  }
  return "the copy of element " + pair_text(row, col) + " of block " + pair_text(fault.block[0], fault.block[1]) +
         "'s tile of " + array.name + " went to float " + std::to_string(word) + " of " + fault.destination->array +
         " = " + (stage_start > 0 ? std::to_string(stage_start) + " (a stage's start) + " : std::string()) +
         std::to_string(row) + " + " + std::to_string(col) + " * " + std::to_string(ld) +
         ", past its end: the shared index steps its columns by " + std::to_string(ld) + ", " + array.name +
         "'s leading dimension (" + rows_name + "), where the shared tile's layout is meant (its columns " +
         std::to_string(array.shape.tile_rows) +
         " rows apart, plus any padding). The global index takes the array's leading dimension, the shared index "
         "the tile's own layout.";
}

}  // namespace wb::grading
