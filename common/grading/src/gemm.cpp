#include "wb/grading/gemm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "wb/grading/compare.hpp"
#include "wb/grading/diagnosis/diagnosis.hpp"
#include "wb/grading/diagnosis/gemm_models.hpp"
#include "wb/grading/diagnosis/faults.hpp"
#include "wb/grading/diagnosis/in_flight.hpp"
#include "wb/grading/diagnosis/footprint.hpp"
#include "wb/grading/guarded_buffer.hpp"
#include "wb/grading/random.hpp"
#include "wb/grading/schedules.hpp"
#include "wb/grading/run.hpp"
#include "wb/grading/technique.hpp"

namespace wb::grading {

namespace {

std::size_t size_of(int rows, int cols) {
  return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
}

// The size of a typical element of C (its root mean square), against which a value counts
// as the right one.
double typical_element(const std::vector<double>& product) {
  double norm = 0.0;
  for (double value : product) norm += value * value;
  return std::sqrt(norm / static_cast<double>(std::max<std::size_t>(product.size(), 1)));
}

std::string error_text(double error) {
  if (!std::isfinite(error)) return "not finite (some elements are NaN or infinite)";
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", error);
  return text;
}

// Models are tried where a failing C is cheap to recompute several times over: the
// simulator's shapes, not the GPU's 2048x2048x256 (each model would cost seconds there,
// and the simulator grades the same step with the causes).
constexpr double kModelledMacs = 1 << 24;

#if WB_BACKEND_SIM
// C holds words read while a bulk or tensor copy still brought them: where some waits
// returned at once on a phase completed before, with the current phase's copies in flight,
// the waits named the wrong phase.
std::string mbarrier_in_flight_cause(const sim::LaunchStats& stats) {
  if (stats.mbarrier_waits_on_a_past_phase == 0) return "";
  return "C holds words that were read while their copy was still in flight, and " +
         std::to_string(stats.mbarrier_waits_on_a_past_phase) +
         " waits on a barrier returned at once on a phase that had completed before, while the phase with "
         "their tile's copies was still in flight: those waits named the wrong phase. wait_parity(p) waits for "
         "the phase of parity p, and a stage's k-th use is its barrier's phase k, of parity k % 2: the parity "
         "changes with each use of the stage.";
}

std::string likely_cause(const GemmCheck& check, const GemmRun& run, const std::vector<float>& c,
                         const sim::LaunchStats& stats) {
#else
std::string likely_cause(const GemmCheck& check, const GemmRun& run, const std::vector<float>& c) {
#endif
  Diagnosis diagnosis([&c](const std::vector<double>& model) { return relative_error(c, model) <= kGemmTolerance; });
#if WB_BACKEND_SIM
  if (check.uses_cp_async) {
    diagnosis.finding([&] {
      return no_copy_issued(stats, "is the TODO still empty, or are the tiles loaded with plain assignments?");
    });
  }
  if (check.copies_on_mbarriers) {
    diagnosis.finding([&] {
      return stats.bulk_copies + stats.tensor_copies == 0
                 ? std::string("no bulk or tensor copy was issued at all, so the stages were never filled and every "
                               "read found nothing (is the TODO of the copies still empty?).")
                 : std::string();
    });
  }
#endif
  diagnosis.finding([&] { return nothing_written(c, "C"); });
#if WB_BACKEND_SIM
  diagnosis.finding([&] { return threads_returned_early(stats, c); });
#endif
  diagnosis.finding([&] {
    return std::all_of(c.begin(), c.end(), [](float value) { return value == 0.0f; })
               ? "every element of C is 0: nothing was added into acc (is the TODO still empty, or are the "
                 "tiles loaded as zeros, with valid_m, valid_n or valid_k at 0?)."
               : std::string();
  });
  const auto [m, n, k] = check.shape;
  const bool finite = std::all_of(c.begin(), c.end(), [](float value) { return std::isfinite(value); });
  // Models that move the right product's elements cost one pass over C and run at any
  // size; those that compute another product only up to kModelledMacs.
  const bool products = static_cast<double>(m) * n * k <= kModelledMacs;
  const double typical = typical_element(run.product);
  if (check.store_readings) {
    diagnosis.finding([&check, &c, &run, typical] { return check.store_readings(c, run, 1e-4 * typical); });
  }
  if (finite) {
    add_common_gemm_models(diagnosis, run, products);
    add_micro_tile_models(diagnosis, run, check.micro_tile);
    if (products && check.models) check.models(diagnosis, run);
    // The right values in other places of their tile, where no model says which index moved them.
    for (const bool rows : {true, false}) {
      diagnosis.finding([&c, &run, typical, rows] {
        return right_values_moved_within_tiles(c, run, 1e-4 * typical, rows);
      });
    }
    if (products) {
      diagnosis.finding([&c, &run] { return k_tiles_multiplied_otherwise(c, run, kGemmTolerance); });
    }
  }
#if WB_BACKEND_SIM
  if (check.barrier_counts) diagnosis.finding([&] { return check.barrier_counts(stats); });
  // A product that read both unfilled words and words in flight carries either poison,
  // whichever operand's NaN the additions kept (the compiler's order): the unfilled reads'
  // footprint is read for either.
  diagnosis.finding([&] {
    return unfilled_read_cause(stats, holds_poison(c, poison::Kind::stale) ||
                                          (stats.unfilled_read && holds_poison(c, poison::Kind::in_flight)));
  });
  // A step that copies with cp.async reads its groups' accounts; one that copies through
  // mbarriers (bulk and tensor copies) its waits', where a NaN in C counts too: the tensor
  // cores' sums keep no poison's bits, and from finite inputs only a read in flight leaves one.
  diagnosis.finding([&] {
    if (check.uses_cp_async) {
      return holds_poison(c, poison::Kind::in_flight) ? in_flight_read_cause(stats, check.step_wait) : std::string();
    }
    if (!check.copies_on_mbarriers) return std::string();
    return !finite || holds_poison(c, poison::Kind::in_flight) ? mbarrier_in_flight_cause(stats) : std::string();
  });
#endif
  return diagnosis.cause();
}

}  // namespace

std::string gemm_shape_text(const GemmShape& shape) {
  return "C " + std::to_string(shape.m) + "x" + std::to_string(shape.n) + " = A " +
         std::to_string(shape.m) + "x" + std::to_string(shape.k) + " * B^T (B " +
         std::to_string(shape.n) + "x" + std::to_string(shape.k) + ")";
}

std::vector<double> gemm_abt_reference(const std::vector<float>& a, const std::vector<float>& b,
                                       int m, int n, int k, int k_limit) {
  if (k_limit < 0) k_limit = k;
  std::vector<double> c(size_of(m, n), 0.0);
  // Column j of C is the sum over p of B(j, p) times column p of A.
  for (int p = 0; p < k_limit; ++p) {
    const float* a_col = a.data() + size_of(p, m);
    for (int j = 0; j < n; ++j) {
      const double b_jp = b[size_of(j, 1) + size_of(p, n)];
      double* c_col = c.data() + size_of(j, m);
      for (int i = 0; i < m; ++i) c_col[i] += static_cast<double>(a_col[i]) * b_jp;
    }
  }
  return c;
}

double relative_error(const std::vector<float>& actual, const std::vector<double>& expected) {
  double error = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < actual.size() && i < expected.size(); ++i) {
    const double value = actual[i];
    if (!std::isfinite(value)) return std::numeric_limits<double>::infinity();
    error += (value - expected[i]) * (value - expected[i]);
    norm += expected[i] * expected[i];
  }
  if (norm == 0.0) return error == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return std::sqrt(error / norm);
}

void check_gemm(const GemmCheck& check, const std::string& configuration) {
  const Step& step = check.step;
  const auto [m, n, k] = check.shape;
  const auto seed = fresh_seed();
  const std::string where = step.heading() + ", " + gemm_shape_text(check.shape) + ", " +
                            configuration + " (WB_SEED=" + std::to_string(seed) + "):\n";
  std::vector<float> a = random_floats(size_of(m, k), seed);
  std::vector<float> b = random_floats(size_of(n, k), seed + 1);
  if (check.input_rounding) {
    for (float& value : a) value = check.input_rounding(value);
    for (float& value : b) value = check.input_rounding(value);
  }
  DeviceBuffer<float> gmem_a(a.size()), gmem_b(b.size());
  gmem_a.upload(a);
  gmem_b.upload(b);
  GuardedBuffer<float> gmem_c(size_of(m, n));

  // A fault is tested against two copies onto one shared word, a tile's origin counted
  // twice, and one past a tile's edge:
  // block (x, y) reads rows tile_m * x of A and tile_n * y of B, across every k.
  const auto explain_fault = [&](const Error& error) -> std::string {
#if WB_BACKEND_SIM
    // Barrier counts or descriptors read off the failed run's trace so far: a descriptor
    // that points outside its stage fails as a race or an overrun before C is read.
    if (check.barrier_counts) {
      if (std::string cause = check.barrier_counts(sim::last_launch_stats()); !cause.empty()) return cause;
    }
#endif
    if (!error.fault()) return "";
    if (error.kind() == ErrorKind::misaligned) {
      for (const FragmentReads& reads : check.fragment_reads) {
        if (std::string cause = float_offset_as_bytes(*error.fault(), reads); !cause.empty()) return cause;
      }
      return "";
    }
    for (const FragmentReads& reads : check.fragment_reads) {
      if (std::string cause = vector_pointer_indexed_in_floats(*error.fault(), reads); !cause.empty()) return cause;
      if (std::string cause = stage_index_not_wrapped(*error.fault(), reads); !cause.empty()) return cause;
    }
    if (std::string cause = prologue_too_short(*error.fault(), check.prologue_commits, check.prologue);
        !cause.empty()) {
      return cause;
    }
    if (std::string cause = wait_leaves_too_many(*error.fault(), check.step_wait, check.prologue_commits, "stage");
        !cause.empty()) {
      return cause;
    }
    if (std::string cause =
            commits_stopped_before_the_waits(*error.fault(), check.step_wait, check.prologue_commits, "stage");
        !cause.empty()) {
      return cause;
    }
    if (std::string cause = prologue_read_before_the_barrier(*error.fault(), check.prologue_commits, "stage");
        !cause.empty()) {
      return cause;
    }
    if (std::string cause = refilled_while_read_cause(*error.fault(), "stage", check.refill_barrier);
        !cause.empty()) {
      return cause;
    }
    if (std::string cause = read_of_the_buffer_just_refilled(*error.fault(), "stage", check.refilled_stage_read);
        !cause.empty()) {
      return cause;
    }
    const FaultedArray operands[] = {{gmem_a.data(), {m, k, check.tile_m, k}, false, "A", true, check.tile_k, "m",
                                      check.copy_thread_start, 0, check.copy_column_step},
                                     {gmem_b.data(), {n, k, check.tile_n, k}, true, "B", true, check.tile_k, "n",
                                      check.copy_thread_start, 0, check.copy_column_step}};
    if (error.kind() == ErrorKind::destination_not_shared) {
      for (const FaultedArray& operand : operands) {
        if (std::string cause = destination_strided_by_the_arrays_rows(*error.fault(), operand); !cause.empty()) {
          return cause;
        }
      }
    }
    for (const FaultedArray& operand : operands) {
      if (std::string cause = overlapping_writes_cause(*error.fault(), operand); !cause.empty()) return cause;
    }
    for (const FaultedArray& operand : operands) {
      if (std::string cause = operand_index_row_major(*error.fault(), operand); !cause.empty()) return cause;
    }
    for (int side = 0; side < 2; ++side) {
      if (std::string cause = other_operands_valid_rows(*error.fault(), operands[side], operands[1 - side]);
          !cause.empty()) {
        return cause;
      }
    }
    for (const FaultedArray& operand : operands) {
      if (std::string cause = origin_counted_twice(*error.fault(), operand); !cause.empty()) return cause;
    }
    for (const FaultedArray& operand : operands) {
      if (std::string cause = index_leaves_a_whole_tile(*error.fault(), operand); !cause.empty()) return cause;
    }
    return "";
  };
  if (!run_kernel([&] { check.run(gmem_a.data(), gmem_b.data(), gmem_c.data()); }, where, step, "", explain_fault)) {
    return;
  }
#if WB_BACKEND_SIM
  const sim::LaunchStats stats = sim::last_launch_stats();
  const std::string note = simulator_notes(stats);
#else
  const std::string note;
#endif
  if (const auto guards = gmem_c.guards_intact(); !guards) {
    // A store that left C may still have put every element it kept inside where one of the
    // step's store readings says (an origin counted twice runs past C's end).
    std::string cause;
    if (check.store_readings) {
      const std::vector<double> reference = gemm_abt_reference(a, b, m, n, k);
      const GemmRun run{a, b, reference, check.shape, check.tile_m, check.tile_n, check.tile_k, check.copy_column_step,
                      check.wgmma};
      cause = check.store_readings(gmem_c.download(), run, 1e-4 * typical_element(reference));
    }
    ADD_FAILURE() << where << guards.message() << "\n"
                  << (cause.empty() ? std::string() : "Likely cause: " + cause + "\n") << step.hint_line();
    return;
  }
  const std::vector<float> c = gmem_c.download();
  const std::vector<double> reference = gemm_abt_reference(a, b, m, n, k);
  const double error = relative_error(c, reference);
  if (error > kGemmTolerance) {
    CompareOptions options;
    const GemmRun run{a, b, reference, check.shape, check.tile_m, check.tile_n, check.tile_k, check.copy_column_step,
                      check.wgmma};
#if WB_BACKEND_SIM
    options.known_cause = likely_cause(check, run, c, stats);
#else
    options.known_cause = likely_cause(check, run, c);
#endif
    // An element is listed when it is off by more than the tolerance times the typical
    // size of an element: with the norm-wise error above the tolerance, some are.
    options.tolerance.absolute = kGemmTolerance * typical_element(reference);
    const ::testing::AssertionResult same =
        matches_reference(c, reference, {m, n, check.tile_m, check.tile_n}, options);
    ADD_FAILURE() << where << "relative error of C " << error_text(error)
                  << " in the Frobenius norm, against a double-precision product; it must stay under "
                  << error_text(kGemmTolerance) << ".\n"
                  << (same ? std::string() : std::string(same.message()) + "\n") << note << step.hint_line();
    return;
  }
#if WB_BACKEND_SIM
  judge_technique(check.technique, check.on_success, stats,
                  static_cast<std::uint64_t>(check.shape.m) * static_cast<std::uint64_t>(check.shape.n), where, step);
#endif
}

void check_gemm_shapes(const std::vector<GemmShape>& shapes,
                       const std::function<GemmCheck(const GemmShape&)>& make) {
  for (const GemmShape& shape : shapes) {
    const GemmCheck check = make(shape);
    for_each_schedule([&](const std::string& configuration) { check_gemm(check, configuration); });
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace wb::grading
