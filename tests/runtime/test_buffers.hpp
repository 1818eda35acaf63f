// Device buffers for the host wrappers of the test kernels: one filled from a host
// vector, one poisoned so that an element the kernel never writes cannot pass.
#pragma once

#include <cstddef>
#include <vector>

#include "wb/wb.cuh"

namespace runtime_test {

template <class T>
wb::DeviceBuffer<T> uploaded(const std::vector<T>& values) {
  wb::DeviceBuffer<T> buffer(values.size());
  buffer.upload(values);
  return buffer;
}

template <class T>
wb::DeviceBuffer<T> poisoned(std::size_t count) {
  wb::DeviceBuffer<T> buffer(count);
  buffer.poison();
  return buffer;
}

}  // namespace runtime_test
