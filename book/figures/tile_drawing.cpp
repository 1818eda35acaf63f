// The drawing shared by the chapters' figures (tile_drawing.hpp): the warps' colours,
// tile maps drawn whole, the warp legend, and the bank maps of a warp request.
#include "tile_drawing.hpp"

#include <algorithm>
#include <stdexcept>

namespace figures {

namespace {

// One light colour per warp, dark enough to tell apart, light enough for black text.
const char* const kWarpColours[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072",
                                    "#80b1d3", "#fdb462", "#b3de69", "#fccde5"};

}  // namespace

const char* warp_colour(int thread) { return kWarpColours[(thread / 32) % 8]; }

void require(bool condition, const std::string& what) {
  if (!condition) throw std::runtime_error(what);
}

std::string coord_text(int row, int col) {
  return "(" + std::to_string(row) + "," + std::to_string(col) + ")";
}

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

void draw_warp_legend(Svg& svg, double x0, double y0, const std::vector<std::string>& notes) {
  for (int warp = 0; warp < 8; ++warp) {
    const double x = x0 + (warp % 4) * 200;
    const double y = y0 + (warp / 4) * 20;
    svg.rect(x, y - 11, 14, 14, kWarpColours[warp], "#666666", 0.5);
    svg.text(x + 20, y, notes[static_cast<std::size_t>(warp)], 11);
  }
}

// ---------------------------------------------------------------------------------
// Bank maps (tile_drawing.hpp says what they show).

namespace {

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

}  // namespace

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

}  // namespace figures
