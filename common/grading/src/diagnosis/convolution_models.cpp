#include "wb/grading/diagnosis/convolution_models.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "wb/grading/diagnosis/byte_counts.hpp"
#include "wb/grading/diagnosis/in_flight.hpp"

namespace wb::grading {

namespace {

int halo_of(int width) { return (width - 1) / 2; }

std::string plural(int count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// What the positions and values of the wrong outputs say. Each finding returns its
// cause, or "" when the wrong outputs do not show it.
class ConvolutionEvidence {
 public:
  explicit ConvolutionEvidence(const ConvolutionRun& run) : run_(run) {
    for (std::size_t i = 0; i < run.output.size(); ++i) {
      if (!close(run.output[i], run.reference[i])) wrong_.push_back(static_cast<int>(i));
    }
  }

  // The outputs past the last whole tile never written: the tile count rounded down.
  std::string last_partial_tile_unwritten() const {
    const int n = run_.check.n, tile = run_.check.tile;
    const int whole = n / tile * tile;
    if (n % tile == 0 || whole == 0) return "";
    for (int i : wrong_) {
      if (i < whole || !poison::matches(run_.output[static_cast<std::size_t>(i)], poison::Kind::unwritten)) return "";
    }
    if (static_cast<int>(wrong_.size()) != n - whole) return "";
    return "the outputs past the last whole tile (i = " + std::to_string(whole) + " to " + std::to_string(n - 1) +
           ") were never written: is the number of tiles rounded down (n / " + std::to_string(tile) +
           " instead of (n + " + std::to_string(tile - 1) + ") / " + std::to_string(tile) +
           "), in the grid or in the loop over tiles?";
  }

  // Every wrong output never written, and exactly those that tiles placed `stride` apart
  // leave out, each tile writing its own outputs from t * stride on: the tile's origin
  // counted with a longer stride (the span's length, tile + 2 * halo, or tile + halo).
  std::string tile_origin_strided_by_the_span() const {
    const int n = run_.check.n, tile = run_.check.tile, halo = halo_of(run_.check.width);
    const int tiles = (n + tile - 1) / tile;
    if (wrong_.empty() || tiles < 2 || halo <= 0) return "";
    for (int i : wrong_) {
      if (!poison::matches(run_.output[static_cast<std::size_t>(i)], poison::Kind::unwritten)) return "";
    }
    const std::pair<int, std::string> strides[] = {
        {tile + 2 * halo, "the span's length, the tile and its two halos"}, {tile + halo, "the tile and one halo"}};
    for (const auto& [stride, name] : strides) {
      std::vector<bool> written(static_cast<std::size_t>(n), false);
      for (long long t = 0; t < tiles; ++t) {
        for (long long j = t * stride; j < t * stride + tile && j < n; ++j) written[static_cast<std::size_t>(j)] = true;
      }
      std::vector<int> unwritten;
      for (int i = 0; i < n; ++i) {
        if (!written[static_cast<std::size_t>(i)]) unwritten.push_back(i);
      }
      if (unwritten != wrong_) continue;
      return "the outputs never written (" + std::to_string(wrong_.size()) + ", from " + std::to_string(wrong_.front()) +
             " on) are exactly those that tiles placed " + std::to_string(stride) + " outputs apart leave out: tile t's "
             "origin is t * " + std::to_string(stride) + " (" + name + ") where tiles lie " + std::to_string(tile) +
             " apart, so each tile writes its " + std::to_string(tile) + " outputs from t * " + std::to_string(stride) +
             " and the " + std::to_string(stride - tile) + " outputs between one tile's last and the next one's first "
             "are never written. The span is longer than the tile it feeds; the tiles follow one another at the "
             "tile's own length.";
    }
    return "";
  }

  // Where block b walks the tiles b, b + blocks, ...: the outputs never written are exactly
  // the tiles of the last round, the one that only some blocks take (tiles / blocks rounds
  // down), and nothing else is wrong: each block's count of tiles was rounded down.
  std::string last_round_unwritten() const {
    const int n = run_.check.n, tile = run_.check.tile;
    const int tiles = (n + tile - 1) / tile;
    const auto blocks = static_cast<int>(run_.blocks);
    if (blocks <= 1 || tiles % blocks == 0 || tiles < blocks) return "";
    const int first = tiles / blocks * blocks * tile;  // the last round's first output
    for (int i : wrong_) {
      if (i < first || !poison::matches(run_.output[static_cast<std::size_t>(i)], poison::Kind::unwritten)) return "";
    }
    if (static_cast<int>(wrong_.size()) != n - first) return "";
    return "the outputs from " + std::to_string(first) + " on (tiles " + std::to_string(tiles / blocks * blocks) +
           " to " + std::to_string(tiles - 1) + ") were never written, every other is right: with " +
           std::to_string(blocks) + " blocks walking the " + std::to_string(tiles) + " tiles b, b + " +
           std::to_string(blocks) + ", ..., these are the last round's, which only the first " +
           std::to_string(tiles % blocks) + " blocks take, and they skipped it: a block's count of its tiles was rounded down. Count them rounding "
           "up, or loop while the block's tile is below the tile count.";
  }

  // Outputs read in flight: in the first or last tile of every block (a commit), or the
  // step's own cause.
  std::string read_in_flight() const {
    const bool any_in_flight = std::any_of(wrong_.begin(), wrong_.end(), [&](int i) {
      return poison::matches(run_.output[static_cast<std::size_t>(i)], poison::Kind::in_flight);
    });
    if (!any_in_flight) return "";
    if (const std::string streamed = in_flight_in_first_or_last_tiles(); !streamed.empty()) return streamed;
#if WB_BACKEND_SIM
    if (run_.stats != nullptr) {
      // Chapter 6's double buffer loads and commits the next tile before its wait.
      const bool loads_before_the_wait = true;
      if (std::string evidence = in_flight_read_cause(*run_.stats, run_.check.step_wait, "", loads_before_the_wait);
          !evidence.empty()) {
        return evidence;
      }
    }
#endif
    return run_.check.in_flight_cause;
  }

  // The outputs at the tiles' edges hold the input itself: the seed's pass-through edges.
  std::string pass_through_edges() const {
    const int tile = run_.check.tile, halo = halo_of(run_.check.width);
    if (halo == 0 || !only_tile_edges()) return "";
    const bool copies = std::all_of(wrong_.begin(), wrong_.end(), [&](int i) {
      return std::memcmp(&run_.output[static_cast<std::size_t>(i)], &run_.input[static_cast<std::size_t>(i)],
                         sizeof(float)) == 0;
    });
    if (!copies) return "";
    return "the first and last " + std::to_string(halo) + " outputs of each tile are copies of the input, " +
           "not convolutions (the seed's pass-through edges): an output at a tile's edge needs the " +
           "halo, the inputs beyond the tile, and is convolved like every other. Load the span " +
           "input[tile_start - " + std::to_string(halo) + ", tile_start + " + std::to_string(tile) + " + " +
           std::to_string(halo) + ") and convolve every output.";
  }

  // Only the outputs within a halo of the array's ends, where the tiles' inner edges are
  // right: the zeros past the ends are missing (the clamped model, or none).
  std::string array_ends(const std::function<bool()>& clamped) const {
    const int n = run_.check.n, tile = run_.check.tile, halo = halo_of(run_.check.width);
    const bool inner_edges_exist = n > tile + 2 * halo;
    const auto at_array_end = [&](int i) { return i < halo || i >= n - halo; };
    if (!inner_edges_exist || !std::all_of(wrong_.begin(), wrong_.end(), at_array_end)) return "";
    if (all_never_written()) {
      return "only outputs within " + std::to_string(halo) + " of the array's ends (i < " + std::to_string(halo) +
             " or i >= n - " + std::to_string(halo) + ") are wrong, and none of them was written: the store skips "
             "them (its guard, or threads that leave early). Every output i < n is stored; the zeros past the "
             "ends are in the span, not in the store's test.";
    }
    if (clamped()) {
      return "only outputs within " + std::to_string(halo) + " of the array's ends are wrong, and they " +
             "repeat the end elements: outside the array the input counts as 0, not as the nearest " +
             "element. Copy 0 bytes for the span's elements outside [0, n) (a cp.async that reads 0 " +
             "bytes writes a zero) instead of clamping the index.";
    }
    if (const std::string one = one_element_past_an_end(); !one.empty()) return one;
    if (run_.check.span_copied_clipped) {
      return "only outputs within " + std::to_string(halo) + " of the array's ends (i < " + std::to_string(halo) +
             " or i >= n - " + std::to_string(halo) + ") are wrong: no zeros past the ends. Those outputs read the "
             "span's elements outside [0, n), which must be zeros: either the zeros are not stored there, or the "
             "span's copy, which must bring only its part inside the array (last - first elements), is longer "
             "and lands over them.";
    }
    return "only outputs within " + std::to_string(halo) + " of the array's ends (i < " + std::to_string(halo) +
           " or i >= n - " + std::to_string(halo) + ") are wrong: no zeros past the ends. Those outputs " +
           "read the span's elements outside [0, n), which must be zeros: give their cp.async a source " +
           "size of 0 bytes (it then writes a zero); a skipped copy leaves shared memory unfilled (NaN " +
           "in the simulator, stale data on a GPU).";
  }

  // The outputs at one end of the array, solved for the span's elements past that end (the
  // nearest first: each output there reads one more of them): where exactly the nearest is
  // not zero and the others are, the test that zero-fills the elements outside [0, n) misses
  // the first one by one. Only with finite outputs and the other end right.
  std::string one_element_past_an_end() const {
    const int n = run_.check.n, halo = halo_of(run_.check.width);
    bool left = false, right = false;
    for (int i : wrong_) (i < halo ? left : right) = true;
    if (left == right || halo == 0) return "";
    const std::vector<float>& w = run_.weights;
    std::vector<double> past(static_cast<std::size_t>(halo), 0.0);  // past[j]: element n + j, or -1 - j
    for (int j = 0; j < halo; ++j) {
      // Output n - halo + j reads elements n .. n + j with the weights 2 * halo - j .. 2 * halo;
      // output halo - 1 - j reads elements -1 - j .. -1 with the weights 0 .. j.
      const int out = right ? n - halo + j : halo - 1 - j;
      double excess = static_cast<double>(run_.output[static_cast<std::size_t>(out)]) -
                      run_.reference[static_cast<std::size_t>(out)];
      if (!std::isfinite(excess)) return "";
      for (int e = 0; e < j; ++e) {
        const int k = right ? 2 * halo - j + e : j - e;
        excess -= past[static_cast<std::size_t>(e)] * w[static_cast<std::size_t>(k)];
      }
      const double weight = w[static_cast<std::size_t>(right ? 2 * halo : 0)];  // element n + j, or -1 - j
      if (std::abs(weight) < 1e-3) return "";
      past[static_cast<std::size_t>(j)] = excess / weight;
    }
    const double scale = std::max(1.0, std::abs(past[0]));
    if (std::abs(past[0]) <= 8 * run_.allowed) return "";
    for (int j = 1; j < halo; ++j) {
      if (std::abs(past[static_cast<std::size_t>(j)]) > 1e-3 * scale + 8 * run_.allowed) return "";
    }
    const std::string element = right ? "element n = " + std::to_string(n) + ", the first past the array's end"
                                       : "element -1, the last before the array's start";
    return "only the outputs within " + std::to_string(halo) + " of the array's " + (right ? "end" : "start") +
           " are wrong, and they fit one input exactly: the span's " + element + ", holds " +
           std::to_string(past[0]) + " where a zero belongs, while the elements " + (right ? "after" : "before") +
           " it are zeros. The test that zero-fills the span's elements outside [0, n) misses that one: `" +
           (right ? "index > n" : "index < -1") + "` (or `" + (right ? "<= n" : ">= -1") + "` for the inside) where `" +
           (right ? "index >= n" : "index < 0") + "` is meant?";
  }

  // Only outputs at the tiles' edges: the halo of one side or both.
  std::string tile_edges() const {
    const int tile = run_.check.tile, halo = halo_of(run_.check.width);
    if (halo == 0 || !only_tile_edges()) return "";
    if (all_never_written()) {
      return "only outputs at the edges of each tile are wrong, and none of them was written: the store skips "
             "them (a guard on the thread's place in the tile, or threads that leave early). Every thread stores "
             "its output; the halo is in the span, not in the store's test.";
    }
    int left_depth = 0, right_depth = 0;
    for (int i : wrong_) {
      const int p = i % tile;
      if (p < halo) left_depth = std::max(left_depth, p + 1);
      if (p >= tile - halo) right_depth = std::max(right_depth, tile - p);
    }
    const std::string span = "the span is input[tile_start - " + std::to_string(halo) + ", tile_start + " +
                             std::to_string(tile) + " + " + std::to_string(halo) + "), " +
                             std::to_string(tile + 2 * halo) + " elements";
    if (left_depth > 0 && right_depth > 0) {
      const int depth = std::max(left_depth, right_depth);
      return "only the first and last " + std::to_string(depth) + " outputs of each tile are wrong: is the " +
             "halo loaded? An output reads " + std::to_string(halo) + " inputs on each side of its own, " +
             "beyond the tile at its edges: " + span + ".";
    }
    if (left_depth > 0) {
      return "only the first " + std::string(left_depth == 1 ? "output" : plural(left_depth, "output", "outputs")) +
             " of each tile " + (left_depth == 1 ? "is" : "are") + " wrong: the halo of one side only, is the left " +
             "halo loaded" +
             (left_depth < halo ? " whole (the span starting one element late: the halo off by one)?" : "?") +
             " The span starts " + std::to_string(halo) + " before the tile: " + span + ".";
    }
    return "only the last " + std::string(right_depth == 1 ? "output" : plural(right_depth, "output", "outputs")) +
           " of each tile " + (right_depth == 1 ? "is" : "are") +
           " wrong: the halo of one side only, is the right halo loaded" +
           (right_depth < halo ? " whole (the span one element short: the halo off by one)?" : "?") + " " + span + ".";
  }

  // Every output read unfilled shared memory, though the copies landed (no in-flight
  // poison) and the barriers passed (a race would have stopped the kernel): every output
  // reads every weight, but only its own part of the span.
  std::string weights_not_stored() const {
    const int n = run_.check.n;
    const bool all_stale =
        static_cast<int>(wrong_.size()) == n && std::all_of(wrong_.begin(), wrong_.end(), [&](int i) {
          return poison::matches(run_.output[static_cast<std::size_t>(i)], poison::Kind::stale);
        });
    if (!all_stale) return "";
    return "every output read shared memory that nothing had written, though the span's copies were " +
           std::string("waited for and the block met at its barrier. Every output reads all the weights and only ") +
           "its own part of the span: is every one of the " + std::to_string(run_.check.width) +
           " weights stored into shared memory (a loop over k from threadIdx.x to the width, by the block's " +
           "threads, not one warp's lanes)?";
  }

  // Every wrong tile holds the outputs of the tile `d` further on, one `d` for all: the
  // span loaded for a tile was another tile's. Where d = 1 - blocks, a block's tiles after
  // its first were each computed from the tile after its previous one: the next tile
  // taken as tile + 1 instead of tile + gridDim.x.
  std::string another_tiles_span() const {
    const int n = run_.check.n, tile = run_.check.tile;
    const int tiles = (n + tile - 1) / tile;
    const std::set<int> wrong_tiles = tiles_with_wrong_outputs();
    if (wrong_tiles.empty() || tiles < 2) return "";
    // Each of the tile's wrong outputs is the source tile's at its place (two blocks that
    // store one tile leave a mix of both: the right outputs are those of the other).
    const auto holds_tile = [&](int t, int source) {
      if (source < 0 || source >= tiles || (source + 1) * tile > n || (t + 1) * tile > n) return false;
      for (int j = 0; j < tile; ++j) {
        const auto at = static_cast<std::size_t>(t * tile + j), from = static_cast<std::size_t>(source * tile + j);
        if (!close(run_.output[at], run_.reference[from]) && !close(run_.output[at], run_.reference[at])) return false;
      }
      return true;
    };
    for (int d = -(tiles - 1); d < tiles; ++d) {
      if (d == 0) continue;
      int held = 0, elsewhere = 0;
      for (int t : wrong_tiles) {
        if (holds_tile(t, t + d)) {
          ++held;
        } else if (t + d >= 0 && t + d < tiles && (t + d + 1) * tile <= n && (t + 1) * tile <= n) {
          elsewhere = 1;
          break;
        }
      }
      if (elsewhere != 0 || held == 0 || 2 * held < static_cast<int>(wrong_tiles.size())) continue;
      const int first = *wrong_tiles.begin();
      std::string cause = "each wrong tile holds the outputs of the tile " + std::to_string(d < 0 ? -d : d) +
                          (d < 0 ? " before" : " after") + " it (tile " + std::to_string(first) + " those of tile " +
                          std::to_string(first + d) + "): the span loaded for a tile was another tile's";
      // Blocks that walk runs of consecutive tiles: every wrong tile a block's first, after
      // block 0's, holding what the block before computes, past its last tile, from its
      // other stage, which holds the tile two before. The run's length is one that gives
      // the grid its blocks (the last run may be shorter) and starts a run at every wrong
      // tile: named where one length alone does.
      const int blocks = static_cast<int>(run_.blocks);
      int run_of_tiles = 0, runs_that_fit = 0;
      for (int run = 2; blocks > 1 && run <= tiles; ++run) {
        const bool fits = (tiles + run - 1) / run == blocks &&
                          std::all_of(wrong_tiles.begin(), wrong_tiles.end(), [run](int t) { return t > 0 && t % run == 0; });
        if (fits) run_of_tiles = run, ++runs_that_fit;
      }
      if (d == -2 && runs_that_fit == 1) {
        return "each wrong tile is the first of its block's run of " + std::to_string(run_of_tiles) +
               " tiles (tile " + std::to_string(first) + " of block " + std::to_string(first / run_of_tiles) +
               "), and holds the outputs of the tile 2 before it: what the block before computes from its stage "
               "holding that tile, one tile past its own last. That block's loop runs one tile too many (a bound "
               "`<=` its end where `<` is meant), and its store lands on the next block's first tile.";
      }
      if (run_.blocks > 1 && d == 1 - static_cast<int>(run_.blocks)) {
        cause += ". With " + std::to_string(run_.blocks) + " blocks, block b computes tiles b, b + " +
                 std::to_string(run_.blocks) + ", ...: the next tile, whose span is loaded ahead, is tile + "
                 "gridDim.x, not tile + 1.";
      } else {
        cause += ": which tile's span is loaded, which buffer is read, and does each block compute its own "
                 "tiles only?";
      }
      return cause;
    }
    return "";
  }

  // Where block b walks the tiles b, b + blocks, ...: every wrong tile holds the outputs
  // of its block's first tile, every tile after the first computed from the span that the
  // first was loaded into.
  std::string blocks_first_tile_everywhere() const {
    const int n = run_.check.n, tile = run_.check.tile;
    const int tiles = (n + tile - 1) / tile;
    const int blocks = static_cast<int>(run_.blocks);
    const std::set<int> wrong_tiles = tiles_with_wrong_outputs();
    if (blocks <= 0 || tiles < 2 * blocks || wrong_tiles.empty() || *wrong_tiles.begin() < blocks) return "";
    int whole = 0;
    for (int t : wrong_tiles) {
      const int first = t % blocks;
      for (int j = 0; j < tile && t * tile + j < n; ++j) {
        if (!close(run_.output[static_cast<std::size_t>(t * tile + j)],
                   run_.reference[static_cast<std::size_t>(first * tile + j)])) {
          return "";
        }
      }
      if ((t + 1) * tile <= n) ++whole;
    }
    if (whole == 0) return "";
    const int example = *wrong_tiles.begin();
    return "every tile after a block's first holds the outputs of that block's first tile (tile " +
           std::to_string(example) + " those of tile " + std::to_string(example % blocks) + ", with " +
           std::to_string(blocks) + " blocks): each later tile was computed from the buffer that holds the block's "
           "first span. The buffer read is not the one the later spans were loaded into: a buffer (stage) index "
           "never flipped (^= 1 at the end of each iteration), or the loads and the reads use different indices.";
  }

  // Only the first tiles written, each holding the right outputs of some tile (of another
  // for one at least), and none after them: every block stored its tiles from the output's
  // start, at their place among its own tiles.
  std::string tiles_stored_from_the_start() const {
    const int n = run_.check.n, tile = run_.check.tile;
    const int tiles = (n + tile - 1) / tile;
    if (tile <= 0 || tiles > 4096) return "";
    const auto unwritten = [&](int i) {
      return poison::matches(run_.output[static_cast<std::size_t>(i)], poison::Kind::unwritten);
    };
    int written_end = 0;
    while (written_end < n && !unwritten(written_end)) ++written_end;
    for (int i = written_end; i < n; ++i) {
      if (!unwritten(i)) return "";
    }
    if (written_end == 0 || written_end == n || written_end % tile != 0) return "";
    const int prefix = written_end / tile;
    // Each output of those tiles is the right output at the same place of some tile (blocks
    // that stored into one tile at once may leave it a mix of theirs): the first tile that
    // fits, another than its own where one does.
    const auto source_of = [&](int t, int j) {
      int own = -1;
      for (int s = 0; s < tiles; ++s) {
        const long long at = static_cast<long long>(s) * tile + j;
        if (at >= n || !close(run_.output[static_cast<std::size_t>(t * tile + j)],
                              run_.reference[static_cast<std::size_t>(at)])) {
          continue;
        }
        if (s != t) return s;
        own = s;
      }
      return own;
    };
    // Where every written tile holds its own outputs, they are simply right, and the
    // evidence is the tiles never written (a block's last tiles skipped), not this store:
    // an output can match another tile's within the tolerance by chance.
    bool all_own = true;
    for (int i = 0; i < written_end && all_own; ++i) {
      all_own = close(run_.output[static_cast<std::size_t>(i)], run_.reference[static_cast<std::size_t>(i)]);
    }
    if (all_own) return "";
    std::string held;
    bool another = false;
    for (int t = 0; t < prefix; ++t) {
      int first_source = -1;
      for (int j = 0; j < tile; ++j) {
        const int source = source_of(t, j);
        if (source < 0) return "";
        if (j == 0) first_source = source;
        another = another || source != t;
      }
      if (t < 3) {
        held += std::string(t == 0 ? "" : ", ") + "tile " + std::to_string(t) + " that of tile " +
                std::to_string(first_source);
      }
    }
    if (!another) return "";
    return "only the first " + plural(prefix, "tile", "tiles") + " of the output (outputs 0 to " +
           std::to_string(written_end - 1) + ") were written, each output the right one at its place in some tile (" + held +
           (prefix > 3 ? ", ..." : "") + "), and the rest never: every block stored its tiles from the output's start, "
           "at their place among its own tiles. The store's start counts a tile within its block (i * " +
           std::to_string(tile) + "), where the tile's place in the array (its index * " + std::to_string(tile) +
           ", the start its load uses) is meant.";
  }

  // Outputs 0 to tiles - 1 + tile - 1 written and none after, each the output j of some
  // tile t stored at t + j: every tile's store started at its tile index, where its first
  // element is meant, so the stores overlap near the start (which lands last varies).
  std::string stores_from_tile_indices() const {
    const int n = run_.check.n, tile = run_.check.tile;
    const int tiles = (n + tile - 1) / tile;
    const int written_end = tiles - 1 + tile;
    if (tiles < 2 || tiles > 4096 || written_end >= n) return "";
    // The convolution past the array's end too (a partial last tile's outputs there, stored
    // where they land inside it), the input zero outside: the reference of the input
    // extended by a tile of zeros.
    std::vector<float> extended(run_.input);
    extended.resize(extended.size() + static_cast<std::size_t>(tile), 0.0f);
    const std::vector<double> output_at = convolution_reference(extended, run_.weights, 0);
    for (int i = 0; i < n; ++i) {
      const float value = run_.output[static_cast<std::size_t>(i)];
      if (poison::matches(value, poison::Kind::unwritten) != (i >= written_end)) return "";
      if (i >= written_end) continue;
      bool stored = false;
      for (int t = std::max(0, i - tile + 1); t <= std::min(i, tiles - 1) && !stored; ++t) {
        stored = close(value, output_at[static_cast<std::size_t>(t) * tile + static_cast<std::size_t>(i - t)]);
      }
      if (!stored) return "";
    }
    return "only outputs 0 to " + std::to_string(written_end - 1) + " were written (the " + std::to_string(tiles) +
           " tiles' " + std::to_string(tile) + " outputs each, from starts 0, 1, 2, ...), each output i the output i - t "
           "of some tile t: every tile's store started at its tile index t where its first element, t * " +
           std::to_string(tile) + ", is meant. The tile's start is passed as a tile index (tile) where an element "
           "index (tile * " + std::to_string(tile) + ", the start its load uses) is meant.";
  }

  // Every wrong output lies in a whole tile that holds, whole, the outputs of another
  // start: the tile was computed from a span loaded from that start (or the outputs of that
  // start stored at this tile), with no model of the index that gave it. Named with up to 3
  // tiles and their starts; "" where one wrong tile holds no such run.
  std::string tiles_from_other_starts() const {
    const int n = run_.check.n, tile = run_.check.tile;
    const std::set<int> wrong_tiles = tiles_with_wrong_outputs();
    if (wrong_tiles.empty()) return "";
    std::vector<std::pair<int, int>> starts;  // (tile, the start of the outputs it holds)
    for (int t : wrong_tiles) {
      if ((t + 1) * tile > n) return "";  // a partial tile: its run may end anywhere
      int found = -1;
      for (int start = 0; start + tile <= n && found < 0; ++start) {
        if (start == t * tile) continue;
        int j = 0;
        while (j < tile && close(run_.output[static_cast<std::size_t>(t * tile + j)],
                                 run_.reference[static_cast<std::size_t>(start + j)])) {
          ++j;
        }
        if (j == tile) found = start;
      }
      if (found < 0) return "";
      starts.emplace_back(t, found);
    }
    std::string shown;
    for (std::size_t index = 0; index < starts.size() && index < 3; ++index) {
      const auto [t, start] = starts[index];
      shown += std::string(index == 0 ? "" : "; ") + "tile " + std::to_string(t) + " holds outputs " +
               std::to_string(start) + " to " + std::to_string(start + tile - 1) + " where " +
               std::to_string(t * tile) + " to " + std::to_string(t * tile + tile - 1) + " belong";
    }
    return "each wrong tile holds, whole and right, the outputs of another start (" + shown +
           (starts.size() > 3 ? "; ..." : "") +
           "): those tiles were computed from a span loaded from the wrong place, or stored at the wrong place. "
           "Is the start of the tile whose span is loaded (the next tile's, in a loop) computed as the step "
           "computes it, and stored where that same start says?";
  }

  // Every wrong tile t holds the outputs that start at element t * X, one X for all, instead
  // of at t * tile: the tile's start counted in other units, X = 1 a tile index where an
  // element index is meant, another X another tile's size (an earlier step's tile).
  std::string tile_start_in_other_units() const {
    const int n = run_.check.n, tile = run_.check.tile;
    const std::set<int> wrong_tiles = tiles_with_wrong_outputs();
    if (wrong_tiles.empty() || wrong_tiles.count(0) > 0) return "";  // tile 0 starts at 0 either way
    const auto holds_from = [&](int t, long long start) {
      if (start < 0) return false;
      for (int j = 0; j < tile && t * tile + j < n; ++j) {
        if (start + j >= n || !close(run_.output[static_cast<std::size_t>(t * tile + j)],
                                     run_.reference[static_cast<std::size_t>(start + j)])) {
          return false;
        }
      }
      return true;
    };
    // The first wrong tile's start, where one start gives all its outputs.
    const int first = *wrong_tiles.begin();
    long long unit = -1;
    for (long long start = first; start < static_cast<long long>(first) * tile; start += first) {
      if (holds_from(first, start)) {
        unit = start / first;
        break;
      }
    }
    // One wrong tile holds another's outputs at some such unit whatever the mistake: a unit
    // other than 1 or a tile size of the chapter needs a second tile to confirm it.
    const bool chapters_unit =
        unit == 1 || std::any_of(run_.check.other_tile_sizes.begin(), run_.check.other_tile_sizes.end(),
                                 [unit](const auto& size_and_name) { return size_and_name.first == unit; });
    if (unit <= 0 || (!chapters_unit && wrong_tiles.size() < 2)) return "";
    for (int t : wrong_tiles) {
      if (!holds_from(t, t * unit)) return "";
    }
    const std::string held = "each wrong tile holds the outputs that start at its tile's number " +
                             (unit == 1 ? std::string("instead of its first element") :
                                          "times " + std::to_string(unit) + " instead of times " + std::to_string(tile)) +
                             " (tile " +
                             std::to_string(first) + " holds outputs " + std::to_string(first * unit) + " to " +
                             std::to_string(first * unit + tile - 1) + " where " + std::to_string(first * tile) +
                             " to " + std::to_string(first * tile + tile - 1) + " belong)";
    if (unit == 1) {
      return held + ": the tile's start is passed as a tile index (blockIdx.x, tile) where an element index, the "
             "tile's index times " + std::to_string(tile) + ", is meant.";
    }
    for (const auto& [size, name] : run_.check.other_tile_sizes) {
      if (size == unit) {
        return held + ": the tile's start is counted in " + name + ", " + std::to_string(unit) +
               " elements, where this step's tiles have " + std::to_string(tile) + ".";
      }
    }
    return held + ": the tile's start is counted in tiles of " + std::to_string(unit) + " elements where this "
           "step's tiles have " + std::to_string(tile) + ".";
  }

 private:
  std::set<int> tiles_with_wrong_outputs() const {
    std::set<int> tiles;
    for (int i : wrong_) tiles.insert(i / run_.check.tile);
    return tiles;
  }
  bool close(float actual, double expected) const {
    return !std::isnan(actual) && std::abs(static_cast<double>(actual) - expected) <= run_.allowed;
  }
  bool only_tile_edges() const {
    const int tile = run_.check.tile, halo = halo_of(run_.check.width);
    return std::all_of(wrong_.begin(), wrong_.end(), [&](int i) { return i % tile < halo || i % tile >= tile - halo; });
  }
  // Where block b walks the tiles b, b + blocks, ...: the first or the last tile of every
  // block that has two or more, when the outputs read in flight lie in exactly those.
  std::string in_flight_in_first_or_last_tiles() const {
    const int tiles = (run_.check.n + run_.check.tile - 1) / run_.check.tile;
    const int blocks = static_cast<int>(run_.blocks);
    if (blocks <= 0 || tiles < 2 * blocks) return "";
    std::set<int> in_flight_tiles;
    for (int i : wrong_) {
      if (poison::matches(run_.output[static_cast<std::size_t>(i)], poison::Kind::in_flight)) {
        in_flight_tiles.insert(i / run_.check.tile);
      }
    }
    std::set<int> firsts, lasts;
    for (int b = 0; b < blocks; ++b) {  // every block has a tile: tiles >= 2 * blocks
      firsts.insert(b);
      lasts.insert(b + (tiles - 1 - b) / blocks * blocks);
    }
    const auto within = [&](const std::set<int>& allowed) {
      return std::all_of(in_flight_tiles.begin(), in_flight_tiles.end(), [&](int t) { return allowed.count(t) > 0; });
    };
    if (!run_.check.first_tile_in_flight_cause.empty() && within(firsts)) return run_.check.first_tile_in_flight_cause;
    if (!run_.check.last_tile_in_flight_cause.empty() && within(lasts)) return run_.check.last_tile_in_flight_cause;
    return "";
  }

  // Whether every wrong output still holds the never-written poison: no store reached them,
  // which says nothing of what the span held.
  bool all_never_written() const {
    return !wrong_.empty() && std::all_of(wrong_.begin(), wrong_.end(), [&](int i) {
      return poison::matches(run_.output[static_cast<std::size_t>(i)], poison::Kind::unwritten);
    });
  }

  const ConvolutionRun& run_;
  std::vector<int> wrong_;
};

}  // namespace

bool reproduces(const ConvolutionRun& run, const std::vector<double>& model) {
  for (std::size_t i = 0; i < run.output.size(); ++i) {
    const float actual = run.output[i];
    if (std::isnan(actual) || std::abs(static_cast<double>(actual) - model[i]) > run.allowed) return false;
  }
  return true;
}

void add_convolution_findings(Diagnosis& diagnosis, const ConvolutionRun& run) {
  const auto evidence = std::make_shared<ConvolutionEvidence>(run);
  const int width = run.check.width, halo = halo_of(width);
  diagnosis.finding([evidence] { return evidence->last_partial_tile_unwritten(); })
      .finding([evidence] { return evidence->last_round_unwritten(); })
      .finding([evidence] { return evidence->tile_origin_strided_by_the_span(); })
      .finding([evidence] { return evidence->read_in_flight(); })
      .finding([evidence] { return evidence->pass_through_edges(); })
      .finding([evidence, &run] {
        return evidence->array_ends(
            [&run] { return reproduces(run, convolution_reference(run.input, run.weights, 0, false, true)); });
      })
      .finding([evidence] { return evidence->tile_edges(); })
      .finding([evidence] { return evidence->blocks_first_tile_everywhere(); })
      .finding([evidence] { return evidence->tiles_stored_from_the_start(); })
      .finding([evidence] { return evidence->another_tiles_span(); })
      .finding([evidence] { return evidence->tile_start_in_other_units(); })
      .finding([evidence] { return evidence->stores_from_tile_indices(); });
  for (int bytes = 1; bytes <= 3; ++bytes) {
    diagnosis.model(source_size_in_elements_cause(bytes), [&run, bytes] {
      return convolution_reference(first_bytes_only(run.input, bytes), run.weights, 0);
    });
  }
  // Shifts up to the width, and up to twice the span's pad where the step pads the span
  // further (chapter 7's 8: the pad taken off twice).
  const int most_shift = std::max(width, 2 * run.check.span_pad);
  for (int shift = 1; shift <= most_shift; ++shift) {
    for (int sign : {1, -1}) {
      // A shift of the halo (or of the span's pad) is that offset counted twice, or never.
      const int pad = run.check.span_pad > 0 ? run.check.span_pad : halo;
      const std::string offset = shift == halo ? "the halo (" + std::to_string(halo) + ")"
                                 : shift == pad ? "the span's pad (" + std::to_string(pad) + ")"
                                                : std::string();
      const std::string counted =
          offset.empty() ? std::string()
          : sign < 0 ? " That is " + offset + " taken off twice: the span already starts " + offset +
                           " before its tile (load_span_async takes it off itself), so it is not taken off again, "
                           "at the call or in the read's index."
                     : " That is " + offset + " never taken off: the span starts " + offset +
                           " before its tile, where its copy and its reads must both count from.";
      diagnosis.model("every output is the convolution centred at i " + std::string(sign > 0 ? "+ " : "- ") +
                          std::to_string(shift) + " instead of i: an index is off by " + std::to_string(shift) +
                          ". smem_span[j] holds input[tile_start - halo + j] with halo = (width - 1) / 2 = " +
                          std::to_string(halo) + " for width " + std::to_string(width) +
                          ", and output tile_start + t reads smem_span[t + k] for k from 0 to width - 1." + counted,
                      [&run, shift = sign * shift] { return convolution_reference(run.input, run.weights, shift); });
    }
  }
  diagnosis.finding([evidence] { return evidence->weights_not_stored(); });
  if (width > 1) {
    diagnosis.model(
        "the weights are applied in reverse order: output[i] pairs input[i + k - halo] with weights[k] "
        "(as the seed defines it), not with weights[width - 1 - k].",
        [&run] { return convolution_reference(run.input, run.weights, 0, true); });
  }
  // A window loop one tap short, at either end: every output lacks that tap's product (a
  // weight never stored would be poison in the sum, which weights_not_stored reads).
  if (width > 1) {
    for (const bool last : {true, false}) {
      const int tap = last ? width - 1 : 0;
      diagnosis.model(
          "every output is the convolution without its " + std::string(last ? "last" : "first") + " tap, weights[" +
              std::to_string(tap) + "] x input[i " + (last ? "+ " : "- ") + std::to_string(halo) +
              "]: the window loop " +
              (last ? "stops one short (k < width - 1, or a bound of the halo where 2 * halo + 1 taps are meant)"
                    : "starts at 1 (a count from 1 where k runs from 0)") +
              ". Each output sums " + std::to_string(width) + " products, k = 0 to " + std::to_string(width - 1) +
              ", of smem_span[t + k] and weights[k].",
          [&run, tap] {
            std::vector<float> without = run.weights;
            without[static_cast<std::size_t>(tap)] = 0.0f;
            return convolution_reference(run.input, without, 0);
          });
    }
  }
  // Last: the shifts above reproduce whole runs of other starts too, and name their index.
  diagnosis.finding([evidence] { return evidence->tiles_from_other_starts(); });
}

}  // namespace wb::grading
