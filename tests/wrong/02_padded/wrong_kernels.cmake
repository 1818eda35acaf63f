# Known-wrong versions of chapter 2's solution, each one mistake a learner makes, with
# the diagnosis the grader must give. Each is the solution with FIND replaced by REPLACE.

# Step 1: the copy through the padded tile.
wb_wrong_kernel(missing_wait
  STEP 1
  FIND "  wb::cp_async_wait_all();\n  __syncthreads();\n  for (int index"
  REPLACE "  __syncthreads();\n  for (int index"
  EXPECT "step 1.*read from shared memory before their cp.async had landed")

# A read of another thread's copy with no barrier: the stale poison today; the race check
# names both threads once the simulator has it (the cause then comes from kStep1's map,
# which says the same).
wb_wrong_kernel(missing_barrier
  STEP 1
  FIND "  wb::cp_async_wait_all();\n  __syncthreads();\n  for (int index"
  REPLACE "  wb::cp_async_wait_all();\n  for (int index"
  EXPECT "step 1.*need a __syncthreads\\(\\) after everyone's wait")

# The store loop of chapter 1, walking the padded layout's offsets as if they were the
# tile's elements: smem_layout.coord() of a padded layout is no element's coordinate.
wb_wrong_kernel(store_walks_padded_offsets
  STEP 1
  FIND "    const wb::Coord element = tile_layout.coord(index);"
  REPLACE "    const wb::Coord element = smem_layout.coord(index);"
  EXPECT "step 1.*never written by the kernel")

# The padding forgotten on one side. The copies walk the tile as a compact one (element i
# at word i) while the store reads through the padded layout: the reads of the last
# column find nothing there.
wb_wrong_kernel(copies_without_the_padding
  STEP 1
  FIND "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);"
  REPLACE "      wb::cp_async(&smem_tile[tile_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);"
  EXPECT "step 1.*Likely cause: thread \\([0-9]+,0,0\\) of block \\(0,0,0\\) read smem_tile\\[[0-9]+\\] at [^ ]*padded.cu:[0-9]+, which no copy or store of the block had filled.*The block's copies filled words 0 to 2047 in a row, while its reads walk 128 words of every 130.*Copy through the same padded layout as the reads")

# The other side: the copies through the padded layout, the store's reads through the
# compact one, which find the padding words empty.
wb_wrong_kernel(reads_without_the_padding
  STEP 1
  FIND "          smem_tile[smem_layout(element.row, element.col)];"
  REPLACE "          smem_tile[tile_layout(element.row, element.col)];"
  EXPECT "step 1.*read smem_tile\\[[0-9]+\\] at [^ ]*padded.cu:[0-9]+, which no copy or store of the block had filled.*The block's copies filled 128 words of every 130.*while its reads walk words 0 to 2047 in a row: the reads forget the padding")

# Both sides through the compact layout: the results are right and the store's reads are
# conflict-free, but the padding the step teaches is declared and never used. Only the
# footprint shows it: block (0,0,0) touches words 0 to 2047 and none of the padding.
wb_wrong_kernel(padding_declared_never_used
  STEP 1
  FIND "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  for (int index = threadIdx.x; index < tile_layout.size(); index += kThreads) {\n    const wb::Coord element = tile_layout.coord(index);\n    if (element.row < valid_rows && element.col < valid_cols) {\n      gmem_tile_out[gmem_layout(element.row, element.col)] =\n          smem_tile[smem_layout(element.row, element.col)];"
  REPLACE "      wb::cp_async(&smem_tile[tile_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();\n  for (int index = threadIdx.x; index < tile_layout.size(); index += kThreads) {\n    const wb::Coord element = tile_layout.coord(index);\n    if (element.row < valid_rows && element.col < valid_cols) {\n      gmem_tile_out[gmem_layout(element.row, element.col)] =\n          smem_tile[tile_layout(element.row, element.col)];"
  EXPECT "step 1.*block \\(0,0,0\\) touched words 0 to 2047 of smem_tile, every one, and none of words 2048 to 2077: its copies and its reads both walk the tile as a compact one.*declared and never used")

wb_wrong_kernel(copy_without_bounds
  STEP 1
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {"
  REPLACE "  for (int col = thread_coord.col; col < kTileCols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < kTileRows; row += kThreadRows) {"
  EXPECT "step 1.*past its end.*Likely cause: .*its (row|column) loop ran past the tile's valid_(rows|cols), as it does when bounded by .*the whole tile's")

# The store walks the padded layout's coord(), which inverts a compact layout only: some
# elements of each tile are never reached.
wb_wrong_kernel(store_walks_the_padded_coord
  STEP 1
  FIND "const wb::Coord element = tile_layout.coord(index);"
  REPLACE "const wb::Coord element = smem_layout.coord(index);"
  EXPECT "step 1.*Likely cause: the unwritten elements are exactly those of each tile that a walk of the padded layout's coord\\(\\) never reaches")

# The store's row bound one past: `<=` lets a partial tile store the row after its last,
# which lands on the next column's first element, and past the output's end in the last.
wb_wrong_kernel(store_row_bound_one_past
  STEP 1
  FIND "    if (element.row < valid_rows && element.col < valid_cols) {\n      gmem_tile_out[gmem_layout(element.row, element.col)] =\n          smem_tile[smem_layout(element.row, element.col)];"
  REPLACE "    if (element.row <= valid_rows && element.col < valid_cols) {\n      gmem_tile_out[gmem_layout(element.row, element.col)] =\n          smem_tile[smem_layout(element.row, element.col)];"
  EXPECT "step 1.*the kernel wrote 1 elements outside the output.*Likely cause: the one element past the output's end is where row [0-9]+ of the last column would be.*`<=` where `<` is meant")

# The store's guard with the row and column bounds exchanged: in every whole (128,16)
# tile only its first 16 rows are stored.
wb_wrong_kernel(store_bounds_exchanged
  STEP 1
  FIND "    if (element.row < valid_rows && element.col < valid_cols) {\n      gmem_tile_out[gmem_layout(element.row, element.col)] =\n          smem_tile[smem_layout(element.row, element.col)];"
  REPLACE "    if (element.row < valid_cols && element.col < valid_rows) {\n      gmem_tile_out[gmem_layout(element.row, element.col)] =\n          smem_tile[smem_layout(element.row, element.col)];"
  EXPECT "step 1.*Observed: in every whole tile \\(128x16\\) only rows 0 to 15 and columns 0 to 15 were written, the rest never: the rows stop at the tile's column count, 16")

# Both of the store's bounds one past (`<=`): the column after the last, and one more.
wb_wrong_kernel(store_bounds_both_one_past
  STEP 1
  FIND "    if (element.row < valid_rows && element.col < valid_cols) {\n      gmem_tile_out[gmem_layout(element.row, element.col)] =\n          smem_tile[smem_layout(element.row, element.col)];"
  REPLACE "    if (element.row <= valid_rows && element.col <= valid_cols) {\n      gmem_tile_out[gmem_layout(element.row, element.col)] =\n          smem_tile[smem_layout(element.row, element.col)];"
  EXPECT "step 1.*Likely cause: the [0-9]+ elements past the output's end are the column after its last and one more.*`<=` where `<` is meant, on both")

# The source's row and column exchanged, layout(col, row): thread (0, 0)'s second copy,
# meant for (32, 0), reads (0, 32), past the tile's 16 columns. With the loops nested the
# other way the second copy is (0, 8), and (0, 32) is its column four times over: the
# fault alone cannot tell the two apart, so both readings are named.
wb_wrong_kernel(source_row_and_column_exchanged
  STEP 1
  FIND "&gmem_tile_in[gmem_layout(row, col)]"
  REPLACE "&gmem_tile_in[gmem_layout(col, row)]"
  EXPECT "step 1.*Likely cause: block \\(0, 0\\)'s thread \\(0, 0\\) read element \\(0, 32\\) of the input.*as element number 2 of its walk from \\(0, 0\\). Where its loops walk down each column, as the page's do, the walk is at \\(32, 0\\): the row and the column are exchanged in the index of that read.*Where they walk along each row \\(the loop over rows outside\\), it is at \\(0, 8\\): its columns lie four times as far apart")

# The store's guard against the array's extent with the tile's own (row, col): the edge
# tiles store past the array (as with no guard, at shapes of a tile or more each way).
wb_wrong_kernel(store_guard_against_the_array_extent
  STEP 1
  FIND "if (element.row < valid_rows && element.col < valid_cols) {"
  REPLACE "if (element.row < rows && element.col < cols) {"
  EXPECT "step 1.*Likely cause: the [0-9]+ elements past the output's end are exactly those that stores with no bound, or bounded by the array's extent.*row < valid_rows and col < valid_cols")


# The store's row and column exchanged, gmem_layout(col, row): thread 48's first store,
# meant for element (48, 0), lands at (0, 48), past the output's end.
wb_wrong_kernel(store_row_and_column_exchanged
  STEP 1
  FIND "gmem_tile_out[gmem_layout(element.row, element.col)]"
  REPLACE "gmem_tile_out[gmem_layout(element.col, element.row)]"
  EXPECT "step 1.*Likely cause: block \\(0, 0\\)'s thread \\(48, 0\\)'s store number 1 is meant for element \\(48, 0\\) of the output.*the row and the column exchanged in the store's index")

# The store's loop bounded by the count of valid elements: coord() puts 128 rows in every
# column, so a partial tile's walk ends before its last columns.
wb_wrong_kernel(store_loop_bounded_by_the_valid_count
  STEP 1
  FIND "index < tile_layout.size(); index += kThreads"
  REPLACE "index < valid_rows * valid_cols; index += kThreads"
  EXPECT "step 1.*Likely cause: the unwritten elements are exactly those of each partial tile that the store's loop never reaches when bounded by the count of valid elements")

# The wait and the barrier inside the copy loop, after each copy.
wb_wrong_kernel(wait_and_barrier_inside_the_copy_loop
  STEP 1
  FIND "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n  __syncthreads();"
  REPLACE "      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n      wb::cp_async_wait_all();\n      __syncthreads();\n    }\n  }"
  EXPECT "step 1.*a wait inside the copy loop lets only the copies issued since the last wait travel together.*Each wait has a __syncthreads\\(\\) after it too \\(8 barriers a block where the step has one\\): move both")

# The copy's thread roles exchanged (columns from thread_coord.row): a warp's lanes take one
# row of 16 columns, the reads scattered and half the lanes idle (right output).
wb_wrong_kernel(copy_reads_scattered
  STEP 1
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {"
  REPLACE "  for (int col = thread_coord.row; col < valid_cols; col += kThreadRows) {\n    for (int row = thread_coord.col; row < valid_rows; row += kThreadCols) {"
  EXPECT "step 1.*cp.async global reads: [0-9.]+ sectors per request.*the copies read global memory scattered")

# Step 2: the padding for the row reads.
wb_wrong_kernel(unpadded
  STEP 2
  FIND "  padding = 1;  // stride 129"
  REPLACE "  padding = 0;  // stride 128"
  EXPECT "step 2.*stride 128 \\(padding 0\\).*a 32-way bank conflict")

# The seed's +2: right for chapter 3's transposed read, 2-way for a 32-wide row read.
wb_wrong_kernel(plus_two_for_row_reads
  STEP 2
  FIND "  padding = 1;  // stride 129"
  REPLACE "  padding = 2;  // stride 130"
  EXPECT "step 2.*stride 130 \\(padding 2\\).*a 2-way bank conflict")

# The padding declared, then bypassed: both the copy and the reads index the tile by
# hand with 128. The results stay right and the stride declared is 129, so only the
# simulator's wavefront counters can see it (fails until they land).
wb_wrong_kernel(layout_bypassed_by_hand
  STEP 2
  FIND "wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_strip[gmem_layout(tile_row + row, col)]);\n      }\n    }\n    wb::cp_async_wait_all();\n    __syncthreads();\n    // Warp w reads the rows w, w + 8, w + 16, ...; its 32 lanes the 32 columns of each:\n    // lane c reads the word row + stride * c, in bank (row + stride * c) % 32.\n    if (sum_coord.col < valid_cols) {\n      for (int row = sum_coord.row; row < valid_rows; row += kWarps) {\n        sum += smem_tile[smem_layout(row, sum_coord.col)];"
  REPLACE "wb::cp_async(&smem_tile[row + kTileRows * col], &gmem_strip[gmem_layout(tile_row + row, col)]);\n      }\n    }\n    wb::cp_async_wait_all();\n    __syncthreads();\n    if (sum_coord.col < valid_cols) {\n      for (int row = sum_coord.row; row < valid_rows; row += kWarps) {\n        sum += smem_tile[row + kTileRows * sum_coord.col];"
  EXPECT "step 2.*shared loads: [0-9.]+ wavefronts per request.*worst at [^ ]*padded.cu:[0-9]+, 32.0 per request")

# No barrier between the reads of one tile and the copies of the next: the next tile's
# copies overwrite floats other warps still read. Diagnosed by the simulator's race check
# (fails until it lands: today the sums are merely wrong).
wb_wrong_kernel(missing_barrier_before_next_tile
  STEP 2
  FIND "    __syncthreads();  // every warp has read this tile before the next one overwrites it\n"
  REPLACE ""
  EXPECT "step 2.*the __syncthreads\\(\\) at the end of the loop body")

# A negative padding: a stride of 127 makes each column's last row share its word with
# the next column's first, which the two copies' elements prove.
wb_wrong_kernel(negative_padding
  STEP 2
  FIND "  padding = 1;"
  REPLACE "  padding = -1;"
  EXPECT "step 2.*two threads write smem_tile.*Likely cause: .*copied two different elements of block \\([0-9]+, 0\\)'s tile of the input.*\\(127, [0-9]+\\) and \\(0, [0-9]+\\), into one word.*Both fit a shared index row \\+ col \\* 127: a column stride of 127 where a column of the tile holds 128 rows")

# The row read indexed by hand with the unpadded stride while the copies went through
# the padded layout: the reads take words the copies never filled (the padding).
wb_wrong_kernel(row_read_indexed_with_stride_128
  STEP 2
  FIND "        sum += smem_tile[smem_layout(row, sum_coord.col)];"
  REPLACE "        sum += smem_tile[row + kTileRows * sum_coord.col];"
  EXPECT "step 2.*sums .* are wrong.*Likely cause: thread.*the reads forget the padding")

# Step 1 written with pointers that the row loop advances and that are never set back for
# the next column: each column's walk starts where the column before ended (4 rows of 32
# further), and the second column's first copy lands past the tile.
wb_wrong_kernel(column_pointers_not_reset
  STEP 1
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }"
  REPLACE "  float* dst_col = &smem_tile[smem_layout(thread_coord.row, thread_coord.col)];\n  const float* src_col = &gmem_tile_in[gmem_layout(thread_coord.row, thread_coord.col)];\n  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n      wb::cp_async(dst_col, src_col);\n      dst_col += kThreadRows;\n      src_col += kThreadRows;\n    }\n    dst_col += smem_layout(0, kThreadCols);\n    src_col += gmem_layout(0, kThreadCols);\n  }"
  EXPECT "step 1.*Likely cause: block \\(0, 0\\)'s thread \\([0-9]+, 0\\) read element .* its row loop carries on from where the column before it ended")

# The wait put before the copies it is meant for: it lands nothing, and after the copies
# only the barrier stands.
wb_wrong_kernel(wait_before_the_copies
  STEP 1
  FIND "  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n  wb::cp_async_wait_all();\n"
  REPLACE "  wb::cp_async_wait_all();\n  for (int col = thread_coord.col; col < valid_cols; col += kThreadCols) {\n    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);\n    }\n  }\n"
  EXPECT "step 1.*Likely cause: thread \\(0, 0\\) of block \\(0, 0\\) read, at .*, a word that its own cp.async was still bringing, a copy issued after that thread's last wait, and no wait came after it: the wait stands before the copies")

# The copy's row loop bounded one short: the last valid row of every tile never reaches
# shared memory, and the store copies whatever was there.
wb_wrong_kernel(copy_rows_one_short
  STEP 1
  FIND "    for (int row = thread_coord.row; row < valid_rows; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)]"
  REPLACE "    for (int row = thread_coord.row; row < valid_rows - 1; row += kThreadRows) {\n      wb::cp_async(&smem_tile[smem_layout(row, col)]"
  EXPECT "step 1.*Likely cause: every wrong element is the last row of its input tile .*the copy into shared memory stopped one row short")

# The tile's row origin added again on the store, whose pointer already starts at the
# tile: the tiles below the first store tile_row rows too low, and the last column's past
# the output. Every tile is whole, so no partial tile's bound is asked about.
wb_wrong_kernel(store_row_origin_counted_twice
  STEP 1
  FIND "gmem_tile_out[gmem_layout(element.row, element.col)] ="
  REPLACE "gmem_tile_out[gmem_layout(tile_row + element.row, element.col)] ="
  EXPECT "step 1.*outside the output.*Every tile of this output is whole, so no bound of a partial tile is at fault.*Likely cause: the 128 elements outside the output are exactly those that the stores reach with the tile's row origin \\(tile_row\\) counted twice")

# The shared index in floats times sizeof(float) on a float pointer: an offset in bytes
# where the pointer counts floats.
wb_wrong_kernel(shared_index_counted_in_bytes_on_a_float_pointer
  STEP 1
  FIND "wb::cp_async(&smem_tile[smem_layout(row, col)], &gmem_tile_in[gmem_layout(row, col)]);"
  REPLACE "wb::cp_async(smem_tile + smem_layout(row, col) * sizeof(float), &gmem_tile_in[gmem_layout(row, col)]);"
  EXPECT "step 1.*Likely cause: the copy of element \\([0-9]+, [0-9]+\\) of block \\(0, 0\\)'s tile went to float [0-9]+ of smem_tile = 4 \\* \\([0-9]+ \\+ [0-9]+ \\* 130\\), past its end: its index, row \\+ col \\* 130 \\(the stride of smem_layout, the padded tile\\), counted in bytes")
