// The grader of chapter 5, vectorized copies and alignment: a test per step, each at
// several shapes, under the forward and the reverse schedule in the simulator and once on
// the GPU.
//
// Each run: fresh random input, the output poisoned with guard bands, then nothing written
// outside the output, every element right (exact for the copies, within 1e-5 in the
// Frobenius norm for the GEMM), and in the simulator the technique: every tile copy as
// wide as the step asks (the simulator counts copies by width), every element through
// cp.async once. A misaligned copy stops the kernel, in the simulator with the element,
// its byte offset and the alignment it needed; on the GPU with CUDA's misaligned-address
// error; the step's likely cause then says which padding or offset fixes it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "vector.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/diagnosis/diagnosis.hpp"
#include "wb/grading/diagnosis/gemm_models.hpp"
#include "wb/grading/gemm.hpp"
#include "wb/grading/movement.hpp"
#include "wb/grading/step.hpp"
#include "wb/grading/technique.hpp"

namespace {

using wb::grading::GemmShape;
using wb::grading::Step;

const char* const kFile = "chapters/05_vector/vector.cu";

const wb::grading::Causes kCommonCauses = {
    {wb::ErrorKind::destination_not_shared,
     "the shared address of a cp.async lies outside the tile: its index reaches past the tile, "
     "either through a loop bound past the tile's rows or columns (kGemmTile where kGemmTileK is "
     "meant) or through a row or column counted in the wrong unit (vectors where floats are "
     "meant, or the other way round)."},
    {wb::ErrorKind::too_many_copies, wb::grading::loop_without_end_cause()},
    {wb::ErrorKind::shared_race,
     "a thread reads elements of the tile that other threads copied, with no barrier after "
     "everyone's wait: the wait makes a thread's own copies visible to itself only. Where the message "
     "says a copy writes a word that another thread read before it, the barriers may be right and the "
     "copy's shared index wrong: it comes from the tile's own layout (smem_8_layout or smem_16_layout in "
     "step 1, smem_gemm_layout in step 2), never from the input's leading dimension (rows or ld), or the "
     "copy lands on words that others are reading."},
    {wb::ErrorKind::barrier, wb::grading::barrier_divergence_cause()},
};

const Step kStep1{
    5, 1, "8- and 16-byte copies of a padded tile", kFile,
    wb::grading::causes_with(kCommonCauses, {{wb::ErrorKind::misaligned,
                  "a copy of 8 or 16 bytes needs both addresses at multiples of 8 or 16. For a shared "
                  "destination, look at its float element in the message. Below 128 it lies in column 0, "
                  "which starts at byte 0: the padding is not at fault, the row is. A vector's first row "
                  "must be a multiple of its floats: 2 * thread_coord.row for pairs, 4 * thread_coord.row "
                  "for quads. At 128 or above, with the row right, the column's start is: column c starts "
                  "at byte c * (128 + pad) * 4, so the padding must be a multiple of 2 floats for 8-byte "
                  "copies (kPad8 = 2) and of 4 for 16-byte ones (kPad16 = 4); the seed's +1 puts column 1 "
                  "at byte 516, where no 8-byte copy may start. For a global source: row + col * rows is "
                  "aligned for such a row (rows is a multiple of 128): is something added to it?"},
                 {wb::ErrorKind::source_out_of_bounds,
                  "a copy reads past the input: is the vector's first row 2 (or 4) times thread_coord.row, "
                  "and does the loop over columns stop at kTileCols?"}})};

const Step kStep2{
    5, 2, "16-byte copies in the GEMM", kFile,
    wb::grading::causes_with(kCommonCauses, {{wb::ErrorKind::misaligned,
                  "a 16-byte copy needs its shared destination and its global source at multiples of 16 "
                  "bytes: the quad's first row is 4 * thread_coord.row, the shared tile's columns 512 "
                  "bytes apart (a padding would have to be a multiple of 4 floats), and the source "
                  "row + col * ld with ld a multiple of 4 (the kernel takes 4-byte copies otherwise)."},
                 {wb::ErrorKind::source_out_of_bounds,
                  "a 16-byte copy read past the end of A or B: in a tile at an edge, a quad whose first row "
                  "is past valid_rows or whose column is past valid_k must read 0 bytes (load_tile_16), "
                  "and only whole tiles may take load_whole_tile_16."}})};

const Step kStep3{
    5, 3, "16-byte copies of any length", kFile,
    wb::grading::causes_with(kCommonCauses, {{wb::ErrorKind::source_out_of_bounds,
                  "a copy addressed bytes past the end of the input. Where it is a 16-byte copy: the array's "
                  "last quad may hold 1 to 3 floats, and a 16-byte copy of it addresses all 16 bytes, whatever "
                  "its source size; copy those floats with 4-byte copies. Where it is a 4-byte copy: its index "
                  "runs past the array's last float (a bound, or a start counted twice)."},
                 {wb::ErrorKind::misaligned,
                  "a copy's address is no multiple of its size. A 16-byte copy: its element is no multiple "
                  "of 4 floats from the array's start (each thread's quad starts at float 4 * threadIdx.x). "
                  "A 4-byte copy: its address is no multiple of 4 bytes, which no float index gives: an "
                  "offset counted in bytes, with a part of it in floats (not times 4), on a byte pointer."}})};

#if WB_BACKEND_SIM
// The launch's copies were exactly `expected_4`, `expected_8` and `expected_16` of 4, 8
// and 16 bytes; `what` says what they copied and why those counts.
::testing::AssertionResult copies_of_widths(const wb::sim::LaunchStats& stats, std::uint64_t expected_4,
                                            std::uint64_t expected_8, std::uint64_t expected_16,
                                            const std::string& what) {
  if (stats.cp_async_4 == expected_4 && stats.cp_async_8 == expected_8 && stats.cp_async_16 == expected_16) {
    return ::testing::AssertionSuccess();
  }
  // Fewer wide copies than asked, their bytes made up by narrower ones: copies narrower
  // than the step's. More copies of a width than asked, none narrower to make up for them:
  // some element copied twice. Fewer in all, with plain global loads made: the vectors went
  // to shared memory through registers. Each is said as such; fewer with no plain loads is
  // shown as counted.
  const bool narrower = (stats.cp_async_16 < expected_16 && stats.cp_async_4 + stats.cp_async_8 > expected_4 + expected_8) ||
                        (stats.cp_async_8 < expected_8 && stats.cp_async_4 > expected_4);
  const std::uint64_t issued = stats.cp_async_4 + stats.cp_async_8 + stats.cp_async_16;
  const bool more = !narrower && issued > expected_4 + expected_8 + expected_16;
  const bool through_registers = !narrower && !more && stats.global_loads > 0;
  std::string reading;
  if (narrower) {
    reading = "A narrower copy than the step asks for takes more instructions for the same bytes.";
  } else if (more) {
    reading = "More copies than the vectors: some vectors are copied twice (one copy a vector, of 16 bytes, or of 0 "
              "source bytes outside the array, never both).";
  } else if (through_registers) {
    reading = "Fewer copies than the vectors, and the kernel made " + std::to_string(stats.global_loads) +
              " plain loads of global memory: vectors reached shared memory through registers (a load and a "
              "store) instead of a cp.async, which waits for nothing and lets nothing travel while the block "
              "computes. Copy every vector with wb::cp_async_cg.";
  } else {
    reading = "Fewer copies than the vectors: some vectors were not copied.";
  }
  return ::testing::AssertionFailure()
         << what << " should take " << expected_16 << " copies of 16 bytes, " << expected_8 << " of 8 and "
         << expected_4 << " of 4; the kernel issued " << stats.cp_async_16 << " of 16 bytes, " << stats.cp_async_8
         << " of 8 and " << stats.cp_async_4 << " of 4. " << reading;
}

// Step 3's copies where some whole quads went float by float: 16-byte copies short by q
// and 4-byte ones over by 4q. A test of a whole quad with `<` for `<=` sends exactly one
// quad a tile there, the last of each tile whose floats end on a quad's end: where q is
// that many, it is named ("" where the counts fit no such reading).
std::string whole_quads_copied_as_floats(const wb::sim::LaunchStats& stats, int count) {
  const auto floats = static_cast<std::uint64_t>(count);
  if (stats.cp_async_8 != 0 || stats.cp_async_16 >= floats / 4) return "";
  const std::uint64_t quads = floats / 4 - stats.cp_async_16;
  if (stats.cp_async_4 != floats % 4 + 4 * quads) return "";
  std::uint64_t ending_on_a_quad = 0;  // tiles whose valid floats are a positive multiple of 4
  for (int tile_start = 0; tile_start < count; tile_start += ch05::kTailTile) {
    const int valid = std::min(ch05::kTailTile, count - tile_start);
    ending_on_a_quad += valid % 4 == 0;
  }
  std::string text = " " + std::to_string(quads) + (quads == 1 ? " whole quad was" : " whole quads were") +
                     " copied float by float, 4 copies of 4 bytes each";
  if (quads != ending_on_a_quad) return text + ".";
  return text + ": as many as the tiles whose floats end exactly on a quad's end (" +
         std::to_string(ending_on_a_quad) + "), whose last quad ends at valid. A quad whose end, first + 4, "
         "equals valid is whole: the test is first + 4 <= valid, not first + 4 < valid.";
}
#endif

// Two threads wrote one word of step 3's tile, the first after copying the floats from its
// quad's start up to that word one by one, past its quad: floats first, first + 1, ...,
// first + 4 and on, where its quad, [first, first + 4), lies wholly inside the tile's
// valid floats. A whole quad went float by float (the test that picks the 16-byte copy
// let it through), and that path ran on past the quad (a bound of valid where the quad's
// end is meant). "" where the write does not fit that walk.
std::string whole_quad_copied_on_past_its_end(const wb::Fault& fault, int count) {
  const wb::OverlappingWrite& overlap = *fault.overlap;
  const long long first = 4LL * overlap.first_thread[0];
  const long long tile_start = static_cast<long long>(fault.block[0]) * ch05::kTailTile;
  const long long valid = std::min<long long>(ch05::kTailTile, count - tile_start);
  const auto word = static_cast<long long>(overlap.word);
  const long long copies = static_cast<long long>(overlap.first_earlier_accesses) + 1;
  if (first + 4 > valid || copies <= 4 || word != first + copies - 1) return "";
  return "block " + std::to_string(fault.block[0]) + "'s thread " + std::to_string(overlap.first_thread[0]) +
         " copied floats " + std::to_string(first) + " to " + std::to_string(word) + " of its tile one at a time, " +
         "the last of them onto float " + std::to_string(word) + ", another thread's: its quad, floats " +
         std::to_string(first) + " to " + std::to_string(first + 3) + ", lies wholly inside the tile's " +
         std::to_string(valid) + " valid floats, yet went float by float, and on past its end. Either the test "
         "that picks the 16-byte copy sends whole quads to the float loop (a quad is whole where first + 4 <= "
         "valid, in every tile, the last too), or that loop runs on to valid where the quad's end, min(first + 4, "
         "valid), is meant.";
}

using CopyFunction = void (*)(const float*, float*, int, int);

void grade_copy(const Step& step, CopyFunction copy, int vector_bytes, const std::vector<std::pair<int, int>>& shapes) {
  wb::grading::check_movement_shapes(shapes, [&](int rows, int cols) {
    wb::grading::MovementCheck check;
    check.step = step;
    check.step_wait_call = "wb::cp_async_wait<0>()";
    check.copy_bytes = 0;  // several widths: the step checks them itself
    check.input = {rows, cols, ch05::kTileRows, ch05::kTileCols};
    check.output = check.input;
    // The page's paddings (kPad8 = 2, kPad16 = 4), so that a copy through the other step's
    // tile is named as such.
    check.shared_layouts = {{ch05::kTileRows + 2, "smem_8_layout (128 + kPad8), the 8-byte copies' tile"},
                            {ch05::kTileRows + 4, "smem_16_layout (128 + kPad16), the 16-byte copies' tile"}};
    check.run = [=](const float* gmem_in, float* gmem_out) { copy(gmem_in, gmem_out, rows, cols); };
    check.reference = [](const std::vector<float>& input) { return std::vector<double>(input.begin(), input.end()); };
    // thread_8_layout (64,4) and thread_16_layout (32,8), column-major: thread (r, c) copies
    // the vector at row (floats a vector) * r of column c, then of columns c + 4 (8), ...
    const int floats = vector_bytes / 4;
    const int vector_rows = ch05::kTileRows / floats;
    check.thread_start = [floats, vector_rows](unsigned thread) -> std::optional<wb::grading::ThreadStart> {
      if (thread >= static_cast<unsigned>(ch05::kThreads)) return std::nullopt;
      const long long row = thread % vector_rows, col = thread / vector_rows;
      return wb::grading::ThreadStart{row, col, floats * row, col};
    };
    check.row_step = ch05::kTileRows;  // one vector row a thread
    check.col_step = ch05::kThreads / vector_rows;
#if WB_BACKEND_SIM
    const std::uint64_t elements = static_cast<std::uint64_t>(rows) * cols;
    const bool whole_tiles = rows % ch05::kTileRows == 0 && cols % ch05::kTileCols == 0;
    check.technique = [=](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = wb::grading::loaded_through_cp_async(stats, elements);
      if (technique) technique = wb::grading::only_copies_store_to_shared_memory(stats);
      if (technique) technique = wb::grading::waited_once_per_thread(stats);
      if (technique) {
        const std::uint64_t copies = elements * 4 / static_cast<std::uint64_t>(vector_bytes);
        technique = copies_of_widths(stats, 0, vector_bytes == 8 ? copies : 0, vector_bytes == 16 ? copies : 0,
                                     std::to_string(rows) + "x" + std::to_string(cols) + " floats in copies of " +
                                         std::to_string(vector_bytes) + " bytes");
      }
      // The vectors coalesced: a warp's copies take consecutive vectors of one column (on
      // whole tiles, where the requests are exact).
      if (technique && whole_tiles) {
        technique = wb::grading::within_the_ideal(
            stats, wb::sim::AccessKind::cp_async_read,
            "the copies read global memory scattered: consecutive threads take consecutive vectors of one "
            "column (" + std::string(vector_bytes == 8 ? "thread_8_layout, (64,4): thread t copies pair t % 64 of "
                                                          "column t / 64"
                                                        : "thread_16_layout, (32,8): thread t copies quad t % 32 "
                                                          "of column t / 32") +
                ", column-major), so that a warp's copies read one run of contiguous bytes.");
      }
      // And their shared side conflict-free: a warp's vectors land as one run of a padded
      // column, not as pieces of several columns whose banks overlap.
      if (technique && whole_tiles) {
        technique = wb::grading::within_the_ideal(
            stats, wb::sim::AccessKind::cp_async_write,
            "the copies' shared writes conflict: a warp's vectors should land as one run of one column of the "
            "padded tile, consecutive threads on consecutive vectors (" +
                std::string(vector_bytes == 8 ? "thread_8_layout: thread t at pair t % 64 of column t / 64"
                                              : "thread_16_layout: thread t at quad t % 32 of column t / 32") +
                "); pieces of several columns meet in the same banks.");
      }
      return technique;
    };
#else
    (void)vector_bytes;  // the widths are counted in the simulator only
#endif
    return check;
  });
}

using Chapter5Vector = wb::grading::KernelTest;

// The mistakes of load_tile_16, the edge tiles' copy: an operand's k-tile at an edge (its
// rows past the array's, or the last k-tile partial) takes it, in an operand whose
// columns start at multiples of 16 bytes; whole tiles take load_whole_tile_16.
void add_edge_quad_models(wb::grading::Diagnosis& diagnosis, const wb::grading::GemmRun& run) {
  const auto [m, n, k] = run.shape;
  const int tile = ch05::kGemmTile, tile_k = ch05::kGemmTileK;
  // Whether element (row, p) of an operand of `rows` rows is copied by load_tile_16.
  const auto at_an_edge = [=](int rows, int row, int p) {
    const int valid_rows = std::min(tile, rows - row / tile * tile);
    const int valid_k = std::min(tile_k, k - p / tile_k * tile_k);
    return rows % 4 == 0 && (valid_rows < tile || valid_k < tile_k);
  };
  // A source size of 4 for a quad: its first float read, the other three zeros.
  const auto first_of_quad = [=](const std::vector<float>& operand, int rows) {
    return [&operand, rows, at_an_edge](int row, int p) {
      const double value = operand[static_cast<std::size_t>(row) + static_cast<std::size_t>(p) * rows];
      return at_an_edge(rows, row, p) && row % 4 != 0 ? 0.0 : value;
    };
  };
  diagnosis.model(
      "C is exactly the product in which every quad that load_tile_16 copies (the tiles at an edge) brought "
      "its first float alone and zeros for the other three: its source size is 4 where a quad's is 16. "
      "wb::cp_async_cg's third argument counts bytes: inside ? 16 : 0.",
      [&run, m = m, n = n, first_of_quad] {
        return wb::grading::gemm_abt_with(run.shape, first_of_quad(run.a, m), first_of_quad(run.b, n));
      });
  if (k % tile_k == 0) return;
  // The mistakes of the quads outside the array, in the last, partial k-tile: C over the
  // k-tiles padded to whole, each operand's columns past k holding what `past_k` says.
  const int k_tiles = (k + tile_k - 1) / tile_k, padded_k = k_tiles * tile_k;
  using PastK = std::function<double(const std::vector<float>& operand, int rows, int row, int p)>;
  const auto past_k_model = [&diagnosis, &run, m = m, n = n, k = k, padded_k](const std::string& cause,
                                                                                const PastK& past_k) {
    diagnosis.model(cause, [&run, m, n, k, padded_k, past_k] {
      const auto operand_at = [k, &past_k](const std::vector<float>& operand, int rows) {
        return [&operand, rows, k, &past_k](int row, int p) {
          return p < k ? static_cast<double>(operand[static_cast<std::size_t>(row) + static_cast<std::size_t>(p) * rows])
                       : past_k(operand, rows, row, p);
        };
      };
      wb::grading::GemmShape padded = run.shape;
      padded.k = padded_k;
      return wb::grading::gemm_abt_with(padded, operand_at(run.a, m), operand_at(run.b, n));
    });
  };
  // Given a valid source (the tile's start) but no source size: each outside quad copies
  // the tile's first quad, rows 0-3 of its first column, in full. Only the columns past k
  // reach C (rows past the array's make rows of C that do not exist).
  past_k_model("C is exactly the product in which the last k-tile's columns past k (" + std::to_string(k) + " to " +
                   std::to_string(padded_k - 1) + ") hold copies of the tile's first quad (rows 0-3 of its first "
                   "column): the quads outside the array were copied from the redirected source in full, with no "
                   "source size. A valid source address is not enough: a source size of 0 makes the copy write "
                   "zeros, wb::cp_async_cg(dst, inside ? src : gmem_tile, inside ? 16 : 0).",
               [tile, tile_k](const std::vector<float>& operand, int rows, int row, int p) {
                 if (rows % 4 != 0) return 0.0;  // that operand's 4-byte copies zero-fill as chapter 4's
                 const int first_row = row / tile * tile + row % 4;
                 const int first_col = p / tile_k * tile_k;
                 return static_cast<double>(
                     operand[static_cast<std::size_t>(first_row) + static_cast<std::size_t>(first_col) * rows]);
               });
  // Skipped instead of zero-filled: the columns past k keep what their stage held
  // kGemmStages k-tiles before.
  const int stale_shift = ch05::kGemmStages * tile_k;
  if (k_tiles <= ch05::kGemmStages || m % 4 != 0 || n % 4 != 0) return;
  past_k_model("C is exactly the product in which the last k-tile's columns past k (" + std::to_string(k) + " to " +
                   std::to_string(padded_k - 1) + ") hold what their stage held " +
                   std::to_string(ch05::kGemmStages) + " k-tiles before (columns " + std::to_string(k - stale_shift) +
                   " to " + std::to_string(padded_k - 1 - stale_shift) +
                   "): the quads outside the array were skipped instead of copied with a source size of 0, which "
                   "writes zeros: wb::cp_async_cg(dst, inside ? src : gmem_tile, inside ? 16 : 0).",
               [stale_shift](const std::vector<float>& operand, int rows, int row, int p) {
                 return static_cast<double>(
                     operand[static_cast<std::size_t>(row) + static_cast<std::size_t>(p - stale_shift) * rows]);
               });
}

TEST_F(Chapter5Vector, Step1EightAndSixteenByteCopies) {
  const std::vector<std::pair<int, int>> shapes = {{256, 32}, {256, 64}, {128, 16}};
  {
    SCOPED_TRACE("copy_tiles_8, 8-byte copies");
    grade_copy(kStep1, ch05::copy_tiles_8, 8, shapes);
  }
  if (HasFatalFailure() || HasNonfatalFailure()) return;
  SCOPED_TRACE("copy_tiles_16, 16-byte copies");
  grade_copy(kStep1, ch05::copy_tiles_16, 16, shapes);
}

// The GEMM: shapes with m and n multiples of 4 (all 16-byte copies), the second with the
// 8 k-tiles over which the pipeline's overlap is judged, then shapes where one or both are
// not (that operand's copies fall back to 4 bytes), K no multiple of 8.
std::vector<GemmShape> gemm_shapes() {
  std::vector<GemmShape> list;
#if !WB_BACKEND_SIM
  list.push_back({2048, 2048, 256});
#endif
  for (const GemmShape& shape :
       std::vector<GemmShape>{{256, 256, 64}, {128, 128, 128}, {200, 136, 52}, {260, 4, 20}, {130, 256, 12}, {1, 1, 1}}) {
    list.push_back(shape);
  }
  return list;
}

#if WB_BACKEND_SIM
// A GEMM whose every tile is whole (m and n multiples of kGemmTile, k of kGemmTileK) takes
// every copy on load_stage's straight path: the plain wb::cp_async_cg(dst, src), with no
// source size, which only an edge tile's zero-filled quads need (the page: the sized form
// on every copy held the kernel at 83% of cuBLAS, the plain one on whole tiles gave 88%).
::testing::AssertionResult whole_tiles_copied_plainly(const wb::sim::LaunchStats& stats, const GemmShape& shape) {
  const bool whole = shape.m % ch05::kGemmTile == 0 && shape.n % ch05::kGemmTile == 0 &&
                     shape.k % ch05::kGemmTileK == 0;
  if (!whole || stats.cp_async_sized == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << wb::grading::gemm_shape_text(shape) << " has whole tiles only, and " << stats.cp_async_sized << " of its "
         << stats.cp_async_ops() << " copies took the form with a source size (wb::cp_async_cg(dst, src, src_bytes)). "
         << "A whole tile lies inside the array: its quads need no zero-filling, so load_whole_tile_16 copies with "
            "the plain wb::cp_async_cg(dst, src), no bound and no source size; the sized form, and the test that "
            "picks its size, are for the edge tiles (load_tile_16), and cost instructions on every copy.";
}
#endif

TEST_F(Chapter5Vector, Step2SixteenByteCopiesInTheGemm) {
  wb::grading::check_gemm_shapes(gemm_shapes(), [](const GemmShape& shape) {
    wb::grading::GemmCheck check;
    check.step = kStep2;
    check.shape = shape;
    check.tile_m = ch05::kGemmTile;
    check.tile_n = ch05::kGemmTile;
    check.tile_k = ch05::kGemmTileK;
    check.copy_column_step = ch05::kThreads / (ch05::kGemmTile / 4);  // gemm_copy_layout, (32,8)
    check.step_wait = ch05::kGemmStages - 2;  // the pipeline's wait, as chapter 4's
    // vector.cu's gemm_copy_layout: (kGemmTile / 4, 8) threads, column-major, thread (r, c)
    // copying the quad at row 4r of column c, then columns c + 8, ...
    check.copy_thread_start = [](unsigned thread) -> std::optional<wb::grading::ThreadStart> {
      constexpr unsigned quad_rows = ch05::kGemmTile / 4;
      if (thread >= static_cast<unsigned>(ch05::kThreads)) return std::nullopt;
      const long long row = thread % quad_rows, col = thread / quad_rows;
      return wb::grading::ThreadStart{row, col, 4 * row, col};
    };
    check.models = [](wb::grading::Diagnosis& diagnosis, const wb::grading::GemmRun& run) {
      add_edge_quad_models(diagnosis, run);
    };
    check.run = [shape](const float* a, const float* b, float* c) { ch05::gemm_copies_16(a, b, c, shape.m, shape.n, shape.k); };
#if WB_BACKEND_SIM
    check.technique = [shape](const wb::sim::LaunchStats& stats) {
      const std::uint64_t k_tiles = (shape.k + ch05::kGemmTileK - 1) / ch05::kGemmTileK;
      const std::uint64_t tile_floats = ch05::kGemmTile * ch05::kGemmTileK;
      const int operands_16 = (shape.m % 4 == 0) + (shape.n % 4 == 0);
      const std::uint64_t expected_16 = stats.blocks * k_tiles * (tile_floats / 4) * operands_16;
      const std::uint64_t expected_4 = stats.blocks * k_tiles * tile_floats * (2 - operands_16);
      ::testing::AssertionResult technique = wb::grading::loads_overlap(
          stats, ch05::kGemmStages, static_cast<int>(k_tiles), "wb::cp_async_wait<kGemmStages - 2>()");
      if (!technique) return technique;
      technique = copies_of_widths(
          stats, expected_4, 0, expected_16,
          wb::grading::gemm_shape_text(shape) + ": " + std::to_string(operands_16) +
              " of the two operands have columns that start at multiples of 16 bytes (m or n a multiple of 4); " +
              std::to_string(stats.blocks) + " blocks x " + std::to_string(k_tiles) + " k-tiles of " +
              std::to_string(tile_floats / 4) + " quads (one copy each, edge quads included) or " +
              std::to_string(tile_floats) + " floats per operand");
      if (!technique) return technique;
      return whole_tiles_copied_plainly(stats, shape);
    };
#endif
    return check;
  });
}

TEST_F(Chapter5Vector, Step3SixteenByteCopiesOfAnyLength) {
  // Lengths that end inside a quad (1, 3, 5, 1027, 4093) and on one, within one tile and
  // across several.
  const std::vector<std::pair<int, int>> shapes = {{1027, 1}, {1, 1}, {3, 1}, {5, 1}, {1024, 1}, {4093, 1}, {5000, 1}};
  wb::grading::check_movement_shapes(shapes, [](int count, int) {
    wb::grading::MovementCheck check;
    check.step = kStep3;
    check.step_wait_call = "wb::cp_async_wait<0>()";
    check.copy_bytes = 0;  // several widths: the step checks them itself
    check.input = {count, 1, ch05::kTailTile, 1};
    check.output = check.input;
    check.run = [count](const float* gmem_in, float* gmem_out) { ch05::copy_any_length_16(gmem_in, gmem_out, count); };
    // Wrong only in the last, partial quad: the tail's own copies are missing or wrong.
    check.explain = [count](const std::vector<float>& output, const std::vector<float>& input) -> std::string {
      const int whole = count - count % 4;
      for (int index = 0; index < count; ++index) {
        const bool same = std::memcmp(&output[static_cast<std::size_t>(index)], &input[static_cast<std::size_t>(index)],
                                      sizeof(float)) == 0;
        if (!same && index < whole) return "";
      }
      if (whole == count) return "";
      // A wrong float that holds another element of the input was copied from the wrong
      // place: an index mistake, which the misplacement reading names.
      for (int index = whole; index < count; ++index) {
        const float value = output[static_cast<std::size_t>(index)];
        for (int other = 0; other < count; ++other) {
          if (other != index && std::memcmp(&value, &input[static_cast<std::size_t>(other)], sizeof(float)) == 0) {
            return "";
          }
        }
      }
      return "only floats " + std::to_string(whole) + " to " + std::to_string(count - 1) +
             " can be wrong here, those of the array's last, partial quad: the whole quads are right. Are "
             "the 1 to 3 floats of that quad copied, float by float with 4-byte copies?";
    };
    // Thread t copies floats [4t, 4t + 4) of its block's tile. A read at float 16t of the
    // tile, from the thread's first access on, is that index four times over: a float
    // index added to a float4 pointer, which moves 16 bytes a step, or an offset in bytes
    // (sizeof(float) * first) added to a float pointer, which counts floats already.
    check.explain_fault = [count](const wb::Fault& fault, const float* gmem_in) -> std::string {
      if (fault.overlap) return whole_quad_copied_on_past_its_end(fault, count);
      const long long offset = (static_cast<const char*>(fault.address) - reinterpret_cast<const char*>(gmem_in)) /
                               static_cast<long long>(sizeof(float));
      const long long tile_start = static_cast<long long>(fault.block[0]) * ch05::kTailTile;
      const long long thread = fault.thread[0];
      // The tile's start counted twice: the read lies at 2 * tile_start plus a float of the
      // thread's own quad (a pointer to the tile given the tile's start again).
      const long long in_quad = offset - 2 * tile_start - 4 * thread;
      if (fault.block[0] > 0 && in_quad >= 0 && in_quad < 4) {
        return "block " + std::to_string(fault.block[0]) + "'s thread " + std::to_string(thread) + " read float " +
               std::to_string(offset) + " of the input, its own quad's float " + std::to_string(in_quad) +
               " counted from twice its tile's start (" + std::to_string(tile_start) + " + " +
               std::to_string(tile_start) + "): the tile's start is added to a pointer or index that already "
               "starts at the tile (gmem_tile_in).";
      }
      if (fault.earlier_accesses != 0 || fault.bytes != 16) return "";
      if (thread == 0 || offset - tile_start != 16 * thread) return "";
      return "block " + std::to_string(fault.block[0]) + "'s thread " + std::to_string(thread) + " read float " +
             std::to_string(offset - tile_start) + " of its tile with its first copy, where its quad starts at float " +
             std::to_string(4 * thread) + ": four times as far. Either a float index is added to a float4 pointer, "
             "which moves 16 bytes a step, or an offset in bytes (sizeof(float) * first) to a float pointer, which "
             "counts floats already. Index the floats, then take the address: &gmem_tile_in[first].";
    };
    check.reference = [](const std::vector<float>& input) { return std::vector<double>(input.begin(), input.end()); };
#if WB_BACKEND_SIM
    check.technique = [count](const wb::sim::LaunchStats& stats) {
      ::testing::AssertionResult technique = wb::grading::loaded_through_cp_async(stats, static_cast<std::uint64_t>(count));
      if (technique) technique = wb::grading::only_copies_store_to_shared_memory(stats);
      if (technique) technique = wb::grading::waited_once_per_thread(stats);
      if (technique) {
        const auto floats = static_cast<std::uint64_t>(count);
        technique = copies_of_widths(stats, floats % 4, 0, floats / 4,
                                     std::to_string(count) + " floats (" + std::to_string(count / 4) +
                                         " whole quads and " + std::to_string(count % 4) +
                                         " floats of a last, partial one)");
        if (!technique) technique << whole_quads_copied_as_floats(stats, count);
      }
      // On whole tiles every thread has its quad, and a warp's quads are one contiguous run:
      // a partial tile leaves threads past its end idle, and their requests approximate.
      const bool whole_tiles = count % ch05::kTailTile == 0;
      if (technique && whole_tiles) {
        technique = wb::grading::every_thread_copies(
            stats, "A tile holds kTailTile = 4 * kThreads floats: one quad for each thread, thread t at floats "
                   "[4t, 4t + 4) of its block's tile.");
      }
      if (technique && whole_tiles) {
        technique = wb::grading::within_the_ideal(
            stats, wb::sim::AccessKind::cp_async_read,
            "the copies read global memory scattered: thread t copies the quad at float 4t of its tile, so that "
            "a warp's 32 copies read one run of 512 contiguous bytes.");
      }
      return technique;
    };
#endif
    return check;
  });
}

}  // namespace
