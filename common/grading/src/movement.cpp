#include "wb/grading/movement.hpp"

#include <algorithm>
#include <cmath>

#include "wb/grading/diagnosis/byte_counts.hpp"
#include "wb/grading/diagnosis/diagnosis.hpp"
#include "wb/grading/diagnosis/faults.hpp"
#include "wb/grading/diagnosis/footprint.hpp"
#include "wb/grading/diagnosis/in_flight.hpp"
#include "wb/grading/diagnosis/misplacement.hpp"
#include "wb/grading/guarded_buffer.hpp"
#include "wb/grading/random.hpp"
#include "wb/grading/schedules.hpp"
#include "wb/grading/run.hpp"
#include "wb/grading/technique.hpp"

namespace wb::grading {

namespace {

std::string shape_text(const MovementCheck& check) {
  std::string text = "array " + std::to_string(check.input.rows) + "x" + std::to_string(check.input.cols);
  if (check.output.rows != check.input.rows || check.output.cols != check.input.cols) {
    text += " (output " + std::to_string(check.output.rows) + "x" + std::to_string(check.output.cols) + ")";
  }
  return text;
}

// The walks with wrong loop steps, as models: a walk's reach is the input elements that
// the layout's threads reach from their starts in every block's tile under its steps; a
// model fits where the output's right elements are exactly its reach and some element is
// not reached (the right steps reach every one), and the unreached hold no value at all
// (the poison of a word never copied). Tried: the two steps exchanged (rows
// stepped by the thread layout's columns, columns by its rows), and one pass of the
// threads along the columns or the rows (a step of the whole tile: the loop's step too
// large, its bound the layout's extent, or the loop missing), which often reach the same.
std::string loop_steps_cause(const MovementCheck& check, const std::vector<float>& input,
                             const std::vector<float>& output, bool transposed) {
  if (!check.thread_start || check.row_step <= 0 || check.col_step <= 0 || check.tiles_per_block != 1) return "";
  const ArrayShape& shape = check.input;
  const unsigned threads = static_cast<unsigned>(check.row_step * check.col_step);
  const auto fits = [&](int row_step, int col_step) {
    std::vector<bool> reached(input.size(), false);
    for (int tile_col = 0; tile_col < shape.cols; tile_col += shape.tile_cols) {
      for (int tile_row = 0; tile_row < shape.rows; tile_row += shape.tile_rows) {
        const int valid_rows = std::min(shape.tile_rows, shape.rows - tile_row);
        const int valid_cols = std::min(shape.tile_cols, shape.cols - tile_col);
        for (unsigned thread = 0; thread < threads; ++thread) {
          const std::optional<ThreadStart> start = check.thread_start(thread);
          if (!start) return false;
          for (long long col = start->first_col; col < valid_cols; col += col_step) {
            for (long long row = start->first_row; row < valid_rows; row += row_step) {
              reached[static_cast<std::size_t>(tile_row + row) +
                      static_cast<std::size_t>(tile_col + col) * static_cast<std::size_t>(shape.rows)] = true;
            }
          }
        }
      }
    }
    bool any_unreached = false;
    for (int col = 0; col < shape.cols; ++col) {
      for (int row = 0; row < shape.rows; ++row) {
        const std::size_t in = static_cast<std::size_t>(row) + static_cast<std::size_t>(col) * shape.rows;
        const std::size_t out =
            transposed ? static_cast<std::size_t>(col) + static_cast<std::size_t>(row) * shape.cols : in;
        if (out >= output.size() || (output[out] == input[in]) != reached[in]) return false;
        // An element the walk misses was never copied: it holds poison (the simulator's)
        // or whatever shared memory held, never another input element, which an index
        // that copies to the wrong place leaves there instead.
        if (!reached[in] && !std::isnan(output[out])) return false;
        any_unreached = any_unreached || !reached[in];
      }
    }
    return any_unreached;
  };
  const bool exchanged = check.row_step != check.col_step && fits(check.col_step, check.row_step);
  const bool columns_once = fits(check.row_step, shape.tile_cols);
  const bool rows_once = fits(shape.tile_rows, check.col_step);
  const std::string exchanged_text = "the loops' steps exchanged (rows stepped by " + std::to_string(check.col_step) +
                                     " and columns by " + std::to_string(check.row_step) +
                                     ", where the thread layout has " + std::to_string(check.row_step) + " rows and " +
                                     std::to_string(check.col_step) + " columns)";
  const auto once_text = [&](bool columns) {
    return std::string("the ") + (columns ? "column" : "row") + " loop making one pass of the threads (its step " +
           "the tile's " + (columns ? "columns" : "rows") + " or more, its bound the thread layout's " +
           std::to_string(columns ? check.col_step : check.row_step) + ", or the loop missing, where it steps by " +
           std::to_string(columns ? check.col_step : check.row_step) + " over the tile)";
  };
  std::vector<std::string> ways;
  if (exchanged) ways.push_back(exchanged_text);
  if (columns_once) ways.push_back(once_text(true));
  if (rows_once) ways.push_back(once_text(false));
  if (ways.empty() || ways.size() > 2) return "";
  return "the output's right elements are exactly the input elements that the threads reach with " +
         (ways.size() == 1 ? ways.front() : "either " + ways.front() + ", or " + ways.back()) +
         ". The row loop steps by the thread layout's rows and the column loop by its columns, each over the "
         "whole tile, so that the threads cover it once.";
}

// Every wrong element, and no other, is the last valid row (or column) of its input tile:
// a loop over that side of the tile stopped one short. Which loop, the poison says: shared
// memory no copy filled (the copy in), or an output never stored (the stores).
std::string last_row_or_column_missing(const MovementCheck& check, const std::vector<double>& reference,
                                       const std::vector<float>& output, bool transposed) {
  const ArrayShape& shape = check.input;
  if (reference.size() != output.size()) return "";
  const auto out_index = [&](int row, int col) {
    return transposed ? static_cast<std::size_t>(col) + static_cast<std::size_t>(row) * shape.cols
                      : static_cast<std::size_t>(row) + static_cast<std::size_t>(col) * shape.rows;
  };
  for (const bool rows : {true, false}) {
    bool fits = true, any = false, all_stale = true, all_unwritten = true;
    for (int col = 0; col < shape.cols && fits; ++col) {
      for (int row = 0; row < shape.rows && fits; ++row) {
        const int tile_row = row / shape.tile_rows * shape.tile_rows, tile_col = col / shape.tile_cols * shape.tile_cols;
        const int last = rows ? std::min(shape.tile_rows, shape.rows - tile_row) - 1
                              : std::min(shape.tile_cols, shape.cols - tile_col) - 1;
        const bool on_the_side = (rows ? row - tile_row : col - tile_col) == last;
        const float value = output[out_index(row, col)];
        const bool wrong = static_cast<double>(value) != reference[out_index(row, col)];
        if (wrong != on_the_side) fits = false;
        if (wrong) {
          any = true;
          all_stale = all_stale && poison::matches(value, poison::Kind::stale);
          all_unwritten = all_unwritten && poison::matches(value, poison::Kind::unwritten);
        }
      }
    }
    if (!fits || !any || (!all_stale && !all_unwritten)) continue;
    const std::string side = rows ? "row" : "column";
    const std::string valid = rows ? "valid_rows" : "valid_cols";
    return "every wrong element is the last " + side + " of its input tile (" + side + " " + valid + " - 1: " +
           (rows ? "row " + std::to_string(std::min(shape.tile_rows, shape.rows) - 1)
                 : "column " + std::to_string(std::min(shape.tile_cols, shape.cols) - 1)) +
           " of a whole tile" + (transposed ? std::string(", the last ") + (rows ? "column" : "row") +
                                                  " of its output tile" : std::string()) +
           "), in every tile, and every other element is right: " +
           (all_stale ? "the copy into shared memory" : "the stores") + " stopped one " + side +
           " short. A loop over the tile's " + side + "s bounded one short (`< " + valid +
           " - 1`, or a count from 1 bounded with `<` where `<=` is meant): from 0, the loop runs " + side +
           " < " + valid + ".";
  }
  return "";
}

}  // namespace

void check_movement(const MovementCheck& check, const std::string& configuration) {
  const Step& step = check.step;
  const auto seed = fresh_seed();
  const std::string where = step.heading() + ", " + shape_text(check) + ", " + configuration +
                            " (WB_SEED=" + std::to_string(seed) + "):\n";
  const std::size_t in_count = static_cast<std::size_t>(check.input.rows) * check.input.cols;
  const std::size_t out_count = static_cast<std::size_t>(check.output.rows) * check.output.cols;
  const std::vector<float> input = random_floats(in_count, seed);
  DeviceBuffer<float> gmem_in(in_count);
  gmem_in.upload(input);
  GuardedBuffer<float> gmem_out(out_count);

  // A fault is tested against the index mistakes that reach past an array's end, and
  // against the causes it rules out (a bound of a partial tile, where the tile is whole).
  // A transpose's output tile is its input tile, row and column exchanged; block (x, y)
  // owns input tile (x, y), or (y, x) where the grid's x runs over the input's columns.
  const bool transposed = check.output.rows != check.input.rows || check.output.tile_rows != check.input.tile_rows;
  const bool input_grid_transposed = check.grid_x_over_columns;
  const bool output_grid_transposed = transposed != check.grid_x_over_columns;
  const auto explain_fault = [&](const Error& error) -> std::string {
    // A misaligned vector load or store of shared memory: no reading of this step's.
    if (!error.fault() || error.fault()->misaligned_shared) return "";
    const Fault& fault = *error.fault();
    if (std::string cause = copy_wider_than_the_step(fault, error.kind(), check.copy_bytes); !cause.empty()) {
      return cause;
    }
    if (check.explain_fault) {
      if (std::string cause = check.explain_fault(fault, gmem_in.data()); !cause.empty()) return cause;
    }
    const FaultedArray arrays[] = {{gmem_in.data(), check.input, input_grid_transposed, "the input"},
                                   {gmem_out.data(), check.output, output_grid_transposed, "the output"}};
    // A block's share of each array, which the hypotheses of where a block's index went
    // measure from: its tile, or as many consecutive tiles as it walks.
    ArrayShape input_share = check.input, output_share = check.output;
    input_share.tile_rows *= check.tiles_per_block;
    output_share.tile_rows *= check.tiles_per_block;
    const FaultedArray shares[] = {{gmem_in.data(), input_share, input_grid_transposed, "the input"},
                                   {gmem_out.data(), output_share, output_grid_transposed, "the output"}};
    if (error.kind() == ErrorKind::misaligned) {
      return misaligned_destination_cause(fault, arrays[0], check.shared_layouts);
    }
    if (error.kind() == ErrorKind::destination_not_shared) {
      if (std::string cause = destination_past_the_array_cause(fault, arrays[0], check.shared_layouts);
          !cause.empty()) {
        return cause;
      }
      FaultedArray walked = arrays[0];
      walked.thread_start = check.thread_start;
      if (std::string cause = destination_strided_by_the_arrays_rows(fault, walked, check.shared_layouts);
          !cause.empty()) {
        return cause;
      }
      // The fault's address is the copy's source: read below where it left the tile, and
      // read as nothing where it is right (leading_dimension_of_a_fault needs it past the
      // array's end, the other readings outside the tile).
    }
    // The input as the threads walk it: each thread's start and the loops' steps.
    FaultedArray walked_input = arrays[0];
    walked_input.thread_start = check.thread_start;
    walked_input.row_step = check.row_step;
    walked_input.col_step = check.col_step;
    walked_input.accesses_per_element = check.accesses_per_element;
    for (const FaultedArray& array : {walked_input, arrays[1]}) {
      if (std::string cause = overlapping_writes_cause(fault, array); !cause.empty()) return cause;
    }
    if (std::string cause = first_access_one_below_its_start(fault, walked_input); !cause.empty()) return cause;
    // Before the index hypotheses below, which would read a 1-D array's element past its end
    // as a column past the tile's.
    for (const FaultedArray& array : arrays) {
      if (std::string cause = start_counted_in_bytes(fault, array); !cause.empty()) return cause;
    }
    // The index mistakes are all tried, not the first that fits: where two fit the same
    // access (a tile origin counted twice lands where another leading dimension does), both
    // are named; where more do, the access alone does not single one out.
    std::vector<std::string> readings;
    const auto add = [&readings](std::string cause) {
      if (!cause.empty() && std::find(readings.begin(), readings.end(), cause) == readings.end()) {
        readings.push_back(std::move(cause));
      }
    };
    add(loop_bounds_cause(fault, walked_input));
    add(walk_off_its_steps(fault, walked_input));
    // Another array's or a tile's leading dimension that takes the block's tile there.
    const std::vector<std::pair<int, std::string>> leading_dimensions = {
        {check.input.rows, "the input's rows"},      {check.output.rows, "the output's rows"},
        {check.input.tile_rows, "the tile's rows"}, {check.output.tile_rows, "the output tile's rows"}};
    // The input's rows in another unit, for the reading of a fault's place alone: counted
    // in floats on a pointer to pairs or quads, or in bytes on a pointer to floats.
    std::vector<std::pair<int, std::string>> leading_dimensions_in_units = leading_dimensions;
    leading_dimensions_in_units.push_back(
        {2 * check.input.rows, "twice the input's rows (its rows counted in floats where a pointer to float2 "
                               "counts pairs)"});
    leading_dimensions_in_units.push_back(
        {4 * check.input.rows, "four times the input's rows (its rows in bytes, rows * sizeof(float), on a float "
                               "pointer, or in floats where a pointer to float4 counts quads)"});
    add(store_index_cause(fault, walked_input, arrays[1], check.store_walk, leading_dimensions));
    for (const FaultedArray& array : shares) add(origin_counted_twice(fault, array));
    // The readings below are tried only where none above fits: they read the fault's
    // place alone, which the mistakes above also reach.
    if (readings.empty()) {
      for (const FaultedArray& array : {walked_input, arrays[1]}) {
        add(leading_dimension_of_a_fault(fault, array, leading_dimensions_in_units));
      }
    }
    if (readings.empty()) {
      // A block of one tile walks it as walked_input says: a bound one past is tried against the walk.
      for (const FaultedArray& array : shares) {
        add(index_leaves_a_whole_tile(fault, check.tiles_per_block == 1 && &array == &shares[0] ? walked_input : array));
      }
    }
    if (readings.empty()) {
      for (const FaultedArray& array : arrays) add(past_the_end_of_a_vector(fault, array));
    }
    if (readings.size() == 1) return readings.front();
    if (readings.size() == 2) return "two readings fit this access. One: " + readings[0] + " The other: " + readings[1];
    return "";
  };
  if (!run_kernel([&] { check.run(gmem_in.data(), gmem_out.data()); }, where, step, "", explain_fault)) return;
#if WB_BACKEND_SIM
  const sim::LaunchStats stats = sim::last_launch_stats();
#endif

  CompareOptions options;
  options.input = &input;
  options.input_shape = check.input;
  if (check.grid_x_over_columns) {
    options.tile_indices = "the input tile's rows from blockIdx.y, columns from blockIdx.x";
  }
  const std::vector<float> output = gmem_out.download();
  // The likely cause, from what the launch did and what the output holds; where none of
  // these fits, matches_reference reads the pattern of the wrong elements.
  // A model of a mistake fits where it gives exactly the output: a moved value is copied, never computed.
  const std::vector<double> reference = check.reference(input);
  Diagnosis diagnosis([&output](const std::vector<double>& model) {
    return model.size() == output.size() &&
           std::equal(output.begin(), output.end(), model.begin(),
                      [](float actual, double expected) { return static_cast<double>(actual) == expected; });
  });
#if WB_BACKEND_SIM
  if (check.uses_cp_async) {
    diagnosis.finding([&] {
      return no_copy_issued(stats, "is the TODO of the copy still empty, or are the elements stored with a plain "
                                   "assignment?");
    });
  }
  // Block (x, y) owns output tile (x, y), or (y, x) (output_grid_transposed).
  diagnosis.finding([&] {
    return threads_returned_early(stats, output, [&](const uint3& block) {
      const int tile_row = static_cast<int>(output_grid_transposed ? block.y : block.x);
      const int tile_col = static_cast<int>(output_grid_transposed ? block.x : block.y);
      for (int col = tile_col * check.output.tile_cols;
           col < std::min(check.output.cols, (tile_col + 1) * check.output.tile_cols); ++col) {
        for (int row = tile_row * check.output.tile_rows;
             row < std::min(check.output.rows, (tile_row + 1) * check.output.tile_rows); ++row) {
          const float value = output[static_cast<std::size_t>(row) + static_cast<std::size_t>(col) * check.output.rows];
          if (poison::kind_of(value) == poison::Kind::unwritten) return true;
        }
      }
      return false;
    });
  });
  // Only the output's first tile written, the others never, though the blocks made a store
  // for every element of the output: every block stored, into the first tile (which block
  // stored last decides whether that tile is right, so the values alone cannot say it).
  diagnosis.finding([&]() -> std::string {
    const ArrayShape& shape = check.output;
    if (shape.rows % shape.tile_rows != 0 || shape.cols % shape.tile_cols != 0) return "";
    if (shape.rows == shape.tile_rows && shape.cols == shape.tile_cols) return "";
    if (stored_floats(stats) < out_count) return "";
    for (int col = 0; col < shape.cols; ++col) {
      for (int row = 0; row < shape.rows; ++row) {
        const bool first_tile = row < shape.tile_rows && col < shape.tile_cols;
        const float value = output[static_cast<std::size_t>(row) + static_cast<std::size_t>(col) * shape.rows];
        if (poison::matches(value, poison::Kind::unwritten) == first_tile) return "";
      }
    }
    return "only the output's first tile was written, every other never, though the blocks stored " +
           std::to_string(stored_floats(stats)) + " elements, one for each of the output's " +
           std::to_string(out_count) + " elements: every block stored its tile, into the first tile. " +
           store_origin_left_out();
  });
  // A read of a copy that its thread's last wait left in flight: a wait<N> with N > 0
  // where the step waits for every group.
  diagnosis.finding([&] {
    const std::optional<sim::InFlightRead>& read = stats.in_flight_read;
    const bool left_by_the_wait = read && read->group < read->commits && read->last_wait > 0 &&
                                  !read->issued_after_last_wait;
    return !check.step_wait_call.empty() && left_by_the_wait && holds_poison(output, poison::Kind::in_flight)
               ? in_flight_read_cause(stats, 0, check.step_wait_call)
               : std::string();
  });
  // A read of a copy that no commit put in a group, after its thread's wait<N>: the wait
  // counts committed groups only, so a commit is missing on that copy's path.
  diagnosis.finding([&] {
    const std::optional<sim::InFlightRead>& read = stats.in_flight_read;
    const bool uncommitted = read && read->group >= read->commits && read->last_wait >= 0;
    return uncommitted && holds_poison(output, poison::Kind::in_flight) ? in_flight_read_cause(stats, -1)
                                                                          : std::string();
  });
#endif
  if (check.explain) diagnosis.finding([&] { return check.explain(output, input); });
  diagnosis.finding([&] { return nothing_written(output, "the output"); });
  diagnosis.finding([&] { return loop_steps_cause(check, input, output, transposed); });
  diagnosis.finding([&] { return last_row_or_column_missing(check, reference, output, transposed); });
  // A source size in elements where bytes are asked: the reference on the input so cut.
  if (check.uses_cp_async) {
    for (int bytes = 1; bytes <= 3; ++bytes) {
      diagnosis.model(source_size_in_elements_cause(bytes),
                      [&, bytes] { return check.reference(first_bytes_only(input, bytes)); });
    }
  }
#if WB_BACKEND_SIM
  // Stale poison, and no copy read before its wait: the simulator's footprint of the first
  // read of shared memory that no copy had filled says what was read where.
  diagnosis.finding([&] {
    return holds_poison(output, poison::Kind::in_flight)
               ? std::string()
               : unfilled_read_cause(stats, holds_poison(output, poison::Kind::stale));
  });
#endif
  options.find_cause = [&diagnosis] { return diagnosis.cause(); };
  const ::testing::AssertionResult same = matches_reference(output, reference, check.output, options);
  std::string note;
#if WB_BACKEND_SIM
  note = simulator_notes(stats);
#endif
  // Stores outside the output first: they also explain the wrong elements they cause.
  const std::vector<long long> outside = gmem_out.written_outside();
  const bool partial_edges =
      check.output.rows % check.output.tile_rows != 0 || check.output.cols % check.output.tile_cols != 0;
  if (const auto guards = gmem_out.guards_intact(outside, partial_edges); !guards) {
    std::string bound = store_one_past_the_tile(outside, output, reference, check.output);
    if (bound.empty()) bound = store_origin_counted_twice(outside, check.output);
    ADD_FAILURE() << where << guards.message() << "\n"
                  << (bound.empty() ? std::string() : "Likely cause: " + bound + "\n") << step.hint_line();
    return;
  }
  if (!same) {
    ADD_FAILURE() << where << same.message() << "\n" << note << step.hint_line();
    return;
  }
#if WB_BACKEND_SIM
  judge_technique(check.technique, check.on_success, stats, out_count, where, step);
#endif
}

void check_movement_shapes(const std::vector<std::pair<int, int>>& shapes,
                           const std::function<MovementCheck(int rows, int cols)>& make) {
  for (const auto& [rows, cols] : shapes) {
    const MovementCheck check = make(rows, cols);
    for_each_schedule([&](const std::string& configuration) { check_movement(check, configuration); });
    if (::testing::Test::HasFailure()) return;  // one clear failure, not a flood
  }
}

std::vector<double> transposed(const std::vector<float>& input, int rows, int cols) {
  std::vector<double> out(input.size());
  for (int col = 0; col < cols; ++col) {
    for (int row = 0; row < rows; ++row) {
      out[static_cast<std::size_t>(col) + static_cast<std::size_t>(row) * cols] =
          input[static_cast<std::size_t>(row) + static_cast<std::size_t>(col) * rows];
    }
  }
  return out;
}

}  // namespace wb::grading
