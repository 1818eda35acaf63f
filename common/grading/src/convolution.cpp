#include "wb/grading/convolution.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "wb/grading/compare.hpp"
#include "wb/grading/diagnosis/convolution_models.hpp"
#include "wb/grading/diagnosis/diagnosis.hpp"
#include "wb/grading/diagnosis/faults.hpp"
#include "wb/grading/diagnosis/footprint.hpp"
#include "wb/grading/guarded_buffer.hpp"
#include "wb/grading/random.hpp"
#include "wb/grading/schedules.hpp"
#include "wb/grading/run.hpp"
#include "wb/grading/technique.hpp"

namespace wb::grading {

namespace {

int halo_of(int width) { return (width - 1) / 2; }

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

#if WB_BACKEND_SIM
namespace {

// A copy touched in flight in a streaming step, read as the block's tile that its commit
// group stands for (the block's g-th tile, blockIdx.x + g * gridDim.x, in buffer g %
// buffers): where that tile's span element it brought went to a word that puts its buffer
// inside the one before, the buffers' stride leaves out part of a span ("" otherwise).
std::string overlapping_buffers_cause(const sim::CopyWindowRace& race, const float* gmem_in,
                                      const ConvolutionCheck& check) {
  if (check.buffers < 2 || race.source == nullptr || race.grid_blocks == 0) return "";
  const long long element = static_cast<const float*>(race.source) - gmem_in;
  if (element < 0 || element >= check.n) return "";
  const long long pad = check.span_pad >= 0 ? check.span_pad : halo_of(check.width);
  const long long span = check.tile + 2 * pad;
  const long long tile = static_cast<long long>(race.block_linear + race.group * race.grid_blocks);
  const long long in_span = element - (tile * check.tile - pad);
  if (in_span < 0 || in_span >= span) return "";
  const long long buffer = static_cast<long long>(race.group % static_cast<std::uint64_t>(check.buffers));
  const long long start = static_cast<long long>(race.word) - in_span;
  if (buffer == 0 || start <= (buffer - 1) * span || start >= buffer * span) return "";
  const std::string array = race.array.empty() ? "the dynamic shared memory" : race.array;
  return "the racing copy brought input element " + std::to_string(element) + ", element " +
         std::to_string(in_span) + " of tile " + std::to_string(tile) + "'s span (the block's tile number " +
         std::to_string(race.group) + ", in buffer " + std::to_string(buffer) + "), to word " +
         std::to_string(race.word) + " of " + array + ": that buffer starts at word " + std::to_string(start) +
         ", inside the buffer before it, which holds a span of " + std::to_string(span) + " floats (the tile's " +
         std::to_string(check.tile) + " and " + std::to_string(pad) + " on each side). The buffers overlap on " +
         std::to_string(buffer * span - start) + " words, so one tile's copies land on the other's last elements "
         "while they are read: each buffer starts a whole span after the one before, halos included (smem_span[b], "
         "or b * (kStreamTile + 2 * halo)).";
}

}  // namespace
#endif

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

  // Two copies onto one word of the span, tested against the span's layout.
  const auto explain_fault = [&](const Error& error) -> std::string {
    if (!check.proven_cause.empty()) return check.proven_cause;
    if (!error.fault() || error.fault()->misaligned_shared) return "";
    // Two plain stores of the weights onto one word: a thread that stored a weight other
    // than its own index's, while that index's thread stored it too.
    if (const auto& overlap = error.fault()->overlap;
        overlap && overlap->first_source == nullptr && overlap->source == nullptr &&
        overlap->array.find("weights") != std::string::npos && overlap->word < 64 &&
        error.fault()->thread[0] == overlap->word && overlap->first_thread[0] != overlap->word) {
      const unsigned first = overlap->first_thread[0];
      return "thread (" + std::to_string(first) + ", 0) stored " + overlap->array + "[" +
             std::to_string(overlap->word) + "], which thread (" + std::to_string(error.fault()->thread[0]) +
             ", 0) stores as its own: the weights' loop gives one weight to several threads. Each weight k is "
             "stored by one thread, k = threadIdx.x, then k + blockDim.x, ...: a loop that steps by 1 (or by less "
             "than the block's threads) makes a thread store the next threads' weights too.";
    }
    if (std::string cause = wait_leaves_too_many(*error.fault(), check.step_wait, 1, "buffer"); !cause.empty()) {
      return cause;
    }
    if (std::string cause = refilled_while_read_cause(*error.fault(), "buffer"); !cause.empty()) return cause;
    if (std::string cause = span_read_at_the_global_index(*error.fault(), check.tile, check.width); !cause.empty()) {
      return cause;
    }
    if (std::string cause = span_read_a_halo_further(*error.fault(), check.width,
                                                     check.span_pad >= 0 ? check.span_pad : halo_of(check.width));
        !cause.empty()) {
      return cause;
    }
    return span_overlap_cause(*error.fault(), gmem_in.data(), check.n, check.tile, check.width, check.span_pad,
                              check.span_copied_clipped);
  };
  if (!run_kernel([&] { check.run(gmem_in.data(), gmem_weights.data(), gmem_out.data()); }, where, step, note,
                  explain_fault)) {
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
    ADD_FAILURE() << where << guards.message() << "\n"
                  << (check.proven_cause.empty() ? "" : "Likely cause: " + check.proven_cause + "\n") << note
                  << step.hint_line();
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
  ConvolutionRun run{check, input, weights, output, reference, kConvolutionTolerance * weight_sum, launched_blocks};
#if WB_BACKEND_SIM
  run.stats = &stats;
#endif
  Diagnosis diagnosis([&run](const std::vector<double>& model) { return reproduces(run, model); });
  diagnosis.finding([&] { return check.proven_cause; });
#if WB_BACKEND_SIM
  if (check.uses_cp_async) {
    diagnosis.finding([&] {
      return no_copy_issued(stats, "is the TODO still empty, or is the span loaded with plain assignments?");
    });
  }
#endif
  diagnosis.finding([&] { return nothing_written(output, "the output"); });
#if WB_BACKEND_SIM
  diagnosis.finding([&] { return threads_returned_early(stats, output); });
#endif
  add_convolution_findings(diagnosis, run);
#if WB_BACKEND_SIM
  diagnosis.finding([&] { return unfilled_read_cause(stats, holds_poison(output, poison::Kind::stale)); });
#endif
  options.find_cause = [&diagnosis] { return diagnosis.cause(); };
  const ::testing::AssertionResult same = matches_reference(output, reference, {check.n, 1, check.tile, 1}, options);
  if (!same) {
    ADD_FAILURE() << where << same.message() << "\n" << notes << note << step.hint_line();
    return;
  }
#if WB_BACKEND_SIM
  judge_technique(check.technique, check.on_success, stats, static_cast<std::uint64_t>(check.n), where, step,
                  [&](const sim::CopyWindowRace& race) { return overlapping_buffers_cause(race, gmem_in.data(), check); });
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
