// timeline_svg's reading of a recording: which spans are waits and barriers, which
// groups a wait landed (wait<N> leaves the newest N, a pipeline's wait lands the oldest),
// and that a file written is read back as it was.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "recording_file.hpp"
#include "svg.hpp"
#include "warp_timeline.hpp"

namespace {

using wb::trace::Event;

wb::trace::Record at(std::uint64_t time, Event event, int value = 0) {
  return {time, static_cast<std::uint32_t>(event), value};
}

// Two commits, a wait<1> from 10 to 30 (lands the first), a barrier 40 to 45, a wait<0>
// from 50 to 60 (lands the second), the end at 70.
wb::trace::Recording double_buffer() {
  wb::trace::Recording recording;
  recording.logical = true;
  recording.copy_steps = 100;
  wb::trace::WarpRecords warp;
  warp.records = {at(0, Event::commit),          at(5, Event::commit),       at(10, Event::wait_begins, 1),
                  at(30, Event::wait_ends),      at(40, Event::barrier_begins), at(45, Event::barrier_ends),
                  at(50, Event::wait_begins, 0), at(60, Event::wait_ends),   at(70, Event::commit)};
  recording.warps.push_back(warp);
  return recording;
}

TEST(Timeline, AWaitLandsTheGroupsItDoesNotLetStay) {
  const std::vector<wb::timeline::WarpTimeline> warps = wb::timeline::read_warps(double_buffer());
  ASSERT_EQ(warps.size(), 1u);
  const wb::timeline::WarpTimeline& warp = warps.front();
  ASSERT_EQ(warp.groups.size(), 3u);
  EXPECT_EQ(warp.groups[0].begin, 0);
  EXPECT_EQ(warp.groups[0].end, 30);  // the wait<1> landed the older group only
  EXPECT_EQ(warp.groups[1].end, 60);
  EXPECT_FALSE(warp.groups[2].landed);  // committed at the end, never waited for
  EXPECT_EQ(warp.in_flight_after_waits, (std::vector<int>{1, 0}));
  const wb::timeline::Summary summary = wb::timeline::summarize(warps);
  EXPECT_EQ(summary.warp_time, 70);
  EXPECT_EQ(summary.waiting, 30);  // 10 to 30 and 50 to 60
  EXPECT_EQ(summary.at_barriers, 5);
  EXPECT_NE(wb::timeline::summary_text(summary).find("warps waited 42.9% of their time at waits and 7.1% at barriers"),
            std::string::npos)
      << wb::timeline::summary_text(summary);
}

TEST(Timeline, APipelinesWaitLandsTheOldestStage) {
  wb::trace::Recording recording;
  wb::trace::WarpRecords warp;
  warp.records = {at(0, Event::commit), at(1, Event::commit), at(2, Event::wait_begins, -1), at(3, Event::wait_ends)};
  recording.warps.push_back(warp);
  const std::vector<wb::timeline::WarpTimeline> warps = wb::timeline::read_warps(recording);
  EXPECT_EQ(warps.front().in_flight_after_waits, (std::vector<int>{1}));
}

TEST(Timeline, ARecordingIsReadBackAsWritten) {
  const std::string path = testing::TempDir() + "timeline_test_recording.txt";
  wb::timeline::write_recording(path, {"Chapter 6, step 2: the reference", double_buffer()});
  const wb::timeline::TitledRecording read = wb::timeline::read_recording(path);
  std::remove(path.c_str());
  EXPECT_EQ(read.title, "Chapter 6, step 2: the reference");
  EXPECT_TRUE(read.recording.logical);
  EXPECT_EQ(read.recording.copy_steps, 100u);
  ASSERT_EQ(read.recording.warps.size(), 1u);
  EXPECT_EQ(read.recording.warps.front().records.size(), 9u);
  const std::string svg = wb::timeline::draw_svg({read, read});
  EXPECT_NE(svg.find("a copy lands 100 steps after its commit"), std::string::npos);
}

TEST(Timeline, AFileThatIsNotARecordingIsNamed) {
  const std::string path = testing::TempDir() + "timeline_test_not_a_recording.txt";
  {
    std::FILE* file = std::fopen(path.c_str(), "w");
    std::fputs("hello\n", file);
    std::fclose(file);
  }
  EXPECT_THROW(wb::timeline::read_recording(path), std::runtime_error);
  std::remove(path.c_str());
}

}  // namespace
