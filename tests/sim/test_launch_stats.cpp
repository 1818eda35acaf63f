// LaunchStats::operator+= sums the counters of the blocks each worker ran, one line a
// field. A field added to LaunchStats and forgotten there would read 0 in every grader's
// technique check: this test marks every field of one LaunchStats, adds it to an empty
// one and checks that each mark arrived.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "wb/wb.cuh"

namespace {

using wb::sim::LaunchStats;

// Every field, in declaration order. The binding must name each one: a field added to
// LaunchStats stops this from compiling until it is named here, and checked below.
auto fields_of(LaunchStats& stats) {
  auto& [f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61, f62, f63, f64, f65, f66, f67, f68, f69, f70, f71, f72, f73, f74, f75, f76, f77, f78, f79, f80] = stats;
  return std::tie(f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41, f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61, f62, f63, f64, f65, f66, f67, f68, f69, f70, f71, f72, f73, f74, f75, f76, f77, f78, f79, f80);
}

// One mark a field: 1 in a counter, one entry in a map or a vector, a value in an optional,
// a word in a string.
void mark(std::uint64_t& counter) { counter = 1; }
template <std::size_t N>
void mark(wb::sim::RequestCounts (&counts)[N]) {
  for (wb::sim::RequestCounts& kind : counts) kind.requests = 1;
}
template <typename Key, typename Value>
void mark(std::map<Key, Value>& map) { map[Key{}] = Value{}; }
template <typename Value>
void mark(std::optional<Value>& value) { value.emplace(); }
template <typename Value>
void mark(std::vector<Value>& values) { values.emplace_back(); }
void mark(std::string& text) { text = "marked"; }

bool carried(const std::uint64_t& counter) { return counter == 1; }
template <std::size_t N>
bool carried(const wb::sim::RequestCounts (&counts)[N]) {
  for (const wb::sim::RequestCounts& kind : counts) {
    if (kind.requests != 1) return false;
  }
  return true;
}
template <typename Key, typename Value>
bool carried(const std::map<Key, Value>& map) { return map.size() == 1; }
template <typename Value>
bool carried(const std::optional<Value>& value) { return value.has_value(); }
template <typename Value>
bool carried(const std::vector<Value>& values) { return values.size() == 1; }
bool carried(const std::string& text) { return text == "marked"; }

template <typename Tuple, std::size_t... I>
void mark_all(Tuple fields, std::index_sequence<I...>) {
  (mark(std::get<I>(fields)), ...);
}

template <typename Tuple, std::size_t... I>
std::vector<std::size_t> missing(Tuple fields, std::index_sequence<I...>) {
  std::vector<std::size_t> lost;
  ((carried(std::get<I>(fields)) ? void() : lost.push_back(I + 1)), ...);
  return lost;
}

TEST(LaunchStatsSum, AddsEveryField) {
  constexpr std::size_t kFields = std::tuple_size_v<decltype(fields_of(std::declval<LaunchStats&>()))>;
  LaunchStats one_block;
  mark_all(fields_of(one_block), std::make_index_sequence<kFields>{});
  LaunchStats sum;
  sum += one_block;
  const std::vector<std::size_t> lost = missing(fields_of(sum), std::make_index_sequence<kFields>{});
  std::string numbers;
  for (std::size_t field : lost) numbers += " " + std::to_string(field);
  EXPECT_TRUE(lost.empty()) << "LaunchStats::operator+= (common/sim/src/launch_stats.cpp) does not "
                               "carry these fields, counted from 1 in declaration order:"
                            << numbers;
}

}  // namespace
