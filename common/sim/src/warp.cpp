// Warp rendezvous: __syncwarp, shuffles and votes (see wb/sim/cuda_warp.hpp).
#include <cstdio>
#include <cstring>
#include <vector>

#include "worker.hpp"

namespace wb::sim {
namespace {

const char* name(WarpOp op) {
  switch (op) {
    case WarpOp::sync: return "__syncwarp";
    case WarpOp::shuffle_index: return "__shfl_sync";
    case WarpOp::shuffle_up: return "__shfl_up_sync";
    case WarpOp::shuffle_down: return "__shfl_down_sync";
    case WarpOp::shuffle_xor: return "__shfl_xor_sync";
    case WarpOp::ballot: return "__ballot_sync";
    case WarpOp::any: return "__any_sync";
    case WarpOp::all: return "__all_sync";
  }
  return "?";
}

std::string hex_mask(std::uint32_t mask) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", mask);
  return text;
}

// "lanes 0-15, 20" of a mask.
std::string lane_list(std::uint32_t mask) {
  std::vector<unsigned> lanes;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if ((mask >> lane & 1u) != 0) lanes.push_back(lane);
  }
  return (lanes.size() == 1 ? "lane " : "lanes ") + index_runs(lanes);
}

// The lanes of warp `warp` that exist in a block of `threads` threads.
std::uint32_t existing_lanes(unsigned warp, unsigned threads) {
  const unsigned count = std::min(32u, threads - 32 * warp);
  return count == 32 ? 0xFFFFFFFFu : (1u << count) - 1;
}

unsigned block_threads(const Worker& worker) {
  const dim3 block = worker.job->config.block;
  return block.x * block.y * block.z;
}

// The source lane of a shuffle for lane `lane`, or the lane itself where CUDA returns the
// lane's own value (a source outside its segment of `width` lanes).
int source_lane(WarpOp op, int lane, int argument, int width) {
  const int segment = lane / width * width;
  switch (op) {
    case WarpOp::shuffle_index:
      return segment + ((argument % width) + width) % width;
    case WarpOp::shuffle_up:
      return lane - segment >= argument ? lane - argument : lane;
    case WarpOp::shuffle_down:
      return lane - segment + argument < width ? lane + argument : lane;
    case WarpOp::shuffle_xor: {
      const int source = lane ^ argument;
      return source / width > lane / width || source > 31 ? lane : source;
    }
    default:
      return lane;
  }
}

// Every lane of the mask has arrived: each lane's result.
void complete(WarpRendezvous& meeting, unsigned warp, const char* file, int line) {
  std::uint32_t ballot = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if ((meeting.mask >> lane & 1u) != 0 && meeting.operands[lane][0] != 0) ballot |= 1u << lane;
  }
  for (int lane = 0; lane < 32; ++lane) {
    if ((meeting.mask >> lane & 1u) == 0) continue;
    switch (meeting.op) {
      case WarpOp::sync:
        break;
      case WarpOp::ballot:
        meeting.results[lane][0] = ballot;
        break;
      case WarpOp::any:
        meeting.results[lane][0] = ballot != 0;
        break;
      case WarpOp::all:
        meeting.results[lane][0] = ballot == meeting.mask;
        break;
      default: {
        const int source =
            source_lane(meeting.op, lane, meeting.lane_arguments[lane], meeting.widths[lane]);
        if ((meeting.mask >> source & 1u) == 0) {
          kernel_fail(file, line,
                      std::string(name(meeting.op)) + ": lane " + std::to_string(lane) +
                          " of warp " + std::to_string(warp) + " reads lane " +
                          std::to_string(source) + ", which is not in the mask " +
                          hex_mask(meeting.mask) +
                          ": a GPU returns an undefined value. Name every lane that is read "
                          "in the mask (all 32: 0xffffffff).",
                      ErrorKind::warp_sync);
        }
        std::memcpy(meeting.results[lane], meeting.operands[source], sizeof meeting.results[lane]);
      }
    }
  }
}

}  // namespace

void warp_rendezvous(unsigned mask, WarpOp op, const void* operand, std::size_t bytes,
                     int lane_argument, int width, void* result, const char* file, int line) {
  ThreadState& thread = require_thread(name(op), file, line);
  note_call_site(thread, file, line);
  Worker& worker = *thread.worker;
  const unsigned lane = thread.lane(), warp = thread.warp();
  const std::string what = std::string(name(op)) + " with mask " + hex_mask(mask) + ": ";
  if ((mask >> lane & 1u) == 0) {
    kernel_fail(file, line,
                what + "the mask does not name the calling lane " + std::to_string(lane) +
                    " (threadIdx.x % 32): a lane must be in the mask of the call it makes.",
                ErrorKind::warp_sync);
  }
  if (const std::uint32_t missing = mask & ~existing_lanes(warp, block_threads(worker));
      missing != 0) {
    kernel_fail(file, line,
                what + "warp " + std::to_string(warp) + " has no " + lane_list(missing) +
                    ": the block has " + std::to_string(block_threads(worker)) +
                    " threads. The mask may name only lanes that exist.",
                ErrorKind::warp_sync);
  }
  if (width < 1 || width > 32 || (width & (width - 1)) != 0) {
    kernel_fail(file, line, what + "width " + std::to_string(width) +
                                " is not a power of 2 from 1 to 32", ErrorKind::warp_sync);
  }
  // The meeting of this mask in progress, or a free one; a meeting in progress whose
  // mask overlaps this one without being it is an error.
  std::vector<WarpRendezvous>& meetings = worker.shared.rendezvous[warp];
  std::size_t index = meetings.size();
  for (std::size_t i = 0; i < meetings.size(); ++i) {
    const WarpRendezvous& other = meetings[i];
    if (other.arrived == 0) {
      if (index == meetings.size()) index = i;
      continue;
    }
    if (other.mask == mask && other.op == op) {
      index = i;
      break;
    }
    if ((other.mask & mask) != 0) {
      kernel_fail(file, line,
                  what + "lane " + std::to_string(lane) + " of warp " + std::to_string(warp) +
                      " arrives while " + lane_list(other.arrived) + " wait at " +
                      name(other.op) + " with mask " + hex_mask(other.mask) + " (" + other.file +
                      ":" + std::to_string(other.line) +
                      "). The lanes of a mask must all make the same call with the same mask.",
                  ErrorKind::warp_sync);
    }
  }
  if (index == meetings.size()) meetings.emplace_back();
  WarpRendezvous& meeting = meetings[index];
  if (meeting.arrived == 0) {
    meeting.mask = mask;
    meeting.op = op;
    meeting.file = file;
    meeting.line = line;
  }
  std::memset(meeting.operands[lane], 0, sizeof meeting.operands[lane]);
  if (bytes > 0) std::memcpy(meeting.operands[lane], operand, bytes);
  meeting.lane_arguments[lane] = lane_argument;
  meeting.widths[lane] = width;
  meeting.arrived |= 1u << lane;
  if ((meeting.arrived & mask) == mask) {
    complete(meeting, warp, file, line);
    for (unsigned other = 0; other < 32; ++other) {
      if ((mask >> other & 1u) == 0 || other == lane) continue;
      worker.threads[32 * warp + other]->status = ThreadStatus::ready;
    }
    meeting.arrived = 0;
    ++worker.stats.warp_syncs;
    if (op == WarpOp::sync) ++worker.shared.warp_syncs[warp];
  } else {
    wait_at_warp_rendezvous(thread);
  }
  if (result == nullptr) return;
  // Found again by index: other meetings of the warp may have grown the list meanwhile.
  const WarpRendezvous& done = worker.shared.rendezvous[warp][index];
  if (op == WarpOp::ballot || op == WarpOp::any || op == WarpOp::all) {
    const auto vote = static_cast<unsigned>(done.results[lane][0]);
    std::memcpy(result, &vote, sizeof vote);
  } else {
    std::memcpy(result, done.results[lane], bytes);
  }
}

unsigned active_lanes() {
  ThreadState& thread = require_thread("__activemask", "", 0);
  return existing_lanes(thread.warp(), block_threads(*thread.worker));
}

std::string describe_stuck_warps(const Worker& worker, unsigned threads) {
  std::string out;
  for (unsigned warp = 0; warp < worker.shared.rendezvous.size(); ++warp) {
   for (const WarpRendezvous& meeting : worker.shared.rendezvous[warp]) {
    if (meeting.arrived == 0) continue;
    const std::uint32_t missing = meeting.mask & ~meeting.arrived;
    std::uint32_t returned = 0, at_barrier = 0;
    const char* barrier_file = nullptr;
    int barrier_line = 0;
    for (unsigned lane = 0; lane < 32 && 32 * warp + lane < threads; ++lane) {
      if ((missing >> lane & 1u) == 0) continue;
      const ThreadState& thread = *worker.threads[32 * warp + lane];
      if (thread.status == ThreadStatus::at_barrier) {
        at_barrier |= 1u << lane;
        barrier_file = thread.barrier_file;
        barrier_line = thread.barrier_line;
      } else {
        returned |= 1u << lane;
      }
    }
    out += lane_list(meeting.arrived) + " of warp " + std::to_string(warp) + " wait at " +
           name(meeting.op) + " with mask " + hex_mask(meeting.mask) + " (" + meeting.file +
           ":" + std::to_string(meeting.line) + ") for ";
    if (returned != 0) out += lane_list(returned) + ", which returned from the kernel";
    if (returned != 0 && at_barrier != 0) out += ", and ";
    if (at_barrier != 0) {
      out += lane_list(at_barrier) + ", which wait at the __syncthreads() at " +
             project_relative(barrier_file) + ":" + std::to_string(barrier_line);
    }
    out += ". Every lane named in the mask must make the same call; on a GPU this hangs or is "
           "undefined. ";
   }
  }
  return out;
}

}  // namespace wb::sim
