// An output buffer with guard bands: `guard` poisoned elements before and after the
// `size` elements the kernel may write, so that a store out of bounds is caught and
// located instead of corrupting something silently. For any element type with poison
// patterns (float, double, __half, __nv_bfloat16, the integers: see wb/poison.hpp).
//
//   wb::grading::GuardedBuffer<float> out(n);
//   kernel(..., out.data(), ...);            // data() points at the first real element
//   EXPECT_TRUE(out.guards_intact());         // says which elements outside were written
//   std::vector<float> result = out.download();
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "wb/buffer.hpp"
#include "wb/poison.hpp"

namespace wb::grading {

template <class T>
class GuardedBuffer {
  static_assert(poison::has_traits<T>, "guard bands need the element type's poison patterns");

 public:
  explicit GuardedBuffer(std::size_t size, std::size_t guard = 4096)
      : storage_(size + 2 * guard), size_(size), guard_(guard) {
    storage_.poison(poison::Kind::guard);
    poison();
  }

  T* data() { return storage_.data() + guard_; }
  std::size_t size() const { return size_; }

  // Refills the inside with the `unwritten` poison (the guards keep theirs).
  void poison() { fill_with_poison(data(), size_, poison::Kind::unwritten); }

  std::vector<T> download() const {
    const std::vector<T> all = storage_.download();
    return std::vector<T>(all.begin() + static_cast<std::ptrdiff_t>(guard_),
                          all.begin() + static_cast<std::ptrdiff_t>(guard_ + size_));
  }

  // The offsets from data() of the elements outside [0, size) that the kernel wrote
  // (negative before the start), in order.
  std::vector<long long> written_outside() const {
    const std::vector<T> all = storage_.download();
    std::vector<long long> outside;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (i >= guard_ && i < guard_ + size_) continue;
      if (!poison::matches(all[i], poison::Kind::guard)) {
        outside.push_back(static_cast<long long>(i) - static_cast<long long>(guard_));
      }
    }
    return outside;
  }

  // Success, or which elements outside [0, size) the kernel wrote.
  ::testing::AssertionResult guards_intact() const { return guards_intact(written_outside()); }
  // The same from what written_outside() gave, for a caller that reads those offsets too.
  // `partial_edges`: whether the output has tiles cut by its edges, whose bounds a store
  // past the end may have missed; where every tile is whole, no such bound is asked about.
  ::testing::AssertionResult guards_intact(const std::vector<long long>& outside, bool partial_edges = true) const {
    if (outside.empty()) return ::testing::AssertionSuccess();
    const auto before = static_cast<std::size_t>(
        std::count_if(outside.begin(), outside.end(), [](long long offset) { return offset < 0; }));
    ::testing::AssertionResult failure = ::testing::AssertionFailure();
    failure << "the kernel wrote " << outside.size() << " elements outside the output (" << before
            << " before its start, " << outside.size() - before << " past its end; the first at index "
            << outside.front() << " of an output of " << size_ << ").";
    // Stores before the start are no bound past an edge: an index taken below 0.
    if (before == outside.size()) {
      return failure << " Every one lies before the output's start: an index below 0, such as a store whose start "
                        "was moved back (by a halo or a pad that only the input's span has).";
    }
    if (!partial_edges) {
      return failure << " Every tile of this output is whole, so no bound of a partial tile is at fault: a store's "
                        "index left its tile.";
    }
    return failure << " Are the stores of the last, partial tiles kept to their valid rows and columns (a bound "
                      "missing, one past: `<=` where `<` is meant, or the other dimension's: the rows' bound on "
                      "the columns)?";
  }

 private:
  DeviceBuffer<T> storage_;
  std::size_t size_;
  std::size_t guard_;
};

}  // namespace wb::grading
