#include "wb/grading/diagnosis/written_footprint.hpp"

#include <algorithm>
#include <map>

namespace wb::grading {

std::string written_part_of_every_tile(const std::vector<std::pair<int, int>>& unwritten, const ArrayShape& shape) {
  const int tile_rows = shape.tile_rows, tile_cols = shape.tile_cols;
  if (tile_rows <= 0 || tile_cols <= 0) return "";
  const int whole_row_tiles = shape.rows / tile_rows, whole_col_tiles = shape.cols / tile_cols;
  if (whole_row_tiles == 0 || whole_col_tiles == 0) return "";
  // Each whole tile's never-written elements, as offsets row + col * tile_rows in the tile.
  std::map<std::pair<int, int>, std::vector<int>> missing;
  for (const auto& [row, col] : unwritten) {
    const int tile_row = row / tile_rows, tile_col = col / tile_cols;
    if (tile_row >= whole_row_tiles || tile_col >= whole_col_tiles) continue;
    missing[{tile_row, tile_col}].push_back(row - tile_row * tile_rows + (col - tile_col * tile_cols) * tile_rows);
  }
  if (missing.size() != static_cast<std::size_t>(whole_row_tiles) * static_cast<std::size_t>(whole_col_tiles)) {
    return "";
  }
  for (auto& [tile, offsets] : missing) std::sort(offsets.begin(), offsets.end());
  const std::vector<int>& first = missing.begin()->second;
  for (const auto& [tile, offsets] : missing) {
    if (offsets != first) return "";
  }
  std::vector<bool> written(static_cast<std::size_t>(tile_rows) * static_cast<std::size_t>(tile_cols), true);
  for (int offset : first) written[static_cast<std::size_t>(offset)] = false;
  int rows_written = 0, cols_written = 0;
  long long count = 0;
  for (int col = 0; col < tile_cols; ++col) {
    for (int row = 0; row < tile_rows; ++row) {
      if (!written[static_cast<std::size_t>(row + col * tile_rows)]) continue;
      ++count;
      rows_written = std::max(rows_written, row + 1);
      cols_written = std::max(cols_written, col + 1);
    }
  }
  // A rectangle from the tile's first element: as many written as it holds.
  if (count == 0 || count != static_cast<long long>(rows_written) * cols_written) return "";
  const std::string observed = "in every whole tile (" + std::to_string(tile_rows) + "x" + std::to_string(tile_cols) +
                               ") only rows 0 to " + std::to_string(rows_written - 1) + " and columns 0 to " +
                               std::to_string(cols_written - 1) + " were written, the rest never";
  if (rows_written < tile_rows && rows_written == tile_cols && tile_cols != tile_rows) {
    return observed + ": the rows stop at the tile's column count, " + std::to_string(tile_cols) +
           ". Either the rows' bound is the columns' (valid_cols, or the tile's columns), the row and column bounds "
           "exchanged where the tile is stored, or the row loop makes one pass of the threads (the loop, or its "
           "step, missing) where the threads span " + std::to_string(tile_cols) + " rows.";
  }
  if (cols_written < tile_cols && cols_written == tile_rows && tile_cols != tile_rows) {
    return observed + ": the columns stop at the tile's row count, " + std::to_string(tile_rows) +
           ". Either the columns' bound is the rows' (valid_rows, or the tile's rows), the row and column bounds "
           "exchanged where the tile is stored, or the column loop makes one pass of the threads (the loop, or its "
           "step, missing) where the threads span " + std::to_string(tile_rows) + " columns.";
  }
  // A bound, a loop's step (one pass of the threads where several are needed) or a guard
  // could each stop the threads there: observed, no cause named.
  return observed + ". No known mistake is named: the " +
         (rows_written < tile_rows ? "rows past " + std::to_string(rows_written - 1) : "columns past " + std::to_string(cols_written - 1)) +
         " were never reached (check the bound and the step of that loop, and the store's guard).";
}

}  // namespace wb::grading
