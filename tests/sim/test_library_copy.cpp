// The CUDA C++ library's copies in the simulator: cooperative_groups::memcpy_async spread
// over the block as cp.async as wide as the call's static alignment promises, as nvcc
// compiles the library (CUDA 13.0: alignof(T), or the N of cuda::aligned_size_t<N>; for
// void*, a width chosen from the addresses at run time), landed by
// cooperative_groups::wait; cuda::memcpy_async's widths, and its plain copies below 4 bytes; a block-scoped cuda::pipeline whose stages land when every
// thread has committed them, with each call out of order, a stage never released and a
// read before consumer_wait reported with its reason.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>

#include <cmath>
#include <string>
#include <vector>

#include "sim_test_support.hpp"
#include "wb/grading/random.hpp"

namespace {

namespace cg = cooperative_groups;
using sim_test::contains;
using sim_test::kernel_error_of;
using wb::poison::bits_of;
using wb::poison::matches;
using SimLibraryCopy = sim_test::SimTest;

constexpr int kThreads = 128;
constexpr int kElements = 1024;

// The block copies in[offset, offset + count) to shared memory with one collective call,
// waits, and writes it back out, each thread storing elements other threads copied. How
// the call promises its alignment is the test's parameter.
enum class Promise { float_pointers, aligned_size_16, void_pointers };

__global__ void group_copy(const float* in, float* out, int offset, int count, Promise promise) {
  __shared__ __align__(16) float smem_values[kElements];
  cg::thread_block block = cg::this_thread_block();
  const std::size_t bytes = sizeof(float) * count;
  if (promise == Promise::float_pointers) cg::memcpy_async(block, smem_values, in + offset, bytes);
  if (promise == Promise::aligned_size_16) {
    cg::memcpy_async(block, smem_values, in + offset, cuda::aligned_size_t<16>(bytes));
  }
  if (promise == Promise::void_pointers) {
    cg::memcpy_async(block, static_cast<void*>(smem_values), static_cast<const void*>(in + offset), bytes);
  }
  cg::wait(block);
  for (int i = block.thread_rank(); i < count; i += block.size()) out[i] = smem_values[count - 1 - i];
}

// Thread 0 reads its destination before the wait (out[0..3]) and after it (out[4..7]).
__global__ void group_copy_read_early(const float* in, float* out) {
  __shared__ __align__(16) float smem_values[4];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem_values, in, cuda::aligned_size_t<16>(sizeof(smem_values)));
  if (block.thread_rank() == 0) {
    for (int i = 0; i < 4; ++i) out[i] = smem_values[i];
  }
  cg::wait(block);
  if (block.thread_rank() == 0) {
    for (int i = 0; i < 4; ++i) out[4 + i] = smem_values[i];
  }
}

// A 16-byte promise for a copy that starts one float past a 16-byte boundary.
__global__ void broken_alignment_promise(const float* in) {
  __shared__ __align__(16) float smem_values[8];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem_values, in + 1, cuda::aligned_size_t<16>(16));
  cg::wait(block);
}

// Streams `chunks` chunks of kChunk floats through a two-stage pipeline, the next chunk
// committed before this one is waited for; out[c * kChunk + i] = in[...] + 1.
constexpr int kChunk = 256;
enum class Mistake { none, no_release, commit_before_copies, read_next_stage, no_commit_in_thread_0 };

__global__ void pipelined_stream(const float* in, float* out, int chunks, Mistake mistake) {
  __shared__ __align__(16) float smem_chunk[2][kChunk];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> pipeline_state;
  cg::thread_block block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_block> pipeline = cuda::make_pipeline(block, &pipeline_state);
  const auto load = [&](int chunk) {
    if (mistake == Mistake::commit_before_copies) pipeline.producer_commit();
    if (chunk < chunks) {
      cuda::memcpy_async(block, smem_chunk[chunk % 2], in + chunk * kChunk,
                         cuda::aligned_size_t<16>(sizeof(float) * kChunk), pipeline);
    }
    if (mistake != Mistake::commit_before_copies) {
      if (!(mistake == Mistake::no_commit_in_thread_0 && block.thread_rank() == 0)) pipeline.producer_commit();
    }
  };
  pipeline.producer_acquire();
  load(0);
  for (int chunk = 0; chunk < chunks; ++chunk) {
    pipeline.producer_acquire();
    load(chunk + 1);
    if (mistake != Mistake::read_next_stage) pipeline.consumer_wait();
    for (int i = block.thread_rank(); i < kChunk; i += block.size()) {
      out[chunk * kChunk + i] = smem_chunk[chunk % 2][kChunk - 1 - i] + 1.0f;
    }
    if (mistake == Mistake::read_next_stage) pipeline.consumer_wait();
    if (mistake != Mistake::no_release) pipeline.consumer_release();
  }
}

struct Stream {
  std::vector<float> values;
  wb::DeviceBuffer<float> in, out;
  explicit Stream(int chunks)
      : values(wb::grading::random_floats(chunks * kChunk, wb::grading::fresh_seed())),
        in(values.size()),
        out(values.size()) {
    in.upload(values);
    out.poison();
  }
};

// Runs group_copy and checks the copy; returns the launch's counters.
wb::sim::LaunchStats run_group_copy(int offset, int count, Promise promise) {
  const std::vector<float> values = wb::grading::random_floats(kElements + 4, wb::grading::fresh_seed());
  wb::DeviceBuffer<float> in(values.size()), out(kElements);
  in.upload(values);
  out.poison();
  wb::launch(group_copy, dim3(1), dim3(kThreads), 0, in.data(), out.data(), offset, count, promise);
  const std::vector<float> result = out.download();
  for (int i = 0; i < count; ++i) EXPECT_EQ(result[i], values[offset + count - 1 - i]) << "element " << i;
  return wb::sim::last_launch_stats();
}

TEST_F(SimLibraryCopy, GroupCopyWithAlignedSize16IssuesSixteenByteCopiesSpreadOverTheBlock) {
  const wb::sim::LaunchStats stats = run_group_copy(0, kElements, Promise::aligned_size_16);
  EXPECT_EQ(stats.library_copies, static_cast<std::uint64_t>(kThreads));
  EXPECT_EQ(stats.library_cp_async, static_cast<std::uint64_t>(kElements / 4));
  EXPECT_EQ(stats.cp_async_16, static_cast<std::uint64_t>(kElements / 4));
  EXPECT_EQ(stats.commit_groups, static_cast<std::uint64_t>(kThreads));
  EXPECT_EQ(stats.group_waits, static_cast<std::uint64_t>(kThreads));
  EXPECT_EQ(stats.barriers, 1u);
}

// nvcc compiles the float* overload to `cp.async.ca.shared.global [], [], 4, 4` only: the
// library copies as wide as alignof(float) promises, not as the addresses would allow.
TEST_F(SimLibraryCopy, GroupCopyOfFloatPointersIsFourByteCopiesHoweverAligned) {
  const wb::sim::LaunchStats stats = run_group_copy(0, kElements, Promise::float_pointers);
  EXPECT_EQ(stats.cp_async_4, static_cast<std::uint64_t>(kElements));
  EXPECT_EQ(stats.cp_async_8 + stats.cp_async_16, 0u);
  ASSERT_EQ(stats.library_sites.size(), 1u);
  const wb::sim::LibraryCopySite& site = stats.library_sites.begin()->second;
  EXPECT_EQ(site.promise.element_alignment, alignof(float));
  EXPECT_EQ(site.promise.aligned_size, 0u);
  EXPECT_EQ(site.cp_async[0], static_cast<std::uint64_t>(kElements));
  EXPECT_EQ(site.bytes, sizeof(float) * kElements);
  EXPECT_EQ(site.calls, static_cast<std::uint64_t>(kThreads));
}

// For void*, the library picks the width at run time from how far apart the addresses
// are modulo 16 (nvcc's PTX holds the 16-, 8- and 4-byte copies, and plain copies).
TEST_F(SimLibraryCopy, GroupCopyOfVoidPointersTakesItsWidthFromTheAddresses) {
  EXPECT_EQ(run_group_copy(0, kElements, Promise::void_pointers).cp_async_16, static_cast<std::uint64_t>(kElements / 4));
  EXPECT_EQ(run_group_copy(2, kElements, Promise::void_pointers).cp_async_8, static_cast<std::uint64_t>(kElements / 2));
  EXPECT_EQ(run_group_copy(1, kElements - 1, Promise::void_pointers).cp_async_4,
            static_cast<std::uint64_t>(kElements - 1));
  // 16-byte copies for the whole vectors; the last float, past them, with a plain copy.
  const wb::sim::LaunchStats stats = run_group_copy(0, 5, Promise::void_pointers);
  EXPECT_EQ(stats.cp_async_16, 1u);
  EXPECT_EQ(stats.cp_async_4 + stats.cp_async_8, 0u);
  EXPECT_EQ(stats.library_synchronous_bytes, sizeof(float));
}

// One stage of a pipeline holds in[0, count), copied by one cuda::memcpy_async whose
// promise is the test's parameter; out is the stage read back.
enum class StagePromise { float_pointers, void_pointers, float4_pointers_aligned_size_4 };

__global__ void pipeline_copy(const float* in, float* out, int count, StagePromise promise) {
  __shared__ __align__(16) float smem_values[kElements];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 1> pipeline_state;
  cg::thread_block block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_block> pipeline = cuda::make_pipeline(block, &pipeline_state);
  const std::size_t bytes = sizeof(float) * count;
  pipeline.producer_acquire();
  if (promise == StagePromise::float_pointers) cuda::memcpy_async(block, smem_values, in, bytes, pipeline);
  if (promise == StagePromise::void_pointers) {
    cuda::memcpy_async(block, static_cast<void*>(smem_values), static_cast<const void*>(in), bytes, pipeline);
  }
  if (promise == StagePromise::float4_pointers_aligned_size_4) {
    cuda::memcpy_async(block, reinterpret_cast<float4*>(smem_values), reinterpret_cast<const float4*>(in),
                       cuda::aligned_size_t<4>(bytes), pipeline);
  }
  pipeline.producer_commit();
  pipeline.consumer_wait();
  for (int i = block.thread_rank(); i < count; i += block.size()) out[i] = smem_values[i];
  pipeline.consumer_release();
}

wb::sim::LaunchStats run_pipeline_copy(int count, StagePromise promise) {
  const std::vector<float> values = wb::grading::random_floats(count, wb::grading::fresh_seed());
  wb::DeviceBuffer<float> in(values.size()), out(values.size());
  in.upload(values);
  out.poison();
  wb::launch(pipeline_copy, dim3(1), dim3(kThreads), 0, in.data(), out.data(), count, promise);
  EXPECT_EQ(out.download(), values);
  return wb::sim::last_launch_stats();
}

// cuda::memcpy_async copies as wide as the larger of alignof(T) and an aligned_size_t's N
// (nvcc: 4-byte cp.async for float*, 16-byte for float4*, none for void*, whose bytes go
// one by one with plain loads and stores).
TEST_F(SimLibraryCopy, PipelineCopyTakesTheLargerOfTheTypesAndTheSizesAlignment) {
  EXPECT_EQ(run_pipeline_copy(kElements, StagePromise::float_pointers).cp_async_4,
            static_cast<std::uint64_t>(kElements));
  EXPECT_EQ(run_pipeline_copy(kElements, StagePromise::float4_pointers_aligned_size_4).cp_async_16,
            static_cast<std::uint64_t>(kElements / 4));
  const wb::sim::LaunchStats plain = run_pipeline_copy(kElements, StagePromise::void_pointers);
  EXPECT_EQ(plain.cp_async_ops(), 0u);
  EXPECT_EQ(plain.library_synchronous_bytes, sizeof(float) * kElements);
}

// A float* copy of 6 bytes: the library's 4-byte copies cannot make it.
__global__ void group_copy_of_six_bytes(const float* in) {
  __shared__ __align__(16) float smem_values[4];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem_values, in, 6);
  cg::wait(block);
}

TEST_F(SimLibraryCopy, SizeNoMultipleOfTheTypesAlignmentIsNamed) {
  wb::DeviceBuffer<float> in(4);
  const std::string message =
      kernel_error_of([&] { wb::launch(group_copy_of_six_bytes, dim3(1), dim3(4), 0, in.data()); });
  EXPECT_TRUE(contains(message, "test_library_copy.cpp:[0-9]+.*not a multiple of the library's 4-byte copies "
                                "\\(from alignof of the pointers' type.*would leave the last 2 bytes uncopied"))
      << message;
}

TEST_F(SimLibraryCopy, ReadBeforeGroupWaitSeesInFlightPoison) {
  const std::vector<float> values = wb::grading::random_floats(4, wb::grading::fresh_seed());
  wb::DeviceBuffer<float> in(4), out(8);
  in.upload(values);
  wb::launch(group_copy_read_early, dim3(1), dim3(1), 0, in.data(), out.data());
  const std::vector<float> result = out.download();
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(matches(bits_of(result[i]), wb::poison::in_flight)) << "element " << i << " is " << result[i];
    EXPECT_EQ(result[4 + i], values[i]);
  }
}

TEST_F(SimLibraryCopy, BrokenAlignmentPromiseIsNamed) {
  wb::DeviceBuffer<float> in(16);
  const std::string message = kernel_error_of(
      [&] { wb::launch(broken_alignment_promise, dim3(1), dim3(4), 0, in.data()); });
  EXPECT_TRUE(contains(message, "test_library_copy.cpp:[0-9]+.*aligned_size_t<16> promises.*source % 16 == 4"))
      << message;
}

TEST_F(SimLibraryCopy, PipelineStreamsThroughTwoStages) {
  constexpr int chunks = 5;
  Stream stream(chunks);
  wb::launch(pipelined_stream, dim3(2), dim3(kThreads), 0, stream.in.data(), stream.out.data(), chunks, Mistake::none);
  const std::vector<float> result = stream.out.download();
  for (int c = 0; c < chunks; ++c) {
    for (int i = 0; i < kChunk; ++i) {
      ASSERT_EQ(result[c * kChunk + i], stream.values[c * kChunk + kChunk - 1 - i] + 1.0f) << c << " " << i;
    }
  }
  const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
  const std::uint64_t threads = 2 * kThreads;
  EXPECT_EQ(stats.pipeline_acquires, threads * (chunks + 1));
  EXPECT_EQ(stats.pipeline_commits, threads * (chunks + 1));
  EXPECT_EQ(stats.pipeline_waits, threads * chunks);
  EXPECT_EQ(stats.pipeline_releases, threads * chunks);
  EXPECT_EQ(stats.pipeline_stages_at_waits, 2 * threads * chunks);  // double buffered
  EXPECT_EQ(stats.pipeline_empty_waits, 0u);
  EXPECT_EQ(stats.pipeline_copies_outside_stage, 0u);
  EXPECT_EQ(stats.library_cp_async, 2u * chunks * kChunk / 4);
  EXPECT_EQ(stats.copies_never_waited, 0u);
  EXPECT_EQ(stats.barriers, 0u);
}

TEST_F(SimLibraryCopy, PipelineStreamPassesUnderEverySchedule) {
  for (const auto order : {wb::sim::Order::forward, wb::sim::Order::reverse, wb::sim::Order::random}) {
    wb::sim::ScopedSchedule schedule({order, 7});
    Stream stream(4);
    wb::launch(pipelined_stream, dim3(1), dim3(kThreads), 0, stream.in.data(), stream.out.data(), 4, Mistake::none);
    EXPECT_EQ(stream.out.download()[0], stream.values[kChunk - 1] + 1.0f);
  }
}

TEST_F(SimLibraryCopy, MissingReleaseIsNamedAtTheAcquire) {
  Stream stream(4);
  const std::string message = kernel_error_of([&] {
    wb::launch(pipelined_stream, dim3(1), dim3(kThreads), 0, stream.in.data(), stream.out.data(), 4,
               Mistake::no_release);
  });
  EXPECT_TRUE(contains(message, "test_library_copy.cpp:[0-9]+.*producer_acquire\\(\\): stage 0 was never "
                                "released: is consumer_release\\(\\) missing\\?"))
      << message;
}

TEST_F(SimLibraryCopy, ReadBeforeConsumerWaitIsARace) {
  for (const auto order : {wb::sim::Order::forward, wb::sim::Order::reverse}) {
    wb::sim::ScopedSchedule schedule({order, 1});
    Stream stream(4);
    const std::string message = kernel_error_of([&] {
      wb::launch(pipelined_stream, dim3(1), dim3(kThreads), 0, stream.in.data(), stream.out.data(), 4,
                 Mistake::read_next_stage);
    });
    EXPECT_TRUE(contains(message, "a race on shared memory.*Does a thread read this stage before its consumer_wait"))
        << message;
  }
}

TEST_F(SimLibraryCopy, CommitBeforeTheCopiesLeavesTheWaitedStageEmpty) {
  // The first consumer_wait finds its stage empty: the copies joined the stage after it.
  Stream stream(1);
  wb::launch(pipelined_stream, dim3(1), dim3(kThreads), 0, stream.in.data(), stream.out.data(), 1,
             Mistake::commit_before_copies);
  const wb::sim::LaunchStats& stats = wb::sim::last_launch_stats();
  EXPECT_GT(stats.pipeline_empty_waits, 0u);
  EXPECT_GT(stats.pipeline_copies_outside_stage, 0u);
  EXPECT_TRUE(std::isnan(stream.out.download()[0])) << "computed from the poison of copies in flight";
  EXPECT_GT(stats.copies_never_waited, 0u);
}

TEST_F(SimLibraryCopy, AThreadThatNeverCommitsStopsTheBlockWithAReport) {
  Stream stream(2);
  const std::string message = kernel_error_of([&] {
    wb::launch(pipelined_stream, dim3(1), dim3(kThreads), 0, stream.in.data(), stream.out.data(), 2,
               Mistake::no_commit_in_thread_0);
  });
  EXPECT_TRUE(contains(message, "producer_acquire\\(\\): this thread acquired a stage before and has not committed it"))
      << message;
}

}  // namespace
