// cuda::aligned_size_t<N> (libcu++, with <cuda/barrier> and <cuda/pipeline>) for g++: a
// size in bytes with the promise that it and both addresses of the copy are multiples of
// N, which lets the library copy in N-byte pieces (16: the widest cp.async). The
// simulator checks the promise. Included by the simulator's library headers only, with
// the promise a library call carries (library_copy_promise), from which the simulator
// chooses the copies' width as the library does.
#pragma once

#include <cstddef>
#include <type_traits>

#include "wb/backend.hpp"  // the simulator (LibraryCopyPromise)

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

namespace wb::sim {

template <class Size>
struct aligned_size_of : std::integral_constant<std::size_t, 0> {};
template <std::size_t N>
struct aligned_size_of<::cuda::aligned_size_t<N>> : std::integral_constant<std::size_t, N> {};

// What a call with pointers to T and a size of type Size promises: alignof(T) (1 for
// void) and the N of a cuda::aligned_size_t<N>. Known at compile time, as in the library.
template <class T, class Size>
constexpr LibraryCopyPromise library_copy_promise(LibraryApi api) {
  static_assert(std::is_integral_v<Size> || aligned_size_of<Size>::value != 0,
                "a library copy's size is a byte count or a cuda::aligned_size_t");
  LibraryCopyPromise promise;
  promise.api = api;
  if constexpr (!std::is_void_v<T>) promise.element_alignment = alignof(T);
  promise.aligned_size = aligned_size_of<Size>::value;
  return promise;
}

}  // namespace wb::sim
