#include "wb/grading/convolution.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>

#include "wb/grading/compare.hpp"
#include "wb/grading/footprint.hpp"
#include "wb/grading/guarded_buffer.hpp"
#include "wb/grading/random.hpp"
#include "wb/grading/schedules.hpp"
#include "wb/grading/run.hpp"
#include "wb/grading/technique.hpp"

namespace wb::grading {

namespace {

int halo_of(int width) { return (width - 1) / 2; }

std::string plural(int count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// What the whole pattern of wrong outputs says, when it says something: the positions
// of the wrong outputs in their tiles and in the array, and what their values are.
class Diagnosis {
 public:
  // `blocks`: the launch's grid, where the simulator tells it (0: unknown).
  Diagnosis(const ConvolutionCheck& check, const std::vector<float>& input, const std::vector<float>& weights,
            const std::vector<float>& output, const std::vector<double>& reference, double allowed,
            std::uint64_t blocks)
      : check_(check), input_(input), weights_(weights), output_(output), allowed_(allowed), blocks_(blocks) {
    for (std::size_t i = 0; i < output.size(); ++i) {
      if (!close(output[i], reference[i])) wrong_.push_back(static_cast<int>(i));
    }
  }

  std::string cause() const {
    if (wrong_.empty()) return "";
    const int n = check_.n, tile = check_.tile, halo = halo_of(check_.width);
    if (const std::string last = last_partial_tile_unwritten(); !last.empty()) return last;
    const bool any_in_flight = std::any_of(wrong_.begin(), wrong_.end(), [&](int i) {
      return poison::matches(output_[static_cast<std::size_t>(i)], poison::Kind::in_flight);
    });
    if (any_in_flight) {
      if (const std::string streamed = in_flight_in_first_or_last_tiles(); !streamed.empty()) return streamed;
      if (!check_.in_flight_cause.empty()) return check_.in_flight_cause;
    }

    const auto at_array_end = [&](int i) { return i < halo || i >= n - halo; };
    const auto at_tile_edge = [&](int i) { return i % tile < halo || i % tile >= tile - halo; };
    const bool only_tile_edges = std::all_of(wrong_.begin(), wrong_.end(), at_tile_edge);
    if (only_tile_edges && halo > 0 && std::all_of(wrong_.begin(), wrong_.end(), [&](int i) {
          return std::memcmp(&output_[static_cast<std::size_t>(i)], &input_[static_cast<std::size_t>(i)],
                             sizeof(float)) == 0;
        })) {
      return "the first and last " + std::to_string(halo) + " outputs of each tile are copies of the input, " +
             "not convolutions (the seed's pass-through edges): an output at a tile's edge needs the " +
             "halo, the inputs beyond the tile, and is convolved like every other. Load the span " +
             "input[tile_start - " + std::to_string(halo) + ", tile_start + " + std::to_string(tile) + " + " +
             std::to_string(halo) + ") and convolve every output.";
    }
    // The array's ends, when the tiles' inner edges are right: the zeros are missing.
    const bool inner_edges_exist = n > tile + 2 * halo;
    if (inner_edges_exist && std::all_of(wrong_.begin(), wrong_.end(), at_array_end)) {
      if (matches(convolution_reference(input_, weights_, 0, false, true))) {
        return "only outputs within " + std::to_string(halo) + " of the array's ends are wrong, and they " +
               "repeat the end elements: outside the array the input counts as 0, not as the nearest " +
               "element. Copy 0 bytes for the span's elements outside [0, n) (a cp.async that reads 0 " +
               "bytes writes a zero) instead of clamping the index.";
      }
      return "only outputs within " + std::to_string(halo) + " of the array's ends (i < " + std::to_string(halo) +
             " or i >= n - " + std::to_string(halo) + ") are wrong: no zeros past the ends. Those outputs " +
             "read the span's elements outside [0, n), which must be zeros: give their cp.async a source " +
             "size of 0 bytes (it then writes a zero); a skipped copy leaves shared memory unfilled (NaN " +
             "in the simulator, stale data on a GPU).";
    }
    if (only_tile_edges && halo > 0) {
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
               " of each tile " +
               (left_depth == 1 ? "is" : "are") + " wrong: the halo of one side only, is the left " +
               "halo loaded" + (left_depth < halo ? " whole (the span starting one element late: the halo off by one)?" : "?") +
               " The span starts " + std::to_string(halo) + " before the tile: " + span + ".";
      }
      return "only the last " + std::string(right_depth == 1 ? "output" : plural(right_depth, "output", "outputs")) +
             " of each tile " + (right_depth == 1 ? "is" : "are") + " wrong: the halo of one side only, is the right halo loaded" +
             (right_depth < halo ? " whole (the span one element short: the halo off by one)?" : "?") + " " +
             span + ".";
    }
    for (int shift = 1; shift <= check_.width; ++shift) {
      for (int sign : {1, -1}) {
        if (!matches(convolution_reference(input_, weights_, sign * shift))) continue;
        return "every output is the convolution centred at i " + std::string(sign > 0 ? "+ " : "- ") +
               std::to_string(shift) + " instead of i: an index is off by " + std::to_string(shift) +
               ". smem_span[j] holds input[tile_start - halo + j] with halo = (width - 1) / 2 = " +
               std::to_string(halo) + " for width " + std::to_string(check_.width) +
               ", and output tile_start + t reads smem_span[t + k] for k from 0 to width - 1.";
      }
    }
    // Every output unfilled shared memory, though the copies landed (no in-flight poison)
    // and the barriers passed (a race would have stopped the kernel): every output reads
    // every weight, but only its own part of the span.
    if (static_cast<int>(wrong_.size()) == n && std::all_of(wrong_.begin(), wrong_.end(), [&](int i) {
          return poison::matches(output_[static_cast<std::size_t>(i)], poison::Kind::stale);
        })) {
      return "every output read shared memory that nothing had written, though the span's copies were " +
             std::string("waited for and the block met at its barrier. Every output reads all the weights and only ") +
             "its own part of the span: is every one of the " + std::to_string(check_.width) +
             " weights stored into shared memory (a loop over k from threadIdx.x to the width, by the block's " +
             "threads, not one warp's lanes)?";
    }
    if (check_.width > 1 && matches(convolution_reference(input_, weights_, 0, true))) {
      return "the weights are applied in reverse order: output[i] pairs input[i + k - halo] with weights[k] " +
             std::string("(as the seed defines it), not with weights[width - 1 - k].");
    }
    return "";
  }

 private:
  bool close(float actual, double expected) const {
    return !std::isnan(actual) && std::abs(static_cast<double>(actual) - expected) <= allowed_;
  }
  bool matches(const std::vector<double>& candidate) const {
    for (std::size_t i = 0; i < output_.size(); ++i) {
      if (!close(output_[i], candidate[i])) return false;
    }
    return true;
  }
  // Where block b walks the tiles b, b + blocks, ...: the first or the last tile of every
  // block that has two or more, when the outputs read in flight lie in exactly those.
  std::string in_flight_in_first_or_last_tiles() const {
    const int tiles = (check_.n + check_.tile - 1) / check_.tile;
    const int blocks = static_cast<int>(blocks_);
    if (blocks <= 0 || tiles < 2 * blocks) return "";
    std::set<int> in_flight_tiles;
    for (int i : wrong_) {
      if (poison::matches(output_[static_cast<std::size_t>(i)], poison::Kind::in_flight)) {
        in_flight_tiles.insert(i / check_.tile);
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
    if (!check_.first_tile_in_flight_cause.empty() && within(firsts)) return check_.first_tile_in_flight_cause;
    if (!check_.last_tile_in_flight_cause.empty() && within(lasts)) return check_.last_tile_in_flight_cause;
    return "";
  }

  std::string last_partial_tile_unwritten() const {
    const int n = check_.n, tile = check_.tile;
    const int whole = n / tile * tile;
    if (n % tile == 0 || whole == 0) return "";
    for (int i : wrong_) {
      if (i < whole || !poison::matches(output_[static_cast<std::size_t>(i)], poison::Kind::unwritten)) return "";
    }
    if (static_cast<int>(wrong_.size()) != n - whole) return "";
    return "the outputs past the last whole tile (i = " + std::to_string(whole) + " to " + std::to_string(n - 1) +
           ") were never written: is the number of tiles rounded down (n / " + std::to_string(tile) +
           " instead of (n + " + std::to_string(tile - 1) + ") / " + std::to_string(tile) +
           "), in the grid or in the loop over tiles?";
  }

  const ConvolutionCheck& check_;
  const std::vector<float>& input_;
  const std::vector<float>& weights_;
  const std::vector<float>& output_;
  double allowed_;
  std::uint64_t blocks_;
  std::vector<int> wrong_;
};

}  // namespace

std::string convolution_text(int n, int width) {
  return std::to_string(n) + " elements, " + std::to_string(width) + " weights (halo " +
         std::to_string(halo_of(width)) + ")";
}

std::vector<double> convolution_reference(const std::vector<float>& input, const std::vector<float>& weights,
                                          int shift, bool reversed, bool clamped) {
  const int n = static_cast<int>(input.size()), width = static_cast<int>(weights.size());
  const int halo = halo_of(width);
  std::vector<double> output(input.size(), 0.0);
  for (int i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int k = 0; k < width; ++k) {
      int index = i + shift + k - halo;
      if (clamped) index = std::clamp(index, 0, n - 1);
      if (index < 0 || index >= n) continue;  // zero outside the array
      sum += static_cast<double>(input[static_cast<std::size_t>(index)]) *
             static_cast<double>(weights[static_cast<std::size_t>(reversed ? width - 1 - k : k)]);
    }
    output[static_cast<std::size_t>(i)] = sum;
  }
  return output;
}

void check_convolution(const ConvolutionCheck& check, const std::string& configuration) {
  const Step& step = check.step;
  const auto seed = fresh_seed();
  const std::string where = step.heading() + ", " + convolution_text(check.n, check.width) + ", " + configuration +
                            " (WB_SEED=" + std::to_string(seed) + "):\n";
  const std::string note = check.note.empty() ? std::string() : check.note + "\n";
  const std::vector<float> input = random_floats(static_cast<std::size_t>(check.n), seed);
  const std::vector<float> weights = random_floats(static_cast<std::size_t>(check.width), seed + 1);
  DeviceBuffer<float> gmem_in(input.size()), gmem_weights(weights.size());
  gmem_in.upload(input);
  gmem_weights.upload(weights);
  GuardedBuffer<float> gmem_out(input.size());

  if (!run_kernel([&] { check.run(gmem_in.data(), gmem_weights.data(), gmem_out.data()); }, where, step, note)) {
    return;
  }
#if WB_BACKEND_SIM
  const sim::LaunchStats stats = sim::last_launch_stats();
  const std::string notes = simulator_notes(stats);
  const std::uint64_t launched_blocks = stats.blocks;
#else
  const std::string notes;
  const std::uint64_t launched_blocks = 0;
#endif
  if (const auto guards = gmem_out.guards_intact(); !guards) {
    ADD_FAILURE() << where << guards.message() << "\n" << note << step.hint_line();
    return;
  }
  const std::vector<float> output = gmem_out.download();
  const std::vector<double> reference = convolution_reference(input, weights);
  double weight_sum = 0.0;
  for (float weight : weights) weight_sum += std::abs(static_cast<double>(weight));
  CompareOptions options;
  options.tolerance.relative = kConvolutionTolerance;
  options.tolerance.scale = weight_sum;
  options.input = &input;
#if WB_BACKEND_SIM
  if (check.uses_cp_async && stats.cp_async_ops() == 0) {
    options.known_cause =
        "no cp.async was issued at all, so nothing was copied into shared memory (is the TODO still "
        "empty, or is the span loaded with plain assignments?).";
  }
#endif
  if (options.known_cause.empty() && std::all_of(output.begin(), output.end(), [](float value) {
        return poison::matches(value, poison::Kind::unwritten);
      })) {
    options.known_cause = "the kernel wrote no output at all (is the TODO still empty?).";
  }
  if (options.known_cause.empty()) {
    options.known_cause =
        Diagnosis(check, input, weights, output, reference, kConvolutionTolerance * weight_sum, launched_blocks)
            .cause();
  }
#if WB_BACKEND_SIM
  if (options.known_cause.empty()) {
    options.known_cause = unfilled_read_cause(stats, std::any_of(output.begin(), output.end(), [](float value) {
                                                return poison::matches(value, poison::Kind::stale);
                                              }));
  }
#endif
  const ::testing::AssertionResult same = matches_reference(output, reference, {check.n, 1, check.tile, 1}, options);
  if (!same) {
    ADD_FAILURE() << where << same.message() << "\n" << notes << note << step.hint_line();
    return;
  }
#if WB_BACKEND_SIM
  judge_technique(check.technique, check.on_success, stats, where, step);
#endif
}

void check_convolution_sizes(const std::vector<int>& sizes, const std::function<ConvolutionCheck(int n)>& make) {
  for (const int n : sizes) {
    const ConvolutionCheck check = make(n);
    for_each_schedule([&](const std::string& configuration) { check_convolution(check, configuration); });
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace wb::grading
