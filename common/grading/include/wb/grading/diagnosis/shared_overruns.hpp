// Hypotheses tested against a load or store that ran past the end of a __shared__ array
// (wb::SharedOverrun): the word it reached and the thread's earlier words at the same
// instruction, which say how its index walked there.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "wb/error.hpp"

namespace wb::grading {

// How a thread reads its fragments of one operand from a stage of a shared tile: for
// each column kk of the stage (0 to columns - 1), one vector read of `vector` floats at
// each of the thread's rows, in order.
struct FragmentReads {
  std::string array;        // the shared array, as the skeleton declares it ("smem_a")
  std::string operand;      // "A"
  int column_stride = 0;    // floats between the starts of the stage's columns
  int columns = 0;          // the stage's columns (the k-tile)
  int vector = 4;           // floats per read
  std::function<std::vector<int>(unsigned thread)> rows;  // each read's first row, per kk
};

// A vector read past the end of `reads.array` whose word, and the thread's earlier words
// at that instruction, are `vector` times the offsets of the fragments it was meant to
// read (from a stage's start), where the offsets themselves do not fit: a float offset
// used as an index of a pointer to vectors, which moves `vector` floats per step ("" else).
std::string vector_pointer_indexed_in_floats(const Fault& fault, const FragmentReads& reads);

// A thread's walk over a tile from its start, col += col_step outside row += row_step,
// reading a shared array at each element: a transpose's write out.
struct SharedWalk {
  std::string array;  // the shared array read ("smem_tile")
  int rows = 0;       // the tile walked (the output's: rows x cols)
  int cols = 0;
  int row_step = 0;
  int col_step = 0;
  std::function<std::pair<int, int>(unsigned thread)> start;  // (row, col)
  // The shared tile's column stride, where its (col, row) is the element (row, col) of
  // the walk: the right word is col + row * stride.
  int stride = 0;
  std::string layout;      // the layout that is meant ("smem_transposed(row, col)")
  std::string own_layout;  // the tile's own layout ("smem_layout(row, col)")
};

// A read past `walk.array` whose word, and the thread's earlier words at that
// instruction, are row + col * stride of the thread's walk, element after element: the
// walk's (row, col) read through the tile's own layout, where the output's (row, col) is
// the tile's (col, row) ("" else).
std::string walk_read_through_the_untransposed_layout(const Fault& fault, const SharedWalk& walk);

}  // namespace wb::grading
