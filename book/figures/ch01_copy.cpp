// Chapter 1's figures: which thread copies each element of the 128x16 tile, which stores
// it (the store loop's order), and the array cut into tiles, one a block. The layouts
// are chapters/01_copy/copy.hpp's own smem_layout and thread_layout, which the kernels
// use, walked by the kernels' loops.
#include <set>
#include <string>
#include <vector>

#include "copy.hpp"  // chapters/01_copy: the tile and thread layouts
#include "figures.hpp"
#include "svg.hpp"
#include "tile_drawing.hpp"
#include "wb/layout.hpp"

namespace figures {
namespace chapter1 {

namespace {

using ch01::kThreadCols;
using ch01::kThreadRows;
using ch01::kThreads;
using ch01::kTileCols;
using ch01::kTileRows;
using ch01::smem_layout;
using ch01::thread_layout;

static_assert(kThreads == 8 * 32, "the figures have one colour for each of 8 warps");

// Step 1's store loop moves kVector floats (one float4) a thread at a time, as copy.cu's.
constexpr int kVector = 4;

// The array of the chapter's configuration (the grader's first shape).
constexpr int kArrayRows = 256;
constexpr int kArrayCols = 32;

// Which thread copies each element: the loops of step 1, run for every thread.
TileMap copying_threads() {
  TileMap map{kTileRows, kTileCols, std::vector<int>(smem_layout.size(), -1)};
  for (int t = 0; t < kThreads; ++t) {
    const wb::Coord thread_coord = thread_layout.coord(t);
    for (int col = thread_coord.col; col < kTileCols; col += kThreadCols) {
      for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {
        int& owner = map.thread[static_cast<std::size_t>(row * kTileCols + col)];
        require(owner == -1, "element " + coord_text(row, col) + " is copied by threads " +
                                 std::to_string(owner) + " and " + std::to_string(t));
        owner = t;
      }
    }
  }
  for (int row = 0; row < kTileRows; ++row) {
    for (int col = 0; col < kTileCols; ++col) {
      require(map.at(row, col) != -1, "element " + coord_text(row, col) + " is copied by no thread");
    }
  }
  return map;
}

// Which thread stores each element, and in which pass of the store loop: thread t stores
// the float4 at the offsets index to index + 3, index = 4t, 4t + 1024, ...
TileMap storing_threads(std::vector<int>* pass_of_column) {
  TileMap map{kTileRows, kTileCols, std::vector<int>(smem_layout.size(), -1)};
  pass_of_column->assign(kTileCols, -1);
  for (int t = 0; t < kThreads; ++t) {
    for (int index = kVector * t; index < smem_layout.size(); index += kVector * kThreads) {
      for (int lane = 0; lane < kVector; ++lane) {
        const wb::Coord element = smem_layout.coord(index + lane);
        int& owner = map.thread[static_cast<std::size_t>(element.row * kTileCols + element.col)];
        require(owner == -1, "element " + coord_text(element.row, element.col) + " is stored twice");
        owner = t;
        (*pass_of_column)[static_cast<std::size_t>(element.col)] = (index - kVector * t) / (kVector * kThreads);
      }
    }
  }
  return map;
}

// What the first figure's caption claims: at each of its loop iterations, a warp's 32
// copies land on 32 consecutive offsets of the tile (128 contiguous bytes).
void require_contiguous_warp_copies() {
  for (int warp = 0; warp < kThreads / 32; ++warp) {
    std::vector<std::vector<int>> offsets;  // [lane][iteration]
    for (int t = warp * 32; t < warp * 32 + 32; ++t) {
      offsets.emplace_back();
      const wb::Coord thread_coord = thread_layout.coord(t);
      for (int col = thread_coord.col; col < kTileCols; col += kThreadCols) {
        for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {
          offsets.back().push_back(smem_layout(row, col));
        }
      }
    }
    for (std::size_t lane = 0; lane < offsets.size(); ++lane) {
      for (std::size_t k = 0; k < offsets[lane].size(); ++k) {
        require(offsets[lane][k] == offsets[0][k] + static_cast<int>(lane),
                "warp " + std::to_string(warp) + "'s copies are not contiguous");
      }
    }
  }
}

std::string thread_range(int warp) {
  return std::to_string(warp * 32) + "-" + std::to_string(warp * 32 + 31);
}

std::string column_list(const std::set<int>& columns) {
  std::string text;
  for (int col : columns) text += (text.empty() ? "" : ", ") + std::to_string(col);
  return text;
}

// Figure: the 128x16 tile, each element coloured by the warp and labelled with the
// thread that copies it.
void copy_threads_figure(const std::string& folder) {
  const TileMap copy = copying_threads();
  require_contiguous_warp_copies();
  const double whole_x = 50, top = 110, small_w = 12, small_h = 5;
  const double zoom_x = 320, zoom_w = 30, zoom_h = 20;
  const int zoom_rows = kThreadRows;
  const double legend_y = top + kTileRows * small_h + 46;
  Svg svg(zoom_x + kTileCols * zoom_w + 30, legend_y + 95);

  svg.text(20, 26, "Chapter 1, step 1: which thread copies each element of the " +
                       std::to_string(kTileRows) + "x" + std::to_string(kTileCols) + " tile",
           16, "start", true);
  svg.text(20, 46, "thread_layout (" + std::to_string(kThreadRows) + "," + std::to_string(kThreadCols) +
                       ") repeated " + std::to_string(kTileRows / kThreadRows) + "x" +
                       std::to_string(kTileCols / kThreadCols) + " times over smem_layout (" +
                       std::to_string(kTileRows) + "," + std::to_string(kTileCols) + ")",
           12);
  svg.text(20, 62, "thread t sits at (r, c) = thread_layout.coord(t) and copies (r + " +
                       std::to_string(kThreadRows) + "i, c + " + std::to_string(kThreadCols) + "j)",
           12, "start", false, true);

  svg.text(whole_x, top - 18, "the whole tile (row, col)", 11, "start", true);
  draw_whole_tile(svg, copy, whole_x, top, small_w, small_h, kThreadRows, kThreadCols);
  svg.rect(whole_x - 2, top - 1, kTileCols * small_w + 4, zoom_rows * small_h + 2, "none", "#d62728", 2);
  svg.line(whole_x + kTileCols * small_w + 2, top + 6, zoom_x - 24, top + 6, "#d62728", 1.5, true);
  // The repeats of the thread layout: i down the rows, j across the columns.
  for (int i = 0; i < kTileRows / kThreadRows; ++i) {
    svg.text(whole_x + kTileCols * small_w + 8, top + (i + 0.5) * kThreadRows * small_h + 4,
             "i = " + std::to_string(i), 11, "start", false, true);
  }
  for (int j = 0; j < kTileCols / kThreadCols; ++j) {
    svg.text(whole_x + (j + 0.5) * kThreadCols * small_w, top + kTileRows * small_h + 16,
             "j = " + std::to_string(j), 11, "middle", false, true);
  }

  svg.text(zoom_x, top - 18, "rows 0-" + std::to_string(zoom_rows - 1) + " enlarged: the copying thread", 11,
           "start", true);
  draw_zoom(svg, copy, zoom_rows, zoom_x, top, zoom_w, zoom_h, [](int, int) { return false; });

  std::vector<std::string> notes;
  for (int warp = 0; warp < 8; ++warp) {
    std::set<int> columns;
    for (int row = 0; row < kTileRows; ++row) {
      for (int col = 0; col < kTileCols; ++col) {
        if (copy.at(row, col) / 32 == warp) columns.insert(col);
      }
    }
    notes.push_back("warp " + std::to_string(warp) + " (" + thread_range(warp) + "): col " +
                    column_list(columns));
  }
  draw_warp_legend(svg, 20, legend_y, notes);
  svg.text(20, legend_y + 48,
           "Each thread copies " + std::to_string(smem_layout.size() / kThreads) +
               " elements. A warp copies 32 consecutive rows of one column at a time:",
           12);
  svg.text(20, legend_y + 64,
           "128 contiguous bytes of the column-major array, one coalesced request.", 12);
  svg.save(folder + "/ch01_copy_threads.svg");
}

// Figure: the store loop's order, and which thread stores each element; the outlined
// cells are the only ones a thread stores from its own copy.
void store_order_figure(const std::string& folder) {
  const TileMap copy = copying_threads();
  std::vector<int> pass_of_column;
  const TileMap store = storing_threads(&pass_of_column);
  int own = 0;
  for (int row = 0; row < kTileRows; ++row) {
    for (int col = 0; col < kTileCols; ++col) own += store.at(row, col) == copy.at(row, col);
  }
  const double whole_x = 50, top = 122, small_w = 12, small_h = 5;
  const double zoom_x = 320, zoom_w = 30, zoom_h = 20;
  const int zoom_rows = kThreadRows;
  const double legend_y = top + kTileRows * small_h + 40;
  Svg svg(zoom_x + kTileCols * zoom_w + 30, legend_y + 115);

  svg.text(20, 26, "Chapter 1, step 1: which thread stores each element", 16, "start", true);
  svg.text(20, 46,
           "for (index = 4 * threadIdx.x; index < " + std::to_string(smem_layout.size()) +
               "; index += " + std::to_string(kVector * kThreads) +
               ")  a float4 from element = smem_layout.coord(index)",
           12, "start", false, true);
  const int columns_per_pass = kVector * kThreads / kTileRows;  // 8
  svg.text(20, 62,
           "thread t stores the indices 4t to 4t + 3, then " + std::to_string(kVector * kThreads) +
               " further on: pass k of the loop covers " + std::to_string(columns_per_pass) +
               " columns from column " + std::to_string(columns_per_pass) + "k",
           12);

  svg.text(whole_x, top - 34, "the whole tile; k: the loop's pass", 11, "start", true);
  for (int col = 0; col < kTileCols; col += columns_per_pass) {
    for (int next = col; next < col + columns_per_pass; ++next) {
      require(pass_of_column[static_cast<std::size_t>(next)] == col / columns_per_pass,
              "pass k of the store loop does not cover whole columns from column " +
                  std::to_string(columns_per_pass) + "k");
    }
    svg.text(whole_x + (col + columns_per_pass / 2.0) * small_w, top - 16,
             "k" + std::to_string(col / columns_per_pass), 8, "middle");
  }
  draw_whole_tile(svg, store, whole_x, top, small_w, small_h, kThreadRows, kThreadCols);
  svg.rect(whole_x - 2, top - 1, kTileCols * small_w + 4, zoom_rows * small_h + 2, "none", "#d62728", 2);
  svg.line(whole_x + kTileCols * small_w + 2, top + 6, zoom_x - 24, top + 6, "#d62728", 1.5, true);

  svg.text(zoom_x, top - 34, "rows 0-" + std::to_string(zoom_rows - 1) + " enlarged: the storing thread;", 11,
           "start", true);
  svg.text(zoom_x, top - 20, "outlined: it stores an element it copied itself", 11, "start", true);
  draw_zoom(svg, store, zoom_rows, zoom_x, top, zoom_w, zoom_h,
            [&](int row, int col) { return store.at(row, col) == copy.at(row, col); });

  std::vector<std::string> notes;
  for (int warp = 0; warp < 8; ++warp) {
    notes.push_back("warp " + std::to_string(warp) + " (" + thread_range(warp) + ")");
  }
  draw_warp_legend(svg, 20, legend_y, notes);

  std::string copies, stores;
  for (int col = 0; col < kTileCols; ++col) {
    for (int row = 0; row < kTileRows; ++row) {
      if (copy.at(row, col) == 0) copies += coord_text(row, col) + " ";
      if (store.at(row, col) == 0) stores += coord_text(row, col) + " ";
    }
  }
  svg.text(20, legend_y + 48, "thread 0 copies " + copies, 11, "start", false, true);
  svg.text(20, legend_y + 64, "thread 0 stores " + stores, 11, "start", false, true);
  svg.text(20, legend_y + 86,
           std::to_string(own) + " of " + std::to_string(smem_layout.size()) +
               " elements are stored by the thread that copied them; the other " +
               std::to_string(smem_layout.size() - own) + " were copied by",
           12);
  svg.text(20, legend_y + 102,
           "another thread, so every thread must wait for its copies and then meet the others at __syncthreads().",
           12);
  svg.save(folder + "/ch01_store_order.svg");
}

// Figure: the array cut into tiles, one block each: blockIdx.x down the rows,
// blockIdx.y across the columns, as copy_tiles launches the grid.
void grid_figure(const std::string& folder) {
  const auto array_layout = wb::col_major(kArrayRows, kArrayCols);  // (256,32):(1,256)
  const int grid_x = kArrayRows / kTileRows;
  const int grid_y = kArrayCols / kTileCols;
  const double x0 = 130, y0 = 130, row_h = 2, col_w = 10;
  const double width = kArrayCols * col_w, height = kArrayRows * row_h;
  const char* const tile_colours[] = {"#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6"};
  Svg svg(x0 + width + 250, y0 + height + 80);

  svg.text(20, 26, "Chapter 1: the " + std::to_string(kArrayRows) + "x" + std::to_string(kArrayCols) +
                       " array, one " + std::to_string(kTileRows) + "x" + std::to_string(kTileCols) +
                       " tile per block",
           16, "start", true);
  svg.text(20, 46, "grid = dim3(" + std::to_string(kArrayRows) + " / " + std::to_string(kTileRows) + ", " +
                       std::to_string(kArrayCols) + " / " + std::to_string(kTileCols) + ") = (" +
                       std::to_string(grid_x) + ", " + std::to_string(grid_y) + ")",
           12, "start", false, true);
  svg.text(20, 62, "tile_row = blockIdx.x * " + std::to_string(kTileRows) + ";  tile_col = blockIdx.y * " +
                       std::to_string(kTileCols) + ";",
           12, "start", false, true);
  svg.text(20, 78, "gmem_tile_in = gmem_in + tile_row + tile_col * rows;   // the offset in each tile", 12,
           "start", false, true);

  for (int bx = 0; bx < grid_x; ++bx) {
    for (int by = 0; by < grid_y; ++by) {
      svg.rect(x0 + by * kTileCols * col_w, y0 + bx * kTileRows * row_h, kTileCols * col_w,
               kTileRows * row_h, tile_colours[(bx * grid_y + by) % 4]);
    }
  }
  for (int col = 1; col < kArrayCols; ++col) {
    const bool tile_edge = col % kTileCols == 0;
    svg.line(x0 + col * col_w, y0, x0 + col * col_w, y0 + height, tile_edge ? "#222222" : "#ffffff",
             tile_edge ? 2 : 0.6);
  }
  for (int row = kTileRows; row < kArrayRows; row += kTileRows) {
    svg.line(x0, y0 + row * row_h, x0 + width, y0 + row * row_h, "#222222", 2);
  }
  svg.rect(x0, y0, width, height, "none", "#222222", 2);

  for (int bx = 0; bx < grid_x; ++bx) {
    for (int by = 0; by < grid_y; ++by) {
      const int tile_row = bx * kTileRows;
      const int tile_col = by * kTileCols;
      const int offset = array_layout(tile_row, tile_col);
      require(offset == tile_row + tile_col * kArrayRows, "the tile offset disagrees with the kernel's");
      const double cx = x0 + (tile_col + kTileCols / 2.0) * col_w;
      const double cy = y0 + (tile_row + kTileRows / 2.0) * row_h;
      svg.rect(cx - 68, cy - 50, 136, 92, "#ffffff", "none", 0, 0.75);
      svg.text(cx, cy - 30, "blockIdx (" + std::to_string(bx) + "," + std::to_string(by) + ")", 13,
               "middle", true);
      svg.text(cx, cy - 10, "rows " + std::to_string(tile_row) + "-" + std::to_string(tile_row + kTileRows - 1),
               12, "middle");
      svg.text(cx, cy + 8, "cols " + std::to_string(tile_col) + "-" + std::to_string(tile_col + kTileCols - 1),
               12, "middle");
      svg.text(cx, cy + 30, "offset " + std::to_string(offset), 12, "middle", false, true);
    }
  }

  // Axes: blockIdx.y across the top, blockIdx.x down the left side.
  for (int by = 0; by < grid_y; ++by) {
    svg.text(x0 + (by + 0.5) * kTileCols * col_w, y0 - 10, "blockIdx.y = " + std::to_string(by), 12,
             "middle", false, true);
  }
  for (int bx = 0; bx < grid_x; ++bx) {
    svg.text(x0 - 10, y0 + (bx + 0.5) * kTileRows * row_h, "blockIdx.x = " + std::to_string(bx), 12, "end",
             false, true);
  }
  svg.text(x0, y0 + height + 18, "col 0", 10, "start");
  svg.text(x0 + width, y0 + height + 18, "col " + std::to_string(kArrayCols - 1), 10, "end");
  svg.text(x0 + width + 6, y0 + 10, "row 0", 10, "start");
  svg.text(x0 + width + 6, y0 + height, "row " + std::to_string(kArrayRows - 1), 10, "start");

  // Memory order: down each column, a column is `rows` floats apart.
  const double note_x = x0 + width + 30;
  svg.line(note_x, y0 + 24, note_x, y0 + 140, "#222222", 1.5);
  svg.line(note_x - 5, y0 + 132, note_x, y0 + 140, "#222222", 1.5);
  svg.line(note_x + 5, y0 + 132, note_x, y0 + 140, "#222222", 1.5);
  svg.text(note_x + 12, y0 + 40, "memory order: column-major,", 11);
  svg.text(note_x + 12, y0 + 56, "down each column; column c", 11);
  svg.text(note_x + 12, y0 + 72, "starts at offset " + std::to_string(array_layout(0, 1)) + " * c", 11);
  svg.text(note_x + 12, y0 + 96, "array_layout = (" + std::to_string(kArrayRows) + "," +
                                     std::to_string(kArrayCols) + "):(1," + std::to_string(array_layout(0, 1)) + ")",
           11, "start", false, true);
  svg.text(note_x + 12, y0 + 120, "thin lines: the " + std::to_string(kArrayCols) + " columns", 11);
  svg.text(20, y0 + height + 46,
           "Rows are drawn " + number(row_h) + " px high and columns " + number(col_w) +
               " px wide: the picture is stretched sideways (" + std::to_string(kArrayRows) + " rows, " +
               std::to_string(kArrayCols) + " columns).",
           11);
  svg.save(folder + "/ch01_grid.svg");
}

}  // namespace

void draw(const std::string& folder) {
  copy_threads_figure(folder);
  store_order_figure(folder);
  grid_figure(folder);
}

}  // namespace chapter1
}  // namespace figures
