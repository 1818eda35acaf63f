/// \file
/// wb::DeviceBuffer<T>: an array in device memory that frees itself.
///
///     wb::DeviceBuffer<float> input(n);
///     input.upload(host_values);          // host -> device
///     output.poison();                    // every element the `unwritten` poison of T
///     ... launch ...
///     std::vector<float> result = output.download();  // device -> host, after the kernel
///
/// On the GPU it wraps cudaMalloc and cudaMemcpy; in the simulator, an exact-size host
/// allocation registered as device memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "wb/backend.hpp"
#include "wb/error.hpp"
#include "wb/poison.hpp"

namespace wb {

namespace detail {
void* device_allocate(std::size_t bytes);
void device_release(void* pointer) noexcept;
void copy_to_device(void* destination, const void* source, std::size_t bytes);
void copy_to_host(void* destination, const void* source, std::size_t bytes);
// Fills device memory with eight bytes repeated (see poison::fill_pattern).
void fill_device_pattern(void* destination, std::size_t bytes, std::uint64_t eight_bytes);
}  // namespace detail

/// Fills `count` elements of T in device memory with T's poison of the kind (see
/// poison.hpp), so that an element the kernel never writes cannot pass for a result.
template <class T>
void fill_with_poison(T* device_elements, std::size_t count,
                      poison::Kind kind = poison::Kind::unwritten) {
  detail::fill_device_pattern(device_elements, count * sizeof(T), poison::fill_pattern<T>(kind));
}

/// An array of `T` in device memory that frees itself; movable, not copyable.
template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "device buffers hold trivially copyable types");

 public:
  /// An empty buffer, which holds no memory.
  DeviceBuffer() = default;
  /// `count` elements of device memory, uninitialised (poison() them for a test).
  explicit DeviceBuffer(std::size_t count)
      : data_(static_cast<T*>(detail::device_allocate(count * sizeof(T)))), size_(count) {}
  /// Frees the memory.
  ~DeviceBuffer() { detail::device_release(data_); }

  /// Takes `other`'s memory; `other` is left empty.
  DeviceBuffer(DeviceBuffer&& other) noexcept : data_(other.data_), size_(other.size_) {
    other.data_ = nullptr;
    other.size_ = 0;
  }
  /// Frees this buffer's memory and takes `other`'s; `other` is left empty.
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      detail::device_release(data_);
      data_ = other.data_;
      size_ = other.size_;
      other.data_ = nullptr;
      other.size_ = 0;
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  /// The device address of the first element, for a kernel's argument.
  T* data() { return data_; }
  /// The device address of the first element, for a kernel's argument.
  const T* data() const { return data_; }
  /// How many elements.
  std::size_t size() const { return size_; }
  /// How many bytes: size() times `sizeof(T)`.
  std::size_t bytes() const { return size_ * sizeof(T); }

  /// Copies `host` to the device; it must have exactly size() elements (wb::Error if not).
  void upload(const std::vector<T>& host) {
    if (host.size() != size_) {
      throw Error("DeviceBuffer::upload: " + std::to_string(host.size()) +
                  " host elements for a buffer of " + std::to_string(size_));
    }
    detail::copy_to_device(data_, host.data(), bytes());
  }

  /// Copies the buffer back to the host (after the kernels that write it).
  std::vector<T> download() const {
    std::vector<T> host(size_);
    detail::copy_to_host(host.data(), data_, bytes());
    return host;
  }

  /// Fills the buffer with T's poison of the kind (see poison.hpp).
  void poison(poison::Kind kind = poison::Kind::unwritten) { fill_with_poison(data_, size_, kind); }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace wb
