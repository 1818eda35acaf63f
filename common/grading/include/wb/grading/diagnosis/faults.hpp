// Hypotheses tested against a fault the simulator caught (wb::Fault: the faulting
// block, thread and address): which index mistake takes that block to that element.
#pragma once

#include <string>

#include "wb/error.hpp"

namespace wb::grading {

// A column-major array of `rows` rows starting at `begin`, cut into tile_rows x
// tile_cols tiles, block (x, y) owning tile (x, y) (or tile (y, x) where `grid_transposed`:
// a transpose's output). The cause when the fault lies at the faulting block's tile
// origin counted twice plus an offset inside the tile ("" otherwise): an index that
// already counts from the tile's first element given the global row and column too.
std::string origin_counted_twice(const Fault& fault, const void* begin, int rows, int tile_rows, int tile_cols,
                                 bool grid_transposed, const std::string& array);

}  // namespace wb::grading
