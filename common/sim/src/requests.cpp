// Warp requests: the accesses of the lanes of a warp, put together as a GPU would issue
// them, and counted in wavefronts (shared memory) and sectors (global memory).
//
// A block's threads run one after another between two barriers, so the simulator
// cannot see a warp's lanes access memory together. It records each thread's accesses
// in order instead (record_access, called for every instrumented access and for each
// side of a cp.async), and once every lane of a warp has stopped (at a barrier, a warp
// rendezvous such as __syncwarp, or its end) takes the k-th access of every lane as one
// warp instruction. Tallying a warp as soon as it stops keeps the records of one warp
// in the cache, not those of the whole block. Lanes whose k-th access is at another code address (their
// control flow diverged) form a request of their own. The rules of the hardware are
// those of wb/memory_transactions.hpp.
#include <algorithm>

#include "wb/memory_transactions.hpp"
#include "worker.hpp"

namespace wb::sim {
namespace {

// Records kept per thread between two barriers: enough for every kernel of the
// workbook, bounded for all threads of a block together (about 48 MiB for 1024).
constexpr std::size_t kRecordsPerBlock = std::size_t{1} << 21;
constexpr std::size_t kMinRecordsPerThread = 512;

void count_request(LaunchStats& stats, const AccessRecord& first,
                   const transactions::WarpRequest& request) {
  RequestCounts counts;
  counts.requests = 1;
  counts.lanes = static_cast<std::uint64_t>(transactions::active_lanes(request));
  for (const transactions::LaneAccess& lane : request) counts.bytes += lane.active ? lane.bytes : 0;
  const unsigned width = transactions::request_width(request);
  if (is_shared(first.kind())) {
    counts.transactions = static_cast<std::uint64_t>(transactions::shared_wavefronts(request));
    counts.ideal = static_cast<std::uint64_t>(transactions::ideal_wavefronts(request));
  } else {
    counts.transactions = static_cast<std::uint64_t>(transactions::global_sectors(request));
    // Lanes that read the same bytes need fewer sectors than distinct bytes would.
    counts.ideal = std::min<std::uint64_t>(
        counts.transactions,
        static_cast<std::uint64_t>(
            transactions::ideal_sectors(transactions::active_lanes(request), width)));
  }
  stats.of(first.kind()) += counts;
  AccessSite& site =
      stats.sites.try_emplace({first.pc(), first.kind()}, AccessSite{first.pc(), first.kind(), 0, {}})
          .first->second;
  site.bytes = std::max(site.bytes, width);
  site.counts += counts;
}

}  // namespace

void reserve_request_records(Worker& worker, unsigned threads) {
  const std::size_t limit = std::max(kMinRecordsPerThread, kRecordsPerBlock / std::max(threads, 1u));
  for (unsigned i = 0; i < threads; ++i) {
    ThreadState& thread = *worker.threads[i];
    thread.record_limit = limit;
    thread.accesses.clear();
    thread.past_request_limit = false;
  }
}

void tally_warp(Worker& worker, unsigned warp_begin, unsigned threads) {
  LaunchStats& stats = worker.stats;
  const unsigned lanes = std::min<unsigned>(transactions::kWarpSize, threads - warp_begin);
  std::size_t longest = 0;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    longest = std::max(longest, worker.threads[warp_begin + lane]->accesses.size());
  }
  for (std::size_t k = 0; k < longest; ++k) {
    // The lanes whose k-th access is still to be put in a request.
    std::uint32_t pending = 0;
    for (unsigned lane = 0; lane < lanes; ++lane) {
      if (worker.threads[warp_begin + lane]->accesses.size() > k) pending |= 1u << lane;
    }
    while (pending != 0) {
      const unsigned leader = static_cast<unsigned>(__builtin_ctz(pending));
      const AccessRecord first = worker.threads[warp_begin + leader]->accesses[k];
      transactions::WarpRequest request{};
      for (unsigned lane = leader; lane < lanes; ++lane) {
        if ((pending & (1u << lane)) == 0) continue;
        const AccessRecord& access = worker.threads[warp_begin + lane]->accesses[k];
        if (access.site() != first.site()) continue;
        request[lane] = {access.address, access.bytes(), true};
        pending &= ~(1u << lane);
      }
      count_request(stats, first, request);
    }
  }
  for (unsigned lane = 0; lane < lanes; ++lane) {
    ThreadState& thread = *worker.threads[warp_begin + lane];
    if (thread.past_request_limit) {
      ++stats.threads_past_request_limit;
      thread.past_request_limit = false;
    }
    thread.accesses.clear();
  }
}

void tally_requests(Worker& worker, unsigned threads) {
  for (unsigned warp_begin = 0; warp_begin < threads; warp_begin += transactions::kWarpSize) {
    tally_warp(worker, warp_begin, threads);
  }
}

}  // namespace wb::sim
