// The runtime on either backend: buffers, launches, barriers, cp.async, layouts.
// Built once per backend; on the cuda backend without a GPU every test is skipped.
#include <gtest/gtest.h>

#include <algorithm>
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

TEST_F(Runtime, DynamicSharedMemoryStartsOnA128ByteLine) {
  EXPECT_EQ(runtime_test::dynamic_shared_misalignment(), 0)
      << "WB_DYNAMIC_SHARED's memory starts that many bytes past a 128-byte line: a bulk copy into it "
         "would write each line in two parts (WB_DYNAMIC_SHARED declares it __align__(128))";
}

TEST_F(Runtime, AsyncCopyOfEachSizeLandsAfterWait) {
  for (int bytes : {4, 8, 16}) {
    const auto seed = fresh_seed();
    SCOPED_TRACE("copy size " + std::to_string(bytes) + ", WB_SEED=" + std::to_string(seed));
    const std::vector<float> values = random_floats(256, seed);
    EXPECT_EQ(runtime_test::async_round_trip(values, bytes), values);
  }
}

// How many of `reads` show a copy that had not landed: the sentinel stored before it
// was issued (a GPU), or the poison the simulator writes at issue.
std::size_t not_landed(const std::vector<float>& reads) {
  return static_cast<std::size_t>(std::count_if(reads.begin(), reads.end(), [](float value) {
    return value == runtime_test::kSentinel ||
           wb::poison::matches(wb::poison::bits_of(value), wb::poison::in_flight);
  }));
}

TEST_F(Runtime, WaitOneCompletesTheOlderGroup) {
  constexpr std::size_t kThreads = 1024;
  const auto seed = fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  const std::vector<float> older = random_floats(kThreads, seed);
  const std::vector<float> newer = random_floats(kThreads, ~seed);
  for (int run = 0; run < 3; ++run) {  // the older group must be there every time
    const runtime_test::GroupReads reads =
        runtime_test::wait_then_read_older_group(older, newer, 1);
    ASSERT_EQ(reads.older_after_wait.size(), kThreads);
    EXPECT_EQ(reads.older_after_wait, older)
        << "run " << run << ": after wait<1>, " << not_landed(reads.older_after_wait) << " of "
        << kThreads << " reads of the older group found its copy not landed";
    EXPECT_EQ(reads.newer_after_wait_all, newer) << "run " << run << ", after wait<0>";
  }

  // The control, with a wait too weak (wait<2> with two groups in flight waits for
  // nothing): it must catch copies in flight, or the runs above could not have told a
  // wrong wait from a right one.
  const runtime_test::GroupReads control =
      runtime_test::wait_then_read_older_group(older, newer, 2);
  EXPECT_EQ(control.newer_after_wait_all, newer) << "control, after wait<0>";
  if (not_landed(control.older_after_wait) == 0) {
    GTEST_SKIP() << "this GPU completed the copies before the read: the test cannot tell a "
                    "wrong wait here";
  }
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
