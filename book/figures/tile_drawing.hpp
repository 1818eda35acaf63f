// What the chapters' figures draw with: tile maps (a thread for each element of a tile)
// drawn whole or enlarged, the legend of the warps' colours, a warp request's bank maps
// at several strides, and the small helpers they share (require, coord_text).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "svg.hpp"
#include "wb/bank_map.hpp"

namespace figures {

// One light colour per warp, dark enough to tell apart, light enough for black text:
// the colour of `thread`'s warp (8 warps, then they repeat).
const char* warp_colour(int thread);

// Fails the program (and so the book's build) with `what` unless `condition` holds:
// what a figure claims is checked as it is drawn.
void require(bool condition, const std::string& what);

// "(row,col)".
std::string coord_text(int row, int col);

// ---------------------------------------------------------------------------------
// Tile maps: a value (a thread index) for each element of a tile, drawn two ways.

struct TileMap {
  int rows;
  int cols;
  std::vector<int> thread;  // the thread of element (row, col), at [row * cols + col]
  int at(int row, int col) const { return thread[static_cast<std::size_t>(row * cols + col)]; }
};

// The whole tile in small cells coloured by warp: equal neighbours down a column are
// merged into one rectangle. Thicker lines every `band_rows` rows and `band_cols` columns.
void draw_whole_tile(Svg& svg, const TileMap& map, double x0, double y0, double cell_w,
                     double cell_h, int band_rows, int band_cols);

// Rows [0, rows) of the map in large cells, each with its thread index; cells for which
// `outlined` is true get a thick border.
template <class Outlined>
void draw_zoom(Svg& svg, const TileMap& map, int rows, double x0, double y0, double cell_w,
               double cell_h, Outlined outlined) {
  for (int row = 0; row < rows; ++row) {
    for (int col = 0; col < map.cols; ++col) {
      const int thread = map.at(row, col);
      svg.rect(x0 + col * cell_w, y0 + row * cell_h, cell_w, cell_h, warp_colour(thread),
               "#ffffff", 0.8);
    }
  }
  for (int row = 0; row < rows; ++row) {
    for (int col = 0; col < map.cols; ++col) {
      if (outlined(row, col)) {
        svg.rect(x0 + col * cell_w + 1, y0 + row * cell_h + 1, cell_w - 2, cell_h - 2, "none",
                 "#111111", 2);
      }
      svg.text(x0 + (col + 0.5) * cell_w, y0 + (row + 0.72) * cell_h,
               std::to_string(map.at(row, col)), 10, "middle", false, true);
    }
  }
  for (int col = 0; col < map.cols; ++col) {
    svg.text(x0 + (col + 0.5) * cell_w, y0 - 5, std::to_string(col), 10, "middle");
  }
  for (int row = 0; row < rows; ++row) {
    svg.text(x0 - 5, y0 + (row + 0.72) * cell_h, std::to_string(row), 9, "end");
  }
}

// The 8 warps' colours in two rows of four, each with its note.
void draw_warp_legend(Svg& svg, double x0, double y0, const std::vector<std::string>& notes);

// ---------------------------------------------------------------------------------
// Bank maps: one warp request, the 32 banks across, each distinct word a bank serves
// stacked down its column (a column n words deep costs n wavefronts), each word
// labelled with the lane that reads it. Counted by wb/bank_map.hpp, which asks the
// hardware rule of wb/memory_transactions.hpp.

// Figure: the bank maps of one warp request at several strides, one under the other.
void bank_maps_figure(const std::string& path, const std::string& heading,
                      const std::vector<std::string>& notes,
                      const std::vector<std::pair<std::string, wb::bank_map::BankMap>>& maps);

}  // namespace figures
