#include "wb/grading/diagnosis/gemm_models.hpp"

#include "wb/poison.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace wb::grading {

namespace {

std::size_t at(int row, int col, int rows) {
  return static_cast<std::size_t>(row) + static_cast<std::size_t>(col) * static_cast<std::size_t>(rows);
}

constexpr double kOutside = std::numeric_limits<double>::quiet_NaN();

// The element of a column-major rows x cols array at flat offset `offset`, as a pointer
// mistake reads it: NaN past the allocation (where the simulator would have stopped the
// kernel, so that the model reproduces nothing).
double flat(const std::vector<float>& array, std::size_t offset) {
  return offset < array.size() ? static_cast<double>(array[offset]) : kOutside;
}

}  // namespace

std::vector<double> gemm_abt_with(const GemmShape& shape, const std::function<double(int row, int p)>& a_at,
                                  const std::function<double(int row, int p)>& b_at) {
  const auto [m, n, k] = shape;
  std::vector<double> c(at(0, n, m), 0.0);
  std::vector<double> a_col(static_cast<std::size_t>(m));
  for (int p = 0; p < k; ++p) {
    for (int i = 0; i < m; ++i) a_col[static_cast<std::size_t>(i)] = a_at(i, p);
    for (int j = 0; j < n; ++j) {
      const double b_jp = b_at(j, p);
      double* c_col = c.data() + at(0, j, m);
      for (int i = 0; i < m; ++i) c_col[i] += a_col[static_cast<std::size_t>(i)] * b_jp;
    }
  }
  return c;
}

std::vector<double> rearranged(const std::vector<double>& product, const GemmShape& shape,
                               const std::function<std::pair<int, int>(int row, int col)>& source) {
  const auto [m, n, k] = shape;
  std::vector<double> c(product.size(), 0.0);
  for (int col = 0; col < n; ++col) {
    for (int row = 0; row < m; ++row) {
      const auto [from_row, from_col] = source(row, col);
      const bool inside = from_row >= 0 && from_row < m && from_col >= 0 && from_col < n;
      c[at(row, col, m)] = inside ? product[at(from_row, from_col, m)] : 0.0;
    }
  }
  return c;
}

namespace {

// The models that compute the product a mistake gives: a pass over k each.
void add_product_models(Diagnosis& diagnosis, const GemmRun& run) {
  const auto [m, n, k] = run.shape;
  const int tile_k = run.tile_k;
  const int k_tiles = (k + tile_k - 1) / tile_k;
  const std::string k_text = std::to_string(k);
  const auto a_at = [&run, m = m](int row, int p) { return static_cast<double>(run.a[at(row, p, m)]); };
  const auto b_at = [&run, n = n](int row, int p) { return static_cast<double>(run.b[at(row, p, n)]); };

  if (k % tile_k != 0) {
    const int whole = k / tile_k * tile_k;
    diagnosis.model("C is exactly the product over k < " + std::to_string(whole) + ": the last, partial " +
                        "k-tile (k = " + std::to_string(whole) + " to " + std::to_string(k - 1) +
                        ") was dropped. Is the number of k-tiles rounded down (k / " + std::to_string(tile_k) +
                        " instead of (k + " + std::to_string(tile_k - 1) + ") / " + std::to_string(tile_k) +
                        "), or the last tile's load skipped?",
                    [&run, m = m, n = n, k = k, whole] { return gemm_abt_reference(run.a, run.b, m, n, k, whole); });
  }
  diagnosis.model("C is exactly the product of A's and B's last column alone (k = " + std::to_string(k - 1) +
                      "): every product replaced the sum instead of adding to it. Is it acc[i][j] = ... where "
                      "it must be acc[i][j] += ...?",
                  [=] {
                    return gemm_abt_with(
                        run.shape, [&](int row, int p) { return p == k - 1 ? a_at(row, p) : 0.0; }, b_at);
                  });
  if (k_tiles >= 2) {
    const int last = (k_tiles - 1) * tile_k;
    diagnosis.model("C is exactly the product over the last k-tile alone (k = " + std::to_string(last) + " to " +
                        std::to_string(k - 1) +
                        "): the sums restart in every k-tile. acc starts at 0 once, "
                        "before the loop over k-tiles, and adds up across all of them: is it zeroed (or "
                        "declared) inside that loop" +
                        (run.wgmma ? std::string(", or is a k-tile's first wgmma told not to accumulate (its last "
                                                 "argument false: D = A B, the accumulators replaced)?")
                                   : std::string("?")),
                    [=] {
                      return gemm_abt_with(
                          run.shape, [&](int row, int p) { return p >= last ? a_at(row, p) : 0.0; }, b_at);
                    });
    diagnosis.model("C is exactly the product without the first k-tile (k = 0 to " + std::to_string(tile_k - 1) +
                        "): does the loop over k-tiles start at 0, and is tile 0 loaded and computed like the "
                        "others?",
                    [=] {
                      return gemm_abt_with(
                          run.shape, [&](int row, int p) { return p >= tile_k ? a_at(row, p) : 0.0; }, b_at);
                    });
    // A k-tile's first element at gmem_rows + k0 where it is gmem_rows + k0 * ld: the
    // tile's origin moved down k0 rows instead of right k0 columns.
    const auto origin_in_rows = [=](const std::vector<float>& array, int rows) {
      return [&array, rows, tile_k](int row, int p) {
        return flat(array, static_cast<std::size_t>(row) + static_cast<std::size_t>(p / tile_k * tile_k) +
                               static_cast<std::size_t>(p % tile_k) * static_cast<std::size_t>(rows));
      };
    };
    const std::string origin =
        "each k-tile's first element is k0 columns along the rows of the block, "
        "at gmem_rows + k0 * ld (the rows of a column-major array are ld apart "
        "from one column to the next), not gmem_rows + k0, which moves down k0 rows.";
    diagnosis.model(
        "C is exactly the product that reads A's k-tiles k0 rows down instead of k0 columns "
        "along: " +
            origin,
        [=] { return gemm_abt_with(run.shape, origin_in_rows(run.a, m), b_at); });
    diagnosis.model(
        "C is exactly the product that reads B's k-tiles k0 rows down instead of k0 columns "
        "along: " +
            origin,
        [=] { return gemm_abt_with(run.shape, a_at, origin_in_rows(run.b, n)); });
    diagnosis.model(
        "C is exactly the product that reads A's and B's k-tiles k0 rows down instead of k0 "
        "columns along: " +
            origin,
        [=] { return gemm_abt_with(run.shape, origin_in_rows(run.a, m), origin_in_rows(run.b, n)); });
  }
  // One operand's fragments read from the other's shared tile (smem_a_stage where
  // smem_b_stage is meant): C(i, j) multiplies row i of A by the other tile's row at j's
  // place in its tile, the block's own rows of that operand (zero past its valid rows).
  const auto tile_read_from_the_other = [=](bool b_from_a) {
    const std::vector<float>& source = b_from_a ? run.a : run.b;
    const int source_rows = b_from_a ? m : n;
    std::vector<double> c(at(0, n, m), 0.0);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i) {
        // A's fragment from B's tile: B's rows of this block (j's), at i's place in A's tile.
        const int row = b_from_a ? i / run.tile_m * run.tile_m + j % run.tile_n : j / run.tile_n * run.tile_n + i % run.tile_m;
        if (row >= source_rows) continue;
        double sum = 0.0;
        for (int p = 0; p < k; ++p) {
          const double kept = b_from_a ? a_at(i, p) : b_at(j, p);
          sum += kept * static_cast<double>(source[at(row, p, source_rows)]);
        }
        c[at(i, j, m)] = sum;
      }
    }
    return c;
  };
  if (run.tile_m == run.tile_n) {
    // A load that fills the other operand's tile from the wrong source gives the same C.
    diagnosis.model("C is exactly the product that reads B's fragments from A's shared tile: either each thread's "
                    "b_frag comes from smem_a's stage where smem_b's is meant, or smem_b is loaded from A (A's "
                    "pointer, leading dimension and valid rows given to B's load).",
                    [=] { return tile_read_from_the_other(true); });
    diagnosis.model("C is exactly the product that reads A's fragments from B's shared tile: either each thread's "
                    "a_frag comes from smem_b's stage where smem_a's is meant, or smem_a is loaded from B (B's "
                    "pointer, leading dimension and valid rows given to A's load).",
                    [=] { return tile_read_from_the_other(false); });
  }
  // A fragment read from its shared tile with a column stride of tile_k (the k-tile's
  // width, as a row-major tile would have) where the tile's columns are `stride` floats
  // apart: element (r, kk) of the tile read at word r + kk * tile_k, which holds element
  // ((r + kk * tile_k) % stride, (r + kk * tile_k) / stride); a padding word, never
  // filled, reproduces nothing. The tiles' strides tried: compact, and padded by 1 or 4.
  const auto column_stride_of_tile_k = [=](const std::vector<float>& array, int rows, int tile_rows, int stride) {
    return [&array, rows, tile_rows, stride, tile_k, k = k](int row, int p) {
      const int tile_row = row / tile_rows * tile_rows;
      const int k0 = p / tile_k * tile_k;
      const int word = (row - tile_row) + (p - k0) * tile_k;
      const int from_row = word % stride;
      const int from_col = word / stride;
      if (from_row >= tile_rows) return kOutside;
      // The tile's rows past the array and columns past k were zero-filled.
      if (tile_row + from_row >= rows || k0 + from_col >= k) return 0.0;
      return static_cast<double>(array[at(tile_row + from_row, k0 + from_col, rows)]);
    };
  };
  for (const int padding : {0, 1, 4}) {
    for (const bool operand_a : {true, false}) {
      const int tile_rows = operand_a ? run.tile_m : run.tile_n;
      const int stride = tile_rows + padding;
      if (stride == tile_k) continue;
      const std::string name = operand_a ? "A" : "B";
      diagnosis.model(
          "C is exactly the product that reads " + name + "'s fragments from its shared tile with a column stride of " +
              std::to_string(tile_k) + " (the k-tile's width) where the tile's columns are " + std::to_string(stride) +
              " floats apart: column kk of " + name + "'s (" + std::to_string(tile_rows) + "," + std::to_string(tile_k) +
              ") tile starts at word kk * " + std::to_string(stride) +
              ". Index the fragment through the tile's layout (row, kk), not by row + kk * " + std::to_string(tile_k) + ".",
          [=] {
            return operand_a ? gemm_abt_with(run.shape, column_stride_of_tile_k(run.a, m, tile_rows, stride), b_at)
                             : gemm_abt_with(run.shape, a_at, column_stride_of_tile_k(run.b, n, tile_rows, stride));
          });
    }
  }
}

// A copy that steps through the global array's columns by a wrong stride where they are
// ld apart (m for A, n for B): the shared tile's rows (128, its own column stride), 1
// (ld left out: the column offset counted down the same column), or 0 (the thread's
// start column left out). Element (r, kk) of a
// k-tile is read at the tile's first element + r + (kk - wrong) * ld + wrong * stride,
// where `wrong` is the part of kk so stepped. A thread's column kk is its first column
// (kk % copy_column_step) plus its loop's column (the rest): either part, or both, may
// carry the wrong stride. Both operands go through the same load, so both are read so.
void add_copy_column_stride_models(Diagnosis& diagnosis, const GemmRun& run) {
  const auto [m, n, k] = run.shape;
  const int step = run.copy_column_step, tile_k = run.tile_k;
  if (step <= 0 || run.tile_m != run.tile_n || (m == run.tile_m && n == run.tile_n)) return;
  enum class Part { both, loop, first };
  const auto read = [=](const std::vector<float>& array, int rows, Part part, int stride) {
    return [&array, rows, part, step, tile_k, stride](int row, int p) {
      const int k0 = p / tile_k * tile_k, kk = p - k0;
      const int first = kk % step, loop = kk - first;
      const int wrong = part == Part::both ? kk : part == Part::loop ? loop : first;
      return flat(array, static_cast<std::size_t>(row) +
                             static_cast<std::size_t>(p - wrong) * static_cast<std::size_t>(rows) +
                             static_cast<std::size_t>(wrong) * static_cast<std::size_t>(stride));
    };
  };
  const std::string tile = std::to_string(run.tile_m);
  for (const int stride : {run.tile_m, 1, 0}) {
    // How the column offset was counted, and why ld is meant.
    const bool tile_rows = stride == run.tile_m;
    if (stride == 0) {
      // The thread's start column left out altogether: each thread's columns counted from
      // the k-tile's first, its own loop's steps right.
      if (step >= tile_k) continue;
      diagnosis.model("C is exactly the product whose copies read a thread's columns of each k-tile from the k-tile's "
                      "column 0 instead of from its own first column: the thread's start column, thread_coord.col * "
                      "ld, is left out of its global address (its loop's col * ld after it is right).",
                      [=] { return gemm_abt_with(run.shape, read(run.a, m, Part::first, 0), read(run.b, n, Part::first, 0)); });
      continue;
    }
    const std::string times = tile_rows ? " * " + tile : "";
    const std::string counted = tile_rows ? "the tile's " + tile + " rows" : "1 (ld left out: down the same column)";
    const std::string why =
        " Columns of A and B are ld floats apart in global memory (ld = m for A, n for B)" +
        (tile_rows ? "; " + tile + " is the shared tile's rows, the stride of its own columns, which only the shared "
                                   "side of a copy takes."
                   : std::string(", so a column offset is col * ld."));
    const std::pair<Part, std::string> parts[] = {
        {Part::both, "C is exactly the product whose copies read column kk of each k-tile kk" + times +
                         " floats after its first column instead of kk * ld: the copies' global column stride is " +
                         counted + "." + why},
        {Part::loop, "C is exactly the product whose copies read a thread's first column of each k-tile right and the "
                     "columns after it (its loop's col, " + std::to_string(step) + " apart) col" + times +
                         " floats further instead of col * ld: the loop's global column step is " + counted + "." +
                         why},
        {Part::first, "C is exactly the product whose copies read a thread's first column of each k-tile at "
                      "thread_coord.col" + times + " instead of thread_coord.col * ld (its loop's columns after it "
                      "step right): the thread's global start column is counted with " + counted + "." + why},
    };
    for (const auto& [part, cause] : parts) {
      // With one column per thread, the loop has no columns after the first.
      if (part != Part::both && step >= tile_k) continue;
      diagnosis.model(cause, [=, part = part] {
        return gemm_abt_with(run.shape, read(run.a, m, part, stride), read(run.b, n, part, stride));
      });
    }
  }
}

// The models that move the right product's elements: a pass over C each.
void add_rearranged_models(Diagnosis& diagnosis, const GemmRun& run) {
  const auto [m, n, k] = run.shape;
  // A block's tile of A (or B) read from the array's first rows: the block's row origin
  // left out of the operand's address, so every row of blocks repeats the first.
  if (m > run.tile_m) {
    diagnosis.model("every row of blocks computed the first one's rows of C (C(row, col) holds the product's (row % " +
                        std::to_string(run.tile_m) + ", col)): each block read A from its first rows. The block's "
                        "row origin (tile_m, blockIdx.x * " + std::to_string(run.tile_m) +
                        ") is left out of A's address: the block's rows of A start at gmem_a + tile_m.",
                    [&run, shape = run.shape] {
                      return rearranged(run.product, shape,
                                        [&run](int row, int col) { return std::make_pair(row % run.tile_m, col); });
                    });
  }
  if (n > run.tile_n) {
    diagnosis.model("every column of blocks computed the first one's columns of C (C(row, col) holds the product's "
                        "(row, col % " + std::to_string(run.tile_n) + ")): each block read B from its first rows. The "
                        "block's column origin (tile_n, blockIdx.y * " + std::to_string(run.tile_n) +
                        ") is left out of B's address: the block's rows of B start at gmem_b + tile_n.",
                    [&run, shape = run.shape] {
                      return rearranged(run.product, shape,
                                        [&run](int row, int col) { return std::make_pair(row, col % run.tile_n); });
                    });
  }
  if (m == n) {
    diagnosis.model(
        "C is the transpose of the product, B * A^T: A and B are exchanged (A's rows give the "
        "rows of C, B's its columns).",
        [&run, shape = run.shape] {
          return rearranged(run.product, shape, [](int row, int col) { return std::make_pair(col, row); });
        });
  }
  const int tile = run.tile_m;
  if (run.tile_m == run.tile_n && m % tile == 0 && n % tile == 0) {
    // Each tile of C holding its own transpose: the A fragment taken from B's tile.
    diagnosis.model("each " + std::to_string(tile) + "x" + std::to_string(tile) +
                        " tile of C holds its own transpose: A and B are exchanged where the tile is "
                        "computed, either in the loads (smem_a filled from B and smem_b from A) or in the reads "
                        "(A's shared tile read for the columns of C, B's for the rows).",
                    [&run, shape = run.shape, tile] {
                      return rearranged(run.product, shape, [tile](int row, int col) {
                        return std::make_pair(row / tile * tile + col % tile, col / tile * tile + row % tile);
                      });
                    });
  }
}

}  // namespace

void add_common_gemm_models(Diagnosis& diagnosis, const GemmRun& run, bool products) {
  if (products) {
    add_product_models(diagnosis, run);
    add_copy_column_stride_models(diagnosis, run);
  }
  add_rearranged_models(diagnosis, run);
}

void add_micro_tile_models(Diagnosis& diagnosis, const GemmRun& run, const MicroTile& micro_tile) {
  if (!micro_tile.given()) return;
  // Who owns each row and each column of a block's tile: (thread row, i), (thread col, j).
  struct Owner {
    int thread = -1;
    int index = -1;
  };
  auto rows = std::make_shared<std::vector<Owner>>(static_cast<std::size_t>(run.tile_m));
  auto cols = std::make_shared<std::vector<Owner>>(static_cast<std::size_t>(run.tile_n));
  for (int thread = 0; thread < micro_tile.thread_rows; ++thread) {
    for (int i = 0; i < micro_tile.micro_m; ++i) {
      const int row = micro_tile.row(thread, i);
      if (row >= 0 && row < run.tile_m) (*rows)[static_cast<std::size_t>(row)] = {thread, i};
    }
  }
  for (int thread = 0; thread < micro_tile.thread_cols; ++thread) {
    for (int j = 0; j < micro_tile.micro_n; ++j) {
      const int col = micro_tile.col(thread, j);
      if (col >= 0 && col < run.tile_n) (*cols)[static_cast<std::size_t>(col)] = {thread, j};
    }
  }
  // The element of the product that lands at (row, col) of C under a mistake that maps a
  // thread's (thread row, i, thread col, j) to other ones: -1 where no thread owns it.
  const auto moved = [&run, rows, cols, micro_tile](auto map) {
    return rearranged(run.product, run.shape, [&](int row, int col) {
      const int tile_row = row / run.tile_m * run.tile_m, tile_col = col / run.tile_n * run.tile_n;
      const Owner r = (*rows)[static_cast<std::size_t>(row - tile_row)];
      const Owner c = (*cols)[static_cast<std::size_t>(col - tile_col)];
      if (r.thread < 0 || c.thread < 0) return std::make_pair(-1, -1);
      const auto [from_row, from_col] = map(r, c);
      return std::make_pair(tile_row + from_row, tile_col + from_col);
    });
  };
  if (micro_tile.micro_m == micro_tile.micro_n) {
    diagnosis.model(
        "each thread's elements of C are exchanged within its micro-tile: acc[i][j] holds the sum "
        "for row j and column i. In the product, i goes with A's fragment (the rows) and j with "
        "B's (the columns): acc[i][j] += a_frag[i] * b_frag[j].",
        [=] {
          return moved([&](Owner r, Owner c) {
            return std::make_pair(micro_tile.row(r.thread, c.index), micro_tile.col(c.thread, r.index));
          });
        });
  }
  // The products indexed by the other usual ownership, a block of neighbours (rows
  // thread_row * micro_m + i), where the store writes the step's: the two must agree.
  if (micro_tile.row(1, 0) != micro_tile.micro_m || micro_tile.col(1, 0) != micro_tile.micro_n) {
    diagnosis.model(
        "each thread computed a block of neighbouring elements, rows thread_row * " + std::to_string(micro_tile.micro_m) +
            " + i and columns thread_col * " + std::to_string(micro_tile.micro_n) +
            " + j, and stored them where this step's thread owns its elements (row " +
            std::to_string(micro_tile.row(1, 0)) + " for thread row 1, i = 0; row " +
            std::to_string(micro_tile.row(0, 1)) + " for thread row 0, i = 1): the products and the store must index "
            "the same elements of C, the step's.",
        [=] {
          return moved([&](Owner r, Owner c) {
            return std::make_pair(r.thread * micro_tile.micro_m + r.index, c.thread * micro_tile.micro_n + c.index);
          });
        });
  }
  if (micro_tile.thread_rows == micro_tile.thread_cols) {
    // A thread's coordinate read the other way somewhere: in the store (the micro-tile lies
    // where the transposed thread's belongs), or for one operand (its rows or columns of C
    // are those of the thread on the diagonal). Each maps the owners of (row, col) to the
    // element of the product that lands there.
    using Source = std::pair<int, int> (*)(const MicroTile&, Owner, Owner);
    const std::pair<const char*, Source> exchanges[] = {
        {"each thread's micro-tile lies where the thread with its row and column exchanged should "
         "put it: the thread's coordinate is read one way for the products and the other way for "
         "the store (thread_coord.row and thread_coord.col exchanged in one of them).",
         [](const MicroTile& tile, Owner r, Owner c) {
           return std::make_pair(tile.row(c.thread, r.index), tile.col(r.thread, c.index));
         }},
        {"each thread multiplied its rows of A by the columns of B that its thread row picks: B's "
         "elements (its fragment) are read at thread_coord.row where they belong to the thread's "
         "columns, thread_coord.col. A goes with the thread's row, B with its column.",
         [](const MicroTile& tile, Owner r, Owner c) {
           return std::make_pair(tile.row(r.thread, r.index), tile.col(r.thread, c.index));
         }},
        {"each thread multiplied the rows of A that its thread column picks by its columns of B: A's "
         "elements (its fragment) are read at thread_coord.col where they belong to the thread's rows, "
         "thread_coord.row. A goes with the thread's row, B with its column.",
         [](const MicroTile& tile, Owner r, Owner c) {
           return std::make_pair(tile.row(c.thread, r.index), tile.col(c.thread, c.index));
         }},
    };
    for (const auto& [cause, source] : exchanges) {
      diagnosis.model(cause, [=, source = source] {
        return moved([&](Owner r, Owner c) { return source(micro_tile, r, c); });
      });
    }
  }
  // Fragments of several consecutive rows (or columns), read as vectors, whose number was
  // passed where the first element's index belongs: fragment f read from element f, not
  // f * its length, so that fragments after the first overlap it.
  const auto run_length = [](const std::function<int(int, int)>& place, int count) {
    int length = 1;
    while (length < count && place(0, length) == place(0, 0) + length) ++length;
    return length;
  };
  const int vector_m = run_length(micro_tile.row, micro_tile.micro_m);
  const int vector_n = run_length(micro_tile.col, micro_tile.micro_n);
  const auto fragment_text = [](const char* operand, const char* place, const char* coordinate, int length,
                                 int count) {
    const std::string n = std::to_string(length), call = std::string(place) + "(thread_coord." + coordinate;
    return std::string("fragment v of ") + operand + " (" + n + " elements) was read from " + call +
           ", v), where it starts at " + call + ", " + n + " * v): " + place + " takes an element index, 0 to " +
           std::to_string(count - 1) + ", not a fragment's number, so the fragments after the first overlap it. "
           "Pass v * " + n + " (or step v by " + n + ").";
  };
  if (vector_m > 1 && vector_m < micro_tile.micro_m) {
    diagnosis.model(fragment_text("A", "micro_row", "row", vector_m, micro_tile.micro_m), [=] {
      return moved([&](Owner r, Owner c) {
        return std::make_pair(micro_tile.row(r.thread, r.index / vector_m) + r.index % vector_m,
                              micro_tile.col(c.thread, c.index));
      });
    });
  }
  if (vector_m > 1 && vector_m < micro_tile.micro_m && vector_n > 1 && vector_n < micro_tile.micro_n) {
    diagnosis.model(fragment_text("A", "micro_row", "row", vector_m, micro_tile.micro_m) +
                        " B's fragments are read the same way, from micro_col(thread_coord.col, v).",
                    [=] {
                      return moved([&](Owner r, Owner c) {
                        return std::make_pair(micro_tile.row(r.thread, r.index / vector_m) + r.index % vector_m,
                                              micro_tile.col(c.thread, c.index / vector_n) + c.index % vector_n);
                      });
                    });
  }
  if (vector_n > 1 && vector_n < micro_tile.micro_n) {
    diagnosis.model(fragment_text("B", "micro_col", "col", vector_n, micro_tile.micro_n), [=] {
      return moved([&](Owner r, Owner c) {
        return std::make_pair(micro_tile.row(r.thread, r.index),
                              micro_tile.col(c.thread, c.index / vector_n) + c.index % vector_n);
      });
    });
  }
}

std::string right_values_moved_within_tiles(const std::vector<float>& c, const GemmRun& run, double tolerance,
                                            bool rows) {
  const auto [m, n, k] = run.shape;
  if (c.size() != run.product.size()) return "";
  constexpr int kPairsShown = 3;
  std::vector<std::string> pairs;
  std::size_t wrong = 0;
  for (int col = 0; col < n; ++col) {
    for (int row = 0; row < m; ++row) {
      const double got = c[at(row, col, m)];
      if (std::abs(got - run.product[at(row, col, m)]) <= tolerance) continue;
      ++wrong;
      // The other elements of this column (row) inside the same tile.
      const int along = rows ? row : col;
      const int tile = rows ? run.tile_m : run.tile_n;
      const int extent = rows ? m : n;
      const int first = along / tile * tile, last = std::min(extent, first + tile);
      int found = -1;
      for (int other = first; other < last && found < 0; ++other) {
        if (other == along) continue;
        const double value = rows ? run.product[at(other, col, m)] : run.product[at(row, other, m)];
        if (std::abs(got - value) <= tolerance) found = other;
      }
      if (found < 0) return "";
      if (static_cast<int>(pairs.size()) < kPairsShown) {
        pairs.push_back("C(" + std::to_string(row) + ", " + std::to_string(col) + ") holds C(" +
                        std::to_string(rows ? found : row) + ", " + std::to_string(rows ? col : found) + ")'s");
      }
    }
  }
  if (wrong == 0) return "";
  std::string shown;
  for (std::size_t index = 0; index < pairs.size(); ++index) shown += (index == 0 ? "" : ", ") + pairs[index];
  const std::string what = rows ? "row" : "column";
  return "every wrong element of C (" + std::to_string(wrong) + ") holds the right value of another " + what +
         " of its " + (rows ? "column" : "row") + ", in the same tile (" + shown + (wrong > pairs.size() ? ", ..." : "") +
         "): the right products, in the wrong " + what + "s. Either the " + what + " a thread computes and the " +
         what + " it stores differ (its " + what + " of C written one way in the product and another in the store), "
         "or " + (rows ? "A" : "B") + "'s rows land in the shared tile in other places than the product reads them "
         "(the copy's shared row).";
}

std::string k_tiles_multiplied_otherwise(const std::vector<float>& c, const GemmRun& run, double tolerance) {
  const auto [m, n, k] = run.shape;
  const int tile_k = run.tile_k;
  const int k_tiles = (k + tile_k - 1) / tile_k;
  if (k_tiles < 2 || k_tiles > 16 || c.size() != run.product.size()) return "";
  // Each k-tile's own product, A's columns [t * tile_k, ...) times B's.
  std::vector<std::vector<double>> parts(static_cast<std::size_t>(k_tiles));
  for (int t = 0; t < k_tiles; ++t) {
    const int first = t * tile_k, last = std::min(k, first + tile_k);
    parts[static_cast<std::size_t>(t)] = gemm_abt_with(
        run.shape, [&](int row, int p) { return p >= first && p < last ? double{run.a[at(row, p, m)]} : 0.0; },
        [&](int row, int p) { return p >= first && p < last ? double{run.b[at(row, p, n)]} : 0.0; });
  }
  // Normal equations: sum_j <P_i, P_j> x_j = <P_i, C>.
  const auto size = static_cast<std::size_t>(k_tiles);
  std::vector<std::vector<double>> g(size, std::vector<double>(size + 1, 0.0));
  for (std::size_t i = 0; i < size; ++i) {
    for (std::size_t j = i; j < size; ++j) {
      double dot = 0.0;
      for (std::size_t e = 0; e < c.size(); ++e) dot += parts[i][e] * parts[j][e];
      g[i][j] = g[j][i] = dot;
    }
    double dot = 0.0;
    for (std::size_t e = 0; e < c.size(); ++e) dot += parts[i][e] * static_cast<double>(c[e]);
    g[i][size] = dot;
  }
  for (std::size_t col = 0; col < size; ++col) {  // Gaussian elimination, partial pivoting
    std::size_t pivot = col;
    for (std::size_t row = col + 1; row < size; ++row) {
      if (std::abs(g[row][col]) > std::abs(g[pivot][col])) pivot = row;
    }
    if (std::abs(g[pivot][col]) < 1e-12) return "";
    std::swap(g[col], g[pivot]);
    for (std::size_t row = 0; row < size; ++row) {
      if (row == col) continue;
      const double factor = g[row][col] / g[col][col];
      for (std::size_t e = col; e <= size; ++e) g[row][e] -= factor * g[col][e];
    }
  }
  std::vector<int> counts(size);
  bool once_each = true;
  for (std::size_t t = 0; t < size; ++t) {
    const double x = g[t][size] / g[t][t];
    const double whole = std::round(x);
    if (std::abs(x - whole) > 0.01 || whole < 0.0 || whole > 3.0) return "";
    counts[t] = static_cast<int>(whole);
    once_each = once_each && counts[t] == 1;
  }
  if (once_each) return "";
  std::vector<double> model(c.size(), 0.0);
  for (std::size_t t = 0; t < size; ++t) {
    for (std::size_t e = 0; e < c.size(); ++e) model[e] += counts[t] * parts[t][e];
  }
  if (relative_error(c, model) > tolerance) return "";
  std::string never, twice;
  for (std::size_t t = 0; t < size; ++t) {
    if (counts[t] == 0) never += (never.empty() ? "" : ", ") + std::to_string(t);
    if (counts[t] >= 2) {
      twice += (twice.empty() ? "" : ", ") + std::to_string(t) + (counts[t] == 3 ? " (three times)" : "");
    }
  }
  std::string text = "C is exactly the sum of the k-tiles' products (" + std::to_string(tile_k) +
                     " columns of A and B each) with ";
  if (!never.empty()) text += "k-tile" + std::string(never.find(',') == std::string::npos ? " " : "s ") + never + " never";
  if (!never.empty() && !twice.empty()) text += " and ";
  if (!twice.empty()) text += "k-tile" + std::string(twice.find(',') == std::string::npos ? " " : "s ") + twice + " twice";
  return text + " multiplied: some k-tiles were computed from a stage (or buffer) that held another k-tile. Which "
                "stage a tile is read from and which one its copies fill must agree: the k-tile modulo the number of "
                "stages, for both (a mask, & (stages - 1), is that only where the stages are a power of two).";
}

bool stored_as(const std::vector<float>& c, const GemmRun& run, double tolerance,
               const std::function<long long(int row, int col)>& place) {
  const auto [m, n, k] = run.shape;
  const auto size = static_cast<long long>(m) * n;
  // For each output element: whether some element of C is stored there, and whether one
  // of those holds the value found there (the last store wins, whichever it was).
  std::vector<char> matched(static_cast<std::size_t>(size), 0), reached(static_cast<std::size_t>(size), 0);
  bool moved = false;
  for (int col = 0; col < n; ++col) {
    for (int row = 0; row < m; ++row) {
      const long long at = place(row, col);
      moved = moved || at != static_cast<long long>(row) + static_cast<long long>(col) * m;  // or dropped
      if (at < 0 || at >= size) continue;
      const auto index = static_cast<std::size_t>(at);
      reached[index] = 1;
      const double right = run.product[static_cast<std::size_t>(row) + static_cast<std::size_t>(col) * m];
      if (std::abs(static_cast<double>(c[index]) - right) <= tolerance) matched[index] = 1;
    }
  }
  if (!moved) return false;
  for (std::size_t index = 0; index < c.size(); ++index) {
    if (reached[index] ? !matched[index] : !poison::matches(c[index], poison::Kind::unwritten)) return false;
  }
  return true;
}

}  // namespace wb::grading
