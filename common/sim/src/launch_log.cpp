// The launch log: with WB_SIM_LAUNCH_LOG=FILE, every launch that finishes appends one
// tab-separated line of its counters to FILE, named by its kernel, so that a tool
// outside the process (common/tools/profile_chapter.sh) can set what the simulator
// counted beside what Nsight Compute measures on a GPU, kernel by kernel.
//
// Columns: the kernel's demangled name, blocks, threads; then requests, transactions
// and the ideal transactions of each AccessKind in its order (shared loads, shared
// stores, global loads, global stores, cp.async global reads, cp.async shared writes);
// then cp.async operations of 4, 8 and 16 bytes, barriers, and Hopper's bulk and tensor
// copies (tools/ptx_widths compares these kinds of copy with nvcc's PTX). A line starting
// with '#' names them.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "worker.hpp"

namespace wb::sim {

void log_launch(const LaunchConfig& config, const LaunchStats& stats) {
  const char* path = std::getenv("WB_SIM_LAUNCH_LOG");
  if (path == nullptr || *path == '\0') return;
  std::string name = function_name_of(config.kernel);
  if (name.empty()) name = "kernel at " + hex(config.kernel);
  std::string line = name + "\t" + std::to_string(stats.blocks) + "\t" + std::to_string(stats.threads);
  for (int kind = 0; kind < kAccessKinds; ++kind) {
    const RequestCounts& counts = stats.requests[kind];
    line += "\t" + std::to_string(counts.requests) + "\t" + std::to_string(counts.transactions) + "\t" +
            std::to_string(counts.ideal);
  }
  line += "\t" + std::to_string(stats.cp_async_4) + "\t" + std::to_string(stats.cp_async_8) + "\t" +
          std::to_string(stats.cp_async_16) + "\t" + std::to_string(stats.barriers) + "\t" +
          std::to_string(stats.bulk_copies) + "\t" + std::to_string(stats.tensor_copies) + "\n";
  FILE* file = std::fopen(path, "a");
  if (file == nullptr) return;  // a log that cannot be written must not fail the kernel
  std::fseek(file, 0, SEEK_END);
  if (std::ftell(file) == 0) {
    std::fputs("# kernel\tblocks\tthreads"
               "\tshared_load_requests\tshared_load_wavefronts\tshared_load_ideal"
               "\tshared_store_requests\tshared_store_wavefronts\tshared_store_ideal"
               "\tglobal_load_requests\tglobal_load_sectors\tglobal_load_ideal"
               "\tglobal_store_requests\tglobal_store_sectors\tglobal_store_ideal"
               "\tcp_async_read_requests\tcp_async_read_sectors\tcp_async_read_ideal"
               "\tcp_async_write_requests\tcp_async_write_wavefronts\tcp_async_write_ideal"
               "\tcp_async_4\tcp_async_8\tcp_async_16\tbarriers\tbulk_copies\ttensor_copies\n",
               file);
  }
  std::fputs(line.c_str(), file);  // one write of a whole line: processes may share FILE
  std::fclose(file);
}

}  // namespace wb::sim
