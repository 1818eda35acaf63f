// Chapter 8's figure: which lane of a warp holds which element of mma.sync m16n8k16's
// operands and accumulator, and in which register, from the fragment layout that
// wb/tensor_core.hpp documents (the PTX ISA's), with the shapes of
// chapters/08_tensor/tensor.hpp.
#include <string>
#include <vector>

#include "figures.hpp"
#include "svg.hpp"
#include "tensor.hpp"  // chapters/08_tensor: the mma's shape
#include "tile_drawing.hpp"

namespace figures {
namespace chapter8 {

namespace {

// One fragment: for each element (row, col) of a rows x cols matrix, the lane that holds
// it and the register it is in ("a0", "c3", ...), -1 where none has it yet.
struct Fragment {
  int rows;
  int cols;
  std::vector<int> lane;
  std::vector<std::string> reg;
  Fragment(int r, int c) : rows(r), cols(c), lane(static_cast<std::size_t>(r * c), -1), reg(lane.size()) {}
  void own(int row, int col, int owner, const std::string& name) {
    const auto at = static_cast<std::size_t>(row * cols + col);
    require(lane[at] < 0, "two lanes hold element " + coord_text(row, col) + " of a fragment");
    lane[at] = owner;
    reg[at] = name;
  }
  void require_whole(const std::string& what) const {
    for (int owner : lane) require(owner >= 0, "an element of " + what + "'s fragment is held by no lane");
  }
};

// The fragments of A (16x16, rows by k), B (16x8, k by columns) and C (16x8): with
// g = lane / 4 and q = lane % 4, each register of A and B a pair of bf16 along k.
void fill(Fragment& a, Fragment& b, Fragment& c) {
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, q = lane % 4;
    for (int half = 0; half < 2; ++half) {
      a.own(g, 2 * q + half, lane, "a0");
      a.own(g + 8, 2 * q + half, lane, "a1");
      a.own(g, 2 * q + 8 + half, lane, "a2");
      a.own(g + 8, 2 * q + 8 + half, lane, "a3");
      b.own(2 * q + half, g, lane, "b0");
      b.own(2 * q + 8 + half, g, lane, "b1");
      c.own(g, 2 * q + half, lane, half == 0 ? "c0" : "c1");
      c.own(g + 8, 2 * q + half, lane, half == 0 ? "c2" : "c3");
    }
  }
  a.require_whole("A");
  b.require_whole("B");
  c.require_whole("C");
}

void draw_fragment(Svg& svg, const Fragment& fragment, double x0, double y0, const std::string& title,
                   const std::string& rows_name, const std::string& cols_name) {
  const double w = 34, h = 26;
  svg.text(x0, y0 - 34, title, 14, "start", true);
  svg.text(x0 + fragment.cols * w / 2, y0 - 8, cols_name, 11, "middle");
  svg.text(x0 - 8, y0 + fragment.rows * h / 2, rows_name, 11, "end");
  for (int row = 0; row < fragment.rows; ++row) {
    for (int col = 0; col < fragment.cols; ++col) {
      const auto at = static_cast<std::size_t>(row * fragment.cols + col);
      const int lane = fragment.lane[at];
      // A colour for each group of 4 lanes (g = lane / 4): the lanes of one row of C.
      svg.rect(x0 + col * w, y0 + row * h, w, h, warp_colour(32 * (lane / 4)), "#ffffff", 1);
      svg.text(x0 + (col + 0.5) * w, y0 + row * h + 12, "t" + std::to_string(lane), 10, "middle", true);
      svg.text(x0 + (col + 0.5) * w, y0 + row * h + 23, fragment.reg[at], 9, "middle", false, true);
    }
  }
}

}  // namespace

void draw(const std::string& folder) {
  Fragment a(ch08::kMmaM, ch08::kMmaK), b(ch08::kMmaK, ch08::kMmaN), c(ch08::kMmaM, ch08::kMmaN);
  fill(a, b, c);
  const double top = 124;
  Svg svg(20 + 16 * 34 + 70 + 8 * 34 + 70 + 8 * 34 + 30, top + 16 * 26 + 60);
  svg.text(20, 26, "Chapter 8: mma.sync m16n8k16's fragments, the lane tN that holds each element and its register", 15,
           "start", true);
  svg.text(20, 46, "g = lane / 4, q = lane % 4; a register of A or B holds two bf16 along k (the lower k in its low "
                   "half), a register of C one float; one colour a group of 4 lanes (g)",
           12);
  svg.text(20, 64, "D = A B + C: A 16x16 (rows of C by k), B 16x8 (k by columns of C), C and D 16x8", 12);
  draw_fragment(svg, a, 40, top, "A (a[0] to a[3])", "row", "k");
  draw_fragment(svg, b, 40 + 16 * 34 + 70, top, "B (b[0], b[1])", "k", "column");
  draw_fragment(svg, c, 40 + 16 * 34 + 70 + 8 * 34 + 70, top, "C and D (c[0] to c[3])", "row", "column");
  svg.save(folder + "/ch08_fragments.svg");
}

}  // namespace chapter8
}  // namespace figures
