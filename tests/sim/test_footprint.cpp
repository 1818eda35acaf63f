// Shared-memory footprints: the first read of a word that no copy or store of its block
// had filled, kept with what the block had filled of that array (sim::UnfilledRead), block
// (0,0,0)'s footprint of every array it touched, and their reading
// (wb/grading/diagnosis/footprint.hpp): the observation always, a cause only where the footprint
// proves one.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

#include <string>
#include <vector>

#include "sim_test_support.hpp"
#include "wb/grading/diagnosis/footprint.hpp"

namespace {

namespace cg = cooperative_groups;
using sim_test::contains;
using wb::sim::Order;
using wb::sim::Schedule;
using wb::sim::ScopedSchedule;
using SimFootprint = sim_test::SimTest;

constexpr int kThreads = 64;
constexpr int kWords = 256;

// Each thread copies the first float of its quad only (4 bytes where 16 were meant), then
// the block stores the whole array: 3 words of every 4 were never filled.
__global__ void quads_copied_as_floats(const float* in, float* out) {
  __shared__ float smem_quads[kWords];
  const int first = 4 * static_cast<int>(threadIdx.x);
  wb::cp_async_ca<4>(&smem_quads[first], &in[first]);
  wb::cp_async_wait_all();
  __syncthreads();
  for (int i = threadIdx.x; i < kWords; i += kThreads) out[i] = smem_quads[i];
}

// The same with a library copy a column of 128 floats, sized 128 (bytes) instead of
// sizeof(float) * 128.
constexpr int kColumn = 128;
__global__ void columns_sized_in_floats(const float* in, float* out) {
  __shared__ __align__(16) float smem_columns[2 * kColumn];
  cg::thread_block block = cg::this_thread_block();
  for (int col = 0; col < 2; ++col) cg::memcpy_async(block, &smem_columns[col * kColumn], &in[col * kColumn], kColumn);
  cg::wait(block);
  for (int i = block.thread_rank(); i < 2 * kColumn; i += kThreads) out[i] = smem_columns[i];
}

// A (32,4) tile in an array padded to stride 34: written through `write_stride`, read
// through `read_stride` (32: the compact layout, 34: the padded one).
constexpr int kRows = 32, kCols = 4, kStride = 34;
constexpr int kPadded = (kCols - 1) * kStride + kRows;  // 134
__global__ void padded_tile(const float* in, float* out, int write_stride, int read_stride) {
  __shared__ float smem_padded[kPadded];
  for (int i = threadIdx.x; i < kRows * kCols; i += kThreads) {
    wb::cp_async(&smem_padded[i % kRows + i / kRows * write_stride], &in[i]);
  }
  wb::cp_async_wait_all();
  __syncthreads();
  for (int i = threadIdx.x; i < kRows * kCols; i += kThreads) out[i] = smem_padded[i % kRows + i / kRows * read_stride];
}

// Thread t fills word t and reads word t + `shift` (past_end: words t and t + 1).
__global__ void shifted_reads(const float* in, float* out, int shift, bool past_end) {
  __shared__ float smem_words[kThreads + 4];
  smem_words[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float value = smem_words[threadIdx.x + shift];
  if (past_end) value += smem_words[threadIdx.x + 1];
  out[threadIdx.x] = value;
}

// Every block fills its words, and blocks 3 and 5 read one word they never filled.
__global__ void some_blocks_read_unfilled(float* out) {
  __shared__ float smem_block[kThreads + 1];
  smem_block[threadIdx.x] = 1.0f;
  __syncthreads();
  const bool reads_past = (blockIdx.x == 3 || blockIdx.x == 5) && threadIdx.x == kThreads - 1;
  out[blockIdx.x * kThreads + threadIdx.x] = smem_block[threadIdx.x + (reads_past ? 1 : 0)];
}

// Runs `launch` under the forward schedule (thread 0 first) and returns the launch's
// counters.
template <class Launch>
wb::sim::LaunchStats forward_run(Launch&& launch) {
  ScopedSchedule forward(Schedule{Order::forward, 1});
  launch();
  wb::synchronize();
  return wb::sim::last_launch_stats();
}

wb::DeviceBuffer<float> input_of(std::size_t count) {
  wb::DeviceBuffer<float> buffer(count);
  buffer.upload(std::vector<float>(count, 1.0f));
  return buffer;
}

TEST_F(SimFootprint, RecordsTheFirstUnfilledReadWithWhatTheBlockHadFilled) {
  wb::DeviceBuffer<float> in = input_of(kWords), out(kWords);
  const wb::sim::LaunchStats stats =
      forward_run([&] { wb::launch(quads_copied_as_floats, dim3(1), dim3(kThreads), 0, in.data(), out.data()); });
  ASSERT_TRUE(stats.unfilled_read.has_value());
  const wb::sim::UnfilledRead& read = *stats.unfilled_read;
  EXPECT_EQ(read.footprint.array, "smem_quads");
  EXPECT_EQ(read.word, 1u);  // thread 0 reads words 0, 64, ...: all filled; thread 1 reads word 1
  EXPECT_EQ(read.thread.x, 1u);
  EXPECT_EQ(read.bytes, 4u);
  ASSERT_EQ(read.filled.size(), static_cast<std::size_t>(kWords));
  for (int word = 0; word < kWords; ++word) {
    EXPECT_EQ(read.filled[static_cast<std::size_t>(word)], word % 4 == 0) << "word " << word;
    EXPECT_EQ(read.read_unfilled[static_cast<std::size_t>(word)], word % 4 != 0) << "word " << word;
    EXPECT_TRUE(read.footprint.read[static_cast<std::size_t>(word)]) << "word " << word;
  }
  EXPECT_TRUE(contains(wb::sim::source_line_of(read.pc), "test_footprint.cpp:[0-9]+"));
  EXPECT_TRUE(contains(wb::sim::source_line_of(read.nearest_write_pc), "test_footprint.cpp:[0-9]+"));
}

TEST_F(SimFootprint, ReadsAFloatCopiedForEachQuadAsASizeInFloats) {
  wb::DeviceBuffer<float> in = input_of(kWords), out(kWords);
  const wb::grading::FootprintReading reading = wb::grading::read_unfilled_footprint(
      forward_run([&] { wb::launch(quads_copied_as_floats, dim3(1), dim3(kThreads), 0, in.data(), out.data()); }));
  EXPECT_TRUE(contains(reading.observed,
                       "^thread \\(1,0,0\\) of block \\(0,0,0\\) read smem_quads\\[1\\] at [^ ]*test_footprint.cpp:[0-9]+, "
                       "which no copy or store of the block had filled; by then the block had filled 1 word of every 4 "
                       "of smem_quads \\(words 0, 4, 8, ...\\), 64 of its 256 words. In all, the block read 192 words"))
      << reading.observed;
  EXPECT_TRUE(contains(reading.cause, "Each cp.async at [^ ]*test_footprint.cpp:[0-9]+ copies 4 bytes, 1 float.*"
                                      "Either the copy's size is a count of floats where bytes are asked.*"
                                      "or it is the one-float wb::cp_async"))
      << reading.cause;
}

TEST_F(SimFootprint, ReadsALibraryCopyOfAColumnSizedInFloats) {
  wb::DeviceBuffer<float> in = input_of(2 * kColumn), out(2 * kColumn);
  const wb::sim::LaunchStats stats =
      forward_run([&] { wb::launch(columns_sized_in_floats, dim3(1), dim3(kThreads), 0, in.data(), out.data()); });
  const wb::grading::FootprintReading reading = wb::grading::read_unfilled_footprint(stats);
  EXPECT_TRUE(contains(reading.observed, "32 words of every 128 of smem_columns \\(words 0-31, 128-159\\)"))
      << reading.observed;
  EXPECT_TRUE(contains(reading.cause, "Each library copy at [^ ]*test_footprint.cpp:[0-9]+ copies 128 bytes, 32 "
                                      "floats.*128 floats are 512 bytes \\(sizeof\\(float\\) \\* 128\\)"))
      << reading.cause;
}

TEST_F(SimFootprint, ReadsTheSideThatForgotThePadding) {
  wb::DeviceBuffer<float> in = input_of(kRows * kCols), out(kRows * kCols);
  const auto reading_of = [&](int write_stride, int read_stride) {
    return wb::grading::read_unfilled_footprint(forward_run([&] {
      wb::launch(padded_tile, dim3(1), dim3(kThreads), 0, in.data(), out.data(), write_stride, read_stride);
    }));
  };
  const wb::grading::FootprintReading compact_copies = reading_of(kRows, kStride);
  EXPECT_TRUE(contains(compact_copies.cause, "copies filled words 0 to 127 in a row, while its reads walk 32 words of "
                                             "every 34.*Copy through the same padded layout as the reads"))
      << compact_copies.cause;
  const wb::grading::FootprintReading compact_reads = reading_of(kStride, kRows);
  EXPECT_TRUE(contains(compact_reads.observed, "read smem_padded\\[66\\]")) << compact_reads.observed;
  EXPECT_TRUE(contains(compact_reads.cause, "copies filled 32 words of every 34.*while its reads walk words 0 to 127 "
                                            "in a row: the reads forget the padding"))
      << compact_reads.cause;
}

TEST_F(SimFootprint, ReadsAConstantOffsetAndReadsPastTheFilledRange) {
  wb::DeviceBuffer<float> in = input_of(kThreads), out(kThreads);
  const auto reading_of = [&](int shift, bool past_end) {
    return wb::grading::read_unfilled_footprint(forward_run(
        [&] { wb::launch(shifted_reads, dim3(1), dim3(kThreads), 0, in.data(), out.data(), shift, past_end); }));
  };
  EXPECT_TRUE(contains(reading_of(2, false).cause, "Every word the block read lies 2 words after a word it filled"));
  EXPECT_TRUE(contains(reading_of(0, true).cause,
                       "The reads cover every word the block filled and run 1 word on past the last, words 64 to 64"));
  // Word t + 3 and word t + 1: no constant moves the filled words onto the words read.
  const wb::grading::FootprintReading mixed = reading_of(3, true);
  EXPECT_TRUE(contains(mixed.observed, "read smem_words\\[64\\]")) << mixed.observed;
  EXPECT_EQ(mixed.cause, "");
  EXPECT_TRUE(contains(mixed.likely_cause(), "no cause is named"));
}

TEST_F(SimFootprint, KeepsTheLowestBlockWhateverTheWorkers) {
  wb::DeviceBuffer<float> out(8 * kThreads);
  const wb::sim::LaunchStats stats =
      forward_run([&] { wb::launch(some_blocks_read_unfilled, dim3(8), dim3(kThreads), 0, out.data()); });
  ASSERT_TRUE(stats.unfilled_read.has_value());
  EXPECT_EQ(stats.unfilled_read->block.x, 3u);
  EXPECT_EQ(stats.unfilled_read->word, static_cast<std::size_t>(kThreads));
}

TEST_F(SimFootprint, CorrectKernelsReadNothingUnfilledAndLeaveBlockZerosFootprint) {
  wb::DeviceBuffer<float> in = input_of(kRows * kCols), out(kRows * kCols);
  const wb::sim::LaunchStats stats = forward_run(
      [&] { wb::launch(padded_tile, dim3(1), dim3(kThreads), 0, in.data(), out.data(), kStride, kStride); });
  EXPECT_FALSE(stats.unfilled_read.has_value());
  EXPECT_EQ(wb::grading::unfilled_read_cause(stats, true), "");
  ASSERT_EQ(stats.first_block_footprints.size(), 1u);
  const wb::sim::ArrayFootprint& footprint = stats.first_block_footprints.front();
  EXPECT_EQ(footprint.array, "smem_padded");
  ASSERT_EQ(footprint.words(), static_cast<std::size_t>(kPadded));
  for (int word = 0; word < kPadded; ++word) {
    const bool in_tile = word % kStride < kRows;
    EXPECT_EQ(footprint.written[static_cast<std::size_t>(word)], in_tile) << "word " << word;
    EXPECT_EQ(footprint.read[static_cast<std::size_t>(word)], in_tile) << "word " << word;
  }
  EXPECT_TRUE(wb::grading::padding_walked(stats, "smem_padded", kRows, kCols, kStride));
}

TEST_F(SimFootprint, PaddingDeclaredAndNeverWalkedIsNamed) {
  wb::DeviceBuffer<float> in = input_of(kRows * kCols), out(kRows * kCols);
  const wb::sim::LaunchStats stats = forward_run(
      [&] { wb::launch(padded_tile, dim3(1), dim3(kThreads), 0, in.data(), out.data(), kRows, kRows); });
  EXPECT_FALSE(stats.unfilled_read.has_value());
  const ::testing::AssertionResult walked = wb::grading::padding_walked(stats, "smem_padded", kRows, kCols, kStride);
  ASSERT_FALSE(walked);
  EXPECT_TRUE(contains(walked.message(), "block \\(0,0,0\\) touched words 0 to 127 of smem_padded, every one, and none "
                                         "of words 128 to 133.*declared and never used"))
      << walked.message();
}

}  // namespace
