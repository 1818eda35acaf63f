// Elements of a moved array (a copy, a transpose) that hold the right values in the wrong
// places, and the index mistakes that put them there. Each wrong element is traced to
// the input element it holds (its source) and compared with the input element it should
// hold (its expected source) and the output element that value was meant for; a
// hypothesis names a cause only when every misplaced element fits it:
//   - the tile's origin counted twice, on the load (source = expected source + its
//     tile's origin) or on the store (position = meant position + its tile's origin);
//   - a leading dimension other than the array's, on the load (the source's offset is
//     expected row + expected col * ld') or on the store (the position's offset is
//     meant row + meant col * ld'), counted from the array's start or from its tile's;
//   - row and column exchanged where the output is written (the value meant for (r, c) of
//     its tile is at (c, r) of that tile);
//   - the tile's origin left out of the read (source = expected source - its tile's
//     origin: every tile read from the array's first), or of the store (position = meant
//     position - its tile's origin: every tile stored into the array's first);
//   - every source the same distance from its expected one (an index off by a constant).
#pragma once

#include <string>
#include <vector>

#include "wb/grading/compare.hpp"

namespace wb::grading {

// "every wrong tile holds the data of the array's first tile (<example>): ..." the read
// from the array's start, with the question of its source address.
std::string tile_origin_left_out_cause(const std::string& example);

struct Misplaced {
  int row;  // where the value is, in the output
  int col;
  int source_row;  // the input element it holds
  int source_col;
  int expected_source_row = -1;  // the input element it should hold (-1: unknown)
  int expected_source_col = -1;
  int meant_row = -1;  // the output element its value belongs to (-1: unknown)
  int meant_col = -1;
};

// The mistake that sends every block's stores into the output's first tile, in words: the
// tile's origin left out where the output is written.
std::string store_origin_left_out();

// The cause that every one of `misplaced` fits, or "" when none does. `output` and
// `input` give the arrays' shapes and tiles; `every_element_written` whether the kernel
// wrote every element of the output (only then can the mistake lie in the read).
std::string misplacement_cause(const std::vector<Misplaced>& misplaced, const ArrayShape& output,
                               const ArrayShape& input, bool every_element_written);

}  // namespace wb::grading
