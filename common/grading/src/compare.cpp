#include "wb/grading/compare.hpp"
#include "wb/grading/diagnosis/written_footprint.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "wb/grading/diagnosis/misplacement.hpp"
#include "wb/poison.hpp"

namespace wb::grading {
namespace {

enum class Kind { unwritten, in_flight, stale, guard, pending, other_nan, zero, from_input, wrong };

struct Wrong {
  int row;
  int col;
  double expected;
  std::string actual;  // as the type prints it
  bool actual_is_nan;
  Kind kind;
  int source_row = -1;  // for Kind::from_input: where the value came from
  int source_col = -1;
  int expected_source_row = -1;  // and where the right value is in the input
  int expected_source_col = -1;
  int meant_row = -1;  // and which output element its value belongs to
  int meant_col = -1;
  // A value that several input (or reference) elements hold: its trace names only one of
  // them, so the index mistakes are not tested on it.
  bool ambiguous = false;
};

double as_double(__half value) { return __half2float(value); }
double as_double(__nv_bfloat16 value) { return __bfloat162float(value); }
template <class T>
double as_double(T value) {
  return static_cast<double>(value);
}

template <class T>
std::string text(T value) {
  if constexpr (std::is_integral_v<T>) {
    return std::to_string(value);
  } else {
    std::ostringstream out;
    out << as_double(value);
    return out.str();
  }
}

Kind kind_of_poison(poison::Kind kind) {
  switch (kind) {
    case poison::Kind::unwritten: return Kind::unwritten;
    case poison::Kind::in_flight: return Kind::in_flight;
    case poison::Kind::stale: return Kind::stale;
    case poison::Kind::guard: return Kind::guard;
    case poison::Kind::pending: return Kind::pending;
  }
  return Kind::wrong;
}

template <class T>
Kind classify(T value) {
  if (const std::optional<poison::Kind> poisoned = poison::kind_of(value)) {
    return kind_of_poison(*poisoned);
  }
  const double number = as_double(value);
  if (std::isnan(number)) return Kind::other_nan;
  return number == 0.0 ? Kind::zero : Kind::wrong;
}

bool is_poison(Kind kind) {
  return kind == Kind::unwritten || kind == Kind::in_flight || kind == Kind::stale ||
         kind == Kind::guard || kind == Kind::pending;
}

const char* poison_name(Kind kind) {
  switch (kind) {
    case Kind::unwritten: return poison::name(poison::Kind::unwritten);
    case Kind::in_flight: return poison::name(poison::Kind::in_flight);
    case Kind::stale: return poison::name(poison::Kind::stale);
    case Kind::guard: return poison::name(poison::Kind::guard);
    case Kind::pending: return poison::name(poison::Kind::pending);
    default: return "";
  }
}

// What a wrong value is, in a learner's words. Poison is mostly a NaN; that of an
// integer type is a value, and so is a double read of two float poison words: those are
// named as such.
std::string describe(const Wrong& wrong) {
  const std::string poison_value =
      wrong.actual_is_nan ? "NaN" : wrong.actual + ", the " + poison_name(wrong.kind) + " poison";
  switch (wrong.kind) {
    case Kind::unwritten:
      return poison_value + ": never written by the kernel";
    case Kind::in_flight:
      return poison_value + ": an asynchronous copy's destination read before the copy landed";
    case Kind::stale:
      return poison_value + ": shared memory that no copy of this block had filled yet";
    case Kind::guard:
      return poison_value + ": read from outside an array";
    case Kind::pending:
      return poison_value + ": an accumulator of a wgmma read before its wait";
    case Kind::other_nan:
      return "NaN";
    case Kind::zero:
      return "0";
    case Kind::from_input:
      return wrong.actual + ", the input's element (" + std::to_string(wrong.source_row) + ", " +
             std::to_string(wrong.source_col) + ")";
    case Kind::wrong:
      return wrong.actual;
  }
  return "?";
}

// The index mistake that put the misplaced elements where they are, when they all fit one.
std::string misplacement(const std::vector<Wrong>& wrongs, const ArrayShape& shape, const ArrayShape& input_shape,
                         bool every_element_written) {
  std::vector<Misplaced> misplaced;
  for (const Wrong& w : wrongs) {
    if (w.kind != Kind::from_input || w.ambiguous) continue;
    misplaced.push_back({w.row, w.col, w.source_row, w.source_col, w.expected_source_row, w.expected_source_col,
                         w.meant_row, w.meant_col});
  }
  return misplaced.empty() ? std::string()
                           : misplacement_cause(misplaced, shape, input_shape, every_element_written);
}

// What the wrong values and their places say: a likely cause where the pattern singles
// one out, or an observation (`is_cause` false) where several mistakes leave the same
// pattern and the reading can only list where to look.
struct Reading {
  Reading(std::string text, bool is_cause = true) : text(std::move(text)), is_cause(is_cause) {}
  Reading(const char* text) : Reading(std::string(text)) {}
  std::string text;
  bool is_cause;
};
Reading observed(std::string text) { return {std::move(text), false}; }

// A 1-D array whose every wrong tile holds the input's run from a quarter (or four times)
// of its start: the tile's start, counted in floats, added to a pointer to bytes (or a
// byte count to a pointer to floats). "" otherwise.
std::string tile_start_in_another_unit(const std::vector<Wrong>& wrongs, const ArrayShape& shape) {
  if (shape.cols != 1 || shape.tile_rows <= 0) return "";
  bool quarter = true, fourfold = true;
  int tiles_seen = 0, last_tile = -1, example_start = 0, example_tile = 0;
  for (const Wrong& w : wrongs) {
    if (w.ambiguous) continue;
    const long long tile_start = static_cast<long long>(w.row) / shape.tile_rows * shape.tile_rows;
    const long long source_start = w.source_row - (w.row - tile_start);
    quarter &= 4 * source_start == tile_start;
    fourfold &= source_start == 4 * tile_start;
    if (w.row / shape.tile_rows != last_tile) {
      last_tile = w.row / shape.tile_rows;
      ++tiles_seen;
      example_tile = static_cast<int>(tile_start);
      example_start = static_cast<int>(source_start);
    }
  }
  if (tiles_seen == 0 || quarter == fourfold) return "";
  return "each wrong tile holds the input's elements from " + std::string(quarter ? "a quarter" : "four times") +
         " of its start (the tile at " + std::to_string(example_tile) + " holds the input from " +
         std::to_string(example_start) + "): " +
         (quarter ? "the start, a count of floats, was added to a pointer to bytes (char*), which counts bytes: "
                    "scale it by sizeof(float), or add it to the float pointer before the cast."
                  : "the start, counted in bytes, was added to a float pointer, which counts floats: add the "
                    "element count, or add the bytes to a pointer to bytes.");
}

// Every element of the output's columns from C on (or rows from R on) never written, every
// other right, where C (R) is no multiple of the tile (the grid covers whole tiles) but is
// the extent of another dimension: the output's rows (columns), or one of the input's. The
// store's test bounds that coordinate with the other one's extent ("" otherwise).
std::string stores_stop_at_another_extent(const std::vector<Wrong>& wrongs, const ArrayShape& shape,
                                          const ArrayShape& input_shape) {
  for (const bool columns : {true, false}) {
    int first = columns ? shape.cols : shape.rows;
    for (const Wrong& w : wrongs) first = std::min(first, columns ? w.col : w.row);
    const int extent = columns ? shape.cols : shape.rows, other = columns ? shape.rows : shape.cols;
    const int tile = columns ? shape.tile_cols : shape.tile_rows;
    if (first <= 0 || first >= extent || first % tile == 0) continue;
    if (wrongs.size() != static_cast<std::size_t>(other) * static_cast<std::size_t>(extent - first)) continue;
    std::string names;
    const auto add = [&](int value, const std::string& name) {
      if (value == first) names += (names.empty() ? "" : ", ") + name;
    };
    add(other, std::string("the output's ") + (columns ? "rows" : "columns"));
    if (input_shape.rows != shape.rows || input_shape.cols != shape.cols) {
      add(input_shape.rows, "the input's rows");
      add(input_shape.cols, "the input's columns");
    }
    if (names.empty()) continue;
    const std::string what = columns ? "columns" : "rows";
    return "every element of the output's " + what + " " + std::to_string(first) + " to " +
           std::to_string(extent - 1) + " was never written, every other is right: the stores stop at " + what +
           " " + std::to_string(first) + ", " + names + ", where the output has " + std::to_string(extent) + " " +
           what + ". The store's test bounds its " + (columns ? "column" : "row") + " with another extent: the " +
           "row and column bounds exchanged, or the input's where the output's are meant.";
  }
  return "";
}

Reading diagnose(const std::vector<Wrong>& wrongs, const ArrayShape& shape, const ArrayShape& input_shape,
                     const std::map<Kind, std::size_t>& kinds, const std::string& tile_indices) {
  auto count = [&](Kind kind) {
    auto it = kinds.find(kind);
    return it == kinds.end() ? std::size_t{0} : it->second;
  };
  if (count(Kind::pending) > 0) {
    return "elements are accumulators read before their wgmma completed: wgmma_mma_async only issues the "
           "product, whose accumulators hold nothing usable until a wgmma_wait_group<N> leaves at most N of the "
           "thread's groups in flight, that one's group committed (wgmma_commit_group) before it.";
  }
  if (count(Kind::in_flight) > 0) {
    return "elements were read from shared memory before their cp.async had landed: a thread "
           "must wait for its copies (wb::cp_async_wait_all, or commit and "
           "wb::cp_async_wait<N>) before the barrier and the reads.";
  }
  if (count(Kind::stale) > 0) {
    return "threads read shared memory that the block's copies had not filled yet. A wait "
           "makes a thread's own copies visible to itself only; the elements copied by "
           "other threads need a __syncthreads() after everyone's wait.";
  }
  if (count(Kind::guard) > 0) {
    return "values were read from outside an input array (an index past its end).";
  }

  // Per tile: how many elements, how many wrong.
  std::map<std::pair<int, int>, int> wrong_per_tile;
  for (const Wrong& w : wrongs) wrong_per_tile[{w.row / shape.tile_rows, w.col / shape.tile_cols}]++;
  auto tile_size = [&](std::pair<int, int> tile) {
    const int rows = std::min(shape.tile_rows, shape.rows - tile.first * shape.tile_rows);
    const int cols = std::min(shape.tile_cols, shape.cols - tile.second * shape.tile_cols);
    return rows * cols;
  };
  auto is_partial = [&](std::pair<int, int> tile) {
    return tile_size(tile) < shape.tile_rows * shape.tile_cols;
  };
  bool only_partial = true, whole_tiles = true;
  for (const auto& [tile, n] : wrong_per_tile) {
    only_partial &= is_partial(tile);
    whole_tiles &= n == tile_size(tile);
  }
  // "Only the partial tiles" says something only where the output also has whole tiles,
  // all of them right.
  only_partial &= shape.rows >= shape.tile_rows && shape.cols >= shape.tile_cols;

  if (count(Kind::from_input) == wrongs.size()) {
    bool transposed = true, swapped_tiles = true, same_offset = true, from_first_tile = true;
    for (const Wrong& w : wrongs) {
      // A value that several inputs hold names one of them, perhaps not the one taken.
      if (w.ambiguous) continue;
      transposed &= w.source_row == w.col && w.source_col == w.row;
      const int tile_r = w.row / shape.tile_rows, tile_c = w.col / shape.tile_cols;
      const int src_tile_r = w.source_row / shape.tile_rows, src_tile_c = w.source_col / shape.tile_cols;
      same_offset &= w.row % shape.tile_rows == w.source_row % shape.tile_rows &&
                     w.col % shape.tile_cols == w.source_col % shape.tile_cols;
      swapped_tiles &= src_tile_r == tile_c && src_tile_c == tile_r;
      from_first_tile &= src_tile_r == 0 && src_tile_c == 0;
    }
    if (transposed) return "the output is the transpose of what was expected: rows and columns exchanged.";
    if (same_offset && swapped_tiles) {
      return "each wrong tile holds the data of the tile with its row and column tile indices "
             "exchanged: are blockIdx.x and blockIdx.y swapped where the block finds its tile?";
    }
    if (std::string misplaced = misplacement(wrongs, shape, input_shape, true); !misplaced.empty()) return misplaced;
    if (same_offset && from_first_tile) {
      return tile_origin_left_out_cause("");
    }
    if (same_offset) {
      return "whole tiles hold the data of another tile: the block computes its tile's origin "
             "wrongly (blockIdx times the tile size, " + tile_indices + ").";
    }
    if (std::string unit = tile_start_in_another_unit(wrongs, shape); !unit.empty()) return unit;
    return observed("elements hold values of other elements: the (row, col) -> offset mapping of a "
                    "load or a store is wrong (a stride, the leading dimension, or row and column "
                    "exchanged?).");
  }
  if (count(Kind::from_input) > 0 && count(Kind::from_input) + count(Kind::unwritten) == wrongs.size()) {
    if (std::string misplaced = misplacement(wrongs, shape, input_shape, false); !misplaced.empty()) {
      return misplaced;
    }
    return observed("some elements hold values of other elements and others were never written: "
                    "stores go to the wrong places (where a block's output tile starts, or the "
                    "(row, col) -> offset mapping of the store: a stride, the leading dimension, or "
                    "row and column exchanged?).");
  }
  if (count(Kind::unwritten) == wrongs.size()) {
    if (only_partial) {
      return "only the partial tiles at the bottom or right edge are incomplete: elements "
             "inside the array but past the last full tile were never written (is a bounds "
             "check too strict, or the grid rounded down?).";
    }
    // Every tile but the first never written: every block stored into the first tile (the
    // one written last left it right), one block ran alone, or the other blocks' loops
    // never ran (a bound that adds the tile's origin to a coordinate inside the tile).
    const int tiles = ((shape.rows + shape.tile_rows - 1) / shape.tile_rows) *
                      ((shape.cols + shape.tile_cols - 1) / shape.tile_cols);
    if (whole_tiles && wrong_per_tile.count({0, 0}) == 0 && static_cast<int>(wrong_per_tile.size()) == tiles - 1) {
      return observed("only the output's first tile was written, every other never: either every block stored into the "
             "first tile (the tile's origin left out where the output is written: the array's pointer, gmem_out, "
             "where the tile's, gmem_tile_out, is meant), one block ran alone (the grid), or the other blocks' "
             "loops never ran (a bound that compares a coordinate inside the tile plus the tile's origin with the "
             "tile's own extent, valid_rows or valid_cols).");
    }
    if (whole_tiles) {
      return observed("whole tiles were never written: does every block store its tile, is the grid "
                      "large enough, and does each block find its tile from the right indices (" + tile_indices +
                      ", as the grid is launched)?");
    }
    if (std::string bound = stores_stop_at_another_extent(wrongs, shape, input_shape); !bound.empty()) return bound;
    std::vector<std::pair<int, int>> unwritten;
    for (const Wrong& w : wrongs) unwritten.emplace_back(w.row, w.col);
    if (std::string part = written_part_of_every_tile(unwritten, shape); !part.empty()) return observed(part);
    return observed("some elements were never written: do the threads' loops cover the whole tile, and does each "
                    "block find its own tile (" + tile_indices + ", as the grid is launched)? Blocks that compute "
                    "the same origin write the same tile twice and leave others empty.");
  }
  if (count(Kind::zero) == wrongs.size()) {
    return "the wrong elements are all 0: shared memory that nothing was copied into (is the "
           "TODO still empty, or the copy skipped for these elements?).";
  }
  if (only_partial) {
    return observed("only the partial tiles at the bottom or right edge are wrong: check the bounds "
                    "of the loads and stores there.");
  }
  return observed("the values differ from the reference by more than the tolerance.");
}

}  // namespace

template <class T>
::testing::AssertionResult matches_reference(const std::vector<T>& actual,
                                             const std::vector<double>& expected,
                                             const ArrayShape& shape,
                                             const CompareOptionsFor<T>& options) {
  const std::size_t count = static_cast<std::size_t>(shape.rows) * shape.cols;
  if (actual.size() != count || expected.size() != count) {
    return ::testing::AssertionFailure() << "size mismatch: " << actual.size() << " results, "
                                         << expected.size() << " expected, shape " << shape.rows
                                         << "x" << shape.cols;
  }
  std::vector<Wrong> wrongs;
  const Tolerance& tol = options.tolerance;
  for (std::size_t i = 0; i < count; ++i) {
    const double e = expected[i];
    const double a = as_double(actual[i]);
    const double allowed = tol.relative * std::max(std::abs(e), tol.scale) + tol.absolute;
    if (!std::isnan(a) && std::abs(a - e) <= allowed) continue;
    wrongs.push_back(Wrong{static_cast<int>(i % shape.rows), static_cast<int>(i / shape.rows), e,
                           text(actual[i]), std::isnan(a), classify(actual[i])});
  }
  if (wrongs.empty()) return ::testing::AssertionSuccess();

  // A wrong value that some input element holds was misplaced: trace it back to its
  // origin. The index of the input is made only here, for a failing output (made for
  // every check, it cost seconds a step at the GPU's sizes).
  const ArrayShape input_shape = options.input_shape.rows > 0 ? options.input_shape : shape;
  const bool any_plain_wrong =
      std::any_of(wrongs.begin(), wrongs.end(), [](const Wrong& w) { return w.kind == Kind::wrong; });
  if (any_plain_wrong && options.input != nullptr) {
    using Bits = typename poison::Traits<T>::Bits;
    const std::vector<T>& input = *options.input;
    std::vector<std::pair<Bits, std::size_t>> input_index(input.size());
    for (std::size_t i = 0; i < input.size(); ++i) input_index[i] = {poison::bits(input[i]), i};
    // Sorted by value, then position: the first element holding a value is the one named.
    std::sort(input_index.begin(), input_index.end());
    // Where a value lies in a sorted index: the first element holding it (-1: none), and
    // whether others hold it too.
    struct Found {
      long long position;
      bool several;
    };
    const auto find_value = [](const auto& index, Bits bits) -> Found {
      const auto found = std::lower_bound(index.begin(), index.end(), std::make_pair(bits, std::size_t{0}));
      if (found == index.end() || found->first != bits) return {-1, false};
      return {static_cast<long long>(found->second), std::next(found) != index.end() && std::next(found)->first == bits};
    };
    for (Wrong& wrong : wrongs) {
      if (wrong.kind != Kind::wrong) continue;
      const std::size_t at = static_cast<std::size_t>(wrong.col) * shape.rows + static_cast<std::size_t>(wrong.row);
      const Found source = find_value(input_index, poison::bits(actual[at]));
      if (source.position < 0) continue;
      wrong.kind = Kind::from_input;
      wrong.ambiguous = source.several;
      wrong.source_row = static_cast<int>(source.position % input_shape.rows);
      wrong.source_col = static_cast<int>(source.position / input_shape.rows);
    }
    if constexpr (std::is_same_v<T, float>) {
      // Where the right value lies in the input, and which output element the wrong value
      // belongs to: what the index mistakes are tested against (misplacement.hpp).
      std::vector<std::pair<Bits, std::size_t>> expected_index(count);
      for (std::size_t i = 0; i < count; ++i) expected_index[i] = {poison::bits(static_cast<float>(expected[i])), i};
      std::sort(expected_index.begin(), expected_index.end());
      for (Wrong& wrong : wrongs) {
        if (wrong.kind != Kind::from_input) continue;
        const std::size_t at = static_cast<std::size_t>(wrong.col) * shape.rows + static_cast<std::size_t>(wrong.row);
        const Found source = find_value(input_index, poison::bits(static_cast<float>(wrong.expected)));
        const Found meant = find_value(expected_index, poison::bits(actual[at]));
        wrong.ambiguous = wrong.ambiguous || source.several || meant.several;
        if (source.position >= 0 && !source.several) {
          wrong.expected_source_row = static_cast<int>(source.position % input_shape.rows);
          wrong.expected_source_col = static_cast<int>(source.position / input_shape.rows);
        }
        if (meant.position >= 0 && !meant.several) {
          wrong.meant_row = static_cast<int>(meant.position % shape.rows);
          wrong.meant_col = static_cast<int>(meant.position / shape.rows);
        }
      }
    }
  }
  std::map<Kind, std::size_t> kinds;
  for (const Wrong& wrong : wrongs) kinds[wrong.kind]++;

  std::ostringstream report;
  report << wrongs.size() << " of " << count << " elements are wrong (array " << shape.rows
         << "x" << shape.cols << ", tiles " << shape.tile_rows << "x" << shape.tile_cols << ").\n";
  report << "First wrong elements, (row, col) [tile]: expected -> got:\n";
  for (std::size_t k = 0; k < std::min<std::size_t>(wrongs.size(), 5); ++k) {
    const Wrong& w = wrongs[k];
    report << "  (" << w.row << ", " << w.col << ") [tile (" << w.row / shape.tile_rows << ", "
           << w.col / shape.tile_cols << ")]: " << w.expected << " -> "
           << describe(w) << "\n";
  }
  std::string poison_counts;
  for (const auto& [kind, n] : kinds) {
    if (!is_poison(kind)) continue;
    if (!poison_counts.empty()) poison_counts += ", ";
    poison_counts += std::to_string(n) + " " + poison_name(kind);
  }
  if (!poison_counts.empty()) report << "Poison among them: " << poison_counts << ".\n";
  std::set<std::pair<int, int>> tiles;
  for (const Wrong& w : wrongs) tiles.insert({w.row / shape.tile_rows, w.col / shape.tile_cols});
  const int tile_count = ((shape.rows + shape.tile_rows - 1) / shape.tile_rows) *
                         ((shape.cols + shape.tile_cols - 1) / shape.tile_cols);
  report << "Wrong elements lie in " << tiles.size() << " of " << tile_count << " tiles.\n";
  std::string cause = options.known_cause;
  if (cause.empty() && options.find_cause) cause = options.find_cause();
  const Reading reading = cause.empty() ? diagnose(wrongs, shape, input_shape, kinds, options.tile_indices)
                                        : Reading{cause};
  report << (reading.is_cause ? "Likely cause: " : "Observed: ") << reading.text;
  return ::testing::AssertionFailure() << report.str();
}

// The element types of outputs: floating point of every width, and the integers.
#define WB_MATCHES_REFERENCE(T)                                                           \
  template ::testing::AssertionResult matches_reference<T>(                               \
      const std::vector<T>&, const std::vector<double>&, const ArrayShape&,               \
      const CompareOptionsFor<T>&);
WB_MATCHES_REFERENCE(float)
WB_MATCHES_REFERENCE(double)
WB_MATCHES_REFERENCE(__half)
WB_MATCHES_REFERENCE(__nv_bfloat16)
WB_MATCHES_REFERENCE(int)
WB_MATCHES_REFERENCE(unsigned int)
WB_MATCHES_REFERENCE(long)
WB_MATCHES_REFERENCE(unsigned long)
WB_MATCHES_REFERENCE(long long)
WB_MATCHES_REFERENCE(unsigned long long)
#undef WB_MATCHES_REFERENCE

}  // namespace wb::grading
