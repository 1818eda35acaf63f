// The workbook runtime's backend functions, for the CPU simulator.
#include <cstring>
#include <string>

#include "fiber.hpp"
#include "wb/buffer.hpp"
#include "wb/timer.hpp"

namespace wb {
namespace detail {

void* device_allocate(std::size_t bytes) { return sim::device_malloc(bytes); }
void device_release(void* pointer) noexcept { sim::device_free(pointer); }
void copy_to_device(void* destination, const void* source, std::size_t bytes) {
  std::memcpy(destination, source, bytes);
}
void copy_to_host(void* destination, const void* source, std::size_t bytes) {
  std::memcpy(destination, source, bytes);
}
void fill_device_pattern(void* destination, std::size_t bytes, std::uint64_t eight_bytes) {
  poison::fill_repeating(destination, bytes, eight_bytes);
}

}  // namespace detail

bool gpu_available(std::string* reason) {
  if (reason != nullptr) *reason = "this build runs kernels in the CPU simulator";
  return false;
}

bool hopper_available(std::string* reason) {
  if (reason != nullptr) reason->clear();
  return true;
}

bool wgmma_available(std::string* reason) {
  if (reason != nullptr) reason->clear();
  return true;
}

std::string device_description() {
  return std::string("CPU simulator (fibers on ") + sim::fiber_backend_name() +
         ", schedule " + sim::to_string(sim::current_schedule()) + ")";
}

}  // namespace wb
