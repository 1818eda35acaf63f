// The launch-configuration check of wb::launch, the same on both backends, so that a
// bad grid or block gets the same clear message on the GPU and in the simulator (the
// GPU's own error is a bare "invalid argument").
#include <cstdint>
#include <string>

#include "wb/launch.hpp"

namespace wb::detail {
namespace {

constexpr std::uint64_t kMaxThreadsPerBlock = 1024;
constexpr std::size_t kMaxDynamicSharedBytes = 227 * 1024;  // sm_90's opt-in limit

std::string describe(const dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

}  // namespace

void validate_launch(dim3 grid, dim3 block, std::size_t shared_bytes) {
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  if (threads == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0) {
    throw Error("invalid launch configuration: grid " + describe(grid) + ", block " +
                describe(block) + " has a zero dimension");
  }
  if (threads > kMaxThreadsPerBlock || block.z > 64) {
    throw Error("invalid launch configuration: block " + describe(block) + " has " +
                std::to_string(threads) +
                " threads; a block has at most 1024 threads (and blockDim.z <= 64)");
  }
  if (grid.y > 65535 || grid.z > 65535) {
    throw Error("invalid launch configuration: grid " + describe(grid) +
                ": gridDim.y and gridDim.z are at most 65535");
  }
  if (shared_bytes > kMaxDynamicSharedBytes) {
    throw Error("invalid launch configuration: " + std::to_string(shared_bytes) +
                " bytes of dynamic shared memory; a block has at most " +
                std::to_string(kMaxDynamicSharedBytes) + " on sm_90");
  }
}

}  // namespace wb::detail
