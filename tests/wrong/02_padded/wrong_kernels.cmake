# Known-wrong versions of chapter 2's solution, each one mistake a learner makes, with
# the diagnosis the grader must give. Each is the solution with FIND replaced by REPLACE.

# Step 1: the copy through the padded tile.
wb_wrong_kernel(missing_wait
  FIND "  wb::cp_async_wait_all();\n  __syncthreads();\n  for (int index"
  REPLACE "  __syncthreads();\n  for (int index"
  EXPECT "step 1.*read from shared memory before their cp.async had landed")

# A read of another thread's copy with no barrier: the stale poison today; the race check
# names both threads once the simulator has it (the cause then comes from kStep1's map,
# which says the same).
wb_wrong_kernel(missing_barrier
  FIND "  wb::cp_async_wait_all();\n  __syncthreads();\n  for (int index"
  REPLACE "  wb::cp_async_wait_all();\n  for (int index"
  EXPECT "step 1.*need a __syncthreads\\(\\) after everyone's wait")

# The store loop of chapter 1, walking the padded layout's offsets as if they were the
# tile's elements: smem_layout.coord() of a padded layout is no element's coordinate.
wb_wrong_kernel(store_walks_padded_offsets
  FIND "    const wb::Coord element = tile_layout.coord(index);"
  REPLACE "    const wb::Coord element = smem_layout.coord(index);"
  EXPECT "step 1.*never written by the kernel")

wb_wrong_kernel(copy_without_bounds
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {"
  REPLACE "  for (int col = thread_coord.col; col < kTileCols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {"
  EXPECT "step 1.*past its end.*missing a bounds check")

# Step 2: the padding for the row reads.
wb_wrong_kernel(unpadded
  FIND "  padding = 1;  // stride 129"
  REPLACE "  padding = 0;  // stride 128"
  EXPECT "step 2.*stride 128 \\(padding 0\\).*a 32-way bank conflict")

# The seed's +2: right for chapter 3's transposed read, 2-way for a 32-wide row read.
wb_wrong_kernel(plus_two_for_row_reads
  FIND "  padding = 1;  // stride 129"
  REPLACE "  padding = 2;  // stride 130"
  EXPECT "step 2.*stride 130 \\(padding 2\\).*a 2-way bank conflict")

# The padding declared, then bypassed: both the copy and the reads index the tile by
# hand with 128. The results stay right and the stride declared is 129, so only the
# simulator's wavefront counters can see it (fails until they land).
wb_wrong_kernel(layout_bypassed_by_hand
  FIND "wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_strip[gmem_layout(tile_row + row, col)]);\n      }\n    }\n    wb::cp_async_wait_all();\n    __syncthreads();\n    // Warp w reads the rows w, w + 8, w + 16, ...; its 32 lanes the 32 columns of each:\n    // lane c reads the word row + stride * c, in bank (row + stride * c) % 32.\n    if (sum_coord.col < valid_cols) {\n      for (int row = sum_coord.row; row < valid_rows; row += kWarps) {\n        sum += smem_tile[smem_layout(row, sum_coord.col)];"
  REPLACE "wb::cp_async(&smem_tile[row + kTileRows * col], &gmem_strip[gmem_layout(tile_row + row, col)]);\n      }\n    }\n    wb::cp_async_wait_all();\n    __syncthreads();\n    if (sum_coord.col < valid_cols) {\n      for (int row = sum_coord.row; row < valid_rows; row += kWarps) {\n        sum += smem_tile[row + kTileRows * sum_coord.col];"
  EXPECT "step 2.*shared loads: [0-9.]+ wavefronts per request.*worst at [^ ]*padded.cu:[0-9]+, 32.0 per request")

# No barrier between the reads of one tile and the copies of the next: the next tile's
# copies overwrite floats other warps still read. Diagnosed by the simulator's race check
# (fails until it lands: today the sums are merely wrong).
wb_wrong_kernel(missing_barrier_before_next_tile
  FIND "    __syncthreads();  // every warp has read this tile before the next one overwrites it\n"
  REPLACE ""
  EXPECT "step 2.*the __syncthreads\\(\\) at the end of the loop body")
