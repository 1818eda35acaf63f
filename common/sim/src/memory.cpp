// Device memory in the simulator: host allocations registered with the exact size
// asked for, 256-byte aligned as cudaMalloc's are, so that cp.async can tell device
// memory from everything else. Each is followed by a gap of kDeviceAllocationGap bytes
// that nothing else can occupy (poisoned for AddressSanitizer, which so still sees an
// overrun at its first byte): without it, a host vector placed right after a device
// buffer was reported as "past its end" of that buffer instead of as host memory.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <string>

#include "worker.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define WB_SIM_POISON_GAP(address, bytes) ASAN_POISON_MEMORY_REGION(address, bytes)
#define WB_SIM_UNPOISON_GAP(address, bytes) ASAN_UNPOISON_MEMORY_REGION(address, bytes)
#else
#define WB_SIM_POISON_GAP(address, bytes) ((void)(address), (void)(bytes))
#define WB_SIM_UNPOISON_GAP(address, bytes) ((void)(address), (void)(bytes))
#endif

namespace wb::sim {
namespace {

// What is allocated for `bytes`: the bytes, the gap, rounded to the alignment (which
// aligned_alloc requires of the size).
std::size_t footprint(std::size_t bytes) {
  return (bytes + kDeviceAllocationGap + 255) / 256 * 256;
}

std::mutex registry_mutex;
std::map<const std::byte*, std::size_t>& registry() {
  static auto* allocations = new std::map<const std::byte*, std::size_t>();
  return *allocations;
}

}  // namespace

void* device_malloc(std::size_t bytes) {
  void* pointer = std::aligned_alloc(256, footprint(bytes));
  if (pointer == nullptr) throw std::bad_alloc();
  WB_SIM_POISON_GAP(static_cast<std::byte*>(pointer) + bytes, footprint(bytes) - bytes);
  std::lock_guard lock(registry_mutex);
  registry()[static_cast<const std::byte*>(pointer)] = bytes;
  return pointer;
}

void device_free(void* pointer) noexcept {
  if (pointer == nullptr) return;
  std::size_t bytes = 0;
  {
    std::lock_guard lock(registry_mutex);
    const auto found = registry().find(static_cast<const std::byte*>(pointer));
    if (found != registry().end()) {
      bytes = found->second;
      registry().erase(found);
    }
  }
  WB_SIM_UNPOISON_GAP(static_cast<std::byte*>(pointer) + bytes, footprint(bytes) - bytes);
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

std::vector<Allocation> device_allocations() {
  std::lock_guard lock(registry_mutex);
  std::vector<Allocation> allocations;
  allocations.reserve(registry().size());
  for (const auto& [begin, bytes] : registry()) allocations.push_back({begin, bytes});
  return allocations;  // sorted: the registry is a map by address
}

const Allocation* AllocationSnapshot::around(const void* pointer, std::size_t gap) const {
  const auto* address = static_cast<const std::byte*>(pointer);
  auto after = std::upper_bound(
      allocations.begin(), allocations.end(), address,
      [](const std::byte* value, const Allocation& allocation) { return value < allocation.begin; });
  if (after == allocations.begin()) return nullptr;
  const Allocation& below = *std::prev(after);
  return address < below.begin + below.bytes + gap ? &below : nullptr;
}

std::string AllocationSnapshot::describe_offset(const void* pointer) const {
  const Allocation* allocation = around(pointer, 0);
  if (allocation == nullptr) return {};
  const auto offset = static_cast<const std::byte*>(pointer) - allocation->begin;
  return "; it is byte " + std::to_string(offset) + ", float element " + std::to_string(offset / 4) +
         ", of its device allocation";
}

Allocation find_device_allocation(const void* pointer, std::size_t bytes) {
  const Allocation below = device_allocation_below(pointer);
  const auto* begin = static_cast<const std::byte*>(pointer);
  if (below.begin != nullptr && begin + bytes <= below.begin + below.bytes) return below;
  return {};
}

}  // namespace wb::sim

