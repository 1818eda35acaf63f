# Known-wrong versions of chapter 7's solution, each one mistake a learner makes, with
# the diagnosis the grader must give. Each is the solution with FIND replaced by REPLACE.

# Step 1, cooperative_groups::memcpy_async.
wb_wrong_kernel(no_group_wait
  STEP 1
  FIND "  cg::wait(block);\n"
  REPLACE ""
  EXPECT "step 1.*a race on shared memory.*cg::wait\\(block\\) lands this thread's copies and then synchronises the block")

wb_wrong_kernel(block_sync_instead_of_wait
  STEP 1
  FIND "  cg::wait(block);\n"
  REPLACE "  block.sync();\n"
  EXPECT "step 1.*read from shared memory before their cp.async had landed")

# wait_prior<1> where every group is needed: each call commits a group, so the last
# column's copies are still travelling when the store reads them.
wb_wrong_kernel(wait_prior_leaves_the_last_column
  STEP 1
  FIND "  cg::wait(block);\n"
  REPLACE "  cg::wait_prior<1>(block);\n"
  EXPECT "step 1.*its last wait<1>, with 16 groups committed, left the newest 1 in flight.*this step waits with cg::wait\\(block\\), which lands every group before the reads")

# Each column's copy sized 128 (bytes) where 128 floats were meant: the first 32 floats of
# each column land, the rest of the column is never filled.
wb_wrong_kernel(column_size_in_floats
  STEP 1
  FIND "cuda::aligned_size_t<16>(sizeof(float) * kTileRows)"
  REPLACE "cuda::aligned_size_t<16>(kTileRows)"
  EXPECT "step 1.*filled 32 words of every 128 of smem_tile \\(words 0-31, 128-159, 256-287, ...\\).*Each library copy at [^ ]*library.cu:[0-9]+ copies 128 bytes, 32 floats.*a size in floats where bytes are asked.*128 floats are 512 bytes \\(sizeof\\(float\\) \\* 128\\)")

wb_wrong_kernel(one_call_for_the_whole_tile
  STEP 1
  FIND "  for (int col = 0; col < kTileCols; ++col) {\n    cg::memcpy_async(block, &smem_tile[smem_layout(0, col)], &gmem_tile_in[gmem_layout(0, col)],\n                     cuda::aligned_size_t<16>(sizeof(float) * kTileRows));\n  }\n"
  REPLACE "  cg::memcpy_async(block, smem_tile, gmem_tile_in, cuda::aligned_size_t<16>(sizeof(float) * kTileRows * kTileCols));\n"
  EXPECT "step 1.*elements are wrong")

# Right on every element, but float pointers promise 4 bytes: nvcc's code copies 4 bytes
# at a time (its PTX has cp.async of 4 bytes only), and so does the simulator.
wb_wrong_kernel(no_aligned_size_for_the_columns
  STEP 1
  FIND "cuda::aligned_size_t<16>(sizeof(float) * kTileRows)"
  REPLACE "sizeof(float) * kTileRows"
  EXPECT "step 1.*library.cu:[0-9]+: cooperative_groups::memcpy_async issued [0-9]+ copies of 4 bytes, as its call promises an alignment of 4 bytes \\(alignof of the pointers' type, 4, and no cuda::aligned_size_t\\).*cuda::aligned_size_t<16>")

# Step 1's tile copied with one call, as if its 2048 floats were one run of the array:
# column 1 of the tile receives rows 128 to 255 of the array's column 0.
wb_wrong_kernel(whole_tile_in_one_call
  STEP 1
  FIND "  for (int col = 0; col < kTileCols; ++col) {\n    cg::memcpy_async(block, &smem_tile[smem_layout(0, col)], &gmem_tile_in[gmem_layout(0, col)],\n                     cuda::aligned_size_t<16>(sizeof(float) * kTileRows));\n  }"
  REPLACE "  cg::memcpy_async(block, smem_tile, gmem_tile_in, cuda::aligned_size_t<16>(sizeof(float) * kTileRows * kTileCols));"
  EXPECT "step 1.*Likely cause: the input was read with a leading dimension of 128.*128 is the tile's rows: the tile was taken as one contiguous run of the input")

# Step 1's shared destination counted in bytes: the copy of column 4 lands past smem_tile,
# at four times its index. Its source is right, so no reading of a read past the input may
# be named.
wb_wrong_kernel(destination_offset_in_bytes
  STEP 1
  FIND "cg::memcpy_async(block, &smem_tile[smem_layout(0, col)],"
  REPLACE "cg::memcpy_async(block, smem_tile + col * sizeof(float) * kTileRows,"
  EXPECT "step 1.*Likely cause: the copy of element \\(0, [0-9]+\\) of block \\(0, 0\\)'s tile went to float [0-9]+ of smem_tile = 4 \\* \\(0 \\+ [0-9]+ \\* 128\\), past its end: its index, row \\+ col \\* 128 \\(the tile's rows\\), counted in bytes")

# Step 2, cuda::pipeline.
wb_wrong_kernel(missing_consumer_release
  STEP 2
  FIND "    pipeline.consumer_release();  // everyone done with it: the next acquire may refill it\n"
  REPLACE ""
  EXPECT "step 2.*stage 0 was never released: is consumer_release\\(\\) missing\\?")

wb_wrong_kernel(commit_before_the_copies
  STEP 2
  FIND "    pipeline.producer_acquire();\n    if (next_tile < tiles) load_span_async(block, pipeline, smem_span[stage ^ 1], gmem_in, n, next_tile * kStreamTile);\n    pipeline.producer_commit();\n"
  REPLACE "    pipeline.producer_acquire();\n    pipeline.producer_commit();\n    if (next_tile < tiles) load_span_async(block, pipeline, smem_span[stage ^ 1], gmem_in, n, next_tile * kStreamTile);\n"
  EXPECT "step 2.*Is producer_commit\\(\\) before the copies instead of after them, or producer_acquire\\(\\) after them")

wb_wrong_kernel(read_before_consumer_wait
  STEP 2
  FIND "    pipeline.consumer_wait();  // this tile's stage, everyone's copies, landed\n    convolve_tile(smem_span[stage], smem_weights, gmem_out, n, tile * kStreamTile);\n"
  REPLACE "    convolve_tile(smem_span[stage], smem_weights, gmem_out, n, tile * kStreamTile);\n    pipeline.consumer_wait();  // this tile's stage, everyone's copies, landed\n"
  EXPECT "step 2.*a race on shared memory.*this tile's stage is read only after consumer_wait\\(\\)")

wb_wrong_kernel(next_stage_after_the_wait
  STEP 2
  FIND "    pipeline.producer_acquire();\n    if (next_tile < tiles) load_span_async(block, pipeline, smem_span[stage ^ 1], gmem_in, n, next_tile * kStreamTile);\n    pipeline.producer_commit();\n    pipeline.consumer_wait();  // this tile's stage, everyone's copies, landed\n"
  REPLACE "    pipeline.consumer_wait();  // this tile's stage, everyone's copies, landed\n    pipeline.producer_acquire();\n    if (next_tile < tiles) load_span_async(block, pipeline, smem_span[stage ^ 1], gmem_in, n, next_tile * kStreamTile);\n    pipeline.producer_commit();\n"
  EXPECT "step 2.*the copies and the arithmetic take turns")

wb_wrong_kernel(no_acquire_for_the_next_tile
  STEP 2
  FIND "    pipeline.producer_acquire();\n    if (next_tile < tiles)"
  REPLACE "    if (next_tile < tiles)"
  EXPECT "step 2.*producer_commit\\(\\): no stage acquired")

wb_wrong_kernel(span_starts_at_the_halo
  STEP 2
  FIND "  const int span_start = tile_start - kSpanPad;"
  REPLACE "  const int span_start = tile_start - kHalo;"
  EXPECT "step 2.*aligned_size_t<16> promises.*the span starts kSpanPad = 8 elements")

wb_wrong_kernel(no_aligned_size_for_the_span
  STEP 2
  FIND "cuda::aligned_size_t<16>(sizeof(float) * (last - tile_start))"
  REPLACE "sizeof(float) * (last - tile_start)"
  EXPECT "step 2.*every span goes through the library's copy as 16-byte copies, with cuda::aligned_size_t<16>, and .*library.cu:[0-9]+: cuda::memcpy_async issued [0-9]+ copies of 4 bytes, as its call promises an alignment of 4 bytes")

# Not here: the weights stored after the first producer_commit(). On a GPU that is a race
# (consumer_wait() orders only what came before the commit); the simulator's model lands a
# stage at the first consumer_wait() for it, after every thread's stores, and misses it.

wb_wrong_kernel(no_zeros_outside_the_array
  STEP 2
  FIND "    if (index < first || index >= last) smem_span[j] = 0.0f;\n"
  REPLACE ""
  EXPECT "step 2.*elements are wrong")

# The span's zeros stop one short of the end: the element just past the array keeps what
# the buffer held, and the last outputs fit that one value exactly.
wb_wrong_kernel(zeros_one_short_of_the_end
  STEP 2
  FIND "    if (index < first || index >= last) smem_span[j] = 0.0f;"
  REPLACE "    if (index < first || index > last) smem_span[j] = 0.0f;"
  EXPECT "step 2.*they fit one input exactly: the span's element n = [0-9]+, the first past the array's end.*misses that one")

# The span's zeros stored by one thread: right on every element, but one lane of the block
# walks all 2064 elements of every span while the other lanes idle.
wb_wrong_kernel(zeros_by_one_thread
  STEP 2
  FIND "  for (int j = block.thread_rank(); j < kSpan; j += kThreads) {\n"
  REPLACE "  if (block.thread_rank() == 0) for (int j = 0; j < kSpan; ++j) {\n"
  EXPECT "step 2.*the shared stores at [^ ]*library.cu:[0-9]+ went one lane at a time: [0-9]+ requests of 1.0 active lanes.*Spread them over the block")

# The stage never flipped: the next spans go to stage 1, every tile is read from stage 0,
# which holds the block's first span.
wb_wrong_kernel(stage_never_flipped
  STEP 2
  FIND "  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, stage ^= 1) {"
  REPLACE "  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {"
  EXPECT "step 2.*Likely cause: every tile after a block's first holds the outputs of that block's first tile.*never flipped")

# The tile's part of the span copied at its whole length, unclipped: the array's last tile
# has fewer inputs after tile_start than the tile and its right pad, and the copy reads
# past the input's end.
wb_wrong_kernel(tile_part_copied_whole_at_the_end
  STEP 2
  FIND "cuda::aligned_size_t<16>(sizeof(float) * (last - tile_start)), pipeline);"
  REPLACE "cuda::aligned_size_t<16>(sizeof(float) * (kStreamTile + kSpanPad)), pipeline);"
  EXPECT "step 2.*a copy reads outside the input: only the span's part inside \\[0, n\\), \\[first, last\\), is copied")

# One copy of the whole span (which the page allows) at its whole length from a clipped
# start: at the array's first tile the span begins before the array, its copy 8 words into
# the buffer, and it runs past the buffer's end.
wb_wrong_kernel(span_copied_whole_where_clipped
  STEP 2
  FIND "  cuda::memcpy_async(block, smem_span + kSpanPad, gmem_in + tile_start,\n                     cuda::aligned_size_t<16>(sizeof(float) * (last - tile_start)), pipeline);\n  if (first < tile_start) {\n    cuda::memcpy_async(block, smem_span + (first - span_start), gmem_in + first,\n                       cuda::aligned_size_t<16>(sizeof(float) * (tile_start - first)), pipeline);\n  }\n"
  REPLACE "  cuda::memcpy_async(block, smem_span + (first - span_start), gmem_in + first,\n                     cuda::aligned_size_t<16>(sizeof(float) * kSpan), pipeline);\n"
  EXPECT "step 2.*Likely cause: .*that span starts at input\\[-8\\], before the array, so its copy begins at input\\[0\\], 8 words into the buffer.*last - first, not the whole span")

# The left pad copied from span_start, unclipped: at the array's first tile that reads the
# 8 inputs before the array.
wb_wrong_kernel(left_pad_copied_from_before_the_array
  STEP 2
  FIND "  if (first < tile_start) {\n    cuda::memcpy_async(block, smem_span + (first - span_start), gmem_in + first,\n                       cuda::aligned_size_t<16>(sizeof(float) * (tile_start - first)), pipeline);"
  REPLACE "  {\n    cuda::memcpy_async(block, smem_span, gmem_in + span_start,\n                       cuda::aligned_size_t<16>(sizeof(float) * kSpanPad), pipeline);"
  EXPECT "step 2.*a copy reads outside the input: only the span's part inside \\[0, n\\), \\[first, last\\), is copied")

# Step 3, a bulk copy a tile on a cuda::barrier.

# consumer_release() right after consumer_wait(), before the tile is computed: the next
# acquire may refill the stage while slower threads still read it.
wb_wrong_kernel(stage_released_before_it_is_read
  STEP 2
  FIND "    convolve_tile(smem_span[stage], smem_weights, gmem_out, n, tile * kStreamTile);\n    pipeline.consumer_release();  // everyone done with it: the next acquire may refill it\n"
  REPLACE "    pipeline.consumer_release();\n    convolve_tile(smem_span[stage], smem_weights, gmem_out, n, tile * kStreamTile);\n"
  EXPECT "step 2.*kernel failed.*after its consumer_release\\(\\) at .*library.cu:[0-9]+, which hands the stage back.*Likely cause: the pipeline's calls out of order")

# Step 2's outputs stored at the tile's place among its block's tiles: every block writes
# over the output's first tiles, and the rest is never written.
wb_wrong_kernel(outputs_stored_at_the_place_in_the_block
  STEP 2
  FIND "    convolve_tile(smem_span[stage], smem_weights, gmem_out, n, tile * kStreamTile);"
  REPLACE "    convolve_tile(smem_span[stage], smem_weights, gmem_out, n, (tile / gridDim.x) * kStreamTile);"
  EXPECT "step 2.*Likely cause: only the first 4 tiles of the output \\(outputs 0 to 8191\\) were written, each output the right one at its place in some tile")

# Each block walks a run of kTilesPerBlock consecutive tiles, its loop bounded by `<=` the
# run's end: one tile too many, convolved from the stage holding the tile two before, and
# stored over the next block's first tile (which block stores it last varies: where the
# next block's lands last, the output is right, and the tile's second store is the evidence).
wb_wrong_kernel(run_of_tiles_one_too_many
  STEP 2
  FIND "  load_span_async(block, pipeline, smem_span[0], gmem_in, n, blockIdx.x * kStreamTile);\n  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n  pipeline.producer_commit();\n  int stage = 0;\n  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, stage ^= 1) {\n    // The next tile into the other stage, committed (empty past the last tile) before this\n    // tile's wait, so that it travels while this one is computed.\n    const int next_tile = tile + gridDim.x;"
  REPLACE "  const int first_tile = blockIdx.x * kTilesPerBlock;\n  const int end_tile = first_tile + kTilesPerBlock < tiles ? first_tile + kTilesPerBlock : tiles;\n  load_span_async(block, pipeline, smem_span[0], gmem_in, n, first_tile * kStreamTile);\n  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n  pipeline.producer_commit();\n  int stage = 0;\n  for (int tile = first_tile; tile <= end_tile; ++tile, stage ^= 1) {\n    const int next_tile = tile + 1 < end_tile ? tile + 1 : tiles;"
  EXPECT "step 2.*(Likely cause: each wrong tile is the first of its block's run of 4 tiles.*holds the outputs of the tile 2 before it.*That block's loop runs one tile too many|global stores: 18432 elements stored for 16384 output elements.*or two blocks store the same tile \\(a block's loop running past its own tiles)")

# Step 2's next tile loaded before its stage is acquired: its copies join the stage that
# is not committed until the next commit, as with the commit placed before the copies.
wb_wrong_kernel(step2_load_before_the_acquire
  STEP 2
  FIND "    pipeline.producer_acquire();\n    if (next_tile < tiles) load_span_async(block, pipeline, smem_span[stage ^ 1], gmem_in, n, next_tile * kStreamTile);"
  REPLACE "    if (next_tile < tiles) load_span_async(block, pipeline, smem_span[stage ^ 1], gmem_in, n, next_tile * kStreamTile);\n    pipeline.producer_acquire();"
  EXPECT "step 2.*or producer_acquire\\(\\) after them instead of before")

# The weights stored after the first producer_commit(), with no barrier after them: on a
# GPU a race, since a block-scoped pipeline's consumer_wait() orders only what each thread
# did before its commit.
wb_wrong_kernel(weights_stored_after_the_commit
  STEP 2
  FIND "  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n  pipeline.producer_commit();\n  int stage = 0;"
  REPLACE "  pipeline.producer_commit();\n  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n  int stage = 0;"
  EXPECT "step 2.*a race on shared memory: this thread reads smem_weights\\[[0-9]\\].*wrote at [^ ]*library.cu:[0-9]+ after its producer_commit\\(\\) \\(1 of them by then\\), with no __syncthreads\\(\\) since.*consumer_wait\\(\\) orders only what each thread did before its producer_commit\\(\\).*Likely cause: a store to shared memory \\(the weights\\?\\) placed after a producer_commit\\(\\)")

# The copy's size a whole tile's where the arrival expects the tile's own bytes: the last,
# partial tile's copy reads past the input's end.
wb_wrong_kernel(bulk_copy_of_a_whole_tile FILE hopper.cu
  STEP 3
  FIND "cuda::aligned_size_t<16>(bytes), full);"
  REPLACE "cuda::aligned_size_t<16>(sizeof(float) * kBulkTile), full);"
  EXPECT "step 3.*past its end.*Likely cause: a copy reads past the end of the input: the last tile may be partial")
wb_wrong_kernel(transaction_bytes_of_a_whole_tile FILE hopper.cu
  STEP 3
  FIND "  (void)cuda::device::barrier_arrive_tx(full, 1, bytes);\n"
  REPLACE "  (void)cuda::device::barrier_arrive_tx(full, 1, sizeof(float) * kBulkTile);\n"
  EXPECT "step 3.*a barrier phase that can never complete.*expects 4096 bytes while the copies of this phase bring 48 bytes.*the last tile is partial")

wb_wrong_kernel(arrival_without_the_bytes FILE hopper.cu
  STEP 3
  FIND "  (void)cuda::device::barrier_arrive_tx(full, 1, bytes);\n"
  REPLACE "  (void)full.arrive();\n"
  EXPECT "step 3.*expects 0 bytes while the copies of this phase bring 4096 bytes")

wb_wrong_kernel(wait_on_the_wrong_phase FILE hopper.cu
  STEP 3
  FIND "full[stage].wait_parity((i / kStages) % 2);"
  REPLACE "full[stage].wait_parity((i / kStages + 1) % 2);"
  EXPECT "step 3.*Likely cause: a wait returned at once on a phase that had completed before.*the wait was for the wrong phase")

wb_wrong_kernel(no_wait_on_the_barrier FILE hopper.cu
  STEP 3
  FIND "    full[stage].wait_parity((i / kStages) % 2);  // this stage's use i / 2: its barrier's phase i / 2\n"
  REPLACE ""
  EXPECT "step 3.*a race on shared memory.*That write is a bulk or tensor copy, which lands when its barrier's phase completes: a thread reads its tile only after waiting for that phase")

wb_wrong_kernel(refill_before_the_readers_are_done FILE hopper.cu
  STEP 3
  FIND "    __syncthreads();  // every thread is done reading the stage: it may be refilled\n"
  REPLACE ""
  EXPECT "step 3.*The barrier went through [0-9]+ phases since some of these threads last saw one complete.*is the __syncthreads\\(\\) between the reads of a stage and its refill missing")

wb_wrong_kernel(init_count_of_the_whole_block FILE hopper.cu
  STEP 3
  FIND "init(&barriers[b], 1);"
  REPLACE "init(&barriers[b], blockDim.x);"
  EXPECT "step 3.*still lacks 255 of its 256 arrivals")

wb_wrong_kernel(no_barrier_after_init FILE hopper.cu
  STEP 3
  FIND "    cde::fence_proxy_async_shared_cta();\n  }\n  __syncthreads();\n"
  REPLACE "    cde::fence_proxy_async_shared_cta();\n  }\n"
  EXPECT "step 3.*which this block has not initialised \\(yet\\).*a __syncthreads\\(\\) follows")

wb_wrong_kernel(parity_of_the_tile_index FILE hopper.cu
  STEP 3
  FIND "full[stage].wait_parity((i / kStages) % 2);"
  REPLACE "full[stage].wait_parity(i % 2);"
  EXPECT "step 3.*after a wait that returned at once: it waited for a phase of the barrier that had completed before")

wb_wrong_kernel(wait_on_the_first_stage_only FILE hopper.cu
  STEP 3
  FIND "full[stage].wait_parity((i / kStages) % 2);"
  REPLACE "full[0].wait_parity((i / kStages) % 2);"
  EXPECT "step 3.*after a wait that returned at once: it waited for a phase of the barrier that had completed before")

wb_wrong_kernel(copy_size_in_floats FILE hopper.cu
  STEP 3
  FIND "cuda::aligned_size_t<16>(bytes), full);"
  REPLACE "cuda::aligned_size_t<16>(bytes / 4), full);"
  EXPECT "step 3.*a barrier phase that can never complete.*expects 4096 bytes while the copies of this phase bring 1024 bytes")

# The bulk copy's source offset in bytes on a float pointer: every tile but the first is
# read four times too far.
wb_wrong_kernel(bulk_source_offset_in_bytes FILE hopper.cu
  STEP 3
  FIND "  cuda::device::memcpy_async_tx(smem_tile, gmem_in + first, cuda::aligned_size_t<16>(bytes), full);"
  REPLACE "  cuda::device::memcpy_async_tx(smem_tile, gmem_in + sizeof(float) * first, cuda::aligned_size_t<16>(bytes), full);"
  EXPECT "step 3.*the tile's start counted in bytes, sizeof\\(float\\) \\* first, and added to a float pointer")

# Every thread arrives on the stage's barrier before it waits, on a barrier initialised for
# the producer's one arrival a phase: the first arrival ends the phase with no copy in it.
wb_wrong_kernel(readers_arrive_on_the_copy_barrier
  STEP 3
  FILE hopper.cu
  FIND "    full[stage].wait_parity((i / kStages) % 2);"
  REPLACE "    full[stage].wait(full[stage].arrive());"
  EXPECT "step 3.*Likely cause: phase [0-9]+ of the barrier [^ ]+ completed on the arrival of thread \\([0-9]+,0,0\\) at [^ ]*hopper.cu:[0-9]+, which brought no bytes.*only wait for the phase \\(wait_parity\\)")

# Step 3's arrival count multiplied by sizeof(float) once too often: the copies bring a
# quarter of it, as a copy's size in floats would, so both are named.
wb_wrong_kernel(step3_arrival_bytes_times_sizeof_float
  FILE hopper.cu
  STEP 3
  FIND "(void)cuda::device::barrier_arrive_tx(full, 1, bytes);"
  REPLACE "(void)cuda::device::barrier_arrive_tx(full, 1, sizeof(float) * bytes);"
  EXPECT "step 3.*exactly a quarter of the count: either a copy's size given in floats where the bulk copy takes bytes.*or a byte count multiplied by sizeof\\(float\\) once too often")

# Step 4, the TMA.
wb_wrong_kernel(box_larger_than_the_shared_tile FILE hopper.cu
  STEP 4
  FIND "  box_dims[1] = kBoxCols;\n"
  REPLACE "  box_dims[1] = 2 * kBoxCols;\n"
  EXPECT "step 4.*bytes past its end.*The tensor map's box is larger than the shared tile")

wb_wrong_kernel(transaction_bytes_of_the_part_inside FILE hopper.cu
  STEP 4
  FIND "(void)cuda::device::barrier_arrive_tx(full, 1, sizeof(smem_box));"
  REPLACE "(void)cuda::device::barrier_arrive_tx(full, 1, sizeof(float) * (rows - box_row < kBoxRows ? rows - box_row : kBoxRows) * (cols - box_col < kBoxCols ? cols - box_col : kBoxCols));"
  EXPECT "step 4.*the copies bring more than the byte count given to barrier_arrive_tx \\(a tensor copy brings its whole box")

wb_wrong_kernel(read_without_the_swizzle FILE hopper.cu
  STEP 4
  FIND "  chunk ^= col % 8;\n"
  REPLACE ""
  EXPECT "step 4.*elements are wrong.*each wrong output holds another element of its own box.*swizzled_word must undo the same one")

wb_wrong_kernel(map_without_the_swizzle FILE hopper.cu
  STEP 4
  FIND "CU_TENSOR_MAP_SWIZZLE_128B"
  REPLACE "CU_TENSOR_MAP_SWIZZLE_NONE"
  EXPECT "step 4.*elements are wrong.*each wrong output holds another element of its own box")

wb_wrong_kernel(tensor_copy_by_every_thread FILE hopper.cu
  STEP 4
  FIND "  if (threadIdx.x == 0) {\n    cde::cp_async_bulk_tensor_2d"
  REPLACE "  {\n    cde::cp_async_bulk_tensor_2d"
  EXPECT "step 4.*thread \\(1,0,0\\): cp_async_bulk_tensor_2d_global_to_shared.*a race on shared memory.*only thread 0 issues the box's copy")

wb_wrong_kernel(no_wait_for_the_box FILE hopper.cu
  STEP 4
  FIND "  full.wait_parity(0);\n"
  REPLACE ""
  EXPECT "step 4.*a race on shared memory.*every thread waits with full.wait_parity\\(0\\) before reading smem_box")

wb_wrong_kernel(stride_in_elements FILE hopper.cu
  STEP 4
  FIND "global_strides[0] = sizeof(float) * static_cast<cuuint64_t>(rows);"
  REPLACE "global_strides[0] = static_cast<cuuint64_t>(rows);"
  EXPECT "step 4.*elements are wrong.*the input was read with a leading dimension of 32")

# The weights may come through the pipeline too, with the first tile (4-byte copies: 20
# bytes cannot be 16-byte ones); the technique check judges the spans' copies only.
wb_accepted_kernel(weights_through_the_pipeline
  FIND "  if (threadIdx.x < kWidth) smem_weights[threadIdx.x] = gmem_weights[threadIdx.x];\n"
  REPLACE "  cuda::memcpy_async(block, smem_weights, gmem_weights, sizeof(float) * kWidth, pipeline);\n")

wb_wrong_kernel(dimensions_exchanged FILE hopper.cu
  STEP 4
  FIND "  global_dims[0] = static_cast<cuuint64_t>(rows);\n  global_dims[1] = static_cast<cuuint64_t>(cols);\n"
  REPLACE "  global_dims[0] = static_cast<cuuint64_t>(cols);\n  global_dims[1] = static_cast<cuuint64_t>(rows);\n"
  EXPECT "step 4.*the tensor map describes memory its allocation does not hold.*its dimensions are the input's, innermost \\(rows\\) first")

wb_wrong_kernel(box_coordinates_exchanged FILE hopper.cu
  STEP 4
  FIND "(smem_box, &tensor_map, box_row, box_col, full)"
  REPLACE "(smem_box, &tensor_map, box_col, box_row, full)"
  EXPECT "step 4.*the tensor copy took the box with its coordinates exchanged")

# The box's coordinates given as the block's index: a box one element further on per block.
wb_wrong_kernel(box_coordinates_as_block_indices FILE hopper.cu
  STEP 4
  FIND "(smem_box, &tensor_map, box_row, box_col, full)"
  REPLACE "(smem_box, &tensor_map, blockIdx.y, blockIdx.x, full)"
  EXPECT "step 4.*elements are wrong.*a tile that starts at the tile's index instead of its origin.*a bulk tensor copy's coordinates, too, are elements")

# The producer keeps its arrival's token and waits on it at once: each bulk copy lands
# before the next goes out. The output stays right; the stages no longer overlap.
wb_wrong_kernel(producer_waits_for_its_own_copy
  STEP 3
  FILE hopper.cu
  FIND "  (void)cuda::device::barrier_arrive_tx(full, 1, bytes);"
  REPLACE "  full.wait(cuda::device::barrier_arrive_tx(full, 1, bytes));"
  EXPECT "step 3.*tiles in flight on average.*Likely cause: [0-9]+ of the [0-9]+ bulk copies were waited for by the thread that issued them, on their own phase, before it issued another")

# Step 2's tile loop run one tile further (`<=`): the extra iteration waits for the stage
# the last tile committed empty and convolves it; every store is skipped.
wb_wrong_kernel(pipeline_loop_one_tile_further
  STEP 2
  FILE library.cu
  FIND "  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, stage ^= 1) {"
  REPLACE "  for (int tile = blockIdx.x; tile <= tiles; tile += gridDim.x, stage ^= 1) {"
  EXPECT "step 2.*consumer_wait\\(\\) calls \\(each thread's counted\\) waited for a stage into which no thread had copied")
