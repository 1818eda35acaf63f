// Chapter 8's figures: which lane of a warp holds which element of mma.sync m16n8k16's
// operands and accumulator, and in which register, from the fragment layout that
// wb/tensor_core.hpp documents (the PTX ISA's), with the shapes of
// chapters/08_tensor/tensor.hpp; and a stage's first 8 lines without and with the TMA's
// 128-byte swizzle (chunk c of line r at chunk c ^ (r % 8), the PTX ISA's and the
// tensor map's pattern), with one ldmatrix matrix's rows marked.
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

// The first 8 lines of a stage (128 bytes, 8 chunks of 16 bytes each): in each place, the
// chunk it holds, unswizzled or swizzled; the chunk `marked` of every line (the 8 rows an
// ldmatrix matrix reads) outlined. Returns the number of bank groups those rows fall in.
int draw_lines(Svg& svg, double x0, double y0, bool swizzled, int marked, const std::string& title) {
  const double w = 52, h = 26;
  svg.text(x0, y0 - 40, title, 14, "start", true);
  for (int place = 0; place < 8; ++place) {
    svg.text(x0 + (place + 0.5) * w, y0 - 8, "banks " + std::to_string(4 * place) + "-" + std::to_string(4 * place + 3),
             9, "middle");
  }
  bool group_used[8] = {};
  for (int line = 0; line < 8; ++line) {
    svg.text(x0 - 8, y0 + line * h + 17, "k-row " + std::to_string(line), 10, "end");
    for (int place = 0; place < 8; ++place) {
      const int chunk = swizzled ? place ^ (line % 8) : place;  // the swizzle is its own inverse
      svg.rect(x0 + place * w, y0 + line * h, w, h, warp_colour(32 * chunk), "#ffffff", 1);
      svg.text(x0 + (place + 0.5) * w, y0 + line * h + 17, "chunk " + std::to_string(chunk), 10, "middle", true);
      if (chunk == marked) {
        svg.rect(x0 + place * w + 2, y0 + line * h + 2, w - 4, h - 4, "none", "#000000", 2.5);
        group_used[place] = true;
      }
    }
  }
  int groups = 0;
  for (bool used : group_used) groups += used ? 1 : 0;
  return groups;
}

void draw_swizzle(const std::string& folder) {
  const int marked = 2;
  const double top = 110, panel = 8 * 52 + 110;
  Svg svg(30 + 2 * panel, top + 8 * 26 + 50);
  svg.text(20, 26, "Chapter 8, step 2: a stage's first 8 lines (k-rows 0-7 of box 0), the chunk each place holds", 15,
           "start", true);
  svg.text(20, 46, "a line is " + std::to_string(ch08::kLineElements) + " bf16, 128 bytes, 8 chunks of 16 bytes; "
                   "outlined: chunk " + std::to_string(marked) + " of each line, the 8 rows of one ldmatrix matrix",
           12);
  const int plain = draw_lines(svg, 90, top, false, marked, "unswizzled: all 8 rows in banks 8-11");
  const int swizzled = draw_lines(svg, 90 + panel, top, true, marked, "128-byte swizzle: chunk c at c ^ (k-row % 8)");
  require(plain == 1 && swizzled == 8, "the swizzle spreads one chunk of 8 lines over 8 bank groups");
  svg.text(90, top + 8 * 26 + 26, "1 group of 4 banks: 8 wavefronts", 12);
  svg.text(90 + panel, top + 8 * 26 + 26, "8 groups of 4 banks: 1 wavefront", 12);
  svg.save(folder + "/ch08_swizzle.svg");
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
  draw_swizzle(folder);
}

}  // namespace chapter8
}  // namespace figures
