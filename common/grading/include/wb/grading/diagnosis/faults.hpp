// Hypotheses tested against a fault the simulator caught (wb::Fault: the faulting
// block, thread, address and width): which index mistake takes that block to that
// element, and which causes the fault rules out.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "wb/error.hpp"
#include "wb/grading/compare.hpp"  // ArrayShape

namespace wb::grading {

// Where a thread's copies of a tile begin, as the step lays them out: the thread's
// coordinate in its copy layout, and the tile element its first copy brings (a quad's
// first row is 4 times its coordinate's).
struct ThreadStart {
  long long coord_row, coord_col;
  long long first_row, first_col;
};

// A column-major array on the device, cut into tiles, block (x, y) owning tile (x, y)
// (or tile (y, x) where `grid_transposed`: a grid whose x runs over the column tiles, or a
// transpose's output).
struct FaultedArray {
  const void* begin;
  ArrayShape shape;
  bool grid_transposed = false;
  std::string name;  // "the input"
  // A GEMM operand: the block's tile is its rows, across every column (every k).
  bool rows_only = false;
  // A GEMM operand's step along its columns (the k-tile), and its leading dimension's
  // name ("m"): what a read one column past the last can have got wrong.
  int k_tile = 0;
  std::string leading_dimension{};
  // Each thread's start, where the step fixes its copy layout (empty: not known).
  std::function<std::optional<ThreadStart>(unsigned thread)> thread_start{};
  // The steps of the loops that walk a thread over the tile from its start (0: not known):
  // row += row_step inside col += col_step, as the pages teach.
  int row_step = 0;
  int col_step = 0;
  // The thread's accesses to device memory for each element it walks, the element's read
  // first (a copy: 1; a naive transpose's read and store: 2).
  int accesses_per_element = 1;
};

// Where the array knows its threads' starts and loop steps: the loop bounds under which
// the faulting access is the thread's own next element, counted from its first (its
// earlier accesses to device memory, accesses_per_element for each). Bounds tried for each loop: the
// tile's valid extent, one more (`<=`), the other loop's (exchanged), the array's
// extent, the whole tile's. Named where the fitting bounds agree on what is wrong (""
// otherwise, or where the tile's own bounds fit).
std::string loop_bounds_cause(const Fault& fault, const FaultedArray& array);

// The same evidence read against the walk's steps: the element the thread reached is the
// one its walk is at with its row and column exchanged (the global index written
// layout(col, row)), moved one step further along a loop (a counter that starts at 1 in
// `(i) * step` where `(i - 1) * step` is meant, or a start one step late), or with its
// column scaled by 2 or 4 (a leading dimension counted in floats on a pointer to pairs or
// quads, or in bytes on a pointer to floats). The walk is taken down each column, as the
// pages nest the loops, and along each row where that puts it elsewhere. One reading
// named, two as two; "" where none fits or more do.
std::string walk_off_its_steps(const Fault& fault, const FaultedArray& array);

// The cause when the fault lies at the faulting block's tile origin counted twice plus
// an offset inside the tile ("" otherwise): an index that already counts from the tile's
// first element given the global row and column too. Not tested in a partial tile, nor
// one past a whole tile's edge, where a bound past the edge reaches the same addresses.
std::string origin_counted_twice(const Fault& fault, const FaultedArray& array);

// Where the faulting block's tile lies wholly inside the array, the ways an index leaves
// it: one past the tile's edge, a bound `<=` or the origin added again; further, a loop
// bounded by the array (or by the tile's bounds exchanged) or a term of the index; for a
// GEMM operand one column past its last, the end of k or another leading dimension (""
// where the tile is partial, the fault is not in this array, or lies inside the tile).
std::string index_leaves_a_whole_tile(const Fault& fault, const FaultedArray& array);

// The same race where the copying thread's first idle wait was a wait<N> with N above the
// step's own (`step_wait`), after at least the prologue's commits: it found N or fewer groups
// committed and landed none, so the tile read after it was still travelling; the wait's N
// is too large ("" otherwise: no idle wait, or one that prologue_too_short reads).
// `buffer`: what the step's groups fill ("stage", "buffer").
std::string wait_leaves_too_many(const Fault& fault, int step_wait, int prologue_commits, const std::string& buffer);

// The same race where the copying thread's first idle wait was the step's own wait<N>,
// after more commits than the prologue's: the loop committed groups, then stopped while
// its waits went on (a refill past the last tile skipped with its commit), so that wait
// found N or fewer in flight and landed none ("" otherwise).
std::string commits_stopped_before_the_waits(const Fault& fault, int step_wait, int prologue_commits,
                                             const std::string& buffer);

// A race in which a copy of the writer's prologue (one of its first `prologue_commits`
// groups) was issued after another thread, past its whole prologue, had read its word
// (Fault::racing_copy): no barrier stands between the prologue's wait and the first reads
// ("" otherwise).
std::string prologue_read_before_the_barrier(const Fault& fault, int prologue_commits, const std::string& buffer);

// Two threads' copies wrote one shared word between two barriers (Fault::overlap), both
// from `array`: the elements they brought say which index is wrong. The same element: the
// threads' (row, col) overlap (the loop's steps, or the coordinates taken from threadIdx).
// An element outside the block's tile: that copy's bound or index leaves the tile. Two
// elements of the tile: the shared index maps both onto one word, with the index that
// fits both named where one does ("" where a write was a store, or not from `array`).
// Where the array knows its threads' starts, a thread whose first copy lies at its start
// plus its coordinate again names the coordinate counted twice (in a pointer that already
// points at the thread's first element, and in the loop's start).
std::string overlapping_writes_cause(const Fault& fault, const FaultedArray& array);

// A race between a cp.async and another thread's read in which the copy belongs to a
// commit group the reader had not yet committed (Fault::racing_copy): the copying thread
// was already in a later iteration, refilling a `buffer` ("stage") that the other still
// read, so the barrier between a buffer's reads and its refill is missing ("" otherwise).
// `fix`: where the step puts that barrier ("" for the end of the loop, as most do).
std::string refilled_while_read_cause(const Fault& fault, const std::string& buffer, const std::string& fix = "");

// A race between a cp.async and a read in which the reader had committed the copy's
// commit group itself, the last it committed (Fault::racing_copy): the reader refilled a
// `buffer` in this iteration and then read it, where the step reads another (`fix`: which;
// "" where the step names none, and then nothing is named).
std::string read_of_the_buffer_just_refilled(const Fault& fault, const std::string& buffer, const std::string& fix);

// A race between a cp.async and another thread's read in a block whose copying thread's
// first wait<N> found N or fewer groups committed, fewer than the step's prologue commits
// (`prologue_commits`, one group a stage), so that it landed none of them
// (Fault::racing_copy): the prologue loads too few stages, and every tile is read a wait
// early. `fix`: the step's prologue. "" where the race is not that.
std::string prologue_too_short(const Fault& fault, int prologue_commits, const std::string& fix);

// The same for a convolution's span (1-D, `input` of `n` floats, `width` weights): word j
// of the span buffer that a block's first tile fills holds input[tile_index * tile - halo
// + j]. A copy that brought another element there is named with its distance: the halo (a
// destination or source not counted from the span's start), or whole tiles (a later
// tile's copy into the buffer that the first tile fills); a span started `width` before
// its tile is a halo given the width; one past the buffer's end, a span longer than
// Tile + 2 * Halo ("" where no copy is off). `span_pad`: the elements a span starts
// before its tile, where not the halo (-1: the halo).
// `clipped`: a span is copied as one range clipped to the array, so that a copy of the
// whole span's length from a clipped start overruns its buffer by the part clipped.
std::string span_overlap_cause(const Fault& fault, const float* input, int n, int tile, int width, int span_pad,
                               bool clipped = false);

// A convolution's read past its span in block b > 0, by thread t, whose word and the
// same line's earlier words are b * tile + t + k for k = 0, 1, ... (`width` weights): the
// span indexed with the output's global index (tile_start + t) where the span counts from
// its own first element (t + k). "" otherwise.
std::string span_read_at_the_global_index(const Fault& fault, int tile, int width);

// A convolution's read past its span by thread t, whose word and the same line's earlier
// words are t + pad + k for k = 0, 1, ... (`width` weights, the span starting `pad` before
// the tile): the halo added to the read index over a span that starts a halo early
// already. "" otherwise.
std::string span_read_a_halo_further(const Fault& fault, int width, int pad);

// A leading dimension that takes the faulting block's tile to the fault: the faulting
// offset is the tile's first element + row + col * ld for a (row, col) inside the tile,
// with `ld` one of `candidates` (another array's rows, a tile's: each with its name,
// "the input's rows") and not the array's own ("" where none or several fit).
std::string leading_dimension_of_a_fault(const Fault& fault, const FaultedArray& array,
                                         const std::vector<std::pair<int, std::string>>& candidates);

// Each thread's stores, in the order the step's loops make them: elements (row, col) of
// the block's output tile, counted from its origin, in a tile whose part inside the
// output is valid_rows x valid_cols.
using StoreWalk = std::function<std::vector<std::pair<long long, long long>>(unsigned thread, long long valid_rows,
                                                                             long long valid_cols)>;

// A store that faulted, placed on its thread's store walk: the element the walk meant
// (the thread's stores come after its copies of the input's walk, or, with two accesses
// an element, each after its read) and the index mistakes that take that element to the
// fault: the row and the column exchanged in the store's index, or another leading
// dimension (one of `candidates`) in the index, or in the tile's pointer and the index.
// Named where one fits, as alternatives where several do ("" where none does, or the
// store is not where the walk puts one).
std::string store_index_cause(const Fault& fault, const FaultedArray& walked_input, const FaultedArray& output,
                              const StoreWalk& store_walk,
                              const std::vector<std::pair<int, std::string>>& candidates);

// A GEMM operand's read past its end by a thread whose copy layout the step fixes
// (thread_start, col_step): the fault is the block's k-tile start + row * ld + col for the
// thread's first row and one of its columns (first_col + j * col_step, inside the k-tile),
// the global index written row-major in a column-major array ("" otherwise).
std::string operand_index_row_major(const Fault& fault, const FaultedArray& operand);

// A GEMM operand read past its end in its last column, at row r of the faulting block's
// tile where r lies past this operand's valid rows and below the other operand's: the
// tile loaded with the other operand's valid rows (valid_m for B, valid_n for A), or with
// no bound on its rows, which reaches it too. `other` is the other operand, its `name`
// and shape giving its valid rows ("" otherwise).
std::string other_operands_valid_rows(const Fault& fault, const FaultedArray& operand, const FaultedArray& other);

// A copy of a 1-D array (one column) whose first element, past the array's end, is four
// times a tile's first element inside it: the tile's start counted in bytes (sizeof(float)
// * first) and added to a float pointer, which counts floats already ("" else).
std::string start_counted_in_bytes(const Fault& fault, const FaultedArray& array);

// An access before the array's start, the thread's first, one row (or one column) below
// the first element its walk takes (array.thread_start): the index is its counter minus 1,
// a loop counted from 1 with `- 1` in the index started at the coordinate ("" else).
std::string first_access_one_below_its_start(const Fault& fault, const FaultedArray& array);

// A read past the end of a 1-D array (one column): by a 4-byte access at the first
// element past the end, a loop bound that lets the index reach the length; by a wider
// one whose first element lies inside, a vector that only partly lies inside ("" else).
std::string past_the_end_of_a_vector(const Fault& fault, const FaultedArray& array);

// A misaligned copy wider than the `step_bytes` that each copy of the step moves (one
// float: 4): the copy's width is the mistake, not the address ("" otherwise).
std::string copy_wider_than_the_step(const Fault& fault, ErrorKind kind, unsigned step_bytes);

// Stores outside a column-major output of `shape`, exactly those that stores with the
// tile's origin (its row part, its column part, or both) counted twice reach: an index
// that already counts from the tile's first element given the global row or column too.
// "" where no such model reaches exactly `outside`, or two do.
std::string store_origin_counted_twice(const std::vector<long long>& outside, const ArrayShape& shape);

// Stores outside a column-major output of `shape` (`outside`: their offsets from its
// start, as GuardedBuffer::written_outside gives them): the element right after the
// output's end alone, or the first column past it (as many elements as the last tile's
// rows), while every wrong element inside lies on the first row (or column) of a tile: a
// store's bound one past the tile, `<=` where `<` is meant, on the rows or the columns
// ("" else). `output` and `reference`: what the kernel wrote and what it should have, a
// moved array's values, compared exactly.
std::string store_one_past_the_tile(const std::vector<long long>& outside, const std::vector<float>& output,
                                    const std::vector<double>& reference, const ArrayShape& shape);

// A shared tile's layout: the floats between the starts of its columns, and its name
// with what it is for ("smem_8_layout (128 + kPad8), the 8-byte copies' tile").
struct SharedLayout {
  int stride;
  std::string name;
};

// A cp.async whose shared destination was misaligned (Fault::destination), copying an
// element of the faulting block's tile of `array` in its row 0: the shared element it
// went to says with which column stride (col * stride) the destination was indexed. Named
// where that is one of `layouts` (another tile's layout: the copy went through the wrong
// one), or where it starts that column off the copy's alignment (the tile's padding); ""
// elsewhere (another row, where the destination's row may be the one that is off).
std::string misaligned_destination_cause(const Fault& fault, const FaultedArray& array,
                                         const std::vector<SharedLayout>& layouts);

// A cp.async whose shared destination lies past the end of its array (Fault::destination)
// where the word is the copied element's row + col * the stride of one of `layouts`: the
// tile indexed with that layout ("" where none fits).
std::string destination_past_the_array_cause(const Fault& fault, const FaultedArray& array,
                                             const std::vector<SharedLayout>& layouts);

// A cp.async whose shared destination lies past the end of its array (Fault::destination)
// where the word is the copied element's row + col * the array's own leading dimension
// (its rows), counted from a stage's start (a multiple of the tile's floats, tile_rows *
// k_tile for a GEMM operand's k-tile; the tile's start alone elsewhere): the shared index
// strides its columns by the global array's leading dimension instead of the tile's ("" where
// that does not reach the word, or the element lies in column 0, which shows no stride).
std::string destination_strided_by_the_arrays_rows(const Fault& fault, const FaultedArray& array,
                                                  const std::vector<SharedLayout>& layouts = {});

}  // namespace wb::grading
