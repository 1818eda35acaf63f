// Models of the classic mistakes of a GEMM kernel, C = A * B^T (column-major, A (m,k),
// B (n,k)): each computes, on the host and from the same A and B, the C that the mistake
// gives, so that a Diagnosis names the mistake only when its C is the learner's.
//
// The models every GEMM step shares need only the shapes: the last partial k-tile
// dropped, `=` for `+=`, the accumulator zeroed in every k-tile, the first k-tile
// skipped, a k-tile's origin counted in rows, A and B exchanged, each tile transposed.
// A step that gives its copy layout's column step also gets the copies' global column
// stride taken from the shared tile (the tile's rows where ld is meant).
// A step that gives its threads' micro-tiles (which elements of C a thread owns) also
// gets the mistakes of the micro-tile: its i and j exchanged in the product, a thread's
// row and column exchanged.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "wb/grading/diagnosis/diagnosis.hpp"
#include "wb/grading/gemm.hpp"

namespace wb::grading {

// The run a model recomputes: the inputs, the right product, the tiles.
struct GemmRun {
  const std::vector<float>& a;
  const std::vector<float>& b;
  const std::vector<double>& product;  // the right C, in double
  GemmShape shape;
  int tile_m;
  int tile_n;
  int tile_k;
  // How many columns apart a thread's copies of a k-tile are (the copy layout's
  // columns; 0: not known, and the models of the copies' global column stride are not
  // tried).
  int copy_column_step = 0;
  // Whether the step multiplies with wgmma, whose accumulate argument is one more way to
  // restart the sums.
  bool wgmma = false;
};

// C(i, j) = sum over p < k of a_at(i, p) * b_at(j, p): a product of A and B as a mistake
// reads them (NaN where a model reads outside an array: it then reproduces nothing).
std::vector<double> gemm_abt_with(const GemmShape& shape, const std::function<double(int row, int p)>& a_at,
                                  const std::function<double(int row, int p)>& b_at);

// C(i, j) = product(source(i, j)): the right elements in the wrong places; 0 where the
// source lies outside C (a mistake that reads rows past m reads the zeros of the tile).
std::vector<double> rearranged(const std::vector<double>& product, const GemmShape& shape,
                               const std::function<std::pair<int, int>(int row, int col)>& source);

// The models every GEMM step shares, added to `diagnosis` in the order they are tried;
// those that compute another product than the right one only where `products`.
void add_common_gemm_models(Diagnosis& diagnosis, const GemmRun& run, bool products = true);

// The mistakes of a micro-tile: acc[i][j] += A(row j) * B(col i), and a thread's row and
// column exchanged between the products and the store.
void add_micro_tile_models(Diagnosis& diagnosis, const GemmRun& run, const MicroTile& micro_tile);

// A finding, not a model: every wrong element of `c` holds, within `tolerance`, the right
// value of another element of its column (`rows`: true) or of its row (false) inside the
// same tile of C: the right products in the wrong places, with no model of which index
// put them there. Named with a few of its pairs, and the two places that move a row (a
// column) of C: the row a thread computes and the one it stores differ, or A's (B's) rows
// land in the shared tile out of place. "" where some wrong element holds no such value.
std::string right_values_moved_within_tiles(const std::vector<float>& c, const GemmRun& run, double tolerance,
                                            bool rows);

// A finding: C is, within the tolerance, a sum of the k-tiles' own products, each taken a
// whole number of times (0 to 3) that is not once each: some k-tiles multiplied twice or
// never, as when a tile is read from a stage that holds another (the ring's stage index).
// The counts are read off C by least squares over the k-tiles' products and named with
// the tiles; "" where no such sum reproduces C. Costs one product (run.product's size).
std::string k_tiles_multiplied_otherwise(const std::vector<float>& c, const GemmRun& run, double tolerance);

// A finding: C is what a store that puts each element C(r, c) at `place(r, c)` (an index
// of the column-major output, or -1 for none) leaves, under the learner's own bound: every
// element no element maps to still holds the unwritten poison, and every other one holds,
// within `tolerance`, the right value of one of the elements that map to it (where several
// do, whichever stored last). True only where C is wrong somewhere.
bool stored_as(const std::vector<float>& c, const GemmRun& run, double tolerance,
               const std::function<long long(int row, int col)>& place);

}  // namespace wb::grading
