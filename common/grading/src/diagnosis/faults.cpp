#include "wb/grading/diagnosis/faults.hpp"

#include <cstdint>
#include <optional>

namespace wb::grading {

namespace {

std::string pair_text(long long row, long long col) {
  return "(" + std::to_string(row) + ", " + std::to_string(col) + ")";
}

// The faulting element's offset in floats from the array's start (negative before it).
long long offset_of(const Fault& fault, const FaultedArray& array) {
  const auto address = reinterpret_cast<std::intptr_t>(fault.address);
  const auto base = reinterpret_cast<std::intptr_t>(array.begin);
  return static_cast<long long>((address - base) / static_cast<std::intptr_t>(sizeof(float)));
}

// The faulting element's (row, col) in `array`, counted on past its end (a column past
// the last; in an array of one column, rows past the last), or nothing where the fault
// lies before the array.
struct Element {
  long long row;
  long long col;
};
std::optional<Element> element_of(const Fault& fault, const FaultedArray& array) {
  const long long element = offset_of(fault, array);
  const int rows = array.shape.rows;
  if (element < 0 || rows <= 0) return std::nullopt;
  if (array.shape.cols == 1) return Element{element, 0};
  return Element{element % rows, element / rows};
}

// The origin of the faulting block's tile.
Element tile_origin(const Fault& fault, const FaultedArray& array) {
  const unsigned tile_x = array.grid_transposed ? fault.block[1] : fault.block[0];
  const unsigned tile_y = array.grid_transposed ? fault.block[0] : fault.block[1];
  if (array.rows_only) return {static_cast<long long>(tile_x) * array.shape.tile_rows, 0};
  return {static_cast<long long>(tile_x) * array.shape.tile_rows, static_cast<long long>(tile_y) * array.shape.tile_cols};
}

// The fault's element counted from its tile's origin, once.
Element local_to_tile(const Fault& fault, const FaultedArray& array, const Element& origin) {
  const long long rows = array.shape.rows;
  const long long local = offset_of(fault, array) - (origin.row + origin.col * rows);
  return {local % rows, local / rows};
}

// Whether `local` lies one past the tile's last row (or column), inside it the other way:
// where a loop bound one past the tile (`<=` for `<`) reaches.
bool one_past_the_tile(const Element& local, const FaultedArray& array) {
  const long long tile_cols = array.rows_only ? array.shape.cols : array.shape.tile_cols;
  const bool row_inside = local.row >= 0 && local.row < array.shape.tile_rows;
  const bool col_inside = local.col >= 0 && local.col < tile_cols;
  return (local.row == array.shape.tile_rows && col_inside) || (local.col == tile_cols && row_inside);
}

// Whether the tile at `origin` lies wholly inside the array (a GEMM operand's: its rows).
bool tile_is_whole(const Element& origin, const FaultedArray& array) {
  const ArrayShape& shape = array.shape;
  return origin.row + shape.tile_rows <= shape.rows && (array.rows_only || origin.col + shape.tile_cols <= shape.cols);
}

}  // namespace

std::string origin_counted_twice(const Fault& fault, const FaultedArray& array) {
  const std::optional<Element> element = element_of(fault, array);
  if (!element) return "";
  const Element origin = tile_origin(fault, array);
  // In a partial tile a bound past its edge reaches the same addresses: no evidence there.
  if (!tile_is_whole(origin, array)) return "";
  // One past the tile's edge, a bound `<=` reaches the same address as the origin added
  // again (row 128 of a tile at row 128 is row 0 of the tile at 256), unless this was the
  // thread's first access: a bound errs only after the elements inside the tile.
  if (fault.earlier_accesses > 0 && one_past_the_tile(local_to_tile(fault, array, origin), array)) return "";
  // Offsets, not coordinates: twice a row origin may run past a column's end into the
  // next column, as the index does. The origin added again whole, or one coordinate of
  // it (none that adds nothing), each named by the coordinates it adds.
  const long long rows = array.shape.rows;
  const long long tile_cols = array.rows_only ? array.shape.cols : array.shape.tile_cols;
  for (const Element extra : {origin, Element{origin.row, 0}, Element{0, origin.col}}) {
    if (extra.row == 0 && extra.col == 0) continue;
    const long long local = offset_of(fault, array) - (origin.row + extra.row + (origin.col + extra.col) * rows);
    if (local < 0) continue;
    const long long local_row = local % rows, local_col = local / rows;
    if (local_row >= array.shape.tile_rows || local_col >= tile_cols) continue;
    const bool row_twice = extra.row != 0, col_twice = extra.col != 0;
    const std::string twice_what = row_twice && col_twice ? "origin" : row_twice ? "row origin" : "column origin";
    return "the tile's " + twice_what + " is counted twice: block " + pair_text(fault.block[0], fault.block[1]) +
           "'s tile of " + array.name + " starts at " + pair_text(origin.row, origin.col) + ", and its thread " +
           pair_text(fault.thread[0], fault.thread[1]) + " " + (fault.write ? "wrote" : "read") + " element " +
           pair_text(element->row, element->col) + " = (element " + pair_text(local_row, local_col) +
           " of the tile) + that origin + its " + twice_what + " again. An index that already counts from the "
           "tile's first element (a pointer to the tile) was given the global " +
           (row_twice && col_twice ? "row and column" : row_twice ? "row" : "column") +
           " too: index the tile with its own (row, col), or the array with global ones.";
  }
  return "";
}

std::string index_leaves_a_whole_tile(const Fault& fault, const FaultedArray& array) {
  const std::optional<Element> element = element_of(fault, array);
  if (!element) return "";
  const ArrayShape& shape = array.shape;
  // Only a fault within reach of this array: up to one array's length past its end.
  if (offset_of(fault, array) >= 2 * static_cast<long long>(shape.rows) * shape.cols) return "";
  const Element origin = tile_origin(fault, array);
  if (!tile_is_whole(origin, array)) return "";
  const Element local = local_to_tile(fault, array, origin);
  if (one_past_the_tile(local, array)) {
    const bool row_past = local.row == shape.tile_rows;
    const long long last = row_past ? shape.tile_rows - 1 : shape.tile_cols - 1;
    return "block " + pair_text(fault.block[0], fault.block[1]) + "'s thread " +
           pair_text(fault.thread[0], fault.thread[1]) + " " + (fault.write ? "wrote" : "read") + " element " +
           pair_text(element->row, element->col) + " of " + array.name + ", which is " +
           (row_past ? "row " : "column ") + std::to_string(row_past ? local.row : local.col) +
           " of its tile, one past the tile's last (" + std::to_string(last) +
           "): a loop bound one past the tile (`<=` where `<` is meant), or the tile's origin added to an index "
           "that already counts from it, reaches this element.";
  }
  // A GEMM operand's columns run over every k, whose last tile may be partial: a bound
  // there may be at fault.
  if (array.rows_only) return "";
  return "block " + pair_text(fault.block[0], fault.block[1]) + "'s tile of " + array.name + ", rows " +
         std::to_string(origin.row) + " to " + std::to_string(origin.row + shape.tile_rows - 1) + " and columns " +
         std::to_string(origin.col) + " to " + std::to_string(origin.col + shape.tile_cols - 1) +
         ", lies wholly inside the array, so no bound of a partial tile is at fault: its thread " +
         pair_text(fault.thread[0], fault.thread[1]) + " " + (fault.write ? "wrote" : "read") + " element " +
         pair_text(element->row, element->col) + ", outside its tile. The index of that " +
         (fault.write ? "store" : "read") +
         " is computed wrongly for an element inside the tile: check each term of its row and column (the "
         "leading dimension, a stride, a coordinate taken twice or exchanged).";
}

std::string copy_wider_than_the_step(const Fault& fault, ErrorKind kind, unsigned step_bytes) {
  if (kind != ErrorKind::misaligned || fault.bytes == 0 || step_bytes == 0 || fault.bytes <= step_bytes) return "";
  return "a cp.async of " + std::to_string(fault.bytes) + " bytes where each copy of this step moves one float, " +
         std::to_string(step_bytes) + " bytes: wb::cp_async (or wb::cp_async_ca<4>) copies a float; "
         "wb::cp_async_cg always copies 16 bytes and wb::cp_async_ca<N> copies N, which also need addresses "
         "at multiples of N.";
}

}  // namespace wb::grading
