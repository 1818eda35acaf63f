// cuda::aligned_size_t<N> (libcu++, with <cuda/barrier> and <cuda/pipeline>) for g++: a
// size in bytes with the promise that it and both addresses of the copy are multiples of
// N, which lets the library copy in N-byte pieces (16: the widest cp.async). The
// simulator checks the promise. Included by the simulator's library headers only.
#pragma once

#include <cstddef>

namespace cuda {

template <std::size_t Alignment>
struct aligned_size_t {
  static_assert(Alignment > 0 && (Alignment & (Alignment - 1)) == 0, "an alignment is a power of 2");
  static constexpr std::size_t align = Alignment;
  std::size_t value;
  explicit aligned_size_t(std::size_t size) : value(size) {}
  operator std::size_t() const { return value; }
};

}  // namespace cuda
