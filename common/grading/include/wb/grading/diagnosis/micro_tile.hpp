// A GEMM kernel's micro-tile: which elements of a block's tile of C each thread owns,
// for the models of its mistakes (gemm_models.hpp).
#pragma once

#include <functional>

namespace wb::grading {

// The elements of C a thread owns: the thread at (thread_row, thread_col) of a
// thread_rows x thread_cols layout owns rows row(thread_row, i), columns col(thread_col,
// j) of the block's tile, i < micro_m, j < micro_n.
struct MicroTile {
  int thread_rows = 0;
  int thread_cols = 0;
  int micro_m = 0;
  int micro_n = 0;
  std::function<int(int thread_row, int i)> row;
  std::function<int(int thread_col, int j)> col;
  bool given() const { return thread_rows > 0 && row && col; }
};

}  // namespace wb::grading
