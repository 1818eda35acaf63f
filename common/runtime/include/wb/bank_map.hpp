/// \file
/// The bank map of a warp's shared-memory request: which bank each lane's element falls
/// in under a shared layout, and what the request costs, for the graders' messages
/// (as text) and the book's figures (book/figures/tile_drawing.cpp draws the same map).
///
///     const auto map = wb::bank_map::of(smem_layout, thread_layout, 0);  // warp 0, 4-byte
///     std::string text = wb::bank_map::text(map);
///
/// The hardware rule itself, how many wavefronts a request takes, lives in ONE place,
/// memory_transactions.hpp, which the simulator uses too; this header only arranges
/// a layout's offsets into the request that rule reads.
///
/// Host-only C++, no CUDA needed.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "wb/layout.hpp"
#include "wb/memory_transactions.hpp"

/// The bank map of a warp's shared-memory request under a layout (bank_map.hpp).
namespace wb::bank_map {

using transactions::kBanks;
using transactions::kWarpSize;

/// One request of a warp of 4-byte elements (floats): the element each lane reads.
struct BankMap {
  std::array<Coord, kWarpSize> element{};  ///< (row, col) in the layout read
  std::array<int, kWarpSize> offset{};     ///< its offset in the shared array, in elements
  std::array<int, kWarpSize> bank{};       ///< the bank of that offset
  int wavefronts = 0;                      ///< by wb::transactions::shared_wavefronts
  int ideal = 1;                           ///< the fewest wavefronts such a request takes
  /// The distinct words of each bank, for drawing: a bank with n of them costs n.
  std::array<std::vector<int>, kBanks> words;
  /// The lanes whose element lies in each bank.
  std::array<std::vector<int>, kBanks> lanes;
};

/// The request of warp `warp` (threads 32 warp to 32 warp + 31) when thread t reads the
/// element smem_layout(thread_layout.coord(t)). `smem_layout` may be a transposed view
/// (layout.transpose()): the coordinate is then in that view.
template <class SmemLayout, class ThreadLayout>
BankMap of(const SmemLayout& smem_layout, const ThreadLayout& thread_layout, int warp) {
  BankMap map;
  transactions::WarpRequest request{};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const Coord element = thread_layout.coord(warp * kWarpSize + lane);
    const int offset = smem_layout(element.row, element.col);
    map.element[lane] = element;
    map.offset[lane] = offset;
    const std::uintptr_t address = static_cast<std::uintptr_t>(offset) * 4;
    map.bank[lane] = transactions::bank_of(address);
    request[lane] = {address, 4, true};
    auto& words = map.words[map.bank[lane]];
    if (std::find(words.begin(), words.end(), offset) == words.end()) words.push_back(offset);
    map.lanes[map.bank[lane]].push_back(lane);
  }
  map.wavefronts = transactions::shared_wavefronts(request);
  map.ideal = transactions::ideal_wavefronts(4);
  return map;
}

/// "a 32-way bank conflict" / "conflict-free"
inline std::string verdict(const BankMap& map) {
  if (map.wavefronts <= map.ideal) return "conflict-free";
  return "a " + std::to_string(map.wavefronts) + "-way bank conflict";
}

/// The map as a few lines of text: the distinct words per bank, then the worst bank's
/// lanes and elements.
///
///     bank   0  1  2  3 ... 31
///     words 32  .  .  . ...  .
///     32 wavefronts for 1 request: a 32-way bank conflict
///     bank 0 serves lanes 0-31: (0,0) at offset 0, (0,1) at 128, (0,2) at 256, ...
inline std::string text(const BankMap& map) {
  std::string banks = "  bank ", words = "  words";
  for (int bank = 0; bank < kBanks; ++bank) {
    const std::string number = std::to_string(bank);
    banks += std::string(3 - number.size(), ' ') + number;
    const std::size_t count = map.words[bank].size();
    const std::string cell = count == 0 ? "." : std::to_string(count);
    words += std::string(3 - cell.size(), ' ') + cell;
  }
  std::string out = banks + "\n" + words + "\n  " + std::to_string(map.wavefronts) +
                    " wavefront" + (map.wavefronts == 1 ? "" : "s") + " for 1 request: " +
                    verdict(map) + "\n";
  int worst = 0;
  for (int bank = 1; bank < kBanks; ++bank) {
    if (map.words[bank].size() > map.words[worst].size()) worst = bank;
  }
  out += "  bank " + std::to_string(worst) + " serves lanes";
  const auto& lanes = map.lanes[worst];
  for (std::size_t k = 0; k < lanes.size() && k < 6; ++k) {
    const int lane = lanes[k];
    out += std::string(k == 0 ? " " : ", ") + std::to_string(lane) + " (" +
           std::to_string(map.element[lane].row) + "," + std::to_string(map.element[lane].col) +
           ") at offset " + std::to_string(map.offset[lane]);
  }
  if (lanes.size() > 6) out += ", ... (" + std::to_string(lanes.size()) + " lanes)";
  return out + "\n";
}

}  // namespace wb::bank_map
