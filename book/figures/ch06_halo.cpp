// Chapter 6's figure: a tile and its span (the halo on each side, zeros past the
// array's start), and step 2's two buffers over a block's tiles, from the constants of
// chapters/06_halo/halo.hpp.
#include <cstddef>
#include <string>
#include <vector>

#include "figures.hpp"
#include "halo.hpp"  // chapters/06_halo: the tile, halo and buffers
#include "svg.hpp"
#include "tile_drawing.hpp"

namespace figures {
namespace chapter6 {

namespace {

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

}  // namespace

void draw(const std::string& folder) {
  halo_figure(folder);
}

}  // namespace chapter6
}  // namespace figures
