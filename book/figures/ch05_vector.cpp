// Chapter 5's figure: where each column of a padded (128,16) tile starts, in bytes, for
// paddings +0 to +4, and which copy widths may start there.
#include <cstddef>
#include <string>
#include <vector>

#include "figures.hpp"
#include "svg.hpp"
#include "vector.hpp"  // chapters/05_vector: the tile shape
#include "wb/layout.hpp"

namespace figures {
namespace chapter5 {

namespace {

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
    // The tile at each padding, built here from the header's shape: the kernels' layouts
    // (vector.cu) have one padding each.
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

}  // namespace

void draw(const std::string& folder) {
  column_bases_figure(folder);
}

}  // namespace chapter5
}  // namespace figures
