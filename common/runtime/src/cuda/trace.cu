// The GPU's side of wb::trace (wb/trace.hpp): one device buffer for every kernel file of
// the program built with WB_TRACE=1, each of which registered its own pointer to it.
#include <algorithm>
#include <vector>

#include "wb/error.hpp"
#include "wb/trace.hpp"

namespace wb::trace {

namespace detail {

namespace {
std::vector<Attach>& attached_files() {
  static std::vector<Attach> files;
  return files;
}
}  // namespace

bool register_file(Attach attach) {
  attached_files().push_back(attach);
  return true;
}

}  // namespace detail

namespace {

constexpr unsigned kWarpsPerBlock = 32;       // 1024 threads, the most a block has
constexpr unsigned kRecordsPerWarp = 1 << 14;  // events kept for each warp
detail::DeviceTrace recording_buffer;

void attach_all(const detail::DeviceTrace& trace) {
  for (detail::Attach attach : detail::attached_files()) attach(trace);
  WB_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void start(unsigned sample_blocks, std::uint64_t /*sim_copy_steps: the GPU measures*/) {
  if (recording_buffer.records != nullptr) stop();
  const std::size_t slots = static_cast<std::size_t>(sample_blocks) * kWarpsPerBlock;
  WB_CUDA_CHECK(cudaMalloc(&recording_buffer.records, slots * kRecordsPerWarp * sizeof(Record)));
  WB_CUDA_CHECK(cudaMalloc(&recording_buffer.counts, slots * sizeof(unsigned)));
  WB_CUDA_CHECK(cudaMemset(recording_buffer.counts, 0, slots * sizeof(unsigned)));
  recording_buffer.sample_blocks = sample_blocks;
  recording_buffer.warps_per_block = kWarpsPerBlock;
  recording_buffer.capacity = kRecordsPerWarp;
  static unsigned recordings = 0;
  recording_buffer.recording = ++recordings;
  attach_all(recording_buffer);
}

Recording stop() {
  Recording recording;
  if (recording_buffer.records == nullptr) return recording;
  WB_CUDA_CHECK(cudaDeviceSynchronize());
  const std::size_t slots = static_cast<std::size_t>(recording_buffer.sample_blocks) * kWarpsPerBlock;
  std::vector<unsigned> counts(slots);
  WB_CUDA_CHECK(cudaMemcpy(counts.data(), recording_buffer.counts, slots * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (std::size_t slot = 0; slot < slots; ++slot) {
    if (counts[slot] == 0) continue;
    WarpRecords warp;
    warp.block = static_cast<unsigned>(slot / kWarpsPerBlock);
    warp.warp = static_cast<unsigned>(slot % kWarpsPerBlock);
    warp.overflowed = counts[slot] > kRecordsPerWarp;
    warp.records.resize(std::min(counts[slot], kRecordsPerWarp));
    WB_CUDA_CHECK(cudaMemcpy(warp.records.data(), recording_buffer.records + slot * kRecordsPerWarp,
                             warp.records.size() * sizeof(Record), cudaMemcpyDeviceToHost));
    recording.warps.push_back(std::move(warp));
  }
  attach_all(detail::DeviceTrace{});
  cudaFree(recording_buffer.records);
  cudaFree(recording_buffer.counts);
  recording_buffer = {};
  int device = 0, clock_khz = 0;
  WB_CUDA_CHECK(cudaGetDevice(&device));
  WB_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  recording.clock_khz = clock_khz;
  return recording;
}

}  // namespace wb::trace
