// A launch's counters summed over the blocks each worker ran: every field of
// LaunchStats is added here (tests/sim/test_launch_stats.cpp checks that none is missed).
#include <algorithm>

#include "worker.hpp"

namespace wb::sim {

LibraryCopySite& LibraryCopySite::operator+=(const LibraryCopySite& other) {
  const bool empty = calls == 0;
  file = other.file;
  line = other.line;
  promise = other.promise;
  calls += other.calls;
  for (int width = 0; width < 3; ++width) cp_async[width] += other.cp_async[width];
  bytes += other.bytes;
  synchronous_bytes += other.synchronous_bytes;
  source_begin = empty ? other.source_begin : std::min(source_begin, other.source_begin);
  source_end = std::max(source_end, other.source_end);
  return *this;
}

LaunchStats& LaunchStats::operator+=(const LaunchStats& other) {
  blocks += other.blocks;
  threads += other.threads;
  barriers += other.barriers;
  for (const auto& [site, count] : other.barriers_by_site) barriers_by_site[site] += count;
  cp_async_4 += other.cp_async_4;
  cp_async_8 += other.cp_async_8;
  cp_async_16 += other.cp_async_16;
  cp_async_bytes += other.cp_async_bytes;
  cp_async_sized += other.cp_async_sized;
  cp_async_zero_filled += other.cp_async_zero_filled;
  cp_async_odd_source += other.cp_async_odd_source;
  if (other.odd_source_copy && (!odd_source_copy || other.odd_source_copy->block_linear < odd_source_copy->block_linear)) {
    odd_source_copy = other.odd_source_copy;
  }
  commit_groups += other.commit_groups;
  waits += other.waits;
  copies_in_flight_at_waits += other.copies_in_flight_at_waits;
  copies_in_flight_after_waits += other.copies_in_flight_after_waits;
  copies_never_waited += other.copies_never_waited;
  threads_without_copies += other.threads_without_copies;
  waits_with_uncommitted_copies += other.waits_with_uncommitted_copies;
  global_loads += other.global_loads;
  global_loads_while_copies_travel += other.global_loads_while_copies_travel;
  for (const auto& [pc, count] : other.global_loads_without_copies_by_site) global_loads_without_copies_by_site[pc] += count;
  if (!copy_window_race) copy_window_race = other.copy_window_race;
  library_copies += other.library_copies;
  library_cp_async += other.library_cp_async;
  group_waits += other.group_waits;
  library_synchronous_bytes += other.library_synchronous_bytes;
  for (const auto& [key, site] : other.library_sites) library_sites[key] += site;
  pipeline_acquires += other.pipeline_acquires;
  pipeline_commits += other.pipeline_commits;
  pipeline_waits += other.pipeline_waits;
  pipeline_releases += other.pipeline_releases;
  pipeline_stages_at_waits += other.pipeline_stages_at_waits;
  pipeline_empty_waits += other.pipeline_empty_waits;
  pipeline_copies_outside_stage += other.pipeline_copies_outside_stage;
  bulk_copies += other.bulk_copies;
  bulk_bytes += other.bulk_bytes;
  tensor_copies += other.tensor_copies;
  tensor_bytes += other.tensor_bytes;
  mbarrier_arrivals += other.mbarrier_arrivals;
  mbarrier_arrivals_with_bytes += other.mbarrier_arrivals_with_bytes;
  mbarrier_phases += other.mbarrier_phases;
  mbarrier_waits += other.mbarrier_waits;
  bulk_copies_in_flight_at_issue += other.bulk_copies_in_flight_at_issue;
  bulk_waits_right_after_issue += other.bulk_waits_right_after_issue;
  mbarrier_waits_on_a_past_phase += other.mbarrier_waits_on_a_past_phase;
  proxy_fences += other.proxy_fences;
  ldmatrix_calls += other.ldmatrix_calls;
  ldmatrix_matrices += other.ldmatrix_matrices;
  mma_calls += other.mma_calls;
  wgmma_calls += other.wgmma_calls;
  wgmma_fences += other.wgmma_fences;
  wgmma_commits += other.wgmma_commits;
  wgmma_waits += other.wgmma_waits;
  wgmma_groups_at_waits += other.wgmma_groups_at_waits;
  wgmma_never_waited += other.wgmma_never_waited;
  setmaxnreg_increases += other.setmaxnreg_increases;
  setmaxnreg_decreases += other.setmaxnreg_decreases;
  wgmma_by_copying_warps += other.wgmma_by_copying_warps;
  if (wgmma_partial_warpgroup.empty()) wgmma_partial_warpgroup = other.wgmma_partial_warpgroup;
  if (wgmma_first_desc_a_of_warpgroup.empty()) wgmma_first_desc_a_of_warpgroup = other.wgmma_first_desc_a_of_warpgroup;
  if (wgmma_first_two_desc_b.empty()) wgmma_first_two_desc_b = other.wgmma_first_two_desc_b;
  if (!tensor_copy_lowest_destination) tensor_copy_lowest_destination = other.tensor_copy_lowest_destination;
  if (wgmma_first_desc_a == 0 && wgmma_first_desc_b == 0) {
    wgmma_first_desc_a = other.wgmma_first_desc_a;
    wgmma_first_desc_b = other.wgmma_first_desc_b;
  }
  for (int kind = 0; kind < kAccessKinds; ++kind) requests[kind] += other.requests[kind];
  for (const auto& [key, site] : other.sites) {
    AccessSite& mine = sites.try_emplace(key, AccessSite{site.pc, site.kind, 0, {}}).first->second;
    mine.bytes = std::max(mine.bytes, site.bytes);
    mine.counts += site.counts;
  }
  threads_past_request_limit += other.threads_past_request_limit;
  warp_syncs += other.warp_syncs;
  for (const auto& [text, count] : other.warnings) warnings[text] += count;
  // Of the unfilled reads, the lowest block's: the same whatever the number of workers.
  if (other.in_flight_read &&
      (!in_flight_read || other.in_flight_read->block_linear < in_flight_read->block_linear)) {
    in_flight_read = other.in_flight_read;
  }
  for (const EarlyExit& exit : other.early_exits) {
    if (early_exits.size() < kMaxEarlyExits) early_exits.push_back(exit);
  }
  fma_notes += other.fma_notes;
  fma_notes_after_next_reads += other.fma_notes_after_next_reads;
  if (other.fmas_before_next_reads &&
      (!fmas_before_next_reads || other.fmas_before_next_reads->block_linear < fmas_before_next_reads->block_linear)) {
    fmas_before_next_reads = other.fmas_before_next_reads;
  }
  blocks_reading_after_last_store += other.blocks_reading_after_last_store;
  if (other.read_after_last_store &&
      (!read_after_last_store || other.read_after_last_store->block_linear < read_after_last_store->block_linear)) {
    read_after_last_store = other.read_after_last_store;
  }
  if (other.unfilled_read && (!unfilled_read || other.unfilled_read->block_linear < unfilled_read->block_linear)) {
    unfilled_read = other.unfilled_read;
  }
  if (first_block_footprints.empty()) first_block_footprints = other.first_block_footprints;
  for (const auto& [pc, bytes] : other.library_copy_bytes) {
    library_copy_bytes[pc] = std::max(library_copy_bytes[pc], bytes);
  }
  return *this;
}

const char* to_string(AccessKind kind) {
  switch (kind) {
    case AccessKind::shared_load: return "shared loads";
    case AccessKind::shared_store: return "shared stores";
    case AccessKind::global_load: return "global loads";
    case AccessKind::global_store: return "global stores";
    case AccessKind::cp_async_read: return "cp.async global reads";
    case AccessKind::cp_async_write: return "cp.async shared writes";
  }
  return "?";
}

}  // namespace wb::sim
