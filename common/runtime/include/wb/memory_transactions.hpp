/// \file
/// How a GPU serves one warp-wide memory request: shared-memory wavefronts (bank
/// conflicts) and global-memory 32-byte sectors (coalescing).
///
/// One place for the rules, used by the simulator, which counts them for every warp
/// request of a kernel, and by the book's figures and the graders' messages, which
/// draw the bank map of a shared layout under a thread layout.
///
/// Shared memory has 32 banks of 4 bytes: word w (byte address / 4) lives in bank
/// w % 32. A request is served in phases: all 32 lanes at once for accesses of 4 bytes
/// or less, half-warps (lanes 0-15, 16-31) for 8-byte accesses, quarter-warps for
/// 16-byte ones. In a phase, each bank delivers one word per wavefront; lanes that read
/// the same word share it (a broadcast costs nothing), lanes that touch different words
/// of one bank take a wavefront each. So a phase costs the largest number of distinct
/// words any bank holds, and a request the sum over its phases with an active lane:
///
///     4-byte, 32 lanes on consecutive words          1 wavefront
///     4-byte, lanes 128 words apart (a 128-row tile)  32 (a 32-way conflict)
///     8-byte, consecutive                             2 (one a half-warp: no conflict)
///     16-byte, consecutive                            4 (one a quarter-warp)
///
/// Global memory moves 32-byte sectors: a request costs the number of distinct sectors
/// its active lanes touch. 32 lanes reading consecutive floats from an aligned address
/// touch 4 sectors (128 bytes); lanes 512 bytes apart touch 32.
///
/// Host-only C++, no CUDA needed.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

/// The rules of a warp's memory request: wavefronts and sectors (memory_transactions.hpp).
namespace wb::transactions {

inline constexpr int kWarpSize = 32;      ///< lanes in a warp
inline constexpr int kBanks = 32;         ///< shared-memory banks
inline constexpr int kBankBytes = 4;      ///< the width of a bank
inline constexpr int kSectorBytes = 32;   ///< the unit global memory moves

/// One lane's part of a warp request: where, how wide, and whether the lane takes part.
struct LaneAccess {
  std::uintptr_t address = 0;  ///< the byte address
  unsigned bytes = 0;          ///< how many bytes it accesses
  bool active = false;         ///< whether the lane takes part in the request
};
/// A warp's request: one access per lane.
using WarpRequest = std::array<LaneAccess, kWarpSize>;

/// Lanes per phase of a shared-memory request whose lanes access `bytes` each.
constexpr int lanes_per_phase(unsigned bytes) {
  return bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8;
}

/// The bank of a byte address.
constexpr int bank_of(std::uintptr_t address) {
  return static_cast<int>(address / kBankBytes % kBanks);
}

namespace detail {

// The words [first, last] that `access` touches.
inline void words_of(const LaneAccess& access, std::uintptr_t& first, std::uintptr_t& last) {
  first = access.address / kBankBytes;
  last = (access.address + std::max(access.bytes, 1u) - 1) / kBankBytes;
}

// Wavefronts of the phase of lanes [begin, end): the most distinct words in one bank.
inline int phase_wavefronts(const WarpRequest& request, int begin, int end) {
  // The common cases first: each bank holds at most one distinct word (no conflict,
  // or a broadcast), one pass.
  std::array<std::uintptr_t, kBanks> bank_word;
  std::uint32_t used = 0;
  bool any = false, conflict = false;
  for (int lane = begin; lane < end && !conflict; ++lane) {
    const LaneAccess& access = request[lane];
    if (!access.active) continue;
    any = true;
    std::uintptr_t first, last;
    words_of(access, first, last);
    for (std::uintptr_t word = first; word <= last; ++word) {
      const int bank = static_cast<int>(word % kBanks);
      if ((used >> bank & 1u) == 0) {
        used |= 1u << bank;
        bank_word[bank] = word;
      } else if (bank_word[bank] != word) {
        conflict = true;
        break;
      }
    }
  }
  if (!any) return 0;
  if (!conflict) return 1;
  // A conflict: count the distinct words of every bank (at most 8 lanes x 4 words or
  // 32 lanes x 1 word a phase, so 32 slots a bank suffice).
  std::array<std::array<std::uintptr_t, kWarpSize>, kBanks> words;
  std::array<int, kBanks> distinct{};
  for (int lane = begin; lane < end; ++lane) {
    const LaneAccess& access = request[lane];
    if (!access.active) continue;
    std::uintptr_t first, last;
    words_of(access, first, last);
    for (std::uintptr_t word = first; word <= last; ++word) {
      const int bank = static_cast<int>(word % kBanks);
      auto& seen = words[bank];
      const auto seen_end = seen.begin() + distinct[bank];
      if (std::find(seen.begin(), seen_end, word) == seen_end && distinct[bank] < kWarpSize) {
        seen[distinct[bank]++] = word;
      }
    }
  }
  return *std::max_element(distinct.begin(), distinct.end());
}

}  // namespace detail

/// The width of a request: that of its widest active lane (0 if none is active).
inline unsigned request_width(const WarpRequest& request) {
  unsigned width = 0;
  for (const LaneAccess& lane : request) {
    if (lane.active) width = std::max(width, lane.bytes);
  }
  return width;
}

/// How many lanes take part in the request.
inline int active_lanes(const WarpRequest& request) {
  int active = 0;
  for (const LaneAccess& lane : request) active += lane.active ? 1 : 0;
  return active;
}

/// Wavefronts of one shared-memory request (0 if no lane is active).
inline int shared_wavefronts(const WarpRequest& request) {
  const unsigned width = request_width(request);
  if (width == 0) return 0;
  const int phase_lanes = lanes_per_phase(width);
  int wavefronts = 0;
  for (int first = 0; first < kWarpSize; first += phase_lanes) {
    wavefronts += detail::phase_wavefronts(request, first, first + phase_lanes);
  }
  return wavefronts;
}

/// The fewest wavefronts a full-warp request of this width can take: 1 for 4 bytes or
/// less, 2 for 8, 4 for 16 (one per phase).
constexpr int ideal_wavefronts(unsigned bytes) { return kWarpSize / lanes_per_phase(bytes); }

/// The fewest wavefronts this request can take: one for each phase with an active lane.
inline int ideal_wavefronts(const WarpRequest& request) {
  const unsigned width = request_width(request);
  if (width == 0) return 0;
  const int phase_lanes = lanes_per_phase(width);
  int phases = 0;
  for (int first = 0; first < kWarpSize; first += phase_lanes) {
    for (int lane = first; lane < first + phase_lanes; ++lane) {
      if (request[lane].active) {
        ++phases;
        break;
      }
    }
  }
  return phases;
}

/// 32-byte sectors of one global-memory request (0 if no lane is active).
inline int global_sectors(const WarpRequest& request) {
  // At most 32 lanes x 2 sectors (an access of up to 16 bytes spans at most 2).
  std::array<std::uintptr_t, 2 * kWarpSize> sectors;
  int count = 0;
  for (const LaneAccess& lane : request) {
    if (!lane.active) continue;
    const std::uintptr_t first = lane.address / kSectorBytes;
    const std::uintptr_t last = (lane.address + std::max(lane.bytes, 1u) - 1) / kSectorBytes;
    for (std::uintptr_t sector = first; sector <= last; ++sector) {
      if (std::find(sectors.begin(), sectors.begin() + count, sector) ==
              sectors.begin() + count &&
          count < static_cast<int>(sectors.size())) {
        sectors[count++] = sector;
      }
    }
  }
  return count;
}

/// The fewest sectors a request of `active_lanes` lanes of `bytes` each can touch.
constexpr int ideal_sectors(int active_lanes, unsigned bytes) {
  return static_cast<int>((active_lanes * bytes + kSectorBytes - 1) / kSectorBytes);
}

}  // namespace wb::transactions
