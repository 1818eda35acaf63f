// Device memory in the simulator: host allocations of the exact size asked for (so that
// AddressSanitizer sees an overrun at its first byte), 256-byte aligned as cudaMalloc's
// are, and registered so that cp.async can tell device memory from everything else.
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>

#include "wb/sim/simulator.hpp"

namespace wb::sim {
namespace {

std::mutex registry_mutex;
std::map<const std::byte*, std::size_t>& registry() {
  static auto* allocations = new std::map<const std::byte*, std::size_t>();
  return *allocations;
}

}  // namespace

void* device_malloc(std::size_t bytes) {
  void* pointer = std::aligned_alloc(256, bytes == 0 ? 256 : bytes);
  if (pointer == nullptr) throw std::bad_alloc();
  std::lock_guard lock(registry_mutex);
  registry()[static_cast<const std::byte*>(pointer)] = bytes;
  return pointer;
}

void device_free(void* pointer) noexcept {
  if (pointer == nullptr) return;
  {
    std::lock_guard lock(registry_mutex);
    registry().erase(static_cast<const std::byte*>(pointer));
  }
  std::free(pointer);
}

Allocation device_allocation_below(const void* pointer) {
  const auto* begin = static_cast<const std::byte*>(pointer);
  std::lock_guard lock(registry_mutex);
  auto& allocations = registry();
  auto after = allocations.upper_bound(begin);
  if (after == allocations.begin()) return {};
  const auto& [start, size] = *std::prev(after);
  return {start, size};
}

Allocation find_device_allocation(const void* pointer, std::size_t bytes) {
  const Allocation below = device_allocation_below(pointer);
  const auto* begin = static_cast<const std::byte*>(pointer);
  if (below.begin != nullptr && begin + bytes <= below.begin + below.bytes) return below;
  return {};
}

}  // namespace wb::sim

