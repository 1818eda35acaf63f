// The grader of chapter 1, copy: a test per step, each at several shapes, under the
// forward and the reverse schedule in the simulator and once on the GPU.
//
// Each run: fresh random input, the output poisoned with guard bands around it, the
// learner's copy, then (1) every element equal to the input, with a report that names
// the likely cause, (2) nothing written outside the output, (3) in the simulator, every
// element loaded through cp.async and every copy waited for.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "copy.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/movement.hpp"
#include "wb/grading/step.hpp"
#include "wb/grading/technique.hpp"

namespace {

using wb::grading::Step;

// What a kernel error means in each step.
const wb::grading::Causes kCommonCauses = {
    {wb::ErrorKind::destination_not_shared,
     "the shared index of a cp.async lies outside smem_tile (2048 floats, 128x16 in "
     "smem_layout), so the row or the column of the shared element leaves the tile: a loop "
     "bound past the tile's last row or column, or a coordinate counted from the array "
     "rather than the tile."},
    {wb::ErrorKind::too_many_copies, wb::grading::loop_without_end_cause("kThreadRows")},
    {wb::ErrorKind::shared_race,
     "a thread reads elements of smem_tile that other threads copied. A wait makes a "
     "thread's own copies visible to itself only; the elements copied by other threads "
     "need a __syncthreads() after everyone's wait, before the reads."},
    {wb::ErrorKind::misaligned,
     "wb::cp_async copies sizeof(float) = 4 bytes: both addresses must be multiples of 4; "
     "is an address cast from a byte offset?"},
};

const Step kStep1{1, 1, "copy the tile through shared memory", "chapters/01_copy/copy.cu",
                  wb::grading::causes_with(kCommonCauses, {{wb::ErrorKind::source_out_of_bounds,
                              "a global index outside the block's tile: step 1 has no partial "
                              "tiles, so a read past the array means the row (0 to 127) or "
                              "column (0 to 15) of an element leaves the tile. Does each loop "
                              "stop at kTileRows and kTileCols, and start at thread_coord?"}})};
const Step kStep2{1, 2, "copy arrays of any shape", "chapters/01_copy/copy.cu",
                  wb::grading::causes_with(kCommonCauses, {{wb::ErrorKind::source_out_of_bounds,
                              "the copy reads past the end of the input: is the copy missing "
                              "a bounds check (row < valid_rows, col < valid_cols) for the "
                              "last, partial tile?"}})};

using CopyFunction = void (*)(const float*, float*, int, int);

// Fresh random input, the output poisoned with guard bands, then the exact copy and, in
// the simulator, every element loaded through cp.async and every copy waited for.
void grade_shapes(const Step& step, CopyFunction copy,
                  const std::vector<std::pair<int, int>>& shapes) {
  wb::grading::check_movement_shapes(shapes, [&](int rows, int cols) {
    wb::grading::MovementCheck check;
    check.step = step;
    check.step_wait_call = "wb::cp_async_wait_all()";
    check.input = {rows, cols, ch01::kTileRows, ch01::kTileCols};
    check.output = check.input;
    check.run = [=](const float* gmem_in, float* gmem_out) { copy(gmem_in, gmem_out, rows, cols); };
    check.reference = [](const std::vector<float>& input) {
      return std::vector<double>(input.begin(), input.end());
    };
    // copy.cu's loops: thread_layout (32,8) column-major puts thread t at (t % 32, t / 32),
    // from where it walks the tile in steps of the layout's extents.
    check.thread_start = [](unsigned thread) -> std::optional<wb::grading::ThreadStart> {
      const long long row = thread % ch01::kThreadRows, col = thread / ch01::kThreadRows;
      return wb::grading::ThreadStart{row, col, row, col};
    };
    check.row_step = ch01::kThreadRows;
    check.col_step = ch01::kThreadCols;
#if WB_BACKEND_SIM
    const std::uint64_t elements = static_cast<std::uint64_t>(rows) * cols;
    const bool whole_tiles = rows % ch01::kTileRows == 0 && cols % ch01::kTileCols == 0;
    check.technique = [elements, whole_tiles](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = wb::grading::loaded_through_cp_async(stats, elements);
      if (technique) technique = wb::grading::only_copies_store_to_shared_memory(stats);
      if (technique) technique = wb::grading::one_float_per_copy(stats);
      if (technique) technique = wb::grading::waited_once_per_thread(stats);
      // On whole tiles: in a partial one some lanes stop a row early, their next copies
      // join the next column's requests, and the simulator's requests are approximate.
      if (technique && whole_tiles) {
        technique = wb::grading::every_thread_copies(
            stats, "The thread layout (32,8) gives each of the 256 threads 8 elements of the tile: rows 32 apart "
                   "(kThreadRows) and columns 8 apart (kThreadCols), from its thread_coord.");
      }
      if (technique && whole_tiles) {
        technique = wb::grading::within_the_ideal(
            stats, wb::sim::AccessKind::cp_async_read,
            "the copies read global memory scattered. A warp's k-th copies should read 32 "
            "consecutive rows of one column (128 bytes, 4 sectors): lane t starts at thread_coord, row "
            "t % 32, and each loop steps by the thread layout's extent (kThreadRows, kThreadCols), so "
            "that the next copy of every lane moves the whole warp on together.");
      }
      return technique;
    };
#endif
    return check;
  });
}

using Chapter1Copy = wb::grading::KernelTest;

TEST_F(Chapter1Copy, Step1CopyTheTile) {
  // The seed's 256x32 first, then other multiples of the 128x16 tile; 256x64 has a grid
  // of 2x4 blocks, where a swapped blockIdx.x and blockIdx.y cannot hide.
  grade_shapes(kStep1, ch01::copy_tiles, {{256, 32}, {256, 64}, {128, 16}, {512, 48}});
}

TEST_F(Chapter1Copy, Step2CopyAnyShape) {
  grade_shapes(kStep2, ch01::copy_tiles_any_shape,
               {{300, 40}, {127, 15}, {1, 1}, {129, 17}, {256, 32}, {1000, 3}, {5, 100}});
}

}  // namespace
