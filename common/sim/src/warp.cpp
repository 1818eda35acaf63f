// Warp rendezvous: __syncwarp, shuffles and votes (see wb/sim/cuda_warp.hpp), and the
// meeting through which the tensor cores' ldmatrix and mma.sync (tensor_core.cpp) gather
// the lanes of their warp.
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
    case WarpOp::ldmatrix: return "ldmatrix";
    case WarpOp::ldmatrix_trans: return "ldmatrix.trans";
    case WarpOp::mma_m16n8k16_bf16: return "mma.sync.m16n8k16 (bf16)";
    case WarpOp::wgmma: return "wgmma.mma_async";
  }
  return "?";
}

// The tensor cores' .sync.aligned instructions: no mask, every lane of the warp.
bool is_aligned(WarpOp op) {
  return op == WarpOp::ldmatrix || op == WarpOp::ldmatrix_trans || op == WarpOp::mma_m16n8k16_bf16 ||
         op == WarpOp::wgmma;
}

std::string hex_mask(std::uint32_t mask) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", mask);
  return text;
}

// A call as the messages name it: "__shfl_sync with mask 0xffffffff", or for the aligned
// instructions, which take no mask, "ldmatrix.x4", "ldmatrix.x2.trans" (`lane_argument`:
// its matrices) or "mma.sync.m16n8k16 (bf16)".
std::string call_text(WarpOp op, std::uint32_t mask, int lane_argument) {
  if (op == WarpOp::ldmatrix || op == WarpOp::ldmatrix_trans) {
    return "ldmatrix.x" + std::to_string(lane_argument) + (op == WarpOp::ldmatrix_trans ? ".trans" : "");
  }
  if (is_aligned(op)) return name(op);
  return std::string(name(op)) + " with mask " + hex_mask(mask);
}

// The same for a meeting in progress (an ldmatrix's matrices as its first lane gave them).
std::string call_text(const WarpRendezvous& meeting) {
  const int first = meeting.arrived == 0 ? 0 : __builtin_ctz(meeting.arrived);
  return call_text(meeting.op, meeting.mask, meeting.lane_arguments[first]);
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

void meet_warp(ThreadState& thread, const WarpArrival& arrival) {
  const std::uint32_t mask = arrival.mask;
  const WarpOp op = arrival.op;
  const char* file = arrival.file;
  const int line = arrival.line;
  Worker& worker = *thread.worker;
  const unsigned lane = thread.lane(), warp = thread.warp();
  const bool aligned = is_aligned(op);
  const std::string what = call_text(op, mask, arrival.lane_argument) + ": ";
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
                    ": the block has " + std::to_string(block_threads(worker)) + " threads. " +
                    (aligned ? "The instruction (.sync.aligned) needs all 32 lanes of the warp: give the "
                               "block a multiple of 32 threads."
                             : "The mask may name only lanes that exist."),
                ErrorKind::warp_sync);
  }
  if (arrival.width < 1 || arrival.width > 32 || (arrival.width & (arrival.width - 1)) != 0) {
    kernel_fail(file, line, what + "width " + std::to_string(arrival.width) +
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
                      " arrives while " + lane_list(other.arrived) + " wait at " + call_text(other) +
                      " (" + project_relative(other.file) + ":" + std::to_string(other.line) + "). " +
                      (aligned || is_aligned(other.op)
                           ? "Every lane of the warp must execute the same .sync.aligned instruction: is "
                             "it inside a branch that not all lanes take?"
                           : "The lanes of a mask must all make the same call with the same mask."),
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
  } else if (aligned && (meeting.line != line || std::strcmp(meeting.file, file) != 0 ||
                         meeting.lane_arguments[__builtin_ctz(meeting.arrived)] != arrival.lane_argument)) {
    // .aligned: one instruction for the whole warp, not the same kind at two places.
    kernel_fail(file, line,
                what + "lane " + std::to_string(lane) + " of warp " + std::to_string(warp) + " arrives here while " +
                    lane_list(meeting.arrived) + " wait at " + call_text(meeting) + " at " +
                    project_relative(meeting.file) + ":" + std::to_string(meeting.line) +
                    ". Every lane of the warp must execute the same instruction (.sync.aligned): is it "
                    "inside a branch that not all lanes take?",
                ErrorKind::warp_sync);
  }
  std::memset(meeting.operands[lane], 0, sizeof meeting.operands[lane]);
  if (arrival.operand_bytes > 0) std::memcpy(meeting.operands[lane], arrival.operand, arrival.operand_bytes);
  meeting.lane_arguments[lane] = arrival.lane_argument;
  meeting.widths[lane] = arrival.width;
  meeting.arrived |= 1u << lane;
  if ((meeting.arrived & mask) == mask) {
    switch (op) {
      case WarpOp::ldmatrix:
      case WarpOp::ldmatrix_trans:
        complete_ldmatrix(meeting, worker, warp);
        break;
      case WarpOp::mma_m16n8k16_bf16:
        complete_mma(meeting, worker);
        break;
      case WarpOp::wgmma:
        complete_wgmma(meeting, worker, warp);
        break;
      default:
        complete(meeting, warp, file, line);
        ++worker.stats.warp_syncs;
        if (op == WarpOp::sync) {
          ++worker.shared.warp_syncs[warp];
          release_on_syncwarp(worker, warp, mask);
        }
    }
    for (unsigned other = 0; other < 32; ++other) {
      if ((mask >> other & 1u) == 0 || other == lane) continue;
      worker.threads[32 * warp + other]->status = ThreadStatus::ready;
    }
    meeting.arrived = 0;
  } else {
    wait_at_warp_rendezvous(thread);
  }
  if (arrival.result == nullptr) return;
  // Found again by index: other meetings of the warp may have grown the list meanwhile.
  const WarpRendezvous& done = worker.shared.rendezvous[warp][index];
  if (op == WarpOp::ballot || op == WarpOp::any || op == WarpOp::all) {
    const auto vote = static_cast<unsigned>(done.results[lane][0]);
    std::memcpy(arrival.result, &vote, sizeof vote);
  } else {
    std::memcpy(arrival.result, done.results[lane], arrival.result_bytes);
  }
}

void warp_rendezvous(unsigned mask, WarpOp op, const void* operand, std::size_t bytes,
                     int lane_argument, int width, void* result, const char* file, int line) {
  ThreadState& thread = require_thread(name(op), file, line);
  note_call_site(thread, file, line);
  const bool vote = op == WarpOp::ballot || op == WarpOp::any || op == WarpOp::all;
  meet_warp(thread, WarpArrival{mask, op, operand, bytes, lane_argument, width, result,
                                vote ? sizeof(unsigned) : bytes, file, line});
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
           call_text(meeting) + " (" + meeting.file + ":" + std::to_string(meeting.line) + ") for ";
    if (returned != 0) out += lane_list(returned) + ", which returned from the kernel";
    if (returned != 0 && at_barrier != 0) out += ", and ";
    if (at_barrier != 0) {
      out += lane_list(at_barrier) + ", which wait at the __syncthreads() at " +
             project_relative(barrier_file) + ":" + std::to_string(barrier_line);
    }
    out += is_aligned(meeting.op)
               ? ". Every lane of the warp must execute the same instruction (.sync.aligned); on a GPU "
                 "this is undefined. "
               : ". Every lane named in the mask must make the same call; on a GPU this hangs or is "
                 "undefined. ";
   }
  }
  return out;
}

}  // namespace wb::sim
