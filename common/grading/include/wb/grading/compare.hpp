// Comparison of a kernel's output with a double-precision CPU reference, and the
// mismatch report that tells a learner what went wrong and where.
//
// The report says how many elements are wrong, lists the first few with their (row,
// col), their tile and what the wrong value is (a poison pattern, an input element from
// elsewhere, a number), counts the poison of each kind, then names the pattern (whole
// tiles, partial tiles at the edges, tile borders, columns, transposed, swapped tiles)
// and its likely cause.
//
// The output may be float, double, __half, __nv_bfloat16 or an integer type; the
// reference is double either way, and each element's poison is that of its type (see
// wb/poison.hpp). A NaN is never within a tolerance.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace wb::grading {

// A column-major rows x cols array cut into tile_rows x tile_cols tiles (a block's
// tile), for locating mismatches. A 1-D array is rows x 1.
struct ArrayShape {
  int rows;
  int cols;
  int tile_rows;
  int tile_cols;
};

struct Tolerance {
  double relative = 0.0;  // |actual - expected| <= relative * max(|expected|, scale)
  double scale = 1.0;     //   + absolute
  double absolute = 0.0;
  static Tolerance exact() { return {}; }
};

template <class T>
struct CompareOptionsFor {
  Tolerance tolerance = Tolerance::exact();
  // For kernels that move data (copy, transpose): the input, so that a wrong value can
  // be traced back to the element it was taken from.
  const std::vector<T>* input = nullptr;
  ArrayShape input_shape{0, 0, 0, 0};  // the input's shape when it differs (transpose)
  // Where a block's tile comes from, as the step's kernel finds it, for the texts that
  // ask whether each block found its own.
  std::string tile_indices = "rows from blockIdx.x, columns from blockIdx.y";
  // What the grader knows from elsewhere (the simulator's counters: no cp.async issued
  // at all, say): when not empty, the report's likely cause, in place of the one read
  // from the wrong values, which would otherwise blame a later step of the kernel.
  std::string known_cause;
  // The same, found only when some element is wrong (a Diagnosis's cause, say): "" where
  // the evidence shows none, and the pattern of the wrong elements is read instead.
  std::function<std::string()> find_cause;
};
using CompareOptions = CompareOptionsFor<float>;

// Defined for float, double, __half, __nv_bfloat16 and the 32- and 64-bit integers.
template <class T>
::testing::AssertionResult matches_reference(const std::vector<T>& actual,
                                             const std::vector<double>& expected,
                                             const ArrayShape& shape,
                                             const CompareOptionsFor<T>& options = {});

}  // namespace wb::grading
