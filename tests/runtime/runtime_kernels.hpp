// Small kernels that exercise the runtime, with host wrappers so that the tests (plain
// C++) run them on either backend.
#pragma once

#include <cstddef>
#include <vector>

namespace runtime_test {

// out[i] = blockIdx.x * 1000 + threadIdx.x for a 1-D grid, over `blocks` x `threads`.
std::vector<int> launch_indices(unsigned blocks, unsigned threads);

// Each block reverses its slice of `values` through shared memory (needs a barrier).
std::vector<float> reverse_in_blocks(const std::vector<float>& values, unsigned threads);

// Copies `values` through shared memory with cp.async of `bytes` (4, 8 or 16) bytes a
// copy, one copy a thread, then wait_all and a barrier.
std::vector<float> async_round_trip(const std::vector<float>& values, int bytes);

// What a thread stores into its shared destinations before it issues its copies: read
// back after a wait, it means the copy had not landed.
inline constexpr float kSentinel = -4096.0f;

// The reads of wait_then_read_older_group.
struct GroupReads {
  std::vector<float> older_after_wait;      // the older group's destinations, right after the wait
  std::vector<float> newer_after_wait_all;  // the newer group's, after waiting for everything
};

// One thread for each element of `older` (and of `newer`, as many), in blocks of 128.
// Each thread stores kSentinel into two shared destinations with plain stores, then
// issues a 4-byte cp.async of its element of `older` into the first and commits (the
// older group), a cp.async of its element of `newer` into the second and commits (the
// newer group), waits with cp.async.wait_group `pending` and reads the first
// destination at once. pending 1 must find the older group landed; pending 2 waits for
// nothing here, the control that shows whether a wrong wait can be seen at all.
// The copies read from a cold buffer: larger than the GPU's L2 cache (50 MB), freshly
// written and read where it was written first, so they wait for DRAM and are still in
// flight at a read that does not wait. (The simulator has no cache: it poisons a
// destination at issue, so a read before the wait sees the in_flight poison.)
GroupReads wait_then_read_older_group(const std::vector<float>& older,
                                      const std::vector<float>& newer, int pending);

// A 16-byte cp.async that reads only `source_bytes` bytes; the rest is zero-filled.
std::vector<float> zero_filled_copy(const std::vector<float>& values, int source_bytes);

// The same reversal as reverse_in_blocks, in dynamically sized shared memory.
std::vector<float> reverse_in_dynamic_shared(const std::vector<float>& values, unsigned threads);

// The address of WB_DYNAMIC_SHARED's memory modulo 128, in a kernel with 16 bytes of
// static shared memory before it.
int dynamic_shared_misalignment();

// Launches a kernel with `threads` threads a block (too many must fail).
void launch_with_block_size(unsigned threads);

}  // namespace runtime_test
