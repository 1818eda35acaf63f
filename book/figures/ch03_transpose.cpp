// Chapter 3's figures: the transpose's two thread layouts (chapters/03_transpose/
// transpose.hpp's load_thread_layout and store_thread_layout, which the kernels use),
// the transposed read's bank maps, and the padding table of chapters 2, 3 and 5.
#include <string>
#include <vector>

#include "figures.hpp"
#include "padded.hpp"  // chapters/02_padded: its tile's rows, for the padding table
#include "svg.hpp"
#include "tile_drawing.hpp"
#include "transpose.hpp"  // chapters/03_transpose: the tile shape and thread layouts
#include "wb/bank_map.hpp"
#include "wb/layout.hpp"

namespace figures {
namespace chapter3 {

namespace {

using ch03::kThreads;
using ch03::kTileCols;
using ch03::kTileRows;
using ch03::load_thread_layout;
using ch03::store_thread_layout;

// The tile at each stride the figures compare is built here from the header's shape
// (smem_layout is the kernels' unpadded tile only); the thread layouts are the kernels'.
wb::bank_map::BankMap transposed_read(int stride) {
  return wb::bank_map::of(wb::col_major(kTileRows, kTileCols, stride).transpose(), store_thread_layout, 0);
}
wb::bank_map::BankMap copy_in(int stride) {
  return wb::bank_map::of(wb::col_major(kTileRows, kTileCols, stride), load_thread_layout, 0);
}

// Which thread copies each element of the 256x16 tile, and which writes each element of
// the 16x256 output tile: the loops of step 2.
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
  const double x0 = 50, top = 110, load_w = 12, load_h = 2;
  const double out_x = 330, out_w = 2, out_h = 12;
  const double legend_y = top + kTileRows * load_h + 46;
  Svg svg(out_x + kTileRows * out_w + 40, legend_y + 80);
  svg.text(20, 26, "Chapter 3: the two thread layouts of the transpose", 16, "start", true);
  const std::string tile = std::to_string(kTileRows) + "x" + std::to_string(kTileCols);
  const std::string output_tile = std::to_string(kTileCols) + "x" + std::to_string(kTileRows);
  svg.text(20, 46, "in: load_thread_layout (32,8) over the " + tile + " tile; a warp copies 32 rows of one column", 12);
  svg.text(20, 62, "out: store_thread_layout (16,16) over the " + output_tile +
                       " output tile (smem_layout.transpose());", 12);
  svg.text(20, 78, "a warp writes 2 columns of the output, 16 rows each: tile rows 2w, 2w+1 across 16 columns", 12);
  svg.text(x0, top - 14, "copy in: the " + tile + " tile", 11, "start", true);
  draw_whole_tile(svg, load, x0, top, load_w, load_h, ch03::kLoadThreadRows, ch03::kLoadThreadCols);
  svg.text(out_x, top - 14, "write out: the " + output_tile + " output tile, by warp", 11, "start", true);
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
  svg.text(out_x, top + kTileCols * out_h + 34, "thick lines: the 16x16 thread layout, repeated " +
               std::to_string(kTileRows / ch03::kStoreThreadCols) + " times across", 11);
  std::vector<std::string> notes;
  for (int warp = 0; warp < 8; ++warp) notes.push_back("warp " + std::to_string(warp) + " (" + std::to_string(warp * 32) + "-" + std::to_string(warp * 32 + 31) + ")");
  draw_warp_legend(svg, 20, legend_y, notes);
  svg.save(folder + "/ch03_thread_layouts.svg");
}

void transposed_read_figure(const std::string& folder) {
  const auto unpadded = transposed_read(kTileRows), plus_one = transposed_read(kTileRows + 1),
             plus_two = transposed_read(kTileRows + 2);
  require(unpadded.wavefronts == 16 && plus_one.wavefronts == 2 && plus_two.wavefronts == 1,
          "the transposed read no longer costs 16, 2 and 1 wavefronts at paddings 0, 1 and 2");
  const auto stride_text = [](int padding) {
    return "stride " + std::to_string(kTileRows + padding) + ", padding " + std::to_string(padding);
  };
  bank_maps_figure(
      folder + "/ch03_bank_maps_transposed_read.svg",
      "Chapter 3: warp 0 reads the output tile's rows 0-15, columns 0-1",
      {"lane l reads element (l % 16, l / 16) of the transposed view: the tile's (l / 16, l % 16),",
       "the word l / 16 + stride * (l % 16), in bank (l / 16 + stride * (l % 16)) % 32"},
      {{stride_text(0) + " (none)", unpadded}, {stride_text(1), plus_one},
       {stride_text(2) + " (the seed's)", plus_two}});
}

// Figure: the padding table of chapters 2, 3 and 5, every cell computed.
void padding_table_figure(const std::string& folder) {
  // Each chapter's tile has its own rows (128 in chapter 2, kTileRows here); the banks
  // depend only on the padding, the stride modulo 32.
  const std::vector<int> paddings = {0, 1, 2, 4};
  Svg svg(900, 90 + 34.0 * static_cast<double>(paddings.size()) + 70);
  svg.text(20, 26, "Which padding suits which access: wavefronts per request of one warp", 16, "start", true);
  const std::vector<std::string> columns = {"padding", "copy in, 32x8 (ch. 1-3)",
                                            "row read, 32 wide (ch. 2)", "transposed read, 16x16 (ch. 3)",
                                            "column 1 at byte (ch. 5)"};
  const std::vector<double> xs = {20, 110, 300, 490, 700};
  for (std::size_t c = 0; c < columns.size(); ++c) svg.text(xs[c], 60, columns[c], 12, "start", true);
  double y = 90;
  for (int padding : paddings) {
    const int stride = kTileRows + padding;
    const auto in = copy_in(stride);
    const auto row = chapter2::row_read(ch02::kTileRows + padding);
    const auto transposed = transposed_read(stride);
    const int column_one_byte = wb::col_major(kTileRows, kTileCols, stride)(0, 1) * 4;
    auto cell = [&](double x, const wb::bank_map::BankMap& map) {
      svg.rect(x - 6, y - 16, 180, 24, map.wavefronts <= map.ideal ? "#ccebc5" : "#fbb4ae");
      svg.text(x, y, std::to_string(map.wavefronts) + (map.wavefronts <= map.ideal ? ": conflict-free" : ": " + std::to_string(map.wavefronts) + "-way"), 12);
    };
    svg.text(xs[0], y, "+" + std::to_string(padding), 12, "start", true);
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

}  // namespace

void draw(const std::string& folder) {
  thread_layouts_figure(folder);
  transposed_read_figure(folder);
  padding_table_figure(folder);
}

}  // namespace chapter3
}  // namespace figures
