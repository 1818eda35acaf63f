// Grading a kernel that moves floats from one array to another (a copy, a transpose):
// one run on fresh random input, the output poisoned with guard bands around it, then
// (1) nothing written outside the output, (2) every element equal to the reference,
// traced back to the input element it came from when it is misplaced, with the likely
// cause, and (3) in the simulator, the step's technique. One failure, the first, per
// run; the steps of chapters 1, 2 and 3 share it.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "wb/grading/compare.hpp"
#include "wb/grading/diagnosis/faults.hpp"
#include "wb/grading/step.hpp"
#include "wb/wb.cuh"

namespace wb::grading {

struct MovementCheck {
  Step step;
  ArrayShape input;   // the input's shape, and the block's tile in it
  ArrayShape output;  // the output's shape and tiles (those of the input for a copy)
  // Launches the learner's kernel on device pointers.
  std::function<void(const float* gmem_in, float* gmem_out)> run;
  // output[i], column-major, from the input.
  std::function<std::vector<double>(const std::vector<float>& input)> reference;
  // How many consecutive tiles (along the rows) each block walks: block b's share of
  // the arrays, which a fault's index hypotheses measure from (1: its tile alone).
  int tiles_per_block = 1;
  // Whether block (x, y) finds its tile of the input at tile (y, x), the grid's x running
  // over the input's column tiles (chapter 3's transpose); at tile (x, y) otherwise. A
  // transpose's output tile is its input tile's, row and column exchanged.
  bool grid_x_over_columns = false;
  // Whether the step loads through cp.async: if it issued none at all, the report says so
  // instead of reading the poison left in shared memory as a missing barrier.
  bool uses_cp_async = true;
  // The bytes each of the step's asynchronous copies moves (one float: 4), so that a wider
  // copy is named as such; 0 where the step copies several widths.
  unsigned copy_bytes = 4;
  // The step's wait for all its copies as its page writes it (wb::cp_async_wait_all()), so
  // that a read of a copy its thread's wait left in flight names that wait; empty where
  // the step waits otherwise (a barrier's phase).
  std::string step_wait_call;
  // The shared tiles' layouts of the chapter (empty: none padded), so that a copy whose
  // shared destination is misaligned names the layout its index went through.
  std::vector<SharedLayout> shared_layouts;
  // Where the step fixes how a thread walks its tile of the input (the page's loops): its
  // start, and the loops' steps (0: not known), for the reading of a loop's bound from
  // the access that faulted (diagnosis/faults.hpp, loop_bounds_cause).
  std::function<std::optional<ThreadStart>(unsigned thread)> thread_start;
  int row_step = 0;
  int col_step = 0;
  int accesses_per_element = 1;  // a copy's 1; a load and a store: 2
  // Where the step fixes the order of a thread's stores to the output (empty: not known),
  // so that a store outside the output is read against the element it was meant for
  // (diagnosis/faults.hpp, store_index_cause).
  StoreWalk store_walk;
  // The step's own reading of a fault (which element its thread was meant to reach says
  // which index is wrong), with the input's device pointer: a cause, or "" to leave it to
  // the general hypotheses.
  std::function<std::string(const Fault& fault, const float* gmem_in)> explain_fault;
  // The step's own reading of a wrong output (which elements are wrong says which part of
  // the kernel is): a likely cause, or "" to leave it to the general ones.
  std::function<std::string(const std::vector<float>& output, const std::vector<float>& input)> explain;
#if WB_BACKEND_SIM
  // The technique, checked once the results are right (empty: none).
  std::function<::testing::AssertionResult(const sim::LaunchStats&)> technique;
  // Runs after a passing run with its counters (the naive transpose prints its sectors).
  std::function<void(const sim::LaunchStats&)> on_success;
#endif
};

// One run under the schedule named by `configuration` (for_each_schedule gives it).
void check_movement(const MovementCheck& check, const std::string& configuration);

// check_movement for each shape, under each schedule, stopping at the first failure:
// `make(rows, cols)` builds the check of an input of that shape.
void check_movement_shapes(const std::vector<std::pair<int, int>>& shapes,
                           const std::function<MovementCheck(int rows, int cols)>& make);

// out(c, r) = in(r, c) for a column-major rows x cols input: the transpose's reference.
std::vector<double> transposed(const std::vector<float>& input, int rows, int cols);

}  // namespace wb::grading
