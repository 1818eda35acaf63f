#include "wb/grading/diagnosis/misplacement.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace wb::grading {

namespace {

long long linear(int row, int col, int rows) { return static_cast<long long>(row) + static_cast<long long>(col) * rows; }

bool all_fit(const std::vector<Misplaced>& misplaced, const std::function<bool(const Misplaced&)>& fits) {
  return !misplaced.empty() && std::all_of(misplaced.begin(), misplaced.end(), fits);
}

std::string pair_text(int row, int col) { return "(" + std::to_string(row) + ", " + std::to_string(col) + ")"; }

// A leading dimension other than `rows` under which every element's `offset` is
// row + col * ld, among those a learner could have used; 0 if none fits. `origin` gives
// the offset and the (row, col) that the element's tile starts at: a tile's index counts
// from there (a pointer to the tile), a whole array's from (0, 0).
struct Origin {
  long long offset;
  int row;
  int col;
};
int other_leading_dimension(const std::vector<Misplaced>& misplaced, int rows, const std::set<int>& candidates,
                            const std::function<long long(const Misplaced&)>& offset,
                            const std::function<std::pair<int, int>(const Misplaced&)>& position,
                            const std::function<Origin(const Misplaced&)>& origin) {
  for (int ld : candidates) {
    if (ld == rows || ld <= 0) continue;
    if (all_fit(misplaced, [&](const Misplaced& m) {
          const auto [row, col] = position(m);
          const Origin start = origin(m);
          return row >= 0 && offset(m) - start.offset == linear(row - start.row, col - start.col, ld);
        })) {
      return ld;
    }
  }
  return 0;
}

// The question a leading dimension `ld` in place of `rows` raises: a stride given in
// elements where bytes are asked (rows floats taken as rows bytes: rows / 4 floats), the
// tile's own rows (the tile taken as one contiguous run of the array), or another array's
// or tile's leading dimension.
std::string leading_dimension_question(int ld, int rows, int tile_rows, const std::string& array) {
  if (4 * ld == rows) {
    return "That is " + std::to_string(rows) + " bytes: is a stride of " + std::to_string(rows) +
           " elements given where bytes are asked (sizeof(float) * " + std::to_string(rows) + ")?";
  }
  if (ld == tile_rows) {
    return std::to_string(ld) + " is the tile's rows: the tile was taken as one contiguous run of " + array +
           " (one copy of all its floats from its first element, or its rows as the stride of the array's "
           "index). Only each column of the tile is contiguous there, its columns " + std::to_string(rows) +
           " floats apart: copy or index it column by column, with " + array + "'s " + std::to_string(rows) +
           " rows as the stride.";
  }
  return "Is another array's leading dimension (or a tile's) used for " + array + "?";
}

// "the input was read with a leading dimension of 32: element (row, col) of the input is
// at row + col * 128 (the input has 128 rows), and <example>. <question>"
std::string leading_dimension_cause(const char* array, const char* access, int ld, int rows, int tile_rows,
                                    const std::string& example) {
  return std::string("the ") + array + " was " + access + " with a leading dimension of " + std::to_string(ld) +
         ": element (row, col) of the " + array + " is at row + col * " + std::to_string(rows) + " (the " + array +
         " has " + std::to_string(rows) + " rows), and " + example + " " +
         leading_dimension_question(ld, rows, tile_rows, std::string("the ") + array);
}

// Where the tile of element (row, col) of `shape` starts, or (0, 0) for `whole_array`.
Origin tile_origin(int row, int col, const ArrayShape& shape, bool whole_array) {
  if (whole_array) return {0, 0, 0};
  const int origin_row = row / shape.tile_rows * shape.tile_rows;
  const int origin_col = col / shape.tile_cols * shape.tile_cols;
  return {linear(origin_row, origin_col, shape.rows), origin_row, origin_col};
}

// Whether (row, col) is (from_row, from_col) moved by the origin of the tile holding
// (from_row, from_col) in `shape`, `times` over (1: the origin counted twice; -1: left
// out), that tile not the array's first.
bool moved_by_its_origin(int row, int col, int from_row, int from_col, const ArrayShape& shape, int times) {
  const Origin origin = tile_origin(from_row, from_col, shape, false);
  return (origin.row != 0 || origin.col != 0) && row == from_row + times * origin.row &&
         col == from_col + times * origin.col;
}

}  // namespace

std::string tile_origin_left_out_cause(const std::string& example) {
  return "every wrong tile holds the data of the array's first tile" + (example.empty() ? "" : " (" + example + ")") +
         ": the read comes from the array's start, not its own tile's. Is the tile's origin left out of the source "
         "address (the array's pointer where the tile's is meant: gmem_in for gmem_tile_in, or no + first), or "
         "does it come out 0?";
}

std::string store_origin_left_out() {
  return "The tile's origin is left out where the output is written: the array's pointer (gmem_out) where the "
         "tile's (gmem_tile_out) is meant, or an index counted from the tile's first element given to the array's "
         "start.";
}

std::string misplacement_cause(const std::vector<Misplaced>& misplaced, const ArrayShape& output,
                               const ArrayShape& input, bool every_element_written) {
  // A read's index mistake still writes every element of the output: with some never
  // written, the hypotheses about the read do not apply (the stores went elsewhere, and
  // which of two blocks' stores landed last can make any pattern).
  const bool sources_known =
      every_element_written && all_fit(misplaced, [](const Misplaced& m) { return m.expected_source_row >= 0; });
  const bool meant_known = all_fit(misplaced, [](const Misplaced& m) { return m.meant_row >= 0; });
  const Misplaced& first = misplaced.front();
  if (sources_known && all_fit(misplaced, [&](const Misplaced& m) {
        return moved_by_its_origin(m.source_row, m.source_col, m.expected_source_row, m.expected_source_col, input, 1);
      })) {
    return "each wrong element holds the input element its tile's origin further on: " +
           pair_text(first.row, first.col) + " holds the input's " + pair_text(first.source_row, first.source_col) +
           " instead of " + pair_text(first.expected_source_row, first.expected_source_col) +
           ". The tile's origin is counted twice where the input is read: an index that already counts from "
           "the tile's first element (a pointer to the tile) was given the global row and column too.";
  }
  // The tile's origin left out of the read: every element from its place in the array's
  // first tile (the array's pointer where the tile's is meant).
  if (sources_known && all_fit(misplaced, [&](const Misplaced& m) {
        return moved_by_its_origin(m.source_row, m.source_col, m.expected_source_row, m.expected_source_col, input, -1);
      })) {
    return tile_origin_left_out_cause(pair_text(first.row, first.col) + " holds the input's " +
                                      pair_text(first.source_row, first.source_col) + " instead of " +
                                      pair_text(first.expected_source_row, first.expected_source_col));
  }
  // The tile's origin given as the tile's index (the block's index where its first
  // element's row and column are meant): a bulk tensor copy's coordinates, or `blockIdx.x`
  // for `blockIdx.x * kTile`.
  if (sources_known && all_fit(misplaced, [&](const Misplaced& m) {
        const int tile_row = m.expected_source_row / input.tile_rows;
        const int tile_col = m.expected_source_col / input.tile_cols;
        return (tile_row != 0 || tile_col != 0) &&
               m.source_row == m.expected_source_row - tile_row * input.tile_rows + tile_row &&
               m.source_col == m.expected_source_col - tile_col * input.tile_cols + tile_col;
      })) {
    const int tile_row = first.expected_source_row / input.tile_rows;
    const int tile_col = first.expected_source_col / input.tile_cols;
    return "each wrong element holds the input element of a tile that starts at the tile's index instead of its "
           "origin: " + pair_text(first.row, first.col) + " holds the input's " +
           pair_text(first.source_row, first.source_col) + " instead of " +
           pair_text(first.expected_source_row, first.expected_source_col) + ", as if tile " +
           pair_text(tile_row, tile_col) + " started at element " + pair_text(tile_row, tile_col) + ", not at " +
           pair_text(tile_row * input.tile_rows, tile_col * input.tile_cols) +
           ". Where the input is read, a tile's first row and column are the block's index times the tile's "
           "size (" + std::to_string(input.tile_rows) + " rows, " + std::to_string(input.tile_cols) +
           " columns): a bulk tensor copy's coordinates, too, are elements, not tiles.";
  }
  // The tile's origin left out of the store: every block wrote into the output's first tile.
  if (meant_known && all_fit(misplaced, [&](const Misplaced& m) {
        return moved_by_its_origin(m.row, m.col, m.meant_row, m.meant_col, output, -1);
      })) {
    return "each wrong element holds a value meant for the same place in another tile: the value meant for " +
           pair_text(first.meant_row, first.meant_col) + " is at " + pair_text(first.row, first.col) +
           ", in the output's first tile, and the other tiles were left unwritten. " + store_origin_left_out();
  }
  if (meant_known && all_fit(misplaced, [&](const Misplaced& m) {
        return moved_by_its_origin(m.row, m.col, m.meant_row, m.meant_col, output, 1);
      })) {
    return "each wrong element was stored its tile's origin further on than the element it belongs to: the value "
           "meant for " + pair_text(first.meant_row, first.meant_col) + " is at " + pair_text(first.row, first.col) +
           ". The tile's origin is counted twice where the output is written: an index that already counts from "
           "the tile's first element (a pointer to the tile) was given the global row and column too.";
  }
  // The leading dimensions a learner could have taken instead: another array's or tile's,
  // and a padded tile's (a shared layout's stride).
  std::set<int> leading_dimensions = {input.rows, input.cols, output.rows, output.cols,
                                      input.tile_rows, input.tile_cols, output.tile_rows, output.tile_cols};
  for (const int padding : {1, 2, 4}) {
    leading_dimensions.insert(input.tile_rows + padding);
    leading_dimensions.insert(output.tile_rows + padding);
  }
  // A leading dimension, tried on the whole array's index and on a tile's (an index that
  // counts from a pointer to the tile).
  const auto leading_dimension = [&](int rows, const std::function<long long(const Misplaced&)>& offset,
                                     const std::function<std::pair<int, int>(const Misplaced&)>& position,
                                     const ArrayShape& shape) {
    for (const bool whole_array : {true, false}) {
      const int ld = other_leading_dimension(misplaced, rows, leading_dimensions, offset, position,
                                             [&](const Misplaced& m) {
                                               const auto [row, col] = position(m);
                                               return tile_origin(row, col, shape, whole_array);
                                             });
      if (ld > 0) return ld;
    }
    return 0;
  };
  if (meant_known) {
    const int ld = leading_dimension(
        output.rows, [&](const Misplaced& m) { return linear(m.row, m.col, output.rows); },
        [](const Misplaced& m) { return std::make_pair(m.meant_row, m.meant_col); }, output);
    if (ld > 0) {
      return leading_dimension_cause("output", "stored", ld, output.rows, output.tile_rows,
                                     "the value meant for " + pair_text(first.meant_row, first.meant_col) +
                                         " was stored " + std::to_string(ld) + " floats a column instead.");
    }
    // Row and column exchanged where the output is written: the value meant for (row, col)
    // of its tile went to (col, row) of that tile.
    // Compared as offsets from the tile's first element, the index computes them: in a
    // tile that is not square, (col, row) runs past the tile's rows into later columns.
    if (all_fit(misplaced, [&](const Misplaced& m) {
          const Origin start = tile_origin(m.meant_row, m.meant_col, output, false);
          return linear(m.row, m.col, output.rows) - start.offset ==
                     linear(m.meant_col - start.col, m.meant_row - start.row, output.rows) &&
                 m.meant_row - start.row != m.meant_col - start.col;
        })) {
      return "each wrong element holds the value meant for the element of its tile with row and column exchanged: "
             "the value meant for " + pair_text(first.meant_row, first.meant_col) + " is at " +
             pair_text(first.row, first.col) + ". The store's index takes (col, row) where it means (row, col), "
             "or the other way round.";
    }
  }
  // A tile's shared copy indexed row-major on one side and column-major on the other: the
  // word (r, c) is read from (its column-major offset, r + c * rows) holds the element whose
  // row-major offset (r' * cols + c') is that, or the other way round. Within whole tiles.
  if (sources_known) {
    const int tile_rows = input.tile_rows, tile_cols = input.tile_cols;
    for (const bool written_row_major : {true, false}) {
      const auto source_in_tile = [&](int r, int c) {
        const long long word = written_row_major ? linear(r, c, tile_rows) : static_cast<long long>(r) * tile_cols + c;
        return written_row_major ? std::make_pair(static_cast<int>(word / tile_cols), static_cast<int>(word % tile_cols))
                                 : std::make_pair(static_cast<int>(word % tile_rows), static_cast<int>(word / tile_rows));
      };
      if (tile_rows == tile_cols || !all_fit(misplaced, [&](const Misplaced& m) {
            const Origin start = tile_origin(m.expected_source_row, m.expected_source_col, input, false);
            if (start.row + tile_rows > input.rows || start.col + tile_cols > input.cols) return false;
            const auto [r, c] = source_in_tile(m.expected_source_row - start.row, m.expected_source_col - start.col);
            return m.source_row == start.row + r && m.source_col == start.col + c;
          })) {
        continue;
      }
      const Origin start = tile_origin(first.expected_source_row, first.expected_source_col, input, false);
      const int r = first.expected_source_row - start.row, c = first.expected_source_col - start.col;
      const auto [source_r, source_c] = source_in_tile(r, c);
      const std::string row_major = "row * " + std::to_string(tile_cols) + " + col";
      const std::string col_major = "row + col * " + std::to_string(tile_rows);
      return "each wrong element holds the input element that the tile's shared copy puts at its word with the "
             "other order: " + pair_text(first.row, first.col) + " holds the input's " +
             pair_text(first.source_row, first.source_col) + ", element " + pair_text(source_r, source_c) +
             " of its " + std::to_string(tile_rows) + "x" + std::to_string(tile_cols) + " tile, where element " +
             pair_text(r, c) + " is meant. The tile is written into shared memory " +
             (written_row_major ? "row-major (" + row_major + ")" : "column-major (" + col_major + ")") +
             " and read back " + (written_row_major ? "column-major (" + col_major + ")" : "row-major (" + row_major + ")") +
             ": both sides index the tile through one layout (the step's, column-major: row + col * its stride).";
    }
  }
  if (sources_known) {
    const int ld = leading_dimension(
        input.rows, [&](const Misplaced& m) { return linear(m.source_row, m.source_col, input.rows); },
        [](const Misplaced& m) { return std::make_pair(m.expected_source_row, m.expected_source_col); }, input);
    if (ld > 0) {
      return leading_dimension_cause("input", "read", ld, input.rows, input.tile_rows,
                                     pair_text(first.row, first.col) + " took the input's " +
                                         pair_text(first.source_row, first.source_col) + ", where " +
                                         pair_text(first.expected_source_row, first.expected_source_col) +
                                         " would be with " + std::to_string(ld) + " floats a column.");
    }
    // The tile's valid rows (its own height, shorter at the bottom edge) as the leading
    // dimension: a tile's row count taken for the array's. Evidence only where some wrong
    // element lies in a partial tile, whose stride then differs from a whole tile's.
    const auto valid_rows = [&](int row) { return std::min(input.tile_rows, input.rows - row / input.tile_rows * input.tile_rows); };
    const bool in_partial_tile = std::any_of(misplaced.begin(), misplaced.end(), [&](const Misplaced& m) {
      return valid_rows(m.expected_source_row) < input.tile_rows;
    });
    if (in_partial_tile && all_fit(misplaced, [&](const Misplaced& m) {
          const Origin start = tile_origin(m.expected_source_row, m.expected_source_col, input, false);
          return linear(m.source_row, m.source_col, input.rows) - start.offset ==
                 linear(m.expected_source_row - start.row, m.expected_source_col - start.col,
                        valid_rows(m.expected_source_row));
        })) {
      return "the input was read with the tile's valid rows as its leading dimension (" +
             std::to_string(input.tile_rows) + " in a whole tile, " +
             std::to_string(valid_rows(input.rows - 1)) + " in the tiles at the bottom edge): " +
             pair_text(first.row, first.col) + " took the input's " + pair_text(first.source_row, first.source_col) +
             ". A column of the array is its " + std::to_string(input.rows) +
             " rows long whatever part of a tile lies inside it: the leading dimension is the array's rows.";
    }
    const int row_shift = first.source_row - first.expected_source_row;
    const int col_shift = first.source_col - first.expected_source_col;
    if ((row_shift != 0 || col_shift != 0) && all_fit(misplaced, [&](const Misplaced& m) {
          return m.source_row - m.expected_source_row == row_shift && m.source_col - m.expected_source_col == col_shift;
        })) {
      return "every wrong element holds the input element " + std::to_string(row_shift) + " rows and " +
             std::to_string(col_shift) + " columns away from the right one (" + pair_text(first.row, first.col) +
             " holds the input's " + pair_text(first.source_row, first.source_col) + " instead of " +
             pair_text(first.expected_source_row, first.expected_source_col) +
             "): an index of the read is off by that much.";
    }
  }
  return "";
}

}  // namespace wb::grading
