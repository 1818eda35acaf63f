// What a kernel wrote of each whole tile of its output, where the rest was never written:
// the same part of every whole tile, a rectangle from its first element, is described;
// where that rectangle's rows end at the tile's column count (or its columns at the row
// count), the rows' bound is the columns' (the two exchanged), or that loop makes one pass
// of threads that span as many (a 16x16 thread layout on a 16x256 tile): both are named.
// A rectangle that ends elsewhere may be a bound, a loop's step or a guard: observed, no
// cause named.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "wb/grading/compare.hpp"  // ArrayShape

namespace wb::grading {

// `unwritten`: the (row, col) of every element of the output never written. The reading
// of the part every whole tile holds ("" where whole tiles differ, none is missing
// anything, or the part written is no rectangle from the tile's first element).
std::string written_part_of_every_tile(const std::vector<std::pair<int, int>>& unwritten, const ArrayShape& shape);

}  // namespace wb::grading
