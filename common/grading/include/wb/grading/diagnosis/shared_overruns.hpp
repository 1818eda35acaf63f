// Hypotheses tested against a load or store that ran past the end of a __shared__ array
// (wb::SharedOverrun): the word it reached and the thread's earlier words at the same
// instruction, which say how its index walked there.
#pragma once

#include <functional>
#include <string>
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
  int stages = 1;           // the stages `array` holds, one after another
};

// A vector read past the end of `reads.array` whose word, and the thread's earlier words
// at that instruction, are `vector` times the offsets of the fragments it was meant to
// read (from a stage's start), where the offsets themselves do not fit: a float offset
// used as an index of a pointer to vectors, which moves `vector` floats per step ("" else).
std::string vector_pointer_indexed_in_floats(const Fault& fault, const FragmentReads& reads);

// A misaligned vector read of `reads.array` whose byte offset, from a stage's start, is
// the float offset of one of the thread's fragments there: a float offset added to a
// byte pointer (a char* without * sizeof(float)), or, as the address alone cannot tell,
// a row index that is no multiple of the vector (the thread's row where its first row,
// `vector` times it, is meant). Both named, the first with its figures ("" else).
std::string float_offset_as_bytes(const Fault& fault, const FragmentReads& reads);

// A read past the end of a ring of `reads.stages` stages that lies in the stage after the
// last, at the offset of one of the thread's own fragments there: the stage index ran to
// kStages, one past the last, not wrapped around ("" else).
std::string stage_index_not_wrapped(const Fault& fault, const FragmentReads& reads);

}  // namespace wb::grading
