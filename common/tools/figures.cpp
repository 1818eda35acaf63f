// The book's figures, drawn from the layouts the kernels use.
//
//   book_figures OUTPUT_FOLDER
//
// writes one SVG file per figure into OUTPUT_FOLDER (the book's build runs it). Every
// colour and every label comes from wb::Layout objects built exactly as the chapter's
// kernels build them, walked by the same loops as the kernels: a change of tile or
// thread layout changes the figures at the next build of the book, and nothing is
// drawn by hand. What a figure claims (each element copied exactly once, ...) is
// checked here too: if it stops being true, the program fails and the book does not
// build.
//
// Host-only C++: it includes wb/layout.hpp, which compiles without CUDA, and the
// chapters' headers for their tile shapes.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "copy.hpp"       // chapters/01_copy: the tile and thread-layout shapes
#include "padded.hpp"     // chapters/02_padded
#include "transpose.hpp"  // chapters/03_transpose
#include "gemm.hpp"       // chapters/04_gemm
#include "vector.hpp"     // chapters/05_vector
#include "halo.hpp"       // chapters/06_halo
#include "wb/bank_map.hpp"
#include "wb/layout.hpp"

namespace {

// ---------------------------------------------------------------------------------
// A minimal SVG writer: rectangles, lines and text, nothing else.

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

class Svg {
 public:
  // A white page under the drawing (save() adds it), so that the figure reads the same
  // in a light and a dark theme.
  Svg(double width, double height) : width_(width), height_(height) {}

  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& stroke = "none", double stroke_width = 0, double opacity = 1) {
    body_ << "<rect x=\"" << number(x) << "\" y=\"" << number(y) << "\" width=\"" << number(w)
          << "\" height=\"" << number(h) << "\" fill=\"" << fill << "\"";
    if (opacity < 1) body_ << " fill-opacity=\"" << number(opacity) << "\"";
    if (stroke != "none") body_ << " stroke=\"" << stroke << "\" stroke-width=\"" << number(stroke_width) << "\"";
    body_ << "/>\n";
  }

  void line(double x1, double y1, double x2, double y2, const std::string& stroke,
            double stroke_width, bool dashed = false) {
    body_ << "<line x1=\"" << number(x1) << "\" y1=\"" << number(y1) << "\" x2=\"" << number(x2)
          << "\" y2=\"" << number(y2) << "\" stroke=\"" << stroke << "\" stroke-width=\""
          << number(stroke_width) << "\"" << (dashed ? " stroke-dasharray=\"4 3\"" : "") << "/>\n";
  }

  // anchor: "start", "middle" or "end"; the baseline is at y. The drawing grows to hold
  // the text, by a generous estimate of its width, so that no label is cut at its edge
  // (book.in_browser measures the labels as drawn).
  void text(double x, double y, const std::string& content, double size,
            const std::string& anchor = "start", bool bold = false, bool mono = false) {
    const double estimated_width =
        static_cast<double>(content.size()) * size * (mono ? 0.62 : 0.6) * (bold ? 1.08 : 1.0);
    const double right = anchor == "start" ? x + estimated_width
                         : anchor == "middle" ? x + estimated_width / 2
                                              : x;
    width_ = std::max(width_, right + kMargin);
    height_ = std::max(height_, y + size / 3 + kMargin);
    body_ << "<text x=\"" << number(x) << "\" y=\"" << number(y) << "\" font-size=\"" << number(size)
          << "\" text-anchor=\"" << anchor << "\"" << (bold ? " font-weight=\"bold\"" : "")
          << (mono ? " font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\"" : "") << ">"
          << escape(content) << "</text>\n";
  }

  void save(const std::string& path) const {
    std::ofstream out(path);
    // The white page under everything, as large as the drawing has grown.
    const std::string page = "<rect x=\"0\" y=\"0\" width=\"" + number(width_) + "\" height=\"" +
                             number(height_) + "\" fill=\"#ffffff\"/>\n";
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width_) << "\" height=\""
        << number(height_) << "\" viewBox=\"0 0 " << number(width_) << " " << number(height_)
        << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" fill=\"#222222\">\n"
        << page << body_.str() << "</svg>\n";
    if (!out) throw std::runtime_error("cannot write " + path);
  }

 private:
  static constexpr double kMargin = 10;  // white space kept right of and under the last label
  double width_, height_;
  std::ostringstream body_;
};

// One light colour per warp, dark enough to tell apart, light enough for black text.
const char* const kWarpColours[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                    "#80b1d3", "#fdb462", "#b3de69", "#fccde5"};

const char* warp_colour(int thread) { return kWarpColours[(thread / 32) % 8]; }

void require(bool condition, const std::string& what) {
  if (!condition) throw std::runtime_error(what);
}

std::string coord_text(int row, int col) {
  return "(" + std::to_string(row) + "," + std::to_string(col) + ")";
}

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
                     double cell_h, int band_rows, int band_cols) {
  for (int col = 0; col < map.cols; ++col) {
    int start = 0;
    for (int row = 1; row <= map.rows; ++row) {
      if (row == map.rows || map.at(row, col) / 32 != map.at(start, col) / 32) {
        svg.rect(x0 + col * cell_w, y0 + start * cell_h, cell_w, (row - start) * cell_h,
                 warp_colour(map.at(start, col)));
        start = row;
      }
    }
  }
  for (int col = 0; col <= map.cols; ++col) {
    const bool band = col % band_cols == 0 || col == map.cols;
    svg.line(x0 + col * cell_w, y0, x0 + col * cell_w, y0 + map.rows * cell_h,
             band ? "#222222" : "#999999", band ? 1.5 : 0.4);
  }
  for (int row = 0; row <= map.rows; row += 8) {
    const bool band = row % band_rows == 0 || row == map.rows;
    svg.line(x0, y0 + row * cell_h, x0 + map.cols * cell_w, y0 + row * cell_h,
             band ? "#222222" : "#bbbbbb", band ? 1.5 : 0.3);
  }
  for (int col = 0; col < map.cols; ++col) {
    svg.text(x0 + (col + 0.5) * cell_w, y0 - 4, std::to_string(col), 7, "middle");
  }
  for (int row = 0; row < map.rows; row += band_rows) {  // the first row of each band
    svg.text(x0 - 4, y0 + row * cell_h + 8, std::to_string(row), 9, "end");
  }
  svg.text(x0 - 4, y0 + map.rows * cell_h, std::to_string(map.rows - 1), 9, "end");
}

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

void draw_warp_legend(Svg& svg, double x0, double y0, const std::vector<std::string>& notes) {
  for (int warp = 0; warp < 8; ++warp) {
    const double x = x0 + (warp % 4) * 200;
    const double y = y0 + (warp / 4) * 20;
    svg.rect(x, y - 11, 14, 14, kWarpColours[warp], "#666666", 0.5);
    svg.text(x + 20, y, notes[static_cast<std::size_t>(warp)], 11);
  }
}

// ---------------------------------------------------------------------------------
// Chapter 1, copy: the layouts exactly as chapters/01_copy/copy.cu builds them.

namespace chapter1 {

using ch01::kThreadCols;
using ch01::kThreadRows;
using ch01::kTileCols;
using ch01::kTileRows;
using wb::Int;

constexpr auto smem_layout = wb::col_major(Int<kTileRows>{}, Int<kTileCols>{});      // (128,16):(1,128)
constexpr auto thread_layout = wb::col_major(Int<kThreadRows>{}, Int<kThreadCols>{});  // (32,8):(1,32)
constexpr int kThreads = thread_layout.size();                                        // 256
static_assert(kThreads == 8 * 32, "the figures have one colour for each of 8 warps");

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

// Which thread stores each element, and in which pass of the store loop.
TileMap storing_threads(std::vector<int>* pass_of_column) {
  TileMap map{kTileRows, kTileCols, std::vector<int>(smem_layout.size(), -1)};
  pass_of_column->assign(kTileCols, -1);
  for (int t = 0; t < kThreads; ++t) {
    for (int index = t; index < smem_layout.size(); index += kThreads) {
      const wb::Coord element = smem_layout.coord(index);
      int& owner = map.thread[static_cast<std::size_t>(element.row * kTileCols + element.col)];
      require(owner == -1, "element " + coord_text(element.row, element.col) + " is stored twice");
      owner = t;
      (*pass_of_column)[static_cast<std::size_t>(element.col)] = (index - t) / kThreads;
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
           "for (index = threadIdx.x; index < " + std::to_string(smem_layout.size()) +
               "; index += " + std::to_string(kThreads) + ")  element = smem_layout.coord(index)",
           12, "start", false, true);
  const int columns_per_pass = kThreads / kTileRows;  // 2
  svg.text(20, 62,
           "thread t stores the indices t, t + " + std::to_string(kThreads) + ", t + " +
               std::to_string(2 * kThreads) + ", ...: pass k of the loop covers " +
               std::to_string(columns_per_pass) + " columns from column " + std::to_string(columns_per_pass) + "k",
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

}  // namespace chapter1

// ---------------------------------------------------------------------------------
// Bank maps: one warp request, the 32 banks across, each distinct word a bank serves
// stacked down its column (a column n words deep costs n wavefronts), each word
// labelled with the lane that reads it. Counted by wb/bank_map.hpp, which asks the
// hardware rule of wb/memory_transactions.hpp.

constexpr double kBankCellW = 22, kBankCellH = 15;

double bank_map_height(int words) { return 40 + words * kBankCellH; }

void draw_bank_map(Svg& svg, const wb::bank_map::BankMap& map, double x0, double y0,
                   const std::string& title) {
  svg.text(x0, y0, title + ": " + std::to_string(map.wavefronts) + " wavefront" +
                       (map.wavefronts == 1 ? "" : "s") + ", " + wb::bank_map::verdict(map),
           12, "start", true);
  for (int bank = 0; bank < wb::bank_map::kBanks; ++bank) {
    svg.text(x0 + (bank + 0.5) * kBankCellW, y0 + 16, std::to_string(bank), 8, "middle");
    const auto& words = map.words[static_cast<std::size_t>(bank)];
    for (std::size_t k = 0; k < words.size(); ++k) {
      const double y = y0 + 20 + static_cast<double>(k) * kBankCellH;
      svg.rect(x0 + bank * kBankCellW, y, kBankCellW, kBankCellH, k == 0 ? "#b3de69" : "#fb8072",
               "#ffffff", 0.8);
      int lane = 0;
      while (map.offset[static_cast<std::size_t>(lane)] != words[k]) ++lane;
      svg.text(x0 + (bank + 0.5) * kBankCellW, y + 11, std::to_string(lane), 9, "middle", false, true);
    }
    if (words.empty()) {
      svg.rect(x0 + bank * kBankCellW, y0 + 20, kBankCellW, kBankCellH, "#eeeeee", "#ffffff", 0.8);
    }
  }
}

int deepest(const wb::bank_map::BankMap& map) {
  std::size_t depth = 1;
  for (const auto& words : map.words) depth = std::max(depth, words.size());
  return static_cast<int>(depth);
}

// Figure: the bank maps of one warp request at several strides, one under the other.
void bank_maps_figure(const std::string& path, const std::string& heading,
                      const std::vector<std::string>& notes,
                      const std::vector<std::pair<std::string, wb::bank_map::BankMap>>& maps) {
  double height = 60 + 16.0 * static_cast<double>(notes.size());
  for (const auto& entry : maps) height += bank_map_height(deepest(entry.second)) + 20;
  Svg svg(40 + 32 * kBankCellW + 20, height + 40);
  svg.text(20, 26, heading, 16, "start", true);
  double y = 48;
  for (const std::string& note : notes) {
    svg.text(20, y, note, 12);
    y += 16;
  }
  y += 16;
  for (const auto& [title, map] : maps) {
    draw_bank_map(svg, map, 20, y, title);
    y += bank_map_height(deepest(map)) + 20;
  }
  svg.text(20, y + 10,
           "Green: the first word a bank serves; red: each further word of the same bank, one more "
           "wavefront. The numbers: the lane that reads the word.",
           11);
  svg.save(path);
}

// ---------------------------------------------------------------------------------
// Chapter 2, padded shared memory: the row read of step 2, as column_sums_kernel
// arranges it, at strides 128, 130 and 129.

namespace chapter2 {

wb::bank_map::BankMap row_read(int stride) {
  const auto smem_layout = wb::col_major(ch02::kTileRows, ch02::kStripCols, stride);
  const auto sum_thread_layout = wb::row_major(ch02::kWarps, ch02::kStripCols);  // (8,32):(32,1)
  return wb::bank_map::of(smem_layout, sum_thread_layout, 0);
}

void row_read_figure(const std::string& folder) {
  const auto unpadded = row_read(128), plus_two = row_read(130), plus_one = row_read(129);
  require(unpadded.wavefronts == 32 && plus_two.wavefronts == 2 && plus_one.wavefronts == 1,
          "the row read no longer costs 32, 2 and 1 wavefronts at strides 128, 130 and 129");
  bank_maps_figure(
      folder + "/ch02_bank_maps_row_read.svg",
      "Chapter 2, step 2: warp 0 reads row 0 of the 128x32 tile, columns 0-31",
      {"lane c reads element (0, c), the word 0 + stride * c, in bank (stride * c) % 32",
       "stride 128: every column starts in bank 0; 130: in bank 2c % 32; 129: in bank c % 32"},
      {{"stride 128, no padding", unpadded},
       {"stride 130, padding 2 (the seed's)", plus_two},
       {"stride 129, padding 1", plus_one}});
}

}  // namespace chapter2

// ---------------------------------------------------------------------------------
// Chapter 3, transpose: the two thread layouts, the transposed read's bank maps, and
// the padding table of chapters 2, 3 and 5.

namespace chapter3 {

using ch03::kTileCols;
using ch03::kTileRows;
using wb::Int;

constexpr auto load_thread_layout = wb::col_major(Int<ch03::kLoadThreadRows>{}, Int<ch03::kLoadThreadCols>{});     // (32,8)
constexpr auto store_thread_layout = wb::col_major(Int<ch03::kStoreThreadRows>{}, Int<ch03::kStoreThreadCols>{});  // (16,16)
constexpr int kThreads = load_thread_layout.size();

wb::bank_map::BankMap transposed_read(int stride) {
  return wb::bank_map::of(wb::col_major(kTileRows, kTileCols, stride).transpose(), store_thread_layout, 0);
}
wb::bank_map::BankMap copy_in(int stride) {
  return wb::bank_map::of(wb::col_major(kTileRows, kTileCols, stride), load_thread_layout, 0);
}

// Which thread copies each element of the 128x16 tile, and which writes each element of
// the 16x128 output tile: the loops of step 2.
void thread_layouts_figure(const std::string& folder) {
  TileMap load{kTileRows, kTileCols, std::vector<int>(kTileRows * kTileCols, -1)};
  TileMap store{kTileCols, kTileRows, std::vector<int>(kTileRows * kTileCols, -1)};
  for (int t = 0; t < kThreads; ++t) {
    const wb::Coord load_coord = load_thread_layout.coord(t);
    for (int col = load_coord.col; col < kTileCols; col += ch03::kLoadThreadCols) {
      for (int row = load_coord.row; row < kTileRows; row += ch03::kLoadThreadRows) {
        load.thread[static_cast<std::size_t>(row * kTileCols + col)] = t;
      }
    }
    const wb::Coord store_coord = store_thread_layout.coord(t);
    for (int col = store_coord.col; col < kTileRows; col += ch03::kStoreThreadCols) {
      for (int row = store_coord.row; row < kTileCols; row += ch03::kStoreThreadRows) {
        int& owner = store.thread[static_cast<std::size_t>(row * kTileRows + col)];
        require(owner == -1, "an element of the output tile is written twice");
        owner = t;
      }
    }
  }
  for (int value : store.thread) require(value != -1, "an element of the output tile is never written");
  const double x0 = 50, top = 110, load_w = 12, load_h = 4;
  const double out_x = 330, out_w = 4, out_h = 12;
  const double legend_y = top + kTileRows * load_h + 46;
  Svg svg(out_x + kTileRows * out_w + 40, legend_y + 80);
  svg.text(20, 26, "Chapter 3: the two thread layouts of the transpose", 16, "start", true);
  svg.text(20, 46, "in: load_thread_layout (32,8) over the 128x16 tile; a warp copies 32 rows of one column", 12);
  svg.text(20, 62, "out: store_thread_layout (16,16) over the 16x128 output tile (smem_layout.transpose());", 12);
  svg.text(20, 78, "a warp writes 2 columns of the output, 16 rows each: tile rows 2w, 2w+1 across 16 columns", 12);
  svg.text(x0, top - 14, "copy in: the 128x16 tile", 11, "start", true);
  draw_whole_tile(svg, load, x0, top, load_w, load_h, ch03::kLoadThreadRows, ch03::kLoadThreadCols);
  svg.text(out_x, top - 14, "write out: the 16x128 output tile, by warp", 11, "start", true);
  for (int row = 0; row < kTileCols; ++row) {
    for (int col = 0; col < kTileRows; ++col) {
      svg.rect(out_x + col * out_w, top + row * out_h, out_w, out_h, warp_colour(store.at(row, col)));
    }
  }
  for (int col = 0; col <= kTileRows; col += ch03::kStoreThreadCols) {
    svg.line(out_x + col * out_w, top, out_x + col * out_w, top + kTileCols * out_h, "#222222", 1.2);
  }
  svg.rect(out_x, top, kTileRows * out_w, kTileCols * out_h, "none", "#222222", 1.5);
  svg.text(out_x - 4, top + 9, "0", 9, "end");
  svg.text(out_x - 4, top + kTileCols * out_h, std::to_string(kTileCols - 1), 9, "end");
  svg.text(out_x, top + kTileCols * out_h + 14, "col 0", 9);
  svg.text(out_x + kTileRows * out_w, top + kTileCols * out_h + 14, "col " + std::to_string(kTileRows - 1), 9, "end");
  svg.text(out_x, top + kTileCols * out_h + 34, "thick lines: the 16x16 thread layout, repeated 8 times across", 11);
  std::vector<std::string> notes;
  for (int warp = 0; warp < 8; ++warp) notes.push_back("warp " + std::to_string(warp) + " (" + std::to_string(warp * 32) + "-" + std::to_string(warp * 32 + 31) + ")");
  draw_warp_legend(svg, 20, legend_y, notes);
  svg.save(folder + "/ch03_thread_layouts.svg");
}

void transposed_read_figure(const std::string& folder) {
  const auto unpadded = transposed_read(128), plus_one = transposed_read(129), plus_two = transposed_read(130);
  require(unpadded.wavefronts == 16 && plus_one.wavefronts == 2 && plus_two.wavefronts == 1,
          "the transposed read no longer costs 16, 2 and 1 wavefronts at strides 128, 129 and 130");
  bank_maps_figure(
      folder + "/ch03_bank_maps_transposed_read.svg",
      "Chapter 3: warp 0 reads the output tile's rows 0-15, columns 0-1",
      {"lane l reads element (l % 16, l / 16) of the transposed view: the tile's (l / 16, l % 16),",
       "the word l / 16 + stride * (l % 16), in bank (l / 16 + stride * (l % 16)) % 32"},
      {{"stride 128, no padding", unpadded}, {"stride 129, padding 1", plus_one},
       {"stride 130, padding 2 (the seed's)", plus_two}});
}

// Figure: the padding table of chapters 2, 3 and 5, every cell computed.
void padding_table_figure(const std::string& folder) {
  const std::vector<int> strides = {128, 129, 130, 132};
  Svg svg(900, 90 + 34.0 * static_cast<double>(strides.size()) + 70);
  svg.text(20, 26, "Which padding suits which access: wavefronts per request of one warp", 16, "start", true);
  const std::vector<std::string> columns = {"stride", "copy in, 32x8 (ch. 1-3)",
                                            "row read, 32 wide (ch. 2)", "transposed read, 16x16 (ch. 3)",
                                            "column 1 at byte (ch. 5)"};
  const std::vector<double> xs = {20, 110, 300, 490, 700};
  for (std::size_t c = 0; c < columns.size(); ++c) svg.text(xs[c], 60, columns[c], 12, "start", true);
  double y = 90;
  for (int stride : strides) {
    const auto in = copy_in(stride);
    const auto row = chapter2::row_read(stride);
    const auto transposed = transposed_read(stride);
    const int column_one_byte = wb::col_major(kTileRows, kTileCols, stride)(0, 1) * 4;
    auto cell = [&](double x, const wb::bank_map::BankMap& map) {
      svg.rect(x - 6, y - 16, 180, 24, map.wavefronts <= map.ideal ? "#ccebc5" : "#fbb4ae");
      svg.text(x, y, std::to_string(map.wavefronts) + (map.wavefronts <= map.ideal ? ": conflict-free" : ": " + std::to_string(map.wavefronts) + "-way"), 12);
    };
    svg.text(xs[0], y, std::to_string(stride) + " (+" + std::to_string(stride - kTileRows) + ")", 12, "start", true);
    cell(xs[1], in);
    cell(xs[2], row);
    cell(xs[3], transposed);
    std::string alignment = std::to_string(column_one_byte) + ":";
    for (int bytes : {8, 16}) alignment += column_one_byte % bytes == 0 ? " " + std::to_string(bytes) + " B ok" : " " + std::to_string(bytes) + " B no";
    svg.rect(xs[4] - 6, y - 16, 180, 24, column_one_byte % 8 == 0 ? "#ccebc5" : "#fbb4ae");
    svg.text(xs[4], y, alignment, 12);
    y += 34;
  }
  svg.text(20, y + 10, "No stride is conflict-free for both the 32-wide row read and the 16x16 transposed read: odd strides", 11);
  svg.text(20, y + 26, "suit the first, strides of 2 mod 4 the second, and only even ones keep 8-byte copies aligned (chapter 5).", 11);
  svg.save(folder + "/ch03_padding_table.svg");
}

}  // namespace chapter3

// ---------------------------------------------------------------------------------
// Chapter 4, async GEMM: the pipeline of step 3 as a timeline, and the micro-tile of
// one thread in steps 1-3 and in step 4, from the constants of chapters/04_gemm.

namespace chapter4 {

using ch04::kStages;

// What a stage holds during one iteration of step 3's loop.
enum class StageState { empty, in_flight, landed, computing };

// Step 3's schedule, run as the kernel runs it: the prologue issues tiles 0 to
// kStages - 2 into stages 0 to kStages - 2; iteration k waits until at most
// kStages - 2 groups are in flight (tile k has landed), issues tile k + kStages - 1
// into stage (k + kStages - 1) % kStages, and computes stage k % kStages.
struct Timeline {
  std::vector<std::vector<StageState>> state;  // [iteration][stage]
  std::vector<std::vector<int>> tile;          // the tile a stage holds, -1 none
};

Timeline pipeline(int k_tiles) {
  Timeline timeline;
  std::vector<int> holds(kStages, -1);
  std::vector<bool> landed(kStages, false);
  std::vector<int> groups;  // the tiles of the groups in flight, oldest first
  for (int stage = 0; stage < kStages - 1; ++stage) {
    holds[static_cast<std::size_t>(stage)] = stage < k_tiles ? stage : -1;
    groups.push_back(stage < k_tiles ? stage : -1);
  }
  for (int k = 0; k < k_tiles; ++k) {
    while (static_cast<int>(groups.size()) > kStages - 2) {  // wait<kStages - 2>
      const int tile = groups.front();
      groups.erase(groups.begin());
      if (tile >= 0) landed[static_cast<std::size_t>(tile % kStages)] = true;
    }
    const int computed = k % kStages;
    require(holds[static_cast<std::size_t>(computed)] == k && landed[static_cast<std::size_t>(computed)],
            "step 3's pipeline computes a stage whose tile has not landed");
    const int next = k + kStages - 1;
    const int refill = next % kStages;
    require(refill != computed, "step 3's pipeline refills the stage it computes");
    holds[static_cast<std::size_t>(refill)] = next < k_tiles ? next : -1;
    landed[static_cast<std::size_t>(refill)] = false;
    groups.push_back(next < k_tiles ? next : -1);
    std::vector<StageState> row(kStages, StageState::empty);
    for (int stage = 0; stage < kStages; ++stage) {
      const auto s = static_cast<std::size_t>(stage);
      if (holds[s] < 0) continue;
      row[s] = stage == computed ? StageState::computing : landed[s] ? StageState::landed : StageState::in_flight;
    }
    int in_flight = 0;
    for (StageState state : row) in_flight += state == StageState::in_flight;
    require(k + 1 == k_tiles || in_flight >= 1, "step 3's pipeline has nothing in flight while it computes");
    timeline.state.push_back(row);
    timeline.tile.push_back(holds);
  }
  return timeline;
}

void pipeline_figure(const std::string& folder) {
  const int k_tiles = 7;
  const Timeline timeline = pipeline(k_tiles);
  const double x0 = 150, y0 = 126, cell_w = 104, cell_h = 44;
  Svg svg(x0 + k_tiles * cell_w + 30, y0 + kStages * cell_h + 150);
  svg.text(20, 26, "Chapter 4, step 3: a " + std::to_string(kStages) + "-stage pipeline over " +
                       std::to_string(k_tiles) + " k-tiles, one column per iteration",
           16, "start", true);
  // The loop's body on two lines, so that the figure need not be wider than its columns.
  svg.text(20, 46, "iteration k: cp_async_wait<" + std::to_string(kStages - 2) + ">(); load tile k + " +
                       std::to_string(kStages - 1) + " into stage (k + " + std::to_string(kStages - 1) + ") % " +
                       std::to_string(kStages) + ";",
           12, "start", false, true);
  svg.text(20, 62, "             __syncthreads(); compute stage k % " + std::to_string(kStages) + "; __syncthreads();",
           12, "start", false, true);
  svg.text(20, 78, "before the loop: tiles 0 to " + std::to_string(kStages - 2) + " in flight in stages 0 to " +
                       std::to_string(kStages - 2),
           12);
  for (int k = 0; k < k_tiles; ++k) {
    svg.text(x0 + (k + 0.5) * cell_w, y0 - 10, "k_tile = " + std::to_string(k), 12, "middle", true);
    for (int stage = 0; stage < kStages; ++stage) {
      const auto k_index = static_cast<std::size_t>(k);
      const auto s = static_cast<std::size_t>(stage);
      const StageState state = timeline.state[k_index][s];
      const int tile = timeline.tile[k_index][s];
      const char* fill = state == StageState::computing ? "#b3de69"
                         : state == StageState::in_flight ? "#fdb462"
                         : state == StageState::landed    ? "#80b1d3"
                                                          : "#eeeeee";
      const double x = x0 + k * cell_w, y = y0 + stage * cell_h;
      svg.rect(x, y, cell_w, cell_h, fill, "#ffffff", 2);
      const std::string label = state == StageState::computing ? "compute tile " + std::to_string(tile)
                                : state == StageState::in_flight ? "tile " + std::to_string(tile) + " in flight"
                                : state == StageState::landed    ? "tile " + std::to_string(tile) + " landed"
                                                                 : "(empty group)";
      svg.text(x + cell_w / 2, y + cell_h / 2 + 4, label, 11, "middle");
    }
  }
  for (int stage = 0; stage < kStages; ++stage) {
    svg.text(x0 - 10, y0 + (stage + 0.5) * cell_h + 4, "stage " + std::to_string(stage), 12, "end", true);
  }
  // The legend names only the states some cell shows: a colour no cell uses would only
  // puzzle the reader.
  const double legend_y = y0 + kStages * cell_h + 34;
  const std::vector<std::tuple<StageState, const char*, std::string>> states = {
      {StageState::computing, "#b3de69", "read by every thread: the FMAs of this iteration"},
      {StageState::in_flight, "#fdb462", "its cp.async copies in flight, issued this iteration or earlier"},
      {StageState::landed, "#80b1d3", "landed, read in a later iteration"}};
  int legend_rows = 0;
  for (const auto& [state, colour, meaning] : states) {
    bool shown = false;
    for (const auto& row : timeline.state) shown |= std::find(row.begin(), row.end(), state) != row.end();
    if (!shown) continue;
    const double y = legend_y + 20.0 * legend_rows++;
    svg.rect(20, y - 11, 14, 14, colour, "#666666", 0.5);
    svg.text(40, y, meaning, 12);
  }
  svg.text(20, legend_y + 20.0 * legend_rows + 10,
           "The stage refilled in iteration k is the one computed in iteration k - 1: the barrier at the end of "
           "each iteration keeps its readers ahead of the copies.",
           11);
  svg.save(folder + "/ch04_pipeline.svg");
}

// Figure: the elements of the block's 128x128 tile of C that one thread owns, in
// steps 1-3 (rows r + 16i, columns c + 16j) and in step 4 (ch04::micro_row/micro_col).
void micro_tile_figure(const std::string& folder) {
  const int tile = ch04::kTileM;
  const double cell = 3, x_left = 40, x_right = 40 + tile * cell + 80, y0 = 120;
  Svg svg(x_right + tile * cell + 40, y0 + tile * cell + 110);
  const int threads[] = {0, 17};
  const char* const colours[] = {"#e41a1c", "#377eb8"};
  svg.text(20, 26, "Chapter 4: the 8x8 elements of C that threads 0 and 17 own, in the block's " +
                       std::to_string(tile) + "x" + std::to_string(tile) + " tile",
           16, "start", true);
  svg.text(20, 46, "thread t sits at (r, c) = compute_thread_layout.coord(t) of the 16x16 thread layout", 12);
  for (int side = 0; side < 2; ++side) {
    const double x0 = side == 0 ? x_left : x_right;
    svg.rect(x0, y0, tile * cell, tile * cell, "#f4f4f4", "#222222", 1);
    for (int t = 0; t < 2; ++t) {
      const int r = threads[t] % ch04::kThreadRows, c = threads[t] / ch04::kThreadRows;
      std::set<std::pair<int, int>> owned;
      for (int i = 0; i < ch04::kMicroM; ++i) {
        for (int j = 0; j < ch04::kMicroN; ++j) {
          const int row = side == 0 ? r + i * ch04::kThreadRows : ch04::micro_row(r, i);
          const int col = side == 0 ? c + j * ch04::kThreadCols : ch04::micro_col(c, j);
          require(row < tile && col < tile, "a thread owns an element outside the tile");
          owned.insert({row, col});
          svg.rect(x0 + col * cell, y0 + row * cell, cell, cell, colours[t]);
        }
      }
      require(owned.size() == static_cast<std::size_t>(ch04::kMicroM * ch04::kMicroN),
              "a thread owns the same element twice");
    }
    svg.text(x0, y0 - 24, side == 0 ? "steps 1-3: rows r + 16i, columns c + 16j" : "step 4: 2x2 blocks of 4x4", 12,
             "start", true);
    svg.text(x0, y0 - 8,
             side == 0 ? "8 scalar loads of A, 8 of B per k, 16 apart" : "micro_row(r, i), micro_col(c, j): 2 float4 of A, 2 of B per k",
             11);
  }
  // Every element of the tile owned exactly once in step 4.
  std::vector<int> owners(static_cast<std::size_t>(tile * tile), 0);
  for (int t = 0; t < ch04::kThreadRows * ch04::kThreadCols; ++t) {
    for (int i = 0; i < ch04::kMicroM; ++i) {
      for (int j = 0; j < ch04::kMicroN; ++j) {
        owners[static_cast<std::size_t>(ch04::micro_row(t % ch04::kThreadRows, i) * tile +
                                        ch04::micro_col(t / ch04::kThreadRows, j))]++;
      }
    }
  }
  for (int count : owners) require(count == 1, "step 4's micro-tiles do not cover the tile exactly once");
  const double note_y = y0 + tile * cell + 30;
  svg.text(20, note_y, "red: thread 0 at (0, 0); blue: thread 17 at (1, 1). Per k, a thread reads its 8 values of A "
                       "(one per row it owns) and 8 of B (one per column)", 11);
  svg.text(20, note_y + 16, "once into registers and does 64 FMAs on them: 16 loads for 64 FMAs, or 4 float4 loads "
                            "in step 4, where steps 1-3 read A and B for every FMA.", 11);
  svg.save(folder + "/ch04_micro_tile.svg");
}

}  // namespace chapter4

// ---------------------------------------------------------------------------------
// Chapter 5, vectorized copies: where each column of a padded (128,16) tile starts, in
// bytes, for paddings +0 to +4, and which copy widths may start there.

namespace chapter5 {

void column_bases_figure(const std::string& folder) {
  const int columns = 8;  // enough to show every pattern: bases repeat in c mod 4
  const std::vector<int> widths = {4, 8, 16};
  const double x0 = 110, cell_w = 92, row_h = 58, y0 = 96;
  Svg svg(x0 + cell_w * columns + 190, y0 + row_h * 5 + 70);
  svg.text(20, 26, "Where column c of a (128,16) tile padded by p floats starts: byte c * (128 + p) * 4", 16, "start",
           true);
  svg.text(20, 46, "Each cell: the byte offset, then the copy widths that may start there (green) or not (red).", 12);
  for (int c = 0; c < columns; ++c) svg.text(x0 + cell_w * c + cell_w / 2, y0 - 16, "column " + std::to_string(c), 12, "middle", true);
  svg.text(x0 + cell_w * columns + 16, y0 - 16, "copies allowed", 12, "start", true);
  for (int pad = 0; pad <= 4; ++pad) {
    const double y = y0 + row_h * pad;
    const auto layout = wb::col_major(ch05::kTileRows, ch05::kTileCols, ch05::kTileRows + pad);
    svg.text(20, y + 24, "p = +" + std::to_string(pad), 13, "start", true);
    std::string allowed;
    for (int width : widths) {
      bool every_column = true;
      for (int c = 0; c < ch05::kTileCols; ++c) every_column &= layout(0, c) * 4 % width == 0;
      if (every_column) allowed += (allowed.empty() ? "" : ", ") + std::to_string(width) + " B";
    }
    for (int c = 0; c < columns; ++c) {
      const int byte = layout(0, c) * 4;
      const double x = x0 + cell_w * c;
      svg.rect(x + 2, y, cell_w - 4, row_h - 8, "#f4f4f4", "#bbbbbb", 0.5);
      svg.text(x + cell_w / 2, y + 18, std::to_string(byte), 12, "middle", true, true);
      for (std::size_t w = 0; w < widths.size(); ++w) {
        const bool aligned = byte % widths[w] == 0;
        const double cx = x + 8 + 26.0 * static_cast<double>(w);
        svg.rect(cx, y + 26, 24, 18, aligned ? "#ccebc5" : "#fbb4ae");
        svg.text(cx + 12, y + 39, std::to_string(widths[w]), 11, "middle");
      }
    }
    svg.text(x0 + cell_w * columns + 16, y + 24, allowed, 12);
  }
  const double y = y0 + row_h * 5;
  svg.text(20, y + 14, "Every column must allow the width: +1 and +3 allow only 4-byte copies, +2 allows 8 bytes, +0 and +4 allow 16.", 12);
  svg.text(20, y + 32, "The seed's +1 puts column 1 at byte 516 = 8 * 64 + 4: the first 8-byte copy into it is misaligned.", 12);
  svg.save(folder + "/ch05_column_bases.svg");
}

}  // namespace chapter5
// Chapter 6, halo convolution: a tile and its span (the halo on each side, zeros past
// the array's start), and step 2's two buffers over a block's tiles, from the constants
// of chapters/06_halo.

namespace chapter6 {

using ch06::kBuffers;
using ch06::kHalo;
using ch06::kTile;
using ch06::kWidth;

// Figure: the first tiles of the array, the spans of tiles 0 and 1 under them, and the
// inputs one output reads.
void span_figure(Svg& svg, double y0) {
  const int tiles_drawn = 3;
  const double x0 = 130, tile_w = 300, cell = tile_w / 12;  // a tile drawn as 12 cells, the halo as kHalo cells
  svg.text(20, y0, "The array in tiles of " + std::to_string(kTile) + " outputs; a tile's span is its inputs and " +
                       std::to_string(kHalo) + " more on each side (the halo, for " + std::to_string(kWidth) +
                       " weights)",
           13, "start", true);
  const double array_y = y0 + 30;
  svg.text(x0 - kHalo * cell - 8, array_y + 17, "input", 12, "end");
  for (int t = 0; t < tiles_drawn; ++t) {
    const double x = x0 + t * tile_w;
    svg.rect(x, array_y, tile_w, 26, t == 1 ? "#80b1d3" : "#dddddd", "#ffffff", 2);
    svg.text(x + tile_w / 2, array_y + 17,
             "tile " + std::to_string(t) + ": [" + std::to_string(t * kTile) + ", " + std::to_string((t + 1) * kTile) + ")",
             12, "middle");
  }
  svg.text(x0 + tiles_drawn * tile_w + 8, array_y + 17, "...", 12);
  // The spans of tiles 0 and 1, each on a row: halo, tile, halo.
  for (int t = 0; t < 2; ++t) {
    const double y = array_y + 50 + t * 62;
    const int span_start = t * kTile - kHalo;
    const double x_tile = x0 + t * tile_w;
    svg.text(x0 - kHalo * cell - 8, y + 17, "span " + std::to_string(t), 12, "end", true);
    for (int h = 0; h < kHalo; ++h) {
      const int left = span_start + h, right = (t + 1) * kTile + h;
      const double xl = x_tile - (kHalo - h) * cell, xr = x_tile + tile_w + h * cell;
      svg.rect(xl, y, cell, 26, left < 0 ? "#ffffff" : "#fdb462", "#666666", 1);
      svg.text(xl + cell / 2, y + 17, left < 0 ? "0" : std::to_string(left), 9, "middle");
      svg.rect(xr, y, cell, 26, "#fdb462", "#666666", 1);
      svg.text(xr + cell / 2, y + 17, std::to_string(right), 9, "middle");
    }
    svg.rect(x_tile, y, tile_w, 26, "#80b1d3", "#666666", 1);
    svg.text(x_tile + tile_w / 2, y + 17,
             "smem_span[" + std::to_string(kHalo) + ", " + std::to_string(kTile + kHalo) + ") = input[" +
                 std::to_string(t * kTile) + ", " + std::to_string((t + 1) * kTile) + ")",
             11, "middle");
    const std::string note = t == 0 ? "input[-" + std::to_string(kHalo) + ", " + std::to_string(kTile + kHalo) +
                                          "): the left halo lies before the array, copied as zeros (0-byte cp.async)"
                                    : "input[" + std::to_string(span_start) + ", " +
                                          std::to_string((t + 1) * kTile + kHalo) + "): " +
                                          std::to_string(kTile + 2 * kHalo) + " elements, overlapping both neighbours";
    svg.text(x_tile - kHalo * cell, y + 42, note, 11);
  }
  // One output's window: output 256 (the first of tile 1) reads smem_span[0, kWidth).
  const double window_y = array_y + 50 + 62;
  const double x_window = x0 + tile_w - kHalo * cell;
  svg.rect(x_window, window_y - 4, kWidth * cell, 34, "none", "#e41a1c", 2);
  svg.text(x_window + kWidth * cell + 6, window_y - 8,
           "output " + std::to_string(kTile) + " reads input[" + std::to_string(kTile - kHalo) + ", " +
               std::to_string(kTile + kHalo + 1) + "): the left halo and " + std::to_string(kWidth - kHalo) +
               " inputs of its tile",
           11, "start", false);
}

// What a buffer holds during one iteration of step 2's loop.
enum class BufferState { empty, in_flight, computing };

// Step 2's schedule for one block, run as the kernel runs it: before the loop its first
// tile goes into buffer 0; iteration i issues tile i + 1 into buffer (i + 1) % 2 (if
// there is one), waits until one group at most is in flight (tile i has landed), and
// computes buffer i % 2.
std::vector<std::vector<BufferState>> double_buffering(int tiles, std::vector<std::vector<int>>* held) {
  std::vector<std::vector<BufferState>> states;
  std::vector<int> holds(kBuffers, -1);
  std::vector<bool> landed(kBuffers, false);
  std::vector<int> groups;  // the tiles of the groups in flight, oldest first (-1: an empty group)
  holds[0] = 0;
  groups.push_back(0);
  for (int i = 0; i < tiles; ++i) {
    const int next = i + 1, refill = next % kBuffers, computed = i % kBuffers;
    require(refill != computed, "step 2 refills the buffer it computes");
    if (next < tiles) {
      holds[static_cast<std::size_t>(refill)] = next;
      landed[static_cast<std::size_t>(refill)] = false;
    }
    groups.push_back(next < tiles ? next : -1);
    require(static_cast<int>(groups.size()) == 2, "step 2 has two groups committed at each wait");
    while (groups.size() > 1) {  // wait<1>
      if (groups.front() >= 0) landed[static_cast<std::size_t>(groups.front() % kBuffers)] = true;
      groups.erase(groups.begin());
    }
    require(holds[static_cast<std::size_t>(computed)] == i && landed[static_cast<std::size_t>(computed)],
            "step 2 computes a buffer whose tile has not landed");
    std::vector<BufferState> row(kBuffers, BufferState::empty);
    for (int b = 0; b < kBuffers; ++b) {
      const auto index = static_cast<std::size_t>(b);
      if (b == computed) {
        row[index] = BufferState::computing;
      } else if (holds[index] > i) {
        row[index] = landed[index] ? BufferState::empty : BufferState::in_flight;
      }
    }
    require(next >= tiles || row[static_cast<std::size_t>(refill)] == BufferState::in_flight,
            "step 2 has nothing in flight while it computes");
    states.push_back(row);
    held->push_back(holds);
  }
  return states;
}

void double_buffer_figure(Svg& svg, double y0) {
  const int tiles = 6;
  std::vector<std::vector<int>> held;
  const std::vector<std::vector<BufferState>> states = double_buffering(tiles, &held);
  const double x0 = 150, cell_w = 150, cell_h = 40, grid_y = y0 + 66;
  svg.text(20, y0, "Step 2: one block's two buffers over its tiles, one column per iteration", 13, "start", true);
  svg.text(20, y0 + 20,
           "iteration i: load_span_async(tile i + 1 into smem_span[(i + 1) % 2]); commit; cp_async_wait<1>(); "
           "__syncthreads(); convolve smem_span[i % 2]; __syncthreads();",
           11, "start", false, true);
  svg.text(20, y0 + 36,
           "the block's tile i is tile blockIdx.x + i * gridDim.x of the array; before the loop its tile 0 goes into "
           "buffer 0, and the weights are loaded while it travels",
           11);
  for (int i = 0; i < tiles; ++i) {
    svg.text(x0 + (i + 0.5) * cell_w, grid_y - 8, "iteration " + std::to_string(i), 12, "middle", true);
    for (int b = 0; b < kBuffers; ++b) {
      const BufferState state = states[static_cast<std::size_t>(i)][static_cast<std::size_t>(b)];
      const int tile = held[static_cast<std::size_t>(i)][static_cast<std::size_t>(b)];
      const char* fill = state == BufferState::computing ? "#b3de69" : state == BufferState::in_flight ? "#fdb462" : "#eeeeee";
      const double x = x0 + i * cell_w, y = grid_y + b * cell_h;
      svg.rect(x, y, cell_w, cell_h, fill, "#ffffff", 2);
      const std::string label = state == BufferState::computing ? "compute its tile " + std::to_string(tile)
                                : state == BufferState::in_flight ? "tile " + std::to_string(tile) + " in flight"
                                                                  : "(free)";
      svg.text(x + cell_w / 2, y + cell_h / 2 + 4, label, 11, "middle");
    }
  }
  for (int b = 0; b < kBuffers; ++b) {
    svg.text(x0 - 10, grid_y + (b + 0.5) * cell_h + 4, "smem_span[" + std::to_string(b) + "]", 12, "end", true);
  }
  const double legend_y = grid_y + kBuffers * cell_h + 26;
  svg.rect(20, legend_y - 11, 14, 14, "#b3de69", "#666666", 0.5);
  svg.text(40, legend_y, "read by every thread: this tile's outputs (landed at the wait<1>, visible after the barrier)", 12);
  svg.rect(20, legend_y + 9, 14, 14, "#fdb462", "#666666", 0.5);
  svg.text(40, legend_y + 20, "the next tile's span, its cp.async copies issued before this tile's wait and still travelling", 12);
  svg.text(20, legend_y + 44,
           "The buffer refilled in iteration i is the one computed in iteration i - 1: the barrier at the end of each "
           "iteration keeps its readers ahead of the copies.",
           11);
}

void halo_figure(const std::string& folder) {
  Svg svg(1080, 560);
  svg.text(20, 26, "Chapter 6: a tile, its halo, and step 2's two buffers over time", 16, "start", true);
  span_figure(svg, 60);
  double_buffer_figure(svg, 300);
  svg.save(folder + "/ch06_halo.svg");
}

}  // namespace chapter6

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_FOLDER\n", argv[0]);
    return 2;
  }
  const std::string folder = argv[1];
  try {
    chapter1::copy_threads_figure(folder);
    chapter1::store_order_figure(folder);
    chapter1::grid_figure(folder);
    chapter2::row_read_figure(folder);
    chapter3::thread_layouts_figure(folder);
    chapter3::transposed_read_figure(folder);
    chapter3::padding_table_figure(folder);
    chapter4::pipeline_figure(folder);
    chapter4::micro_tile_figure(folder);
    chapter5::column_bases_figure(folder);
    chapter6::halo_figure(folder);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "figures: %s\n", error.what());
    return 1;
  }
  return 0;
}
