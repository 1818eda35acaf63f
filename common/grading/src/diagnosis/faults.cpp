#include "wb/grading/diagnosis/faults.hpp"

#include <cstdint>

namespace wb::grading {

std::string origin_counted_twice(const Fault& fault, const void* begin, int rows, int tile_rows, int tile_cols,
                                 bool grid_transposed, const std::string& array) {
  const auto address = reinterpret_cast<std::uintptr_t>(fault.address);
  const auto base = reinterpret_cast<std::uintptr_t>(begin);
  if (address < base || rows <= 0) return "";
  const std::uintptr_t element = (address - base) / sizeof(float);
  const long long row = static_cast<long long>(element % static_cast<std::uintptr_t>(rows));
  const long long col = static_cast<long long>(element / static_cast<std::uintptr_t>(rows));
  const unsigned tile_x = grid_transposed ? fault.block[1] : fault.block[0];
  const unsigned tile_y = grid_transposed ? fault.block[0] : fault.block[1];
  const long long origin_row = static_cast<long long>(tile_x) * tile_rows;
  const long long origin_col = static_cast<long long>(tile_y) * tile_cols;
  if (origin_row == 0 && origin_col == 0) return "";
  const long long local_row = row - 2 * origin_row, local_col = col - 2 * origin_col;
  if (local_row < 0 || local_row >= tile_rows || local_col < 0 || local_col >= tile_cols) return "";
  const auto pair = [](long long r, long long c) { return "(" + std::to_string(r) + ", " + std::to_string(c) + ")"; };
  return "the tile's origin is counted twice: block " + pair(fault.block[0], fault.block[1]) + "'s tile of " +
         array + " starts at " + pair(origin_row, origin_col) + ", and its thread " +
         pair(fault.thread[0], fault.thread[1]) + " " + (fault.write ? "wrote" : "read") + " element " +
         pair(row, col) + " = twice that origin + " + pair(local_row, local_col) +
         ". An index that already counts from the tile's first element (a pointer to the tile) was given "
         "the global row and column too: index the tile with its own (row, col), or the array with global ones.";
}

}  // namespace wb::grading
