// Hopper's warpgroup MMA in the simulator (wb/wgmma.hpp draws the descriptors, the
// operands' layouts and the accumulators, which are the PTX ISA's).
//
// A wgmma m64nNk16 of a warpgroup is, row for row, four independent products: warp w % 4
// computes rows 16 (w % 4) to 16 (w % 4) + 15 of D from those rows of A and the whole of
// B. So each warp meets alone (a rendezvous of its 32 lanes, as mma.sync), and the
// warpgroup is checked at the block's end: its four warps issued as many wgmmas.
//
// The lanes read the operands themselves, in the kernel's instrumented code (the wrapper
// in wb/wgmma.hpp): lane l of a warp reads chunk l of its 16 rows of A (8 elements along
// M at one k) and chunks l, l + 32, ... of B's N / 8 x 16, each at the address the
// descriptor gives it. The last lane to arrive computes every lane's accumulators; each
// lane keeps them as its pending result and fills its accumulators with the pending
// poison. At the wait the lanes read their chunks again: a chunk that changed since the
// issue was refilled while the tensor cores read it, which fails with the copy that did
// it; then the results land in the accumulators.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "wb/poison.hpp"
#include "wb/wgmma.hpp"
#include "worker.hpp"

namespace wb::sim {
namespace {

constexpr std::size_t kChunkBytes = 16;

// What a lane brings to the meeting: where its chunks and accumulators are, and the
// descriptors, which every lane must give alike.
struct WgmmaOperand {
  const void* chunks;
  const float* accumulators_in;
  float* accumulators_out;
  std::uint64_t desc_a;
  std::uint64_t desc_b;
};
static_assert(sizeof(WgmmaOperand) <= sizeof(WarpRendezvous::operands[0]), "a lane's wgmma operand fits");

using Descriptor = MatrixDescriptorFields;

unsigned swizzle_bytes(Swizzle layout) {
  return layout == Swizzle::bytes128 ? 128 : layout == Swizzle::bytes64 ? 64 : layout == Swizzle::bytes32 ? 32 : 0;
}

std::string layout_name(Swizzle layout) {
  return layout == Swizzle::none ? "no swizzle" : std::to_string(swizzle_bytes(layout)) + "-byte swizzle";
}

// The byte, from the dynamic shared memory's start, of the chunk of 8 elements along M or
// N that starts at (mn, k) of an MN-major operand (mn a multiple of 8).
std::size_t chunk_offset(const Descriptor& d, unsigned mn, unsigned k) {
  const unsigned swizzle = swizzle_bytes(d.layout);
  if (swizzle == 0) {
    return std::size_t{d.start} + mn / 8 * d.stride_byte_offset + k % 8 * kChunkBytes + k / 8 * d.leading_byte_offset;
  }
  const unsigned run = swizzle / 2;  // elements along M or N in a line
  const std::size_t address = std::size_t{d.start} + mn % run * 2 + mn / run * d.leading_byte_offset +
                              k % 8 * swizzle + k / 8 * d.stride_byte_offset;
  const std::size_t mask = swizzle / 16 - 1;
  return address ^ ((address >> 7 & mask) << 4);
}

// Lane `lane` of warp rank `rank` (its warp % 4) reads, as its chunk `i`: A's (16 rank +
// 8 (lane % 2), lane / 2) for i = 0, then B's chunks lane + 32 (i - 1) in k order.
struct ChunkPlace {
  bool of_a;
  unsigned mn;
  unsigned k;
};
ChunkPlace chunk_place(unsigned rank, unsigned lane, int i, int n) {
  if (i == 0) return {true, 16 * rank + 8 * (lane % 2), lane / 2};
  const unsigned index = lane + 32 * static_cast<unsigned>(i - 1), per_k = static_cast<unsigned>(n) / 8;
  return {false, 8 * (index % per_k), index / per_k};
}

int chunks_per_lane(int n) { return 1 + n / 16; }

float bf16_value(std::uint16_t bits) {
  const std::uint32_t widened = static_cast<std::uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &widened, sizeof value);
  return value;
}

std::string hex64(std::uint64_t bits) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(bits));
  return text;
}

}  // namespace

std::uint64_t wgmma_descriptor(const void* start, std::uint32_t leading_byte_offset, std::uint32_t stride_byte_offset,
                               unsigned layout, const char* file, int line) {
  ThreadState& thread = require_thread("matrix_descriptor", file, line);
  note_call_site(thread, file, line);
  const SharedMemory& shared = thread.worker->shared;
  if (!shared.in_dynamic(start, 1)) {
    kernel_fail(file, line,
                "matrix_descriptor: the start " + hex(start) + " is not in the dynamic shared memory" +
                    (shared.in_static(start) ? " (it is a __shared__ array: the simulator models wgmma's operands "
                                               "in the dynamic shared memory, where the TMA's tiles are)"
                                             : ": a wgmma reads its operands from shared memory") +
                    ".",
                ErrorKind::wgmma);
  }
  const auto offset = static_cast<std::size_t>(static_cast<const std::byte*>(start) - shared.dynamic_begin());
  const auto check = [&](std::size_t value, const char* what) {
    if (value % 16 != 0 || value >= (std::size_t{1} << 18)) {
      kernel_fail(file, line,
                  std::string("matrix_descriptor: ") + what + " is " + std::to_string(value) +
                      " bytes; the descriptor keeps it in 14 bits of 16 bytes, so it is a multiple of 16 below "
                      "2^18 (the hardware would drop its low 4 bits, silently)." +
                      (std::string(what) == "the start" ? "" : " Is it counted in elements where bytes are meant?"),
                  ErrorKind::wgmma);
    }
  };
  check(offset, "the start");
  check(leading_byte_offset, "the leading byte offset");
  check(stride_byte_offset, "the stride byte offset");
  if (layout > 3) kernel_fail(file, line, "matrix_descriptor: no layout " + std::to_string(layout), ErrorKind::wgmma);
  return static_cast<std::uint64_t>(offset >> 4) | static_cast<std::uint64_t>(leading_byte_offset >> 4) << 16 |
         static_cast<std::uint64_t>(stride_byte_offset >> 4) << 32 | static_cast<std::uint64_t>(layout) << 62;
}

void wgmma_fence(const char* file, int line) {
  ThreadState& thread = require_thread("wgmma_fence", file, line);
  note_call_site(thread, file, line);
  thread.wgmma_fenced = true;
  ++thread.worker->stats.wgmma_fences;
}

void wgmma_commit(const char* file, int line) {
  ThreadState& thread = require_thread("wgmma_commit_group", file, line);
  note_call_site(thread, file, line);
  for (PendingWgmma& op : thread.wgmmas) {
    if (op.group < 0) op.group = thread.wgmma_groups;
  }
  ++thread.wgmma_groups;
  ++thread.worker->stats.wgmma_commits;
}

int wgmma_chunks(std::uint64_t desc_a, std::uint64_t desc_b, int n, const void** addresses, const char* file,
                 int line) {
  ThreadState& thread = require_thread("wgmma", file, line);
  note_call_site(thread, file, line);
  const SharedMemory& shared = thread.worker->shared;
  const unsigned rank = thread.linear_index / 32 % 4, lane = thread.lane();
  const Descriptor a = decode_matrix_descriptor(desc_a), b = decode_matrix_descriptor(desc_b);
  const int count = chunks_per_lane(n);
  for (int i = 0; i < count; ++i) {
    const ChunkPlace place = chunk_place(rank, lane, i, n);
    const Descriptor& d = place.of_a ? a : b;
    const std::size_t offset = chunk_offset(d, place.mn, place.k);
    if (offset + kChunkBytes > shared.dynamic_bytes) {
      kernel_fail(file, line,
                  std::string("wgmma: the descriptor of ") + (place.of_a ? "A" : "B") + " (" +
                      hex64(place.of_a ? desc_a : desc_b) + ": start " + std::to_string(d.start) +
                      ", leading byte offset " + std::to_string(d.leading_byte_offset) + ", stride byte offset " +
                      std::to_string(d.stride_byte_offset) + ", " + layout_name(d.layout) + ") puts its elements (" +
                      std::to_string(place.mn) + "-" + std::to_string(place.mn + 7) + ", k " +
                      std::to_string(place.k) + ") at bytes [" + std::to_string(offset) + ", " +
                      std::to_string(offset + kChunkBytes) + ") of the dynamic shared memory, past its end (" +
                      std::to_string(shared.dynamic_bytes) +
                      " bytes, as launched). Are the byte offsets counted in elements, or exchanged?",
                  ErrorKind::shared_out_of_bounds);
    }
    addresses[i] = shared.dynamic_begin() + offset;
  }
  return count;
}

void wgmma_issue(float* d, int n, std::uint64_t desc_a, std::uint64_t desc_b, bool accumulate, const void* chunks,
                 const char* file, int line) {
  ThreadState& thread = require_thread("wgmma", file, line);
  note_call_site(thread, file, line);
  if (!thread.wgmma_fenced) {
    kernel_fail(file, line,
                "wgmma with no wgmma_fence() before it in this thread: the warpgroup fences (wgmma.fence) before "
                "its first wgmma, so that the accumulators' earlier writes (their zeros) are ordered before the "
                "tensor cores read them.",
                ErrorKind::wgmma);
  }
  const int values = n / 2;
  std::vector<float> in(static_cast<std::size_t>(values), 0.0f), out(static_cast<std::size_t>(values));
  if (accumulate) {
    // Accumulating into the accumulators of a wgmma still pending: its result, as the
    // hardware chains wgmmas of one shape on the same registers.
    const PendingWgmma* before = nullptr;
    for (const PendingWgmma& op : thread.wgmmas) {
      if (op.d == d) before = &op;
    }
    if (before != nullptr) {
      in = before->result;
    } else {
      std::memcpy(in.data(), d, sizeof(float) * static_cast<std::size_t>(values));
    }
  }
  const WgmmaOperand operand{chunks, in.data(), out.data(), desc_a, desc_b};
  meet_warp(thread, WarpArrival{0xFFFFFFFFu, WarpOp::wgmma, &operand, sizeof operand, n, 32, nullptr, 0, file, line});
  PendingWgmma op;
  op.d = d;
  op.n = n;
  op.result = std::move(out);
  op.chunks = chunks_per_lane(n);
  const void* addresses[kWgmmaMaxChunks];
  (void)wgmma_chunks(desc_a, desc_b, n, addresses, file, line);
  for (int i = 0; i < op.chunks; ++i) {
    op.addresses[i] = addresses[i];
    std::memcpy(op.values[i], static_cast<const std::byte*>(chunks) + kChunkBytes * static_cast<std::size_t>(i),
                kChunkBytes);
  }
  op.file = file;
  op.line = line;
  thread.wgmmas.push_back(std::move(op));
  const float poisoned = poison::as_float(poison::pending);
  for (int i = 0; i < values; ++i) d[i] = poisoned;
}

// Every lane of the warp gave its chunks: A's 16 rows of the warp (16 x 16) and B (16 x
// N) gathered, each lane's accumulators computed in double from its own, rounded once.
void complete_wgmma(WarpRendezvous& meeting, Worker& worker, unsigned warp) {
  const int n = meeting.lane_arguments[0];
  WgmmaOperand first;
  std::memcpy(&first, meeting.operands[0], sizeof first);
  std::vector<float> a(16 * 16), b(static_cast<std::size_t>(16 * n));
  const unsigned rank = warp % 4;
  for (unsigned lane = 0; lane < 32; ++lane) {
    WgmmaOperand operand;
    std::memcpy(&operand, meeting.operands[lane], sizeof operand);
    if (operand.desc_a != first.desc_a || operand.desc_b != first.desc_b) {
      kernel_fail(meeting.file, meeting.line,
                  "wgmma: lane " + std::to_string(lane) + " of warp " + std::to_string(warp) +
                      " gives the descriptors A " + hex64(operand.desc_a) + ", B " + hex64(operand.desc_b) +
                      " where lane 0 gives A " + hex64(first.desc_a) + ", B " + hex64(first.desc_b) +
                      ": every thread of a warpgroup gives the same descriptors (the warpgroup's operands, not "
                      "the thread's).",
                  ErrorKind::wgmma);
    }
    for (int i = 0; i < chunks_per_lane(n); ++i) {
      const ChunkPlace place = chunk_place(rank, lane, i, n);
      std::uint16_t elements[8];
      std::memcpy(elements, static_cast<const std::byte*>(operand.chunks) + kChunkBytes * static_cast<std::size_t>(i),
                  sizeof elements);
      for (unsigned e = 0; e < 8; ++e) {
        if (place.of_a) {
          a[(place.mn - 16 * rank + e) * 16 + place.k] = bf16_value(elements[e]);
        } else {
          b[place.k * static_cast<std::size_t>(n) + place.mn + e] = bf16_value(elements[e]);
        }
      }
    }
  }
  for (unsigned lane = 0; lane < 32; ++lane) {
    WgmmaOperand operand;
    std::memcpy(&operand, meeting.operands[lane], sizeof operand);
    const unsigned g = lane / 4, q = lane % 4;
    for (int j = 0; j < n / 8; ++j) {
      for (unsigned i = 0; i < 4; ++i) {
        const unsigned row = g + 8 * (i / 2), column = 8 * static_cast<unsigned>(j) + 2 * q + i % 2;
        const std::size_t index = 4 * static_cast<std::size_t>(j) + i;
        double sum = operand.accumulators_in[index];
        for (unsigned k = 0; k < 16; ++k) {
          sum += static_cast<double>(a[row * 16 + k]) * static_cast<double>(b[k * static_cast<std::size_t>(n) + column]);
        }
        operand.accumulators_out[index] = static_cast<float>(sum);
      }
    }
  }
  if (worker.stats.wgmma_calls == 0) {
    worker.stats.wgmma_first_desc_a = first.desc_a;
    worker.stats.wgmma_first_desc_b = first.desc_b;
  }
  if (worker.warp_first_desc_b.size() <= warp) worker.warp_first_desc_b.resize(warp + 1);
  if (worker.warp_first_desc_b[warp].size() < 2) {
    worker.warp_first_desc_b[warp].push_back(first.desc_b);
    // The first warp of the first block to issue two: read at once, a failing run included.
    if (worker.running_block == 0 && worker.warp_first_desc_b[warp].size() == 2 &&
        worker.stats.wgmma_first_two_desc_b.empty()) {
      worker.stats.wgmma_first_two_desc_b = worker.warp_first_desc_b[warp];
    }
  }
  if (worker.running_block == 0) {
    std::vector<std::uint64_t>& firsts = worker.stats.wgmma_first_desc_a_of_warpgroup;
    if (firsts.size() <= warp / 4) firsts.resize(warp / 4 + 1, 0);
    if (firsts[warp / 4] == 0) firsts[warp / 4] = first.desc_a;
  }
  ++worker.stats.wgmma_calls;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (worker.threads[32 * warp + lane]->issued_bulk_copy) {
      ++worker.stats.wgmma_by_copying_warps;
      break;
    }
  }
  if (worker.warp_wgmmas.size() <= warp) worker.warp_wgmmas.resize(warp + 1, 0);
  ++worker.warp_wgmmas[warp];
}

namespace {

// Where the refill that changed a wgmma's operand was issued after a wait on a barrier
// that the wgmma's own warp arrived on while the wgmma was in flight: that arrival
// released the stage early. Named with the wait that left the group in flight, if any.
std::string released_in_flight(const Worker& worker, const PendingWgmma& op, const BulkLanding* refill) {
  if (refill == nullptr || refill->issued_after_wait_on == nullptr) return "";
  const auto release = std::find_if(op.releases.begin(), op.releases.end(), [&](const PendingWgmma::Release& r) {
    return r.barrier == refill->issued_after_wait_on;
  });
  if (release == op.releases.end()) return "";
  const std::string released = "the warp released the stage this wgmma reads (its arrival on " +
                               barrier_name(worker, release->barrier) + " at " + project_relative(release->file) +
                               ":" + std::to_string(release->line) + ", which the refill waited for)";
  if (op.left_in_flight_file == nullptr) {
    return "\nLikely cause: " + released + " before any wgmma_wait_group after the wgmma: the wgmma still read " +
           "the stage. Wait for its group first (wgmma_commit_group, then wgmma_wait_group), then release.";
  }
  const int n = op.left_in_flight_pending;
  return "\nLikely cause: " + released + " while its group was still in flight: the wait before that release, " +
         "wgmma_wait_group<" + std::to_string(n) + "> at " + project_relative(op.left_in_flight_file) + ":" +
         std::to_string(op.left_in_flight_line) + ", lets the " + (n == 1 ? "newest committed group" : "newest " +
         std::to_string(n) + " committed groups") + " run on, this wgmma's among them (N is the groups left in " +
         "flight, not the groups waited for). Release only a stage whose group a wait has finished: after " +
         "wgmma_wait_group<0>, this k-tile's; after wgmma_wait_group<1>, the previous k-tile's.";
}

}  // namespace

int wgmma_wait_begin(int pending, const char* file, int line) {
  ThreadState& thread = require_thread("wgmma_wait_group", file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  ++worker.stats.wgmma_waits;
  const long long done_below = thread.wgmma_groups - pending;  // groups below this one complete
  long long oldest_in_flight = thread.wgmma_groups;
  for (const PendingWgmma& op : thread.wgmmas) {
    if (op.group >= 0) oldest_in_flight = std::min(oldest_in_flight, op.group);
  }
  worker.stats.wgmma_groups_at_waits += static_cast<std::uint64_t>(thread.wgmma_groups - oldest_in_flight);
  for (PendingWgmma& op : thread.wgmmas) {
    if (op.group < 0 && op.waited_uncommitted_file == nullptr) {
      op.waited_uncommitted_file = file;
      op.waited_uncommitted_line = line;
    }
    if (op.group >= done_below && op.releases.empty()) {
      op.left_in_flight_file = file;
      op.left_in_flight_line = line;
      op.left_in_flight_pending = pending;
    }
  }
  int completing = 0;
  for (const PendingWgmma& op : thread.wgmmas) {
    if (op.group < 0 || op.group >= done_below) break;
    // What the tensor cores read must not have changed before they were done with it.
    for (int i = 0; i < op.chunks; ++i) {
      if (std::memcmp(op.addresses[i], op.values[i], kChunkBytes) == 0) continue;
      std::string by;
      const BulkLanding* refill = nullptr;
      for (const BlockMbarrier& barrier : worker.mbarriers) {
        for (const BulkLanding& copy : barrier.copies) {
          const std::byte* chunk = static_cast<const std::byte*>(op.addresses[i]);
          if (chunk + kChunkBytes > copy.destination && chunk < copy.destination + copy.data.size()) {
            refill = &copy;
            by = " It is the destination of a copy issued by thread " +
                 format_index(worker.threads[copy.issuer]->index) + " (" + source_line_of(copy.pc) +
                 "), still in flight on the barrier " + barrier_name(worker, barrier.address) + ".";
          }
        }
      }
      kernel_fail(file, line,
                  "the shared memory that a wgmma of this thread read (issued at " + project_relative(op.file) + ":" +
                      std::to_string(op.line) + ") changed before the wait on it: bytes [" +
                      std::to_string(static_cast<const std::byte*>(op.addresses[i]) - worker.shared.dynamic_begin()) +
                      ", +16) of the dynamic shared memory." +
                      by +
                      " The tensor cores read a wgmma's operands until a wgmma_wait_group returns with its group "
                      "done: a stage is released for its refill (its empty barrier's arrival) only after that wait." +
                      (op.waited_uncommitted_file != nullptr
                           ? "\nLikely cause: this wgmma was not yet committed when the thread waited at " +
                                 project_relative(op.waited_uncommitted_file) + ":" +
                                 std::to_string(op.waited_uncommitted_line) +
                                 ": wgmma_wait_group counts committed groups only, so a wait before the commit "
                                 "waits for nothing. Commit the k-tile's wgmmas (wgmma_commit_group), then wait."
                           : released_in_flight(worker, op, refill)),
                  ErrorKind::shared_race);
    }
    ++completing;
  }
  return completing;
}

int wgmma_front_chunks(const void** addresses) {
  ThreadState& thread = *current_thread();
  const PendingWgmma& op = thread.wgmmas.front();
  for (int i = 0; i < op.chunks; ++i) addresses[i] = op.addresses[i];
  return op.chunks;
}

void wgmma_complete_front(const void*, const char* file, int line) {
  ThreadState& thread = require_thread("wgmma_wait_group", file, line);
  PendingWgmma op = std::move(thread.wgmmas.front());
  thread.wgmmas.pop_front();
  // A later wgmma on the same accumulators keeps them pending until its own wait.
  for (const PendingWgmma& later : thread.wgmmas) {
    if (later.d == op.d) return;
  }
  std::memcpy(op.d, op.result.data(), sizeof(float) * op.result.size());
}

void setmaxnreg(int registers, bool increase, const char* file, int line) {
  ThreadState& thread = require_thread(increase ? "setmaxnreg_increase" : "setmaxnreg_decrease", file, line);
  note_call_site(thread, file, line);
  if (registers < 24 || registers > 256 || registers % 8 != 0) {
    kernel_fail(file, line, "setmaxnreg " + std::to_string(registers) + ": 24 to 256 registers, a multiple of 8",
                ErrorKind::wgmma);
  }
  ++(increase ? thread.worker->stats.setmaxnreg_increases : thread.worker->stats.setmaxnreg_decreases);
}

void finish_block_wgmmas(Worker& worker, unsigned threads) {
  std::uint64_t never_waited = 0;
  for (unsigned i = 0; i < threads; ++i) never_waited += worker.threads[i]->wgmmas.size();
  if (never_waited > 0) {
    worker.stats.wgmma_never_waited += never_waited;
    worker.stats.warnings["wgmmas never waited for (no wgmma_wait_group after their commit before the thread "
                          "ended: their accumulators never held their results)"] += never_waited;
  }
  const std::vector<std::uint64_t>& counts = worker.warp_wgmmas;
  for (std::size_t group = 0; group * 4 < counts.size() && worker.stats.wgmma_partial_warpgroup.empty(); ++group) {
    std::uint64_t most = 0;
    for (std::size_t w = 4 * group; w < 4 * group + 4; ++w) most = std::max(most, w < counts.size() ? counts[w] : 0);
    std::string text;
    for (std::size_t w = 4 * group; w < 4 * group + 4; ++w) {
      const std::uint64_t issued = w < counts.size() ? counts[w] : 0;
      if (issued != most) {
        text += (text.empty() ? "" : ", ") + std::string("warp ") + std::to_string(w) + " " + std::to_string(issued);
      }
    }
    if (!text.empty()) {
      worker.stats.wgmma_partial_warpgroup =
          "warpgroup " + std::to_string(group) + " (warps " + std::to_string(4 * group) + "-" +
          std::to_string(4 * group + 3) + ") did not issue its wgmmas together: " + std::to_string(most) +
          " wgmmas by some of its warps, " + text +
          ". A warpgroup is 4 consecutive warps whose first index is a multiple of 4, and all 128 of its threads "
          "execute every wgmma of the group.";
    }
  }
  worker.warp_wgmmas.clear();
  worker.warp_first_desc_b.clear();
}

}  // namespace wb::sim
