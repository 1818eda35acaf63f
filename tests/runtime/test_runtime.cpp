// The runtime on either backend: buffers, launches, barriers, cp.async, layouts.
// Built once per backend; on the cuda backend without a GPU every test is skipped.
#include <gtest/gtest.h>

#include <regex>

#include "runtime_kernels.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/random.hpp"
#include "wb/wb.cuh"

namespace {

using wb::grading::fresh_seed;
using wb::grading::random_floats;
using Runtime = wb::grading::KernelTest;

TEST_F(Runtime, BufferRoundTripAndPoison) {
  const auto seed = fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  const std::vector<float> values = random_floats(1000, seed);
  wb::DeviceBuffer<float> buffer(values.size());
  buffer.upload(values);
  EXPECT_EQ(buffer.download(), values);
  buffer.poison();
  for (float value : buffer.download()) {
    ASSERT_TRUE(wb::poison::matches(wb::poison::bits_of(value), wb::poison::unwritten));
  }
}

TEST_F(Runtime, LaunchSetsBlockAndThreadIndices) {
  const std::vector<int> out = runtime_test::launch_indices(5, 96);
  for (unsigned block = 0; block < 5; ++block) {
    for (unsigned thread = 0; thread < 96; ++thread) {
      ASSERT_EQ(out[block * 96 + thread], static_cast<int>(block * 1000 + thread))
          << "block " << block << ", thread " << thread;
    }
  }
}

TEST_F(Runtime, BarrierMakesSharedWritesVisible) {
  const auto seed = fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  const std::vector<float> values = random_floats(4 * 256, seed);
  for (const auto& out : {runtime_test::reverse_in_blocks(values, 256),
                          runtime_test::reverse_in_dynamic_shared(values, 256)}) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::size_t block = i / 256, lane = i % 256;
      ASSERT_EQ(out[i], values[block * 256 + 255 - lane]) << "element " << i;
    }
  }
}

TEST_F(Runtime, AsyncCopyOfEachSizeLandsAfterWait) {
  for (int bytes : {4, 8, 16}) {
    const auto seed = fresh_seed();
    SCOPED_TRACE("copy size " + std::to_string(bytes) + ", WB_SEED=" + std::to_string(seed));
    const std::vector<float> values = random_floats(256, seed);
    EXPECT_EQ(runtime_test::async_round_trip(values, bytes), values);
  }
}

TEST_F(Runtime, WaitOneCompletesTheOlderGroup) {
  const auto seed = fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  const std::vector<float> values = random_floats(8, seed);
  EXPECT_EQ(runtime_test::wait_one_reads_older_group(values), values);
}

TEST_F(Runtime, AsyncCopyZeroFillsPastTheSourceBytes) {
  const std::vector<float> values = random_floats(4, fresh_seed());
  const std::vector<float> out = runtime_test::zero_filled_copy(values, 8);
  EXPECT_EQ(out[0], values[0]);
  EXPECT_EQ(out[1], values[1]);
  EXPECT_EQ(out[2], 0.0f);
  EXPECT_EQ(out[3], 0.0f);
}

TEST_F(Runtime, OversizedBlockIsAnInvalidConfiguration) {
  try {
    runtime_test::launch_with_block_size(2048);
    FAIL() << "a launch of 2048 threads a block must fail";
  } catch (const wb::Error& error) {
    EXPECT_TRUE(std::regex_search(error.what(), std::regex("invalid.*configuration")))
        << error.what();
  }
  runtime_test::launch_with_block_size(1024);  // the next launch works
}

TEST(Layout, ColumnMajorPaddedTile) {
  constexpr auto padded = wb::col_major(wb::Int<128>{}, wb::Int<16>{}, wb::Int<130>{});
  static_assert(padded(0, 1) == 130 && padded(5, 2) == 265);
  static_assert(padded.size() == 2048 && padded.cosize() == 127 + 15 * 130 + 1);
  constexpr auto transposed = padded.transpose();
  static_assert(transposed(1, 5) == padded(5, 1) && transposed.size() == padded.size());
}

TEST(Layout, ThreadLayoutCoordinatesInvertTheMap) {
  constexpr auto threads = wb::col_major(wb::Int<32>{}, wb::Int<8>{});
  static_assert(threads.is_compact());
  for (int t = 0; t < threads.size(); ++t) {
    const wb::Coord c = threads.coord(t);
    EXPECT_EQ(threads(c.row, c.col), t);
  }
  const auto rows = wb::row_major(3, 5);  // a run-time layout
  EXPECT_EQ(rows(2, 4), 14);
  EXPECT_EQ(rows.coord(14).row, 2);
  EXPECT_EQ(rows.coord(14).col, 4);
  EXPECT_FALSE(wb::col_major(4, 4, 5).is_compact());
}

}  // namespace
