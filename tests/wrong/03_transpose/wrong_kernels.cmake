# Known-wrong versions of chapter 3's solution, each one mistake a learner makes, with
# the diagnosis the grader must give. Each is the solution with FIND replaced by REPLACE.

# Step 1: the naive transpose, its loops not bounded by the array.
wb_wrong_kernel(naive_without_bounds
  STEP 1
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kLoadThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out"
  REPLACE "  for (int col = thread_coord.col; col < kTileCols; col += kLoadThreadCols) {\n    for (int row = thread_coord.row; row < kTileRows; row += kLoadThreadRows) {\n      gmem_tile_out"
  EXPECT "step 1.*past its end.*Likely cause: .*its (row|column) loop ran past the tile's valid_(rows|cols), as it does when bounded by .*the whole tile's")

# Global coordinates given to a pointer that already points at the tile: the tile's
# origin counted twice. The first block past the origin reads past the input's end, and
# the fault's address is twice its tile's origin plus an offset inside the tile.
wb_wrong_kernel(tile_origin_counted_twice
  STEP 1
  FIND "      gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];"
  REPLACE "      gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(tile_row + row, tile_col + col)];"
  EXPECT "step 1.*Likely cause: the tile's (row |column )?origin is counted twice: block \\([0-9]+, [0-9]+\\)'s tile of the input starts at")

# Step 1 reads from the array's start (gmem_in) where the block's tile (gmem_tile_in) is
# meant: every output tile holds the transpose of the input's first tile.
wb_wrong_kernel(naive_read_from_the_array_start
  STEP 1
  FIND "gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];"
  REPLACE "gmem_tile_out[gmem_out_layout(col, row)] = gmem_in[gmem_in_layout(row, col)];"
  EXPECT "step 1.*Likely cause: every wrong tile holds the data of the array's first tile \\(.*gmem_in for gmem_tile_in")

# The naive transpose's bounds add the tile's origin to the tile's own coordinates: every
# block but the first stores nothing at 1024x32.
wb_wrong_kernel(naive_bounds_with_the_tile_origin
  STEP 1
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kLoadThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out"
  REPLACE "  for (int col = thread_coord.col; tile_col + col < valid_cols; col += kLoadThreadCols) {\n    for (int row = thread_coord.row; tile_row + row < valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out"
  EXPECT "step 1.*only the output's first tile was written.*or the other blocks' loops never ran")


# The naive store indexed with the input's leading dimension: thread 16's second store,
# meant for element (0, 48) of the output, lands 48 * rows floats on, past its end.
wb_wrong_kernel(naive_store_with_the_input_leading_dimension
  STEP 1
  FIND "gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];"
  REPLACE "gmem_tile_out[col + row * rows] = gmem_tile_in[gmem_in_layout(row, col)];"
  EXPECT "step 1.*Likely cause: block \\(0, 0\\)'s thread \\(0, 0\\)'s store number 3 is meant for element \\(0, 64\\) of the output.*the input's rows \\(1024\\) as the leading dimension in the store's index")

# The naive transpose's loop steps exchanged: rows stepped by 8 and columns by 32, so the
# threads reach the tile's first 8 columns only (and some rows twice), as one pass of the
# column loop does: both are named.
wb_wrong_kernel(naive_loop_steps_exchanged
  STEP 1
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kLoadThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out"
  REPLACE "  for (int col = thread_coord.col; col < valid_cols; col += kLoadThreadRows) {\n    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadCols) {\n      gmem_tile_out"
  EXPECT "step 1.*Likely cause: the output's right elements are exactly the input elements that the threads reach with either the loops' steps exchanged \\(rows stepped by 8 and columns by 32.*or the column loop making one pass of the threads")

# The naive transpose's column loop stepping by the tile's 16 columns: one pass of the
# threads, columns 0 to 7 of each tile, the same reach as the steps exchanged.
wb_wrong_kernel(naive_column_step_of_the_tile
  STEP 1
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kLoadThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out"
  REPLACE "  for (int col = thread_coord.col; col < valid_cols; col += kTileCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out"
  EXPECT "step 1.*Likely cause: the output's right elements are exactly the input elements that the threads reach with either the loops' steps exchanged.*or the column loop making one pass of the threads")

# The naive transpose bounded by a global test written in chapter 1's grid order (rows
# from blockIdx.x), where chapter 3's grid has x across the column tiles: whole tiles are
# never written, and the text names the grid's order.
wb_wrong_kernel(naive_bounds_in_chapter_1s_grid_order
  STEP 1
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kLoadThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];\n    }"
  REPLACE "  for (int col = thread_coord.col; col < kTileCols; col += kLoadThreadCols) {\n    for (int row = thread_coord.row; row < kTileRows; row += kLoadThreadRows) {\n      const int global_row = blockIdx.x * kTileRows + row;\n      const int global_col = blockIdx.y * kTileCols + col;\n      if (global_row < rows && global_col < cols) {\n        gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];\n      }\n    }"
  EXPECT "step 1.*Observed: whole tiles were never written.*the input tile's rows from blockIdx.y, columns from blockIdx.x, as the grid is launched")

# The naive transpose with the thread layout's roles exchanged: lanes run across the input's
# columns, so the writes are coalesced and the reads scattered; the step asks for the reads.
wb_wrong_kernel(naive_reads_scattered
  STEP 1
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kLoadThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];"
  REPLACE "  for (int col = thread_coord.row; col < valid_cols; col += kLoadThreadRows) {\n    for (int row = thread_coord.col; row < valid_rows; row += kLoadThreadCols) {\n      gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];"
  EXPECT "step 1.*global loads: 16.0 sectors per request.*The step asks for at most 4.5 sectors per request: the reads are not coalesced")

# Step 2: the transpose through shared memory.
wb_wrong_kernel(missing_wait
  STEP 2
  FIND "  wb::cp_async_wait_all();\n  __syncthreads();\n  for (int col = store_coord.col; col < kTileRows;"
  REPLACE "  __syncthreads();\n  for (int col = store_coord.col; col < kTileRows;"
  EXPECT "step 2.*read from shared memory before their cp.async had landed")

# The stale poison today; the race check's error once it lands, whose cause says the same.
wb_wrong_kernel(missing_barrier
  STEP 2
  FIND "  wb::cp_async_wait_all();\n  __syncthreads();\n  for (int col = store_coord.col; col < kTileRows;"
  REPLACE "  wb::cp_async_wait_all();\n  for (int col = store_coord.col; col < kTileRows;"
  EXPECT "step 2.*need a __syncthreads\\(\\) after everyone's wait")

# The output tile placed where the input tile was: its origin is row tile_col, column
# tile_row of the output, the block indices exchanged on the way out.
wb_wrong_kernel(block_indices_not_swapped_on_the_way_out
  STEP 2
  FIND "  float* gmem_tile_out = gmem_out + tile_col + tile_row * cols;            // (16,256)\n  const wb::Coord load_coord = load_thread_layout.coord(threadIdx.x);      // in (32,8)\n  const wb::Coord store_coord = store_thread_layout.coord(threadIdx.x);    // in (16,16)\n\n  //! [step 2 hole]"
  REPLACE "  float* gmem_tile_out = gmem_out + tile_row + tile_col * cols;            // (16,256)\n  const wb::Coord load_coord = load_thread_layout.coord(threadIdx.x);      // in (32,8)\n  const wb::Coord store_coord = store_thread_layout.coord(threadIdx.x);    // in (16,16)\n\n  //! [step 2 hole]"
  EXPECT "step 2.*stores go to the wrong places \\(where a block.s output tile starts")

# The 16x16 store threads row-major: a warp writes 16 output columns, 2 floats each.
# The results stay right: only the simulator's sector counters see it (fails until
# they land). store_thread_layout is transpose.hpp's, which a variant cannot edit: the
# kernels of steps 2 and 3 take their coordinates from a row-major one instead.
wb_wrong_kernel(uncoalesced_writes
  STEP 2
  FIND "  const wb::Coord store_coord = store_thread_layout.coord(threadIdx.x);    // in (16,16)\n"
  REPLACE "  const wb::Coord store_coord = wb::row_major(Int<kStoreThreadRows>{}, Int<kStoreThreadCols>{}).coord(threadIdx.x);    // in (16,16)\n"
  EXPECT "step 2.*global stores: [0-9.]+ sectors per request.*the writes are not coalesced")

# The write out's loops started from the copy in's coordinate (32x8): the threads with
# rows 16-31 write nothing, and output columns 8-15 of every 16 are never written.
wb_wrong_kernel(store_loops_from_load_coord
  STEP 2
  FIND "  for (int col = store_coord.col; col < kTileRows; col += kStoreThreadCols) {\n    for (int row = store_coord.row; row < kTileCols; row += kStoreThreadRows) {"
  REPLACE "  for (int col = load_coord.col; col < kTileRows; col += kStoreThreadCols) {\n    for (int row = load_coord.row; row < kTileCols; row += kStoreThreadRows) {"
  EXPECT "step 2.*Likely cause: exactly the output elements that the write out's loops reach from load_coord were written")

# Step 2 writes through the output array's pointer (gmem_out) where the block's tile
# (gmem_tile_out) is meant: every block stores into the output's first tile. Which block
# stores last varies from run to run: where it is block 0, the first tile is right and the
# others unwritten, and the report gives that reading.
wb_wrong_kernel(store_into_the_array_start
  STEP 2
  FIND "    for (int row = store_coord.row; row < kTileCols; row += kStoreThreadRows) {\n      gmem_tile_out[gmem_out_layout(row, col)] = smem_tile[smem_transposed(row, col)];"
  REPLACE "    for (int row = store_coord.row; row < kTileCols; row += kStoreThreadRows) {\n      gmem_out[gmem_out_layout(row, col)] = smem_tile[smem_transposed(row, col)];"
  EXPECT "step 2.*Likely cause: .*[Tt]he tile's origin (is )?left out where the output is written: the array's pointer.*gmem_out.*where the tile's.*gmem_tile_out.*is meant")

wb_wrong_kernel(write_out_row_loop_one_past
  STEP 2
  FIND "for (int row = store_coord.row; row < kTileCols; row += kStoreThreadRows)"
  REPLACE "for (int row = store_coord.row; row <= kTileCols; row += kStoreThreadRows)"
  EXPECT "step 2.*Likely cause: thread 0 read word 4096 of smem_tile, the transposed view's \\(16, 0\\).*Either the write out's row loop runs past the output tile's rows. It must stop before kTileCols.*`<=` where `<` is meant, or by kTileRows, the input tile's rows\\? Or the write out reads the shared tile through its own layout")

# The write out reads the shared tile through its own layout, smem_layout(row, col), with
# the output tile's coordinates: its columns run past the shared tile's 16. Thread 0's
# second read is also where a row loop one past reaches; the others' are not.
wb_wrong_kernel(write_out_reads_the_tile_untransposed
  STEP 2
  FIND "smem_tile[smem_transposed(row, col)]"
  REPLACE "smem_tile[smem_layout(row, col)]"
  EXPECT "step 2.*Likely cause: thread [0-9]+ read word [0-9]+ of smem_tile.*the write out reads the shared tile through its own layout, smem_layout\\(row, col\\)")

# The write out's column loop dropped, one pass of the 16x16 store threads: the columns
# stop at 16, the output tile's row count, where bounds exchanged stop them too, so both
# are named.
wb_wrong_kernel(write_out_one_pass_of_the_columns
  STEP 2
  FIND "  for (int col = store_coord.col; col < kTileRows; col += kStoreThreadCols) {\n    for (int row = store_coord.row; row < kTileCols; row += kStoreThreadRows) {\n      gmem_tile_out[gmem_out_layout(row, col)] = smem_tile[smem_transposed(row, col)];\n    }\n  }"
  REPLACE "  {\n    const int col = store_coord.col;\n    for (int row = store_coord.row; row < kTileCols; row += kStoreThreadRows) {\n      gmem_tile_out[gmem_out_layout(row, col)] = smem_tile[smem_transposed(row, col)];\n    }\n  }"
  EXPECT "step 2.*Observed: in every whole tile \\(16x256\\) only rows 0 to 15 and columns 0 to 15 were written.*Either the columns' bound is the rows'.*or the column loop makes one pass of the threads")

# The output right, half of each warp idle: the write out keeps the copy in's 32x8 thread
# layout (load_coord) on the 16-row output tile; lanes of rows 16 to 31 store nothing.
wb_wrong_kernel(write_out_with_the_copy_layout
  STEP 2
  FIND "  for (int col = store_coord.col; col < kTileRows; col += kStoreThreadCols) {\n    for (int row = store_coord.row; row < kTileCols; row += kStoreThreadRows) {"
  REPLACE "  for (int col = load_coord.col; col < kTileRows; col += kLoadThreadCols) {\n    for (int row = load_coord.row; row < kTileCols; row += kLoadThreadRows) {"
  EXPECT "step 2.*global stores: 16.0 active lanes per request of 32.*The step asks for at least 31.5, as the reference makes: every lane of a warp stores.*leaves the lanes of rows 16 to 31 with nothing to store")

# The write out's column loop stepping by 1: right output, each element stored by up to 16
# threads.
wb_wrong_kernel(write_out_columns_stepped_by_one
  STEP 2
  FIND "  for (int col = store_coord.col; col < kTileRows; col += kStoreThreadCols) {"
  REPLACE "  for (int col = store_coord.col; col < kTileRows; col += 1) {"
  EXPECT "step 2.*global stores: [0-9]+ elements stored for 32768 output elements, [0-9.]+ each.*the threads of a block store the same elements again")

# The store indexed in global coordinates from the tile's pointer: the tile's origin twice.
wb_wrong_kernel(store_origin_counted_twice
  STEP 2
  FIND "      gmem_tile_out[gmem_out_layout(row, col)] = smem_tile[smem_transposed(row, col)];\n    }\n  }\n  //! [step 2 hole]"
  REPLACE "      gmem_tile_out[tile_col + row + (tile_row + col) * cols] = smem_tile[smem_transposed(row, col)];\n    }\n  }\n  //! [step 2 hole]"
  EXPECT "step 2.*Likely cause: .*origin is counted twice")

# Step 3: the padding and any shape.
wb_wrong_kernel(unpadded_tile
  STEP 3
  FIND "  padding = 2;  // stride 258"
  REPLACE "  padding = 0;  // stride 256"
  EXPECT "step 3.*stride 256 \\(padding 0\\).*transposed read.*a 16-way bank conflict")

# Chapter 2's answer for row reads: 2-way for the 16x16 transposed read.
wb_wrong_kernel(plus_one_padding
  STEP 3
  FIND "  padding = 2;  // stride 258"
  REPLACE "  padding = 1;  // stride 65"
  EXPECT "step 3.*stride 257 \\(padding 1\\).*transposed read.*a 2-way bank conflict")

# The transposed view written by hand as a row-major 16x256 layout: right for the
# unpadded tile of step 2, wrong for the padded one.
wb_wrong_kernel(wrong_transposed_layout
  STEP 3
  FIND "  constexpr auto smem_transposed = padded_smem_layout.transpose();"
  REPLACE "  constexpr auto smem_transposed = wb::row_major(Int<kTileCols>{}, Int<kTileRows>{});"
  EXPECT "step 3.*read smem_tile\\[[0-9]+\\] at [^ ]*transpose.cu:[0-9]+, which no copy or store of the block had filled.*The block's copies filled 256 words of every 258.*while its reads walk words 0 to 4095 in a row: the reads forget the padding")

wb_wrong_kernel(store_without_bounds
  STEP 3
  FIND "  for (int col = store_coord.col; col < valid_rows; col += kStoreThreadCols) {\n    for (int row = store_coord.row; row < valid_cols; row += kStoreThreadRows) {"
  REPLACE "  for (int col = store_coord.col; col < kTileRows; col += kStoreThreadCols) {\n    for (int row = store_coord.row; row < kTileCols; row += kStoreThreadRows) {"
  EXPECT "step 3.*outside the output")

# The bounds of the output tile taken from the input tile's: its rows < valid_rows, its
# columns < valid_cols. The transposed read then runs far past the shared tile.
wb_wrong_kernel(store_bounds_not_transposed
  STEP 3
  FIND "  for (int col = store_coord.col; col < valid_rows; col += kStoreThreadCols) {\n    for (int row = store_coord.row; row < valid_cols; row += kStoreThreadRows) {"
  REPLACE "  for (int col = store_coord.col; col < valid_cols; col += kStoreThreadCols) {\n    for (int row = store_coord.row; row < valid_rows; row += kStoreThreadRows) {"
  EXPECT "step 3.*Likely cause: thread 0 read word 4128 of smem_tile, the transposed view's \\(16, 0\\).*row loop runs past the output tile's rows. It must stop before valid_cols.*or by valid_rows, the input tile's rows\\? If so, the column loop's valid_cols is wrong too: the two bounds are exchanged")

# The write out's loops one past the output tile, read past the shared tile's end: the
# column loop (`col <= valid_rows`) at step 3's padded stride, the row loop (`row <=
# kTileCols`) at step 2's.
wb_wrong_kernel(write_out_column_loop_one_past
  STEP 3
  FIND "for (int col = store_coord.col; col < valid_rows; col += kStoreThreadCols)"
  REPLACE "for (int col = store_coord.col; col <= valid_rows; col += kStoreThreadCols)"
  EXPECT "step 3.*Likely cause: thread 15 read word 4126 of smem_tile, the transposed view's \\(15, 256\\).*The write out's column loop runs past the output tile's columns. It must stop before valid_rows.*`<=` where `<` is meant, or by more than valid_rows")

# The write out's index with the row and the column exchanged: at the first shape every
# store stays inside the output, and the wrong values say which index is exchanged.
wb_wrong_kernel(write_out_row_and_column_exchanged
  STEP 3
  FIND "gmem_tile_out[gmem_out_layout(row, col)] = smem_tile[smem_transposed(row, col)];"
  REPLACE "gmem_tile_out[gmem_out_layout(col, row)] = smem_tile[smem_transposed(row, col)];"
  EXPECT "step 3.*Likely cause: each wrong element holds the value meant for the element of its tile with row and column exchanged")

# Threads with no output row return before the wait and the barrier: at a partial tile their
# copies are never waited for, and the others read them in flight.
wb_wrong_kernel(threads_return_before_the_wait
  STEP 3
  FIND "  wb::cp_async_wait_all();\n  __syncthreads();\n  for (int col = store_coord.col; col < valid_rows;"
  REPLACE "  if (store_coord.row >= valid_cols) return;\n  wb::cp_async_wait_all();\n  __syncthreads();\n  for (int col = store_coord.col; col < valid_rows;"
  EXPECT "step 3.*Likely cause: [0-9]+ threads of block .* returned from the kernel before the __syncthreads\\(\\) at .* and [0-9]+ copies were never waited for")

# Step 1's row loop stepped by 1: each thread walks from its own row to the tile's last,
# so most elements are read and stored by many threads; the output stays right.
wb_wrong_kernel(naive_row_loop_stepped_by_one
  STEP 1
  FIND "    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];"
  REPLACE "    for (int row = thread_coord.row; row < valid_rows; ++row) {\n      gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];"
  EXPECT "step 1.*global stores: [0-9]+ elements stored for [0-9]+ output elements.*a store loop that steps by less than they cover together")

# The naive transpose's loops nested rows outside, and the input's column step taken in
# bytes on a float pointer: thread 0's second read lands on column 32. Walked down each
# column that is the row and column exchanged; walked along each row, columns four times
# apart. The fault alone cannot tell the loops' order, so both readings are named.
wb_wrong_kernel(column_step_in_bytes_with_rows_outside
  STEP 1
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kLoadThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];"
  REPLACE "  for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {\n    for (int col = thread_coord.col; col < valid_cols; col += kLoadThreadCols) {\n      gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[row + col * rows * static_cast<int>(sizeof(float))];"
  EXPECT "step 1.*Likely cause: block \\(0, 0\\)'s thread \\(0, 0\\) read element \\(0, 32\\) of the input.*Where its loops walk down each column, as the page's do, the walk is at \\(32, 0\\): the row and the column are exchanged.*Where they walk along each row \\(the loop over rows outside\\), it is at \\(0, 8\\): its columns lie four times as far apart as the array's: the leading dimension counted in bytes on a float pointer")

# Step 1's loops counted from 1, with `- 1` in the index, but started at the thread's
# coordinate: thread 0's first read is element -1, before the input's start.
wb_wrong_kernel(naive_one_based_loop_started_at_the_coordinate
  STEP 1
  FIND "    for (int row = thread_coord.row; row < valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out[gmem_out_layout(col, row)] = gmem_tile_in[gmem_in_layout(row, col)];"
  REPLACE "    for (int row = thread_coord.row; row <= valid_rows; row += kLoadThreadRows) {\n      gmem_tile_out[gmem_out_layout(col, row - 1)] = gmem_tile_in[gmem_in_layout(row - 1, col)];"
  EXPECT "step 1.*before its start \\(element -1 of.*Likely cause: block \\(0, 0\\)'s thread 0 made its first access at element -1 of the input, before its start, where its first element is \\(0, 0\\) of the tile: its row index is one less")

# Step 2's write out made with cp.async, as if it copied either way: its destination is
# global memory.
wb_wrong_kernel(write_out_through_cp_async
  STEP 2
  FIND "      gmem_tile_out[gmem_out_layout(row, col)] = smem_tile[smem_transposed(row, col)];"
  REPLACE "      wb::cp_async(&gmem_tile_out[gmem_out_layout(row, col)], &smem_tile[smem_transposed(row, col)]);"
  EXPECT "step 2.*is in global memory \\(a device allocation\\).*Likely cause: a cp.async whose destination is global memory: cp.async copies one way only")
