/// \file
/// Timelines (`make timeline-chapterN`): what a kernel's copies, waits and barriers did,
/// warp by warp, for a sample of blocks.
///
///     wb::trace::start(4);                  // record the first 4 blocks of the next launches
///     kernel_launch(...);
///     wb::trace::Recording recording = wb::trace::stop();
///
/// Each warp's first lane records an event at each commit, around each wait and each
/// barrier. On the GPU only a trace build of a kernel file records (compiled with
/// `WB_TRACE=1`, which `make timeline-chapterN` makes beside the ordinary build, so that
/// the ordinary build pays nothing): its time is the SM's clock (`clock64`, in cycles),
/// and each block is drawn from its own first event. In the simulator every build
/// records, in logical time: one step per memory access or runtime call of the thread,
/// a barrier releasing all at the step of the last to arrive, and a copy landing
/// a number of steps after its commit (a model, not a measurement: kSimCopySteps unless
/// start() is given another).
#pragma once

#include "wb/backend.hpp"
#include "wb/trace_records.hpp"  // Event, Record, WarpRecords, Recording

namespace wb::trace {

/// Starts recording the first `sample_blocks` blocks of every launch until stop(); in the
/// simulator, with copies that land `sim_copy_steps` after their commit.
void start(unsigned sample_blocks, std::uint64_t sim_copy_steps = kSimCopySteps);
/// Stops, and returns what the launches since start() recorded (their blocks' warps in
/// turn, launch after launch).
Recording stop();

}  // namespace wb::trace

// ---------------------------------------------------------------------------------------
// The GPU's recorder. Each kernel file built with WB_TRACE=1 has its own pointer to the
// buffer (a __device__ variable of its translation unit), which start() sets for every
// file that registered itself; other builds record nothing and pay nothing.
#if WB_BACKEND_CUDA

namespace wb::trace::detail {

struct DeviceTrace {
  Record* records = nullptr;  // `capacity` records for each (block, warp) slot
  unsigned* counts = nullptr;
  unsigned sample_blocks = 0;
  unsigned warps_per_block = 0;
  unsigned capacity = 0;
  unsigned recording = 0;  // start()'s count: a block's shared counters belong to one recording
};

using Attach = void (*)(const DeviceTrace&);
bool register_file(Attach attach);  // host: start() and stop() call `attach`

#if defined(WB_TRACE) && WB_TRACE && defined(__CUDACC__)
static __device__ DeviceTrace device_trace;

static void attach_this_file(const DeviceTrace& trace) { cudaMemcpyToSymbol(device_trace, &trace, sizeof trace); }
[[maybe_unused]] static const bool this_file_registered = register_file(&attach_this_file);

// A warp's count of events lives in shared memory (a load from global memory at every
// event would stall the warp for hundreds of cycles and change what is measured), tagged
// with its recording and block: shared memory is undefined at a block's start, and a
// count is trusted only where the tag says this block wrote it.
__device__ __forceinline__ void note(Event event, int value) {
  const DeviceTrace& trace = device_trace;
  if (trace.records == nullptr) return;
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned warp = thread / 32;
  if (thread % 32 != 0 || block >= trace.sample_blocks || warp >= trace.warps_per_block) return;
  __shared__ unsigned long long warp_tag[32];
  __shared__ unsigned warp_count[32];
  const unsigned long long tag = static_cast<unsigned long long>(trace.recording) << 32 | block;
  const unsigned count = warp_tag[warp] == tag ? warp_count[warp] : 0;
  const unsigned slot = block * trace.warps_per_block + warp;
  if (count < trace.capacity) {
    trace.records[static_cast<std::size_t>(slot) * trace.capacity + count] =
        Record{static_cast<std::uint64_t>(clock64()), static_cast<std::uint32_t>(event), value};
  }
  warp_count[warp] = count + 1;
  warp_tag[warp] = tag;
  trace.counts[slot] = count + 1;  // a store the warp does not wait for; past the capacity: overflowed
}

// __syncthreads() with an event on each side: defined before the macro below, so that
// the call inside is the real one.
__device__ __forceinline__ void traced_syncthreads() {
  note(Event::barrier_begins, 0);
  __syncthreads();
  note(Event::barrier_ends, 0);
}
#define WB_TRACE_NOTE(event, value) ::wb::trace::detail::note(event, value)
#define __syncthreads() ::wb::trace::detail::traced_syncthreads()
#endif

}  // namespace wb::trace::detail

#endif  // WB_BACKEND_CUDA

#ifndef WB_TRACE_NOTE
#define WB_TRACE_NOTE(event, value) ((void)0)
#endif
