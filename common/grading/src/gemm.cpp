#include "wb/grading/gemm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "wb/grading/compare.hpp"
#include "wb/grading/footprint.hpp"
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

std::string error_text(double error) {
  if (!std::isfinite(error)) return "not finite (some elements are NaN or infinite)";
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", error);
  return text;
}

// What the wrong result is, when it is exactly something recognisable: the product
// without the last partial k-tile, C^T, or each tile of C transposed in place.
std::string recognised_cause(const GemmCheck& check, const std::vector<float>& a,
                             const std::vector<float>& b, const std::vector<float>& c,
                             const std::vector<double>& reference) {
  const auto [m, n, k] = check.shape;
  if (k % check.tile_k != 0) {
    const int whole = k / check.tile_k * check.tile_k;
    if (relative_error(c, gemm_abt_reference(a, b, m, n, k, whole)) <= kGemmTolerance) {
      return "C is exactly the product over k < " + std::to_string(whole) + ": the last, partial " +
             "k-tile (k = " + std::to_string(whole) + " to " + std::to_string(k - 1) +
             ") was dropped. Is the number of k-tiles rounded down (k / " +
             std::to_string(check.tile_k) + " instead of (k + " + std::to_string(check.tile_k - 1) +
             ") / " + std::to_string(check.tile_k) + "), or the last tile's load skipped?";
    }
  }
  if (m == n) {
    std::vector<double> transposed(reference.size());
    for (int col = 0; col < n; ++col) {
      for (int row = 0; row < m; ++row) {
        transposed[size_of(row, 1) + size_of(col, m)] = reference[size_of(col, 1) + size_of(row, m)];
      }
    }
    if (relative_error(c, transposed) <= kGemmTolerance) {
      return "C is the transpose of the product, B * A^T: A and B are exchanged (A's rows give the "
             "rows of C, B's its columns).";
    }
  }
  if (check.tile_m == check.tile_n && m % check.tile_m == 0 && n % check.tile_n == 0) {
    // Each tile of C holding its own transpose: the A fragment taken from B's tile.
    std::vector<double> swapped(reference.size());
    const int t = check.tile_m;
    for (int col = 0; col < n; ++col) {
      for (int row = 0; row < m; ++row) {
        const int source_row = row / t * t + col % t;
        const int source_col = col / t * t + row % t;
        swapped[size_of(row, 1) + size_of(col, m)] =
            reference[size_of(source_row, 1) + size_of(source_col, m)];
      }
    }
    if (relative_error(c, swapped) <= kGemmTolerance) {
      return "each " + std::to_string(t) + "x" + std::to_string(t) +
             " tile of C holds its own transpose: A and B are exchanged where the tile is "
             "computed (A's shared tile read for the columns of C, B's for the rows).";
    }
  }
  return "";
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
  const std::vector<float> a = random_floats(size_of(m, k), seed);
  const std::vector<float> b = random_floats(size_of(n, k), seed + 1);
  DeviceBuffer<float> gmem_a(a.size()), gmem_b(b.size());
  gmem_a.upload(a);
  gmem_b.upload(b);
  GuardedBuffer<float> gmem_c(size_of(m, n));

  if (!run_kernel([&] { check.run(gmem_a.data(), gmem_b.data(), gmem_c.data()); }, where, step)) return;
#if WB_BACKEND_SIM
  const sim::LaunchStats stats = sim::last_launch_stats();
  const std::string note = simulator_notes(stats);
#else
  const std::string note;
#endif
  if (const auto guards = gmem_c.guards_intact(); !guards) {
    ADD_FAILURE() << where << guards.message() << "\n" << step.hint_line();
    return;
  }
  const std::vector<float> c = gmem_c.download();
  const std::vector<double> reference = gemm_abt_reference(a, b, m, n, k);
  const double error = relative_error(c, reference);
  if (error > kGemmTolerance) {
    CompareOptions options;
    double norm = 0.0;
    for (double value : reference) norm += value * value;
    // An element is listed when it is off by more than the tolerance times the typical
    // size of an element: with the norm-wise error above the tolerance, some are.
    const double typical = std::sqrt(norm / static_cast<double>(std::max<std::size_t>(reference.size(), 1)));
    options.tolerance.absolute = kGemmTolerance * typical;
#if WB_BACKEND_SIM
    if (check.uses_cp_async && stats.cp_async_ops() == 0) {
      options.known_cause =
          "no cp.async was issued at all, so nothing was copied into shared memory (is the TODO "
          "still empty, or are the tiles loaded with plain assignments?).";
    }
#endif
    if (options.known_cause.empty() &&
        std::all_of(c.begin(), c.end(), [](float value) { return poison::matches(value, poison::Kind::unwritten); })) {
      options.known_cause = "the kernel wrote no element of C at all (is the TODO still empty?).";
    }
    if (options.known_cause.empty() && std::all_of(c.begin(), c.end(), [](float value) { return value == 0.0f; })) {
      options.known_cause =
          "every element of C is 0: nothing was added into acc (is the TODO still empty, or are "
          "the tiles loaded as zeros, with valid_m, valid_n or valid_k at 0?).";
    }
    if (options.known_cause.empty()) options.known_cause = recognised_cause(check, a, b, c, reference);
#if WB_BACKEND_SIM
    if (options.known_cause.empty()) {
      options.known_cause = unfilled_read_cause(stats, std::any_of(c.begin(), c.end(), [](float value) {
                                                  return poison::matches(value, poison::Kind::stale);
                                                }));
    }
#endif
    const ::testing::AssertionResult same =
        matches_reference(c, reference, {m, n, check.tile_m, check.tile_n}, options);
    ADD_FAILURE() << where << "relative error of C " << error_text(error)
                  << " in the Frobenius norm, against a double-precision product; it must stay under "
                  << error_text(kGemmTolerance) << ".\n"
                  << (same ? std::string() : std::string(same.message()) + "\n") << note << step.hint_line();
    return;
  }
#if WB_BACKEND_SIM
  judge_technique(check.technique, check.on_success, stats, where, step);
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
