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

// Two commit groups (first half, second half of one 16-byte copy each), wait<1>, and
// reads the first group's destination: the data of the older group must be there.
std::vector<float> wait_one_reads_older_group(const std::vector<float>& values);

// A 16-byte cp.async that reads only `source_bytes` bytes; the rest is zero-filled.
std::vector<float> zero_filled_copy(const std::vector<float>& values, int source_bytes);

// The same reversal as reverse_in_blocks, in dynamically sized shared memory.
std::vector<float> reverse_in_dynamic_shared(const std::vector<float>& values, unsigned threads);

// Launches a kernel with `threads` threads a block (too many must fail).
void launch_with_block_size(unsigned threads);

}  // namespace runtime_test
