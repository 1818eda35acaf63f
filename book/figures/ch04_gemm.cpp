// Chapter 4's figures: the pipeline of step 3 as a timeline, the micro-tile of one
// thread in steps 1-3 and in step 4, and one warp's kk loop in steps 4 and 5, from the
// constants of chapters/04_gemm/gemm.hpp.
#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "figures.hpp"
#include "gemm.hpp"  // chapters/04_gemm: the tile shapes, stages and micro-tile
#include "svg.hpp"
#include "tile_drawing.hpp"

namespace figures {
namespace chapter4 {

namespace {

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

// Figure: one warp's kk loop alone, in step 4 (a column's float4 loads, then its FMAs,
// which wait for them) and in step 5 (column kk + 1's loads issued before column kk's
// FMAs, which use the registers read one column earlier). A model in cycles, not a
// measurement: a warp issues one instruction a cycle, and a shared load returns
// kLoadLatency cycles after its issue.
void double_buffer_figure(const std::string& folder) {
  constexpr int kLoadLatency = 30;
  constexpr int kLoads = (ch04::kMicroM + ch04::kMicroN) / ch04::kVector;  // 4 float4
  constexpr int kFmas = ch04::kMicroM * ch04::kMicroN;                     // 64
  constexpr int kColumns = 4;
  struct Span {
    int start, length;
    const char* fill;
    std::string label;
  };
  std::vector<Span> step4, step5;
  int t = 0;
  for (int kk = 0; kk < kColumns; ++kk) {
    step4.push_back({t, kLoads, "#80b1d3", ""});
    step4.push_back({t + kLoads, kLoadLatency - kLoads, "#fb8072", ""});
    step4.push_back({t + kLoadLatency, kFmas, "#b3de69", "FMAs of kk = " + std::to_string(kk)});
    t += kLoadLatency + kFmas;
  }
  const int step4_end = t;
  // Step 5: column 0's loads before the loop (after the barrier), then each kk issues the
  // next column's loads and runs its FMAs on the registers already there.
  step5.push_back({0, kLoads, "#80b1d3", ""});
  step5.push_back({kLoads, kLoadLatency - kLoads, "#fb8072", ""});
  t = kLoadLatency;
  for (int kk = 0; kk < kColumns; ++kk) {
    step5.push_back({t, kLoads, "#80b1d3", ""});
    step5.push_back({t + kLoads, kFmas, "#b3de69", "FMAs of kk = " + std::to_string(kk)});
    t += kLoads + kFmas;
  }
  const int step5_end = t;
  const double x0 = 110, scale = 2.2, row_h = 34, y4 = 90, y5 = 150;
  Svg svg(x0 + scale * step4_end + 40, y5 + row_h + 110);
  svg.text(20, 26, "Chapter 4: one warp's loop over kk alone, " + std::to_string(kColumns) +
                       " columns (a model in cycles, not a measurement)", 16, "start", true);
  svg.text(20, 46, "a shared load returns " + std::to_string(kLoadLatency) +
                       " cycles after its issue; a warp issues one instruction a cycle: " + std::to_string(kLoads) +
                       " float4 loads and " + std::to_string(kFmas) + " FMAs a column", 12);
  const auto draw_row = [&](const std::vector<Span>& spans, double y, const std::string& name, int end) {
    svg.text(x0 - 10, y + row_h / 2 + 4, name, 12, "end", true);
    for (const Span& span : spans) {
      svg.rect(x0 + scale * span.start, y, scale * span.length, row_h, span.fill, "#ffffff", 1);
      if (!span.label.empty()) svg.text(x0 + scale * (span.start + span.length / 2.0), y + row_h / 2 + 4, span.label, 11, "middle");
    }
    svg.text(x0 + scale * end + 6, y + row_h / 2 + 4, std::to_string(end) + " cycles", 11);
  };
  draw_row(step4, y4, "step 4", step4_end);
  draw_row(step5, y5, "step 5", step5_end);
  const double legend_y = y5 + row_h + 34;
  const std::vector<std::pair<const char*, std::string>> legend = {
      {"#80b1d3", "float4 loads of a column's fragments issued"},
      {"#fb8072", "the warp waits: its next instruction needs a load that has not returned"},
      {"#b3de69", "the 64 FMAs of one column"}};
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const double y = legend_y + 20.0 * static_cast<double>(i);
    svg.rect(20, y - 11, 14, 14, legend[i].first, "#666666", 0.5);
    svg.text(40, y, legend[i].second, 12);
  }
  svg.text(20, legend_y + 70,
           "Step 5's loads of column kk + 1 go into the other buffer while column kk's FMAs run: their wait hides "
           "under the FMAs. Other warps of the SM fill a waiting warp's gaps when they have work ready.",
           11);
  svg.save(folder + "/ch04_double_buffer.svg");
}

}  // namespace

void draw(const std::string& folder) {
  pipeline_figure(folder);
  micro_tile_figure(folder);
  double_buffer_figure(folder);
}

}  // namespace chapter4
}  // namespace figures
