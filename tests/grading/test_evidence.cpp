// The readings of the simulator's evidence (wb::Fault, sim::InFlightRead) that name a
// cause: each named only where the evidence fits it, and nothing where it fits none.
// Host code on hand-made evidence: an array here stands for a device array, as only the
// addresses are read.
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "wb/grading/diagnosis/faults.hpp"
#include "wb/grading/diagnosis/in_flight.hpp"
#include "wb/grading/diagnosis/shared_overruns.hpp"
#include "wb/wb.cuh"

namespace {

using wb::Fault;
using wb::OverlappingWrite;
using wb::grading::FaultedArray;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A 256x32 column-major input cut into 128x16 tiles, and two copies from it onto one word
// of smem_tile, by threads (first_thread, 0) and (thread, 0) of block (0, 0).
struct TwoCopies {
  std::vector<float> input = std::vector<float>(256 * 32);
  FaultedArray array() const { return {input.data(), {256, 32, 128, 16}, false, "the input"}; }
  Fault fault(int first_row, int first_col, int row, int col, std::size_t word, unsigned long long first_earlier = 1,
              unsigned long long earlier = 0) const {
    OverlappingWrite overlap;
    overlap.first_thread = {0, 0, 0};
    overlap.first_source = &input[static_cast<std::size_t>(first_row + first_col * 256)];
    overlap.source = &input[static_cast<std::size_t>(row + col * 256)];
    overlap.first_earlier_accesses = first_earlier;
    overlap.array = "smem_tile";
    overlap.word = word;
    return Fault{{0, 0, 0}, {8, 0, 0}, nullptr, true, 4, earlier, overlap, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  }
};

TEST(Evidence, TwoCopiesOfOneElementAreThreadsThatOverlap) {
  const TwoCopies copies;
  const std::string cause = wb::grading::overlapping_writes_cause(copies.fault(8, 0, 8, 0, 8), copies.array());
  EXPECT_TRUE(contains(cause, "both copied element (8, 0)")) << cause;
  EXPECT_TRUE(contains(cause, "The destination index is not at fault")) << cause;
  EXPECT_TRUE(contains(cause, "either a loop's step is too small")) << cause;
}

TEST(Evidence, AFirstCopyAtItsStartPlusItsCoordinateIsTheCoordinateCountedTwice) {
  const TwoCopies copies;
  // A copy layout that puts thread t at coordinate (0, t / 2), its first element (0, t / 2).
  FaultedArray array = copies.array();
  array.thread_start = [](unsigned thread) -> std::optional<wb::grading::ThreadStart> {
    return wb::grading::ThreadStart{0, thread / 2, 0, thread / 2};
  };
  // Thread 0's second copy and thread 8's first both brought (0, 8): 4 + 4.
  const std::string cause = wb::grading::overlapping_writes_cause(copies.fault(0, 8, 0, 8, 1024), array);
  EXPECT_TRUE(contains(cause, "thread (8, 0)'s first copy brought element (0, 8)")) << cause;
  EXPECT_TRUE(contains(cause, "where its first element is (0, 4)")) << cause;
  EXPECT_TRUE(contains(cause, "the thread's column is counted twice")) << cause;
  // The same element at another distance from the start: the threads overlap, no more.
  const std::string other = wb::grading::overlapping_writes_cause(copies.fault(0, 7, 0, 7, 1024), array);
  EXPECT_FALSE(contains(other, "counted twice")) << other;
  EXPECT_TRUE(contains(other, "either a loop's step is too small")) << other;
  // Without the threads' starts, nothing is read from the first copy's place.
  const std::string unknown = wb::grading::overlapping_writes_cause(copies.fault(0, 8, 0, 8, 1024), copies.array());
  EXPECT_FALSE(contains(unknown, "counted twice")) << unknown;
}

// A 256x32 input in 128x16 tiles, walked by a (32, 8) layout from (t % 32, t / 32).
FaultedArray walked_input(const std::vector<float>& input) {
  FaultedArray array{input.data(), {256, 32, 128, 16}, false, "the input"};
  array.thread_start = [](unsigned thread) -> std::optional<wb::grading::ThreadStart> {
    const long long row = thread % 32, col = thread / 32;
    return wb::grading::ThreadStart{row, col, row, col};
  };
  array.row_step = 32;
  array.col_step = 8;
  return array;
}

Fault read_fault(const std::vector<float>& input, int row, int col, unsigned long long earlier) {
  return Fault{{0, 0, 0}, {0, 0, 0}, &input[static_cast<std::size_t>(row + col * 256)], false, 4, earlier,
               std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
}

TEST(Evidence, AFaultAtTheThreadsNextElementNamesTheLoopBoundsThatReachIt) {
  const std::vector<float> input(256 * 32);
  const FaultedArray array = walked_input(input);
  // Thread 0 at column 16 after 2 copies: one row a column, rows bounded by 16, with the
  // columns outside; with the rows outside, row 0's third column under any row bound. The
  // two orders disagree on the row loop's bound, so none is named.
  EXPECT_EQ(wb::grading::loop_bounds_cause(read_fault(input, 0, 16, 2), array), "");
  // After 16 copies: the rows bounded by 256, the array's.
  const std::string by_the_array = wb::grading::loop_bounds_cause(read_fault(input, 0, 16, 16), array);
  EXPECT_TRUE(contains(by_the_array, "the row loop bounded by the array's rows (256)")) << by_the_array;
  // After 8 copies the rows are right (4 a column) and the column bound alone is wrong:
  // one past, the array's or the rows' all reach column 16, so none is named.
  EXPECT_EQ(wb::grading::loop_bounds_cause(read_fault(input, 0, 16, 8), array), "");
  // At a count no bound gives, nothing.
  EXPECT_EQ(wb::grading::loop_bounds_cause(read_fault(input, 0, 16, 5), array), "");
}

TEST(Evidence, TwoElementsOnOneWordNameTheStrideThatFitsBoth) {
  const TwoCopies copies;
  // (127, 0) and (0, 1) on word 127: row + col * 127, a stride one short of a column.
  const std::string cause = wb::grading::overlapping_writes_cause(copies.fault(127, 0, 0, 1, 127), copies.array());
  EXPECT_TRUE(contains(cause, "two different elements")) << cause;
  EXPECT_TRUE(contains(cause, "Both fit a shared index row + col * 127")) << cause;
  // Two elements that no usual index puts on one word: observed, no index named.
  const std::string none = wb::grading::overlapping_writes_cause(copies.fault(5, 3, 70, 9, 1000), copies.array());
  EXPECT_TRUE(contains(none, "two different elements")) << none;
  EXPECT_FALSE(contains(none, "Both fit")) << none;
}

TEST(Evidence, AnElementOnePastTheTileIsABoundPastIt) {
  const TwoCopies copies;
  const std::string cause = wb::grading::overlapping_writes_cause(copies.fault(0, 1, 128, 0, 128), copies.array());
  EXPECT_TRUE(contains(cause, "copied element (128, 0) of the input")) << cause;
  EXPECT_TRUE(contains(cause, "one past its last row")) << cause;
}

TEST(Evidence, StoresBringNoElementAndNameNothing) {
  TwoCopies copies;
  Fault fault = copies.fault(8, 0, 8, 0, 8);
  fault.overlap->first_source = nullptr;
  EXPECT_EQ(wb::grading::overlapping_writes_cause(fault, copies.array()), "");
}

// A span of tile 2048 and width 5 (halo 2): word j of block 0's first buffer holds
// input[j - 2].
Fault span_fault(const std::vector<float>& input, long long element, std::size_t word) {
  OverlappingWrite overlap;
  overlap.first_source = nullptr;  // a thread's zero
  overlap.source = &input[static_cast<std::size_t>(element)];
  overlap.array = "smem_span";
  overlap.word = word;
  return Fault{{0, 0, 0}, {1, 0, 0}, nullptr, true, 4, 0, overlap, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
}

TEST(Evidence, ASpanCopyOffByItsPadOrByWholeTilesIsNamed) {
  const std::vector<float> input(16384);
  const std::string pad = wb::grading::span_overlap_cause(span_fault(input, 1, 1), input.data(), 16384, 2048, 5, -1);
  EXPECT_TRUE(contains(pad, "so the copy is 2 elements off")) << pad;
  EXPECT_TRUE(contains(pad, "(first - span_start)")) << pad;
  const std::string tiles =
      wb::grading::span_overlap_cause(span_fault(input, 4095, 1), input.data(), 16384, 2048, 5, -1);
  EXPECT_TRUE(contains(tiles, "2 whole tiles")) << tiles;
  // A span that starts 4 before its tile (chapter 7's): the same word holds input[-3].
  const std::string padded = wb::grading::span_overlap_cause(span_fault(input, 1, 1), input.data(), 16384, 2048, 5, 4);
  EXPECT_TRUE(contains(padded, "holds input[-3]")) << padded;
  EXPECT_TRUE(contains(padded, "the 4 elements that the span starts before its tile")) << padded;
  // The right element: nothing to name.
  EXPECT_EQ(wb::grading::span_overlap_cause(span_fault(input, 0, 2), input.data(), 16384, 2048, 5, -1), "");
  // A later tile's span over the first one's tail, where the other write was the first
  // tile's own element (input[2048] at word 2050): the second buffer starts inside the
  // first (a buffer Tile + Halo long, 2050 floats).
  Fault tail = span_fault(input, 6142, 2050);
  tail.overlap->first_source = &input[2048];
  const std::string overlapping = wb::grading::span_overlap_cause(tail, input.data(), 16384, 2048, 5, -1);
  EXPECT_TRUE(contains(overlapping, "a buffer that starts at word 2050 or 2 of the first one")) << overlapping;
  EXPECT_FALSE(contains(overlapping, "whole tile")) << overlapping;
}

// A 16-byte copy of element (0, 1) of block (0, 0)'s tile that went to float `word` of
// smem_tile: the stride it reveals names the layout, and only in row 0.
Fault misaligned_copy(const std::vector<float>& input, int row, std::size_t word) {
  wb::MisalignedDestination destination{input.data() + row + 256, "smem_tile", word};
  return Fault{{0, 0, 0}, {32, 0, 0}, nullptr, true, 16, 0, std::nullopt, destination, std::nullopt, std::nullopt, std::nullopt};
}

TEST(Evidence, AMisalignedDestinationNamesTheStrideItsIndexUsed) {
  const std::vector<float> input(256 * 32);
  const FaultedArray array{input.data(), {256, 32, 128, 16}, false, "the input"};
  const std::vector<wb::grading::SharedLayout> layouts = {{130, "smem_8_layout"}, {132, "smem_16_layout"}};
  EXPECT_TRUE(contains(wb::grading::misaligned_destination_cause(misaligned_copy(input, 0, 130), array, layouts),
                       "130 floats apart: the stride of smem_8_layout"));
  EXPECT_TRUE(contains(wb::grading::misaligned_destination_cause(misaligned_copy(input, 0, 129), array, layouts),
                       "(padded by 1 float), so column 1 starts at byte 516"));
  // Row 4 may have gone to row 2 of a 132-float column: no stride is read there.
  EXPECT_EQ(wb::grading::misaligned_destination_cause(misaligned_copy(input, 4, 134), array, layouts), "");
}

// A copy's destination past its tile at row + col * the array's rows (256, where the tile
// has 128): the global leading dimension in the shared index; in a GEMM operand, counted
// from a stage's start. A stride the array does not have names nothing.
TEST(Evidence, ADestinationStridedByTheArraysRowsNamesTheLeadingDimension) {
  const std::vector<float> input(256 * 32);
  const FaultedArray array{input.data(), {256, 32, 128, 16}, false, "the input"};
  const auto copy = [&](std::size_t word) {
    wb::MisalignedDestination destination{input.data() + 8 * 256, "smem_tile", word};
    return Fault{{0, 0, 0}, {0, 0, 0}, input.data() + 8 * 256, true, 4, 1, std::nullopt, destination, std::nullopt,
                 std::nullopt, std::nullopt};
  };
  const std::string cause = wb::grading::destination_strided_by_the_arrays_rows(copy(2048), array);
  EXPECT_TRUE(contains(cause, "went to float 2048 of smem_tile = 0 + 8 * 256")) << cause;
  EXPECT_TRUE(contains(cause, "the input's leading dimension (rows)")) << cause;
  EXPECT_EQ(wb::grading::destination_strided_by_the_arrays_rows(copy(2056), array), "");
  // A GEMM operand (rows only, k-tiles of 16): element (0, 24) is column 8 of its k-tile,
  // in stage 2 of 128 x 16 floats.
  const FaultedArray operand{input.data(), {256, 32, 128, 32}, false, "A", true, 16, "m"};
  wb::MisalignedDestination destination{input.data() + 24 * 256, "smem_a", 4096 + 8 * 256};
  const Fault staged{{0, 0, 0}, {0, 0, 0}, input.data() + 24 * 256, true, 16, 1, std::nullopt, destination,
                     std::nullopt, std::nullopt, std::nullopt};
  const std::string gemm = wb::grading::destination_strided_by_the_arrays_rows(staged, operand);
  EXPECT_TRUE(contains(gemm, "= 4096 (a stage's start) + 0 + 8 * 256")) << gemm;
  EXPECT_TRUE(contains(gemm, "A's leading dimension (m)")) << gemm;
}

// A wait<N> above the step's that found N or fewer groups landed none: its N is named; the
// step's own N, or a wait that landed something, names nothing.
TEST(Evidence, AnIdleWaitAboveTheStepsNamesItsN) {
  const auto race = [](int idle_wait, unsigned long long committed) {
    Fault fault{{0, 0, 0}, {1, 0, 0}, nullptr, false, 4, 0, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
    fault.racing_copy = wb::RacingCopy{{0, 0, 0}, 1, 2, idle_wait, committed};
    return fault;
  };
  const std::string cause = wb::grading::wait_leaves_too_many(race(2, 2), 1, 2, "stage");
  EXPECT_TRUE(contains(cause, "thread (0, 0)'s wait<2> landed nothing")) << cause;
  EXPECT_TRUE(contains(cause, "no more than 2 were (2 committed so far)")) << cause;
  EXPECT_TRUE(contains(cause, "This step waits with wait<1>")) << cause;
  EXPECT_EQ(wb::grading::wait_leaves_too_many(race(1, 1), 1, 2, "stage"), "");
  EXPECT_EQ(wb::grading::wait_leaves_too_many(race(-1, 0), 1, 2, "stage"), "");
  EXPECT_EQ(wb::grading::wait_leaves_too_many(race(2, 1), 1, 2, "stage"), "");  // the prologue's reading
}

// A GEMM operand read at its k-tile's start + row * ld + col for the thread's first row
// and one of its columns: the index written row-major.
TEST(Evidence, AnOperandReadRowMajorIsNamed) {
  const std::vector<float> a(200 * 52);
  FaultedArray operand{a.data(), {200, 52, 128, 52}, false, "A", true, 16, "m"};
  operand.thread_start = [](unsigned thread) -> std::optional<wb::grading::ThreadStart> {
    const long long row = thread % 32, col = thread / 32;
    return wb::grading::ThreadStart{row, col, 4 * row, col};
  };
  operand.col_step = 8;
  const auto read = [&](unsigned thread, long long offset) {
    return Fault{{0, 0, 0}, {thread, 0, 0}, a.data() + offset, false, 16, 7, std::nullopt, std::nullopt,
                 std::nullopt, std::nullopt, std::nullopt};
  };
  const std::string cause = wb::grading::operand_index_row_major(read(1, 48 * 200 + 4 * 200), operand);
  EXPECT_TRUE(contains(cause, "read A at float 10400 = its k-tile's start + 4 * 200 + 0")) << cause;
  EXPECT_TRUE(contains(cause, "row * ld + col, the index of a row-major array")) << cause;
  EXPECT_EQ(wb::grading::operand_index_row_major(read(2, 48 * 200 + 4 * 200), operand), "");
  EXPECT_EQ(wb::grading::operand_index_row_major(read(1, 100), operand), "");  // inside A
}

TEST(Evidence, AReadPastAVectorsEndIsABoundOrAPartialVector) {
  const std::vector<float> input(1027);
  const FaultedArray array{input.data(), {1027, 1, 1024, 1}, false, "the input"};
  const Fault bound{{1, 0, 0}, {0, 0, 0}, input.data() + 1027, false, 4, 3, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  EXPECT_TRUE(contains(wb::grading::past_the_end_of_a_vector(bound, array), "Either `<=` where `<` is meant, or a bound"));
  const Fault quad{{1, 0, 0}, {0, 0, 0}, input.data() + 1024, false, 16, 0, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  EXPECT_TRUE(contains(wb::grading::past_the_end_of_a_vector(quad, array), "only 3 of them lie inside"));
  const Fault far{{1, 0, 0}, {0, 0, 0}, input.data() + 1030, false, 4, 3, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  EXPECT_EQ(wb::grading::past_the_end_of_a_vector(far, array), "");
}

#if WB_BACKEND_SIM
// A read of a copy in flight, as the simulator records it.
wb::sim::LaunchStats with_read(std::uint32_t group, std::uint32_t commits, int last_wait, std::uint32_t at_last_wait,
                               std::uint32_t at_wait_before, bool issued_after) {
  wb::sim::LaunchStats stats;
  wb::sim::InFlightRead read;
  read.group = group;
  read.commits = commits;
  read.last_wait = last_wait;
  read.commits_at_last_wait = at_last_wait;
  read.commits_at_wait_before = at_wait_before;
  read.issued_after_last_wait = issued_after;
  stats.in_flight_read = read;
  return stats;
}

// A float4 read past a shared array whose walk is four times the fragments' offsets is a
// float offset indexing a float4 pointer; a walk that fits the offsets themselves (a
// stage one too far), or too short a walk, names nothing.
TEST(Evidence, AVectorPointerIndexedInFloatsWalksFourTimesAsFar) {
  wb::grading::FragmentReads reads{"smem_a", "A", 128, 8, 4, [](unsigned thread) {
                                     const int row = 4 * static_cast<int>(thread % 16);
                                     return std::vector<int>{row, 64 + row};
                                   }};
  // Thread 3's reads (rows 12 and 76, kk 0, 1, ...) from stage 1 (floats 1024 on), as
  // 4 * offset: 1024 + 48, 1024 + 304, ... until one lies past the 3072 floats of smem_a.
  const auto overrun = [](unsigned thread, std::vector<long long> words) {
    Fault fault{{0, 0, 0}, {thread, 0, 0}, nullptr, false, 16, 0, std::nullopt, std::nullopt, std::nullopt,
                std::nullopt, std::nullopt};
    const long long last = words.back();
    words.pop_back();
    fault.shared_overrun = wb::SharedOverrun{"smem_a", last, words};
    return fault;
  };
  std::vector<long long> walk;
  for (int kk = 0; kk < 8; ++kk) {
    for (int row : {12, 76}) {
      const long long word = 1024 + 4 * (row + 128 * kk);
      walk.push_back(word);
      if (word >= 3072) break;
    }
    if (walk.back() >= 3072) break;
  }
  const std::string cause = wb::grading::vector_pointer_indexed_in_floats(overrun(3, walk), reads);
  EXPECT_TRUE(contains(cause, "thread 3 read A's fragments at floats 1072, 1328, 1584, 1840, ..., 3120 of smem_a")) << cause;
  EXPECT_TRUE(contains(cause, "the last: row 12, column 4, 4 * (12 + 4 * 128) = 2096")) << cause;
  // The same words read by thread 4 (rows 16 and 80) fit none of its fragments.
  EXPECT_EQ(wb::grading::vector_pointer_indexed_in_floats(overrun(4, walk), reads), "");
  // A stage index one too far: the right offsets from float 3072 on.
  EXPECT_EQ(wb::grading::vector_pointer_indexed_in_floats(overrun(3, {3072 + 12, 3072 + 76, 3072 + 140}), reads), "");
  EXPECT_EQ(wb::grading::vector_pointer_indexed_in_floats(overrun(3, {3072 + 48}), reads), "");
  reads.array = "smem_b";
  EXPECT_EQ(wb::grading::vector_pointer_indexed_in_floats(overrun(3, walk), reads), "");
}

// A copy of a group its reader had not committed yet is a refill by a thread a loop
// iteration ahead; a copy of one it had, or a reader with no groups, names nothing.
TEST(Evidence, ARefillThatRacedAReadIsACopyOfALaterGroup) {
  const auto race = [](unsigned long long group, unsigned long long reader_commits) {
    Fault fault{{0, 0, 0}, {1, 0, 0}, nullptr, false, 4, 0, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
    fault.racing_copy = wb::RacingCopy{{0, 0, 0}, group, reader_commits};
    return fault;
  };
  const std::string ahead = wb::grading::refilled_while_read_cause(race(3, 3), "stage");
  EXPECT_TRUE(contains(ahead, "thread (0, 0) copied into a stage in its commit group 4 while thread (1, 0), which "
                              "had committed 3 groups, still read it"))
      << ahead;
  EXPECT_TRUE(contains(ahead, "(at the end of the loop)")) << ahead;
  EXPECT_TRUE(contains(wb::grading::refilled_while_read_cause(race(3, 3), "stage", "Move load_stage."),
                       "still read. Move load_stage."));
  EXPECT_EQ(wb::grading::refilled_while_read_cause(race(2, 3), "stage"), "");
  EXPECT_EQ(wb::grading::refilled_while_read_cause(race(0, 0), "stage"), "");
  Fault no_copy = race(3, 3);
  no_copy.racing_copy.reset();
  EXPECT_EQ(wb::grading::refilled_while_read_cause(no_copy, "stage"), "");
}

TEST(Evidence, ACopyReadInFlightNamesWhereItStood) {
  EXPECT_TRUE(contains(wb::grading::in_flight_read_cause(with_read(0, 0, 0, 0, 0, false), 0), "a commit is missing"));
  EXPECT_TRUE(contains(wb::grading::in_flight_read_cause(with_read(0, 1, -1, 0, 0, false), 0), "had not waited"));
  EXPECT_TRUE(contains(wb::grading::in_flight_read_cause(with_read(3, 4, 1, 3, 2, true), 1),
                       "a stage is refilled while it is read"));
  EXPECT_TRUE(contains(wb::grading::in_flight_read_cause(with_read(0, 2, 2, 2, 0, false), 1),
                       "this step waits with wait<1>"));
  EXPECT_TRUE(contains(wb::grading::in_flight_read_cause(with_read(3, 4, 1, 4, 4, false), 1),
                       "no group was committed since the wait before it"));
  EXPECT_TRUE(contains(wb::grading::in_flight_read_cause(with_read(1, 3, 1, 2, 1, false), 1), "the read's stage index ahead"));
  // A wait<N> of a step that teaches none: nothing named for the last case.
  EXPECT_EQ(wb::grading::in_flight_read_cause(with_read(1, 3, 1, 2, 1, false), -1), "");
  EXPECT_EQ(wb::grading::in_flight_read_cause(wb::sim::LaunchStats{}, 1), "");
}
#endif

}  // namespace
