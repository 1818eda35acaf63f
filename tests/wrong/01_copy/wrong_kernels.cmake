# Known-wrong versions of chapter 1's solution, each one mistake a learner makes, with
# the diagnosis the grader must give. Each is the solution with FIND replaced by REPLACE.

# Two threads write one shared word between two barriers: an index mistake, which a
# barrier would not fix. Each EXPECT asks for both writers and the overlap as the cause.
set(overlap_found "step 1.*cp.async of 4 bytes: two threads write smem_tile\\[[0-9]+\\] \\(in 4-byte elements\\) between the same two barriers: thread \\([0-9]+,0,0\\) of block \\([0-9]+,[0-9]+,0\\) wrote it at [^ ]*copy.cu:[0-9]+, then thread \\([0-9]+,0,0\\) writes it at [^ ]*copy.cu:[0-9]+\\. One line computed the same index for both threads: their indices overlap.*a __syncthreads\\(\\) would not fix this")

# The elements both copies brought name which index is wrong: the same element twice (the
# threads' (row, col) overlap), or one outside the tile (a bound past it).
set(same_element_cause "Likely cause: thread \\([0-9]+, 0\\) \\([^)]*\\) and thread \\([0-9]+, 0\\) \\([^)]*\\) both copied element \\([0-9]+, [0-9]+\\) of block \\(0, 0\\)'s tile of the input.*two threads meant the same element.*either a loop's step is too small.*or the \\(row, col\\) a thread starts from")

set(past_the_tile_cause "Likely cause: thread \\(0, 0\\) copied element \\(128, 0\\) of the input into smem_tile\\[128\\], outside block \\(0, 0\\)'s tile of the input \\(rows 0 to 127, columns 0 to 15\\): one past its last row, where a loop bound one past the tile \\(`<=` where `<` is meant\\) reaches")

wb_wrong_kernel(missing_wait
  STEP 1
  FIND "  wb::cp_async_wait_all();\n"
  REPLACE ""
  EXPECT "read from shared memory before their cp.async had landed")

wb_wrong_kernel(missing_barrier
  STEP 1
  FIND "  wb::cp_async_wait_all();\n  __syncthreads();\n"
  REPLACE "  wb::cp_async_wait_all();\n"
  EXPECT "step 1.*a race on shared memory: this thread (reads|writes) smem_tile\\[[0-9]+\\].*need a __syncthreads\\(\\) after everyone's wait")

wb_wrong_kernel(wait_after_the_barrier
  STEP 1
  FIND "  wb::cp_async_wait_all();\n  __syncthreads();\n"
  REPLACE "  __syncthreads();\n  wb::cp_async_wait_all();\n"
  EXPECT "step 1.*cp.async, issued at [^ ]*copy.cu:[0-9]+, lands only when that thread waits for it, and its wait came after the last __syncthreads\\(\\)")

wb_wrong_kernel(block_index_swapped
  STEP 1
  FIND "  const int tile_row = blockIdx.x * kTileRows;\n  const int tile_col = blockIdx.y * kTileCols;\n"
  REPLACE "  const int tile_row = blockIdx.y * kTileRows;\n  const int tile_col = blockIdx.x * kTileCols;\n"
  EXPECT "step 1.*rows from blockIdx.x, columns from blockIdx.y")

wb_wrong_kernel(plain_loads
  STEP 1
  FIND "wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);"
  REPLACE "smem_tile[smem_layout(row, col)] = gmem_tile_in[gmem_layout(row, col)];"
  EXPECT "0 of 8192 elements reached shared memory through cp.async")

wb_wrong_kernel(index_leaves_the_tile
  STEP 1
  FIND "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  //! [step 1 hole]"
  REPLACE "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(tile_row + row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  //! [step 1 hole]"
  EXPECT "step 1.*past its end.*Likely cause: block \\([0-9]+, [0-9]+\\).s thread .* either its row loop carries on from where the column before it ended.*or the tile's row origin \\(128, 0\\) is counted twice")

wb_wrong_kernel(copy_without_end
  STEP 1
  FIND "    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {"
  REPLACE "    for (int row = thread_coord.row; row < kTileRows; row + kThreadRows) {"
  EXPECT "step 1.*issued 4096 copies.*a loop that never ends")

wb_wrong_kernel(wait_after_every_copy
  STEP 1
  FIND "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  //! [step 1 hole]"
  REPLACE "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n      wb::cp_async_wait_all();\n    }\n  }\n  __syncthreads();\n  //! [step 1 hole]"
  EXPECT "step 1.*8.0 waits per thread for 8.0 copies.*then wait once")

wb_wrong_kernel(shared_destination_outside_the_tile
  STEP 1
  FIND "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  //! [step 1 hole]"
  REPLACE "      wb::cp_async(&smem_tile[gmem_layout(tile_row + row, tile_col + col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  //! [step 1 hole]"
  EXPECT "step 1.*not the block's shared memory.*Likely cause: the copy of element .* of smem_tile = .* past its end: the shared index steps its columns by 256, the input's leading dimension")

wb_wrong_kernel(store_loop_without_end
  STEP 1
  FIND "index < smem_layout.size(); index += kVector * kThreads) {"
  REPLACE "index < smem_layout.size(); index + kVector * kThreads) {"
  ENVIRONMENT WB_STEP_TIMEOUT=3
  EXPECT "step 1.*did not finish within 3 s.*block \\([0-9]+,[0-9]+,0\\): thread .* is still running, last seen at [^ ]*copy.cu:[0-9]+")

# The store loop steps by half the threads' float4s: most elements stored twice (1.75
# times on average), the output right. The count of the floats stored (a float4 is four)
# is what tells.
wb_wrong_kernel(store_loop_steps_by_half
  STEP 1
  FIND "index < smem_layout.size(); index += kVector * kThreads) {"
  REPLACE "index < smem_layout.size(); index += kVector * kThreads / 2) {"
  EXPECT "step 1.*global stores: 14336 elements stored for 8192 output elements, 1.75 each \\(14336 of them at [^ ]*copy.cu:[0-9]+\\).*a store loop that steps by less than they cover together")

wb_wrong_kernel(store_far_out_of_bounds
  STEP 1
  FIND "*reinterpret_cast<float4*>(&gmem_tile_out[gmem_layout(element.row, element.col)]) ="
  REPLACE "*reinterpret_cast<float4*>(&gmem_tile_out[gmem_layout(element.row, element.col) + (1 << 30)]) ="
  EXPECT "step 1.*crashed with signal Segmentation fault in block \\([0-9]+,[0-9]+,0\\), thread \\([0-9]+,0,0\\), at [^ ]*copy.cu:[0-9]+: its last memory access, a store.*WB_SEED=[0-9]+ gdb --args")

# The tile's origin counted twice in the copy's source: gmem_tile_in already points at
# the tile, and the row and column given to it are global ones.
wb_wrong_kernel(tile_origin_counted_twice
  STEP 1
  FIND "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  //! [step 1 hole]"
  REPLACE "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(tile_row + row, tile_col + col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  //! [step 1 hole]"
  EXPECT "step 1.*Likely cause: the tile's (row |column )?origin is counted twice: block \\([0-9]+, [0-9]+\\)'s tile of the input starts at \\([0-9]+, [0-9]+\\), and its thread \\([0-9]+, 0\\) read element")

# Rows stepped by the thread layout's columns (8) instead of its rows (32): thread row 8
# copies rows 8, 16, ... which thread row 0 copies too.
wb_wrong_kernel(rows_stepped_by_a_wrong_stride
  STEP 1
  FIND "    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {"
  REPLACE "    for (int row = thread_coord.row; row < kTileRows; row += kThreadCols) {"
  EXPECT "${overlap_found}.*${same_element_cause}")

# The thread coordinate's row and column exchanged on the 32x8 thread layout: thread row
# 8 starts at column 8, which thread row 0 reaches by its step of 8.
wb_wrong_kernel(thread_row_and_column_exchanged
  STEP 1
  FIND "  for (int col = thread_coord.col; col < kTileCols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {"
  REPLACE "  for (int col = thread_coord.row; col < kTileCols; col += kThreadCols) {\n    for (int row = thread_coord.col; row < kTileRows; row += kThreadRows) {"
  EXPECT "${overlap_found}.*${same_element_cause}")

# The row bound one past the tile: row 128 of a column-major 128-row tile is row 0 of the
# next column, which another thread copies.
wb_wrong_kernel(row_bound_one_past_the_tile
  STEP 1
  FIND "    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {"
  REPLACE "    for (int row = thread_coord.row; row <= kTileRows; row += kThreadRows) {"
  EXPECT "${overlap_found}.*${past_the_tile_cause}")

# The copy reads from the array's pointer where the tile's is meant: every block copies
# the first tile.
wb_wrong_kernel(source_without_the_tile_origin
  STEP 1
  FIND "&gmem_tile_in[gmem_layout(row, col)]"
  REPLACE "&gmem_in[gmem_layout(row, col)]"
  EXPECT "step 1.*every wrong tile holds the data of the array's first tile.*gmem_in for gmem_tile_in")

# The source's row and column exchanged, layout(col, row): thread (0, 0)'s second copy,
# meant for (32, 0), reads (0, 32), past the tile's 16 columns. With the loops nested the
# other way the second copy is (0, 8), and (0, 32) is its column four times over: the
# fault alone cannot tell the two apart, so both readings are named.
wb_wrong_kernel(source_row_and_column_exchanged
  STEP 1
  FIND "&gmem_tile_in[gmem_layout(row, col)]"
  REPLACE "&gmem_tile_in[gmem_layout(col, row)]"
  EXPECT "step 1.*Likely cause: block \\(0, 0\\)'s thread \\(0, 0\\) read element \\(0, 32\\) of the input.*as element number 2 of its walk from \\(0, 0\\). Where its loops walk down each column, as the page's do, the walk is at \\(32, 0\\): the row and the column are exchanged in the index of that read.*Where they walk along each row \\(the loop over rows outside\\), it is at \\(0, 8\\): its columns lie four times as far apart")

# The output right, the coalescing lost: lane t copies rows 4t to 4t + 3 of a column, so a
# warp's k-th copies read 32 floats 16 bytes apart, 16 sectors where 4 hold them.
wb_wrong_kernel(copy_rows_four_apart
  STEP 1
  FIND "    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);"
  REPLACE "    for (int row = 4 * thread_coord.row; row < 4 * thread_coord.row + 4; ++row) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);"
  EXPECT "step 1.*cp.async global reads: 16.0 sectors per request \\(ideal 4.0.*The step asks for at most 4.2 sectors per request: the copies read global memory scattered")

# Two floats per copy where the step copies one: the output right, the copy wider than
# the step teaches (chapter 5's, with its alignment rules).
wb_wrong_kernel(two_floats_per_copy
  STEP 1
  FIND "    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  //! [step 1 hole]"
  REPLACE "    for (int row = 2 * thread_coord.row; row < kTileRows; row += 2 * kThreadRows) {\n      wb::cp_async_ca<8>(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  //! [step 1 hole]"
  EXPECT "step 1.*the copies were 0 of 4 bytes, [0-9]+ of 8 and 0 of 16: this step copies one float per cp.async")

wb_wrong_kernel(out_of_bounds_tail
  STEP 2
  FIND "col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows;"
  REPLACE "col < kTileCols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < kTileRows;"
  EXPECT "step 2.*past its end.*Likely cause: .*its (row|column) loop ran past the tile's valid_(rows|cols), as it does when bounded by .*the whole tile's")

wb_wrong_kernel(unguarded_store
  STEP 2
  FIND "    if (element.row < valid_rows && element.col < valid_cols) {\n      gmem_tile_out"
  REPLACE "    {\n      gmem_tile_out"
  EXPECT "step 2.*outside the output")

wb_wrong_kernel(grid_rounded_down
  STEP 2
  FIND "const dim3 grid((rows + kTileRows - 1) / kTileRows, (cols + kTileCols - 1) / kTileCols);"
  REPLACE "const dim3 grid(rows / kTileRows > 0 ? rows / kTileRows : 1, cols / kTileCols > 0 ? cols / kTileCols : 1);"
  EXPECT "step 2.*never written")

# The copies, the wait and the barrier inside a branch that the threads with nothing to
# copy in an edge tile skip: a barrier some threads never reach, not a missing one.
wb_wrong_kernel(barrier_inside_a_branch
  STEP 2
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n"
  REPLACE "  if (thread_coord.row < valid_rows && thread_coord.col < valid_cols) {\n  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  }\n"
  EXPECT "step 2.*threads at different __syncthreads\\(\\): this thread reads smem_tile\\[[0-9]+\\].*without ever having waited there.*Likely cause: threads wait at different __syncthreads\\(\\)")

# Threads with no element inside the array return: legal before a barrier on the GPU, but
# they also skip their share of the store, which walks the tile by thread index.
wb_wrong_kernel(threads_outside_the_array_return
  STEP 2
  FIND "  //! [step 2 hole]\n  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {"
  REPLACE "  //! [step 2 hole]\n  if (thread_coord.row >= valid_rows || thread_coord.col >= valid_cols) return;\n  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {"
  EXPECT "step 2.*Likely cause: [0-9]+ threads of block \\([0-9]+,[0-9]+,0\\) \\(thread \\([0-9]+,0,0\\) the first\\) returned from the kernel before the __syncthreads\\(\\) at [^ ]*copy.cu:[0-9]+ that the others reached, and outputs of that block were never written")

# The two loops' bounds exchanged: the columns run to valid_rows, past the tile's 16.
# Thread 0's third copy, at (0, 16), is where the loops written rows outside reach with
# the column bound alone wrong too, so the walk names no bound; one past the tile's
# columns gives the two ways there.
wb_wrong_kernel(tile_bounds_exchanged
  STEP 2
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {"
  REPLACE "  for (int col = thread_coord.col; col < valid_rows; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_cols; row += kThreadRows) {"
  EXPECT "step 2.*thread \\(0, 0\\) read element \\(0, 16\\) of the input, which is column 16 of its tile, one past the tile's last \\(15\\): a loop bound one past the tile \\(`<=` where `<` is meant\\) or the two loops' bounds exchanged")

# The loops written rows outside, the column bound left at the whole tile's: thread 0's
# second copy, (0, 8) of a tile of 8 valid columns, is also where both bounds exchanged
# reach with the columns outside, so no one bound is named (a wrong one would be), only
# the loop that every fitting bound lets past valid_cols.
wb_wrong_kernel(rows_outside_with_the_whole_tiles_column_bound
  STEP 2
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {"
  REPLACE "  for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n    for (int col = thread_coord.col; col < kTileCols; col += kThreadCols) {"
  EXPECT "step 2.*Likely cause: .*its column loop ran past the tile's valid_cols")

# The loops bounded by the array's rows and columns: row and col count from the tile's
# origin, so a block walks past its tile (and the edge blocks past the array).
wb_wrong_kernel(loops_bounded_by_the_array
  STEP 2
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {"
  REPLACE "  for (int col = thread_coord.col; col < cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < rows; row += kThreadRows) {"
  EXPECT "step 2.*as element number 21 of its walk.*the row loop bounded by the array's rows \\(300\\) and likely, the same way, the column loop bounded by the array's columns \\(40\\)")

# Step 2's copies as a flat loop over the valid count through coord(): a partial tile's
# valid elements land in its first words in a row, not in each column's first rows.
wb_wrong_kernel(flat_copy_over_the_valid_count
  STEP 2
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }"
  REPLACE "  for (int index = threadIdx.x; index < valid_rows * valid_cols; index += kThreads) {\n    const wb::Coord element = smem_layout.coord(index);\n    wb::cp_async(&smem_tile[smem_layout(element.row, element.col)], &gmem_tile_in[gmem_layout(element.row, element.col)]);\n  }"
  EXPECT "step 2.*The block's copies walk words 0 to [0-9]+ in a row, as many words as its reads.*a flat index over valid_rows \\* valid_cols")

# The loops over the whole tile, each coordinate clamped to the partial tile's last row or
# column: threads past the edge copy the edge's elements again, onto words that others fill.
wb_wrong_kernel(coordinates_clamped_to_the_edge
  STEP 2
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);"
  REPLACE "  for (int col = thread_coord.col; col < kTileCols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {\n      const int r = row < valid_rows ? row : valid_rows - 1;\n      const int c = col < valid_cols ? col : valid_cols - 1;\n      wb::cp_async(&smem_tile[smem_layout(r, c)], &gmem_tile_in[gmem_layout(r, c)]);"
  EXPECT "step 2.*Likely cause: .*its (row|column) was clamped to the edge \\(the last valid (row|column)\\) where the loop should stop at it")

# The row loop counted from 1 as in Fortran, its row written thread_coord.row + i * 32
# with i from 1: every copy one step (32 rows) further down, past the tile at the last.
wb_wrong_kernel(row_loop_one_step_ahead
  STEP 1
  FIND "    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);"
  REPLACE "    for (int i = 1; i <= kTileRows / kThreadRows; ++i) {\n      const int row = thread_coord.row + i * kThreadRows;\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);"
  EXPECT "step 1.*Likely cause: .*its row loop is one step \\(32\\) ahead")

# The shared index written row-major on the column-major tile: it stays inside the tile,
# and the store, through the step's layout, reads each word back column-major.
wb_wrong_kernel(shared_index_row_major
  STEP 1
  FIND "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);"
  REPLACE "      wb::cp_async(&smem_tile[row * kTileCols + col], &gmem_tile_in[gmem_layout(row, col)]);"
  EXPECT "step 1.*Likely cause: each wrong element holds the input element that the tile's shared copy puts at its word with the other order.*written into shared memory row-major \\(row \\* 16 \\+ col\\) and read back column-major")

# One thread a row: threads 0 to 127 copy a row's 16 columns each, threads 128 to 255
# nothing. Every copy is still coalesced and the output right; half the block is idle.
wb_wrong_kernel(half_the_threads_copy
  STEP 1
  FIND "  for (int col = thread_coord.col; col < kTileCols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }"
  REPLACE "  if (threadIdx.x < kTileRows) {\n    for (int col = 0; col < kTileCols; ++col) {\n      wb::cp_async(&smem_tile[smem_layout(threadIdx.x, col)], &gmem_tile_in[gmem_layout(threadIdx.x, col)]);\n    }\n  }"
  EXPECT "step 1.*[0-9]+ of the launch's [0-9]+ threads issued no cp.async \\(128.0 of each block's 256")

# Step 2's tile filled with zeros by plain stores, and a barrier, before the copies: the
# output is right, and every word of the tile is written twice.
wb_wrong_kernel(tile_zeroed_before_the_copies
  STEP 2
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n      wb::cp_async("
  REPLACE "  for (int index = threadIdx.x; index < smem_layout.size(); index += kThreads) smem_tile[index] = 0.0f;\n  __syncthreads();\n  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n      wb::cp_async("
  EXPECT "step 2.*the threads stored into shared memory with [0-9]+ plain store requests \\(most at [^)]*copy.cu:[0-9]+\\)")
