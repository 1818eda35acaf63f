# Known-wrong versions of chapter 6's solution, each one mistake a learner makes, with
# the diagnosis the grader must give. Each is the solution with FIND replaced by REPLACE
# (every occurrence).

# The seed's own solution: the first and last two outputs of each tile copied from the
# input instead of convolved.
wb_wrong_kernel(seed_pass_through_edges
  STEP 1
  FIND "    gmem_out[out_index] = sum;\n"
  REPLACE "    const bool at_tile_edge = threadIdx.x < kHalo || threadIdx.x >= kTile - kHalo;\n    gmem_out[out_index] = at_tile_edge ? smem_span[threadIdx.x + kHalo] : sum;\n"
  EXPECT "step 1.*the first and last 2 outputs of each tile are copies of the input, not convolutions \\(the seed's pass-through edges\\)")

# The span without its right halo: the last two outputs of each tile read shared memory
# that nothing filled.
wb_wrong_kernel(halo_of_one_side
  STEP 1
  FIND "j < Tile + 2 * Halo; j += kThreads"
  REPLACE "j < Tile + Halo; j += kThreads"
  EXPECT "step 1.*only the last 2 outputs of each tile are wrong: the halo of one side only, is the right halo loaded\\?")

# No halo at all: the span is the tile, read as if it started two elements earlier.
wb_wrong_kernel(no_halo
  STEP 1
  FIND "    const int index = tile_start - Halo + j;  // of the input\n"
  REPLACE "    const int index = tile_start + j;  // of the input\n"
  EXPECT "step 1.*(only the first and last 2 outputs of each tile are wrong: is the halo loaded\\?|centred at i \\+ 2)")

# The halo off by one: the span one element short on the right.
wb_wrong_kernel(halo_off_by_one
  STEP 1
  FIND "j < Tile + 2 * Halo; j += kThreads"
  REPLACE "j < Tile + 2 * Halo - 1; j += kThreads"
  EXPECT "step 1.*only the last output of each tile is wrong.*the halo off by one")

# The span shifted by one: every output centred one element to the right.
wb_wrong_kernel(span_shifted_by_one
  STEP 1
  FIND "    const int index = tile_start - Halo + j;  // of the input\n"
  REPLACE "    const int index = tile_start - Halo + 1 + j;  // of the input\n"
  EXPECT "step 1.*every output is the convolution centred at i \\+ 1 instead of i: an index is off by 1")

# The copies outside the array skipped instead of zero-filled: no zeros past the ends.
wb_wrong_kernel(no_zeros_past_the_ends
  STEP 1
  FIND "    wb::cp_async_ca<4>(&smem_span[j], inside ? gmem_in + index : gmem_in, inside ? 4 : 0);\n"
  REPLACE "    if (inside) wb::cp_async_ca<4>(&smem_span[j], gmem_in + index);\n"
  EXPECT "step 1.*only outputs within 2 of the array's ends \\(i < 2 or i >= n - 2\\) are wrong: no zeros past the ends")

# The index clamped to the array: the end elements repeated instead of zeros.
wb_wrong_kernel(ends_clamped_instead_of_zero
  STEP 1
  FIND "    wb::cp_async_ca<4>(&smem_span[j], inside ? gmem_in + index : gmem_in, inside ? 4 : 0);\n"
  REPLACE "    wb::cp_async_ca<4>(&smem_span[j], gmem_in + (index < 0 ? 0 : index >= n ? n - 1 : index));\n"
  EXPECT "step 1.*repeat the end elements: outside the array the input counts as 0")

# No bounds at all: the first tile's copies read before the array's start.
wb_wrong_kernel(span_copied_without_bounds
  STEP 1
  FIND "    wb::cp_async_ca<4>(&smem_span[j], inside ? gmem_in + index : gmem_in, inside ? 4 : 0);\n"
  REPLACE "    wb::cp_async_ca<4>(&smem_span[j], gmem_in + index);\n"
  EXPECT "step 1.*kernel failed.*(not in any device allocation|before its start).*Likely cause: a cp.async read outside the input.*must read 0 bytes")

# The weights applied in reverse order.
wb_wrong_kernel(weights_reversed
  STEP 1
  FIND "sum += smem_span[threadIdx.x + k] * smem_weights[k];"
  REPLACE "sum += smem_span[threadIdx.x + k] * smem_weights[kWidth - 1 - k];"
  EXPECT "step 1.*the weights are applied in reverse order")

# No wait: the sums read copies still in flight.
wb_wrong_kernel(missing_wait
  STEP 1
  FIND "  wb::cp_async_wait<0>();  // this thread's copies have landed: visible to this thread only\n"
  REPLACE ""
  EXPECT "step 1.*Likely cause: thread \\([0-9]+, [0-9]+\\) of block \\([0-9]+, [0-9]+\\) read, at [^ ]*halo.cu:[0-9]+, a word that its own cp.async was still bringing, and that thread had not waited at all: a cp_async_wait is missing")

# No barrier: a thread reads the span's elements that other threads copy.
wb_wrong_kernel(missing_barrier
  STEP 1
  FIND "  __syncthreads();         // everyone's copies and the weights are visible to all\n"
  REPLACE ""
  EXPECT "step 1.*kernel failed.*Likely cause: a thread read a word of shared memory that another thread wrote")

# The weights stored after the barrier: read by other threads before they are loaded.
wb_wrong_kernel(weights_loaded_after_the_barrier
  STEP 1
  FIND "  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n  wb::cp_async_wait<0>();  // this thread's copies have landed: visible to this thread only\n  __syncthreads();         // everyone's copies and the weights are visible to all\n"
  REPLACE "  wb::cp_async_wait<0>();  // this thread's copies have landed: visible to this thread only\n  __syncthreads();         // everyone's copies and the weights are visible to all\n  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n"
  EXPECT "step 1.*kernel failed:.*smem_weights.*a store of the weights")

# The grid rounded down: the last, partial tile never computed.
wb_wrong_kernel(grid_rounded_down
  STEP 1
  FIND "  const dim3 grid(static_cast<unsigned>(tiles_of(n, kTile)));\n"
  REPLACE "  const dim3 grid(static_cast<unsigned>(n / kTile > 0 ? n / kTile : 1));\n"
  EXPECT "step 1.*the outputs past the last whole tile \\(i = 16384 to 16460\\) were never written: is the number of tiles rounded down")

# Step 1's store skipping the outputs within a halo of the array's ends: they are never
# written, which says the store's test is at fault, not the zeros of the span.
wb_wrong_kernel(store_skips_the_array_ends
  STEP 1
  FIND "if (out_index < n) {"
  REPLACE "if (out_index >= kHalo && out_index < n - kHalo) {"
  EXPECT "step 1.*Likely cause: only outputs within 2 of the array's ends .* are wrong, and none of them was written: the store skips them")

# Step 1's store skipping each tile's edge outputs: never written, so the halo is not
# named.
wb_wrong_kernel(store_skips_the_tile_edges
  STEP 1
  FIND "if (out_index < n) {"
  REPLACE "if (out_index < n && threadIdx.x >= kHalo && threadIdx.x < kTile - kHalo) {"
  EXPECT "step 1.*Likely cause: only outputs at the edges of each tile are wrong, and none of them was written: the store skips them")

# The output right, the overlap lost: the weights loaded after the wait, when the span's
# copies have landed, so that nothing hides their latency.
wb_wrong_kernel(weights_loaded_after_the_wait
  STEP 1
  FIND "  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n  wb::cp_async_wait<0>();  // this thread's copies have landed: visible to this thread only\n"
  REPLACE "  wb::cp_async_wait<0>();  // this thread's copies have landed: visible to this thread only\n  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n"
  EXPECT "step 1.*[0-9]+ of the [0-9]+ plain loads of global memory \\(the weights'\\) were made with none of the thread's copies in flight, at [^ ]*halo.cu:[0-9]+ \\([0-9]+\\); the reference makes all of them while the span's copies travel")

# Each thread copies a run of the span of its own, as CPU threads split an array: the
# output right, a warp's copies scattered over its lanes' runs.
wb_wrong_kernel(span_copied_in_runs
  STEP 1
  FIND "  for (int j = threadIdx.x; j < Tile + 2 * Halo; j += kThreads) {"
  REPLACE "  constexpr int kRun = (Tile + 2 * Halo + kThreads - 1) / kThreads;\n  for (int j = threadIdx.x * kRun; j < Tile + 2 * Halo && j < (static_cast<int>(threadIdx.x) + 1) * kRun; ++j) {"
  EXPECT "step 1.*cp.async global reads: [0-9.]+ sectors per request.*the span's copies read global memory scattered")

# Step 2 reads the next tile's buffer, whose copies are still in flight.
wb_wrong_kernel(next_buffer_read_before_its_wait
  STEP 2
  FIND "    convolve_stream_tile<kWidth>(smem_span[buffer], smem_weights"
  REPLACE "    convolve_stream_tile<kWidth>(smem_span[buffer ^ 1], smem_weights"
  EXPECT "step 2.*Likely cause: .*its last wait<1>, with 2 groups committed, left the newest 1 in flight.*So the stage read is not the one holding the tile the wait has just landed")

# The barrier at the end of the loop missing: the next iteration's copies refill the
# buffer that slower threads still read.
wb_wrong_kernel(buffer_refilled_before_its_readers_are_done
  STEP 2
  FIND "    __syncthreads();  // everyone has read this buffer before the next iteration refills it\n"
  REPLACE ""
  EXPECT "step 2.*kernel failed.*a buffer is refilled while others still read it")

# wait<0> where double buffering asks for wait<1>: the next tile lands too, and nothing
# travels while this one is computed.
wb_wrong_kernel(serialised_by_wait_0
  STEP 2
  FIND "    wb::cp_async_wait<1>();  // this tile's group has landed"
  REPLACE "    wb::cp_async_wait<0>();  // this tile's group has landed"
  EXPECT "step 2.*the waits found 1.00 tiles in flight and left 0.00 travelling.*a wb::cp_async_wait<0>\\(\\) lands the next one too and serialises the copies and the arithmetic")

# The first tile loaded before the loop but not committed there: its copies join the
# next tile's group, and the first wait<1> of each block waits for nothing.
wb_wrong_kernel(first_tile_not_committed
  STEP 2
  FIND "  load_span_async<kStreamTile, kHalo>(smem_span[0], gmem_in, n, blockIdx.x * kStreamTile);\n  wb::cp_async_commit();\n"
  REPLACE "  load_span_async<kStreamTile, kHalo>(smem_span[0], gmem_in, n, blockIdx.x * kStreamTile);\n"
  EXPECT "step 2.*Likely cause: only each block's first tile was read while its copies were in flight.*Commit the first tile as a group of its own before the loop")

# The commit inside `if (next_tile < tiles)`: the last iteration commits nothing, and its
# wait<1> lets the last tile's group travel on.
wb_wrong_kernel(commit_only_when_a_next_tile_exists
  STEP 2
  FIND "      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);\n    }\n    wb::cp_async_commit();\n"
  REPLACE "      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);\n      wb::cp_async_commit();\n    }\n"
  EXPECT "step 2.*Likely cause: only each block's last tile was read while its copies were in flight.*Commit in every iteration, an empty group")

# The next tile issued after this tile's arithmetic: one group in flight at a time.
wb_wrong_kernel(next_tile_loaded_after_the_arithmetic
  STEP 2
  FIND "    if (next_tile < tiles) {\n      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);\n    }\n    wb::cp_async_commit();\n    wb::cp_async_wait<1>();  // this tile's group has landed; the next one's may still travel\n    __syncthreads();         // everyone's copies of this tile, and the weights, visible to all\n    convolve_stream_tile<kWidth>(smem_span[buffer], smem_weights, gmem_out, n, tile * kStreamTile);\n    __syncthreads();  // everyone has read this buffer before the next iteration refills it\n"
  REPLACE "    wb::cp_async_wait<0>();\n    __syncthreads();\n    convolve_stream_tile<kWidth>(smem_span[buffer], smem_weights, gmem_out, n, tile * kStreamTile);\n    __syncthreads();\n    if (next_tile < tiles) {\n      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);\n    }\n    wb::cp_async_commit();\n"
  EXPECT "step 2.*the waits found 1.00 tiles in flight and left 0.00 travelling.*Issue the next tile's copies, into the other buffer, before this tile's wait and arithmetic, not after them")

# Step 2's first tile started in step 1's tiles: block b's first tile holds the outputs
# from b * kTile, not b * kStreamTile.
wb_wrong_kernel(first_tile_start_in_step_1_tiles
  STEP 2
  FIND "  load_span_async<kStreamTile, kHalo>(smem_span[0], gmem_in, n, blockIdx.x * kStreamTile);"
  REPLACE "  load_span_async<kStreamTile, kHalo>(smem_span[0], gmem_in, n, blockIdx.x * kTile);"
  EXPECT "step 2.*Likely cause: each wrong tile holds the outputs that start at its tile's number times 256 instead of times 2048.*counted in step 1's tiles \\(kTile\\), 256 elements")

# Step 2 loads the next tile into the buffer being read (buffer where buffer ^ 1 is
# meant): the read and the load in flight share a buffer.
wb_wrong_kernel(next_tile_into_the_buffer_read
  STEP 2
  FIND "      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);"
  REPLACE "      load_span_async<kStreamTile, kHalo>(smem_span[buffer], gmem_in, n, next_tile * kStreamTile);"
  EXPECT "step 2.*Likely cause: .*the read and the load in flight share a stage \\(the read's stage index ahead, or the load's stage index the one being read")


# The wait and its barrier placed before the next tile's load and commit: wait<1> finds
# the tile about to be read the newest group and leaves it in flight. The reader committed
# again between its wait and its read, which the step's order never does.
wb_wrong_kernel(step2_wait_before_the_next_load
  STEP 2
  FIND "    const int next_tile = tile + gridDim.x;\n    if (next_tile < tiles) {\n      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);\n    }\n    wb::cp_async_commit();\n    wb::cp_async_wait<1>();  // this tile's group has landed; the next one's may still travel\n    __syncthreads();         // everyone's copies of this tile, and the weights, visible to all\n"
  REPLACE "    wb::cp_async_wait<1>();\n    __syncthreads();\n    const int next_tile = tile + gridDim.x;\n    if (next_tile < tiles) {\n      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);\n    }\n    wb::cp_async_commit();\n"
  EXPECT "step 2.*Likely cause: .*and it committed another group after that wait, before this read: the wait comes before the next tile's load and its commit")

# The commit placed before the next tile's load: each tile's copies join the group
# committed an iteration later.
wb_wrong_kernel(step2_commit_before_the_next_load
  STEP 2
  FIND "    if (next_tile < tiles) {\n      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);\n    }\n    wb::cp_async_commit();\n    wb::cp_async_wait<1>();  // this tile's group has landed; the next one's may still travel\n"
  REPLACE "    wb::cp_async_commit();\n    if (next_tile < tiles) {\n      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);\n    }\n    wb::cp_async_wait<1>();\n"
  EXPECT "step 2.*Likely cause: .*its waits found copies issued but not committed: the commit comes before the load it means to close")

# Step 3's weights loaded by one warp's lanes: enough up to width 32, not at 33.
wb_wrong_kernel(weights_loaded_by_one_warp
  STEP 3
  FIND "  for (int k = threadIdx.x; k < Width; k += kThreads) smem_weights[k] = gmem_weights[k];\n"
  REPLACE "  if (threadIdx.x < 32 && threadIdx.x < Width) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n"
  EXPECT "step 3.*33 weights.*Likely cause: every output read shared memory that nothing had written.*is every one of the 33 weights stored.*This width, 33, is wider than a warp")

# Step 3's span sized with the seed's halo: right at width 5 only.
wb_wrong_kernel(halo_fixed_at_the_seeds
  STEP 3
  FIND "load_span_async<kStreamTile, halo>("
  REPLACE "load_span_async<kStreamTile, kHalo>("
  EXPECT "step 3.*3 weights \\(halo 1\\).*Likely cause: the same kernel passed at width 5, the seed's, and fails at width 3 \\(halo 1\\): something in it is right for 5 weights only.*kWidth or kHalo, where the template's Width or halo belongs")

# Step 3's convolution left at step 2's width: every output sums 5 weights, whatever Width.
wb_wrong_kernel(convolution_fixed_at_the_seeds_width
  STEP 3
  FIND "convolve_stream_tile<Width>("
  REPLACE "convolve_stream_tile<kWidth>("
  EXPECT "step 3.*3 weights \\(halo 1\\).*Likely cause: the same kernel passed at width 5, the seed's, and fails at width 3 \\(halo 1\\): something in it is right for 5 weights only")

# Step 3's first tile loaded at its tile index, not its first element: each block's first
# tile holds the outputs that start at the block's number.
wb_wrong_kernel(first_tile_start_in_tiles
  STEP 3
  FIND "  load_span_async<kStreamTile, halo>(smem_span[0], gmem_in, n, blockIdx.x * kStreamTile);"
  REPLACE "  load_span_async<kStreamTile, halo>(smem_span[0], gmem_in, n, blockIdx.x);"
  EXPECT "step 3.*each wrong tile holds the outputs that start at its tile's number instead of its first element.*passed as a tile index")

# Step 3's store start passed as the tile's index: tile t's outputs land at t, t + 1, ...,
# over each other near the output's start, and the rest is never written.
wb_wrong_kernel(step3_store_start_as_the_tile_index
  STEP 3
  FIND "convolve_stream_tile<Width>(smem_span[buffer], smem_weights, gmem_out, n, tile * kStreamTile);"
  REPLACE "convolve_stream_tile<Width>(smem_span[buffer], smem_weights, gmem_out, n, tile);"
  EXPECT "step 3.*Likely cause: only outputs 0 to [0-9]+ were written.*every tile's store started at its tile index t")

# The weights loaded again for every tile: redundant loads (right output).
wb_wrong_kernel(weights_loaded_every_tile
  STEP 3
  FIND "    wb::cp_async_commit();\n    wb::cp_async_wait<1>();\n    __syncthreads();\n    convolve_stream_tile<Width>("
  REPLACE "    wb::cp_async_commit();\n    for (int k = threadIdx.x; k < Width; k += kThreads) smem_weights[k] = gmem_weights[k];\n    wb::cp_async_wait<1>();\n    __syncthreads();\n    convolve_stream_tile<Width>("
  EXPECT "step 3.*plain loads of global memory \\(the weights'\\) in [0-9]+ blocks.*a block loads them once, before its tile loop")

# The next tile's start without its parentheses, tile + gridDim.x * kStreamTile: every
# block's later tiles convolve a span from another start.
wb_wrong_kernel(next_tile_start_without_parentheses
  STEP 2
  FIND "load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);"
  REPLACE "load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, tile + gridDim.x * kStreamTile);"
  EXPECT "step 2.*Likely cause: each wrong tile holds, whole and right, the outputs of another start")

# The loop's bound rounded down to whole rounds of the grid: the last round's tiles are
# never computed.
wb_wrong_kernel(last_round_of_tiles_skipped
  STEP 2
  FIND "  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, buffer ^= 1) {"
  REPLACE "  for (int tile = blockIdx.x; tile < tiles / static_cast<int>(gridDim.x) * static_cast<int>(gridDim.x); tile += gridDim.x, buffer ^= 1) {"
  EXPECT "step 2.*Likely cause: the outputs from [0-9]+ on \\(tiles [0-9]+ to [0-9]+\\) were never written.*a block's count of its tiles was rounded down")

# Step 3's weights loop stepped by 1: thread 0 stores every weight, thread 1 all but the
# first, ... two threads write one word of smem_weights.
wb_wrong_kernel(weights_loop_stepped_by_one
  STEP 3
  FIND "  for (int k = threadIdx.x; k < Width; k += kThreads) smem_weights[k] = gmem_weights[k];"
  REPLACE "  for (int k = threadIdx.x; k < Width; ++k) smem_weights[k] = gmem_weights[k];"
  EXPECT "step 3.*Likely cause: thread \\(0, 0\\) stored smem_weights\\[1\\], which thread \\(1, 0\\) stores as its own: the weights' loop gives one weight to several threads")

# The streamed steps' window loop one tap short: every output lacks its last product.
wb_wrong_kernel(window_loop_one_tap_short
  STEP 2
  FIND "  for (int k = 0; k < Width; ++k) {\n    const float weight = smem_weights[k];"
  REPLACE "  for (int k = 0; k < Width - 1; ++k) {\n    const float weight = smem_weights[k];"
  EXPECT "step 2.*Likely cause: every output is the convolution without its last tap")

# The refill's guard dropped: in its last iteration every block copies a span past its
# last tile, zeros but for the halo, that nothing reads. The output stays right.
wb_wrong_kernel(span_copied_past_the_last_tile
  STEP 2
  FIND "    if (next_tile < tiles) {\n      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1]"
  REPLACE "    if (next_tile >= 0) {\n      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1]"
  EXPECT "step 2.*one span \\(2052 copies\\) for each of the [0-9]+ blocks.*every block copied a span past its last tile")

# The buffers addressed from the first with a stride of the tile alone, the halos left out:
# buffer 1 starts 4 words inside buffer 0, and the next tile's copies land on the last
# elements of the tile being read. The output comes out right in the simulator's order; on
# a GPU it races.
wb_wrong_kernel(buffers_strided_by_the_tile_alone
  STEP 2
  FIND "      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);\n    }\n    wb::cp_async_commit();\n    wb::cp_async_wait<1>();  // this tile's group has landed; the next one's may still travel\n    __syncthreads();         // everyone's copies of this tile, and the weights, visible to all\n    convolve_stream_tile<kWidth>(smem_span[buffer], smem_weights,"
  REPLACE "      load_span_async<kStreamTile, kHalo>(&smem_span[0][0] + (buffer ^ 1) * kStreamTile, gmem_in, n, next_tile * kStreamTile);\n    }\n    wb::cp_async_commit();\n    wb::cp_async_wait<1>();\n    __syncthreads();\n    convolve_stream_tile<kWidth>(&smem_span[0][0] + buffer * kStreamTile, smem_weights,"
  EXPECT "step 2.*Likely cause: the racing copy brought input element [0-9]+, element [0-9]+ of tile [0-9]+'s span \\(the block's tile number [0-9]+, in buffer 1\\), to word [0-9]+ of smem_span: that buffer starts at word 2048, inside the buffer before it, which holds a span of 2052 floats.*The buffers overlap on 4 words")

# Step 1's taps read from the output's centre, threadIdx.x + kHalo, over a span that
# starts kHalo before the tile already: the halo counted twice; the last threads read
# past the span.
wb_wrong_kernel(taps_from_the_centre
  STEP 1
  FIND "    for (int k = 0; k < kWidth; ++k) sum += smem_span[threadIdx.x + k] * smem_weights[k];"
  REPLACE "    for (int k = 0; k < kWidth; ++k) sum += smem_span[threadIdx.x + kHalo + k] * smem_weights[k];"
  EXPECT "step 1.*Likely cause: thread [0-9]+ read word [0-9]+ of smem_span for its weight [0-9]: its taps began at word [0-9]+ = [0-9]+ \\+ 2.*The halo is counted twice")

# Step 2's tiles placed a span's length apart (kStreamTile + 2 * kHalo), as its buffers
# are: tile t writes from t * 2052, and the 4 * t outputs before it are never written.
wb_wrong_kernel(tiles_a_span_apart
  STEP 2
  FIND "  load_span_async<kStreamTile, kHalo>(smem_span[0], gmem_in, n, blockIdx.x * kStreamTile);\n  wb::cp_async_commit();\n  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n  int buffer = 0;\n  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, buffer ^= 1) {\n    // The next tile's copies go into the other buffer, which everyone finished reading in\n    // the previous iteration (the barrier at its end). Past the last tile the group is\n    // empty: every iteration commits one, so wait<1> means the same in each.\n    const int next_tile = tile + gridDim.x;\n    if (next_tile < tiles) {\n      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * kStreamTile);\n    }\n    wb::cp_async_commit();\n    wb::cp_async_wait<1>();  // this tile's group has landed; the next one's may still travel\n    __syncthreads();         // everyone's copies of this tile, and the weights, visible to all\n    convolve_stream_tile<kWidth>(smem_span[buffer], smem_weights, gmem_out, n, tile * kStreamTile);"
  REPLACE "  load_span_async<kStreamTile, kHalo>(smem_span[0], gmem_in, n, blockIdx.x * (kStreamTile + 2 * kHalo));\n  wb::cp_async_commit();\n  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n  int buffer = 0;\n  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, buffer ^= 1) {\n    // The next tile's copies go into the other buffer, which everyone finished reading in\n    // the previous iteration (the barrier at its end). Past the last tile the group is\n    // empty: every iteration commits one, so wait<1> means the same in each.\n    const int next_tile = tile + gridDim.x;\n    if (next_tile < tiles) {\n      load_span_async<kStreamTile, kHalo>(smem_span[buffer ^ 1], gmem_in, n, next_tile * (kStreamTile + 2 * kHalo));\n    }\n    wb::cp_async_commit();\n    wb::cp_async_wait<1>();  // this tile's group has landed; the next one's may still travel\n    __syncthreads();         // everyone's copies of this tile, and the weights, visible to all\n    convolve_stream_tile<kWidth>(smem_span[buffer], smem_weights, gmem_out, n, tile * (kStreamTile + 2 * kHalo));"
  EXPECT "step 2.*Likely cause: the outputs never written \\([0-9]+, from 2048 on\\) are exactly those that tiles placed 2052 outputs apart leave out")

# Step 1's outside elements copied with a source size of 1 byte where 0 is meant: the copy
# reads a byte of the array's first float and fills the rest with zeros, a denormal near
# zero that the tolerance lets pass.
wb_wrong_kernel(outside_copies_read_one_byte
  STEP 1
  FIND "inside ? gmem_in + index : gmem_in, inside ? 4 : 0);"
  REPLACE "inside ? gmem_in + index : gmem_in, inside ? 4 : 1);"
  EXPECT "step 1.*cp.async copies were given a source size of 1 byte for a copy of 4 \\(the first at [^)]*halo.cu:[0-9]+\\)")

# Step 2's tile loop run one tile further (`<=`): the block that reaches tile `tiles`
# waits, meets and convolves a buffer that no copy refilled, and its bounds test skips
# every store. The output stays right.
wb_wrong_kernel(tile_loop_one_tile_further
  STEP 2
  FIND "  int buffer = 0;\n  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, buffer ^= 1) {\n    // The next tile's copies go into the other buffer"
  REPLACE "  int buffer = 0;\n  for (int tile = blockIdx.x; tile <= tiles; tile += gridDim.x, buffer ^= 1) {\n    // The next tile's copies go into the other buffer"
  EXPECT "step 2.*1 block read shared memory after its last store of the output: block \\([0-9]+,0,0\\) read at [^,]*halo.cu:[0-9]+, 2 barriers after its last store")
