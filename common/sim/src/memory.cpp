// Device memory in the simulator: host memory registered with the exact size asked for,
// page-aligned (so 256-byte aligned, as cudaMalloc's is), so that cp.async can tell device
// memory from everything else. Each allocation is mapped on its own, followed by a guard
// of device_allocation_guard(bytes) bytes that nothing else can occupy and no access can
// reach (mapped without access rights): an index that runs past an array, up to as far
// again as the array is long, is an overrun of that array, reported before it is made,
// never a write into a host variable that the heap placed there, nor a crash. A leading
// guard of kLeadingGuard bytes, mapped the same way, keeps every allocation that far from
// whatever lies below it: an index that runs past the end of a thread's static shared
// memory (the top of its stack) never lands in a device allocation mapped just above it,
// which would turn a shared overrun into a copy "into global memory" by the luck of the
// address space's layout.
#include <sys/mman.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <new>
#include <string>

#include "worker.hpp"

namespace wb::sim {
namespace {

constexpr std::size_t kPage = 4096;
constexpr std::size_t kSmallestGuard = 64 * 1024;
constexpr std::size_t kLargestGuard = std::size_t{1} << 30;
constexpr std::size_t kLeadingGuard = std::size_t{1} << 20;

std::size_t whole_pages(std::size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }

// What is mapped for `bytes`: the bytes in whole pages, and the guard after them.
std::size_t footprint(std::size_t bytes) { return whole_pages(bytes) + device_allocation_guard(bytes); }

std::mutex registry_mutex;
std::map<const std::byte*, std::size_t>& registry() {
  static auto* allocations = new std::map<const std::byte*, std::size_t>();
  return *allocations;
}

}  // namespace

std::size_t device_allocation_guard(std::size_t bytes) {
  return std::clamp(whole_pages(bytes), kSmallestGuard, kLargestGuard);
}

const std::byte* end_of_guard(const Allocation& allocation) {
  return allocation.begin + allocation.bytes + device_allocation_guard(allocation.bytes);
}

void* device_malloc(std::size_t bytes) {
  void* mapping = mmap(nullptr, kLeadingGuard + footprint(bytes), PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) throw std::bad_alloc();
  auto* allocation = static_cast<std::byte*>(mapping) + kLeadingGuard;
  if (bytes > 0 && mprotect(allocation, whole_pages(bytes), PROT_READ | PROT_WRITE) != 0) {
    munmap(mapping, kLeadingGuard + footprint(bytes));
    throw std::bad_alloc();
  }
  std::lock_guard lock(registry_mutex);
  registry()[allocation] = bytes;
  return allocation;
}

void device_free(void* pointer) noexcept {
  if (pointer == nullptr) return;
  std::size_t bytes = 0;
  {
    std::lock_guard lock(registry_mutex);
    const auto found = registry().find(static_cast<const std::byte*>(pointer));
    if (found == registry().end()) return;  // not ours: cudaFree reports it
    bytes = found->second;
    registry().erase(found);
  }
  munmap(static_cast<std::byte*>(pointer) - kLeadingGuard, kLeadingGuard + footprint(bytes));
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

Allocation device_allocation_above(const void* pointer) {
  const auto* begin = static_cast<const std::byte*>(pointer);
  std::lock_guard lock(registry_mutex);
  auto after = registry().upper_bound(begin);
  if (after == registry().end()) return {};
  return {after->first, after->second};
}

ErrorKind bad_destination_kind(const void* destination, std::size_t bytes) {
  return find_device_allocation(destination, bytes).begin != nullptr ? ErrorKind::destination_global
                                                                       : ErrorKind::destination_not_shared;
}

std::vector<Allocation> device_allocations() {
  std::lock_guard lock(registry_mutex);
  std::vector<Allocation> allocations;
  allocations.reserve(registry().size());
  for (const auto& [begin, bytes] : registry()) allocations.push_back({begin, bytes});
  return allocations;  // sorted: the registry is a map by address
}

const Allocation* AllocationSnapshot::around(const void* pointer, bool with_guard) const {
  const auto* address = static_cast<const std::byte*>(pointer);
  auto after = std::upper_bound(
      allocations.begin(), allocations.end(), address,
      [](const std::byte* value, const Allocation& allocation) { return value < allocation.begin; });
  if (after == allocations.begin()) return nullptr;
  const Allocation& below = *std::prev(after);
  return address < (with_guard ? end_of_guard(below) : below.begin + below.bytes) ? &below : nullptr;
}

const Allocation* AllocationSnapshot::above(const void* pointer) const {
  const auto* address = static_cast<const std::byte*>(pointer);
  auto after = std::upper_bound(
      allocations.begin(), allocations.end(), address,
      [](const std::byte* value, const Allocation& allocation) { return value < allocation.begin; });
  return after == allocations.end() ? nullptr : &*after;
}

std::string AllocationSnapshot::describe_offset(const void* pointer) const {
  const Allocation* allocation = around(pointer);
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

