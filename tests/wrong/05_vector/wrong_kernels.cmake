# Known-wrong versions of chapter 5's solution, each one mistake a learner makes, with
# the diagnosis the grader must give. Each is the solution with FIND replaced by REPLACE
# (every occurrence).

# The seed's error: the tile padded by one float, as the seed's GEMM tiles were, with
# 8-byte copies. Column 1 starts at byte 516, and the first copy into it is misaligned.
wb_wrong_kernel(plus_one_padding_with_8_byte_copies
  STEP 1
  FIND "constexpr int kPad8 = 2;"
  REPLACE "constexpr int kPad8 = 1;"
  EXPECT "step 1.*the shared destination 0x[0-9a-f]+ is not 8-byte aligned.*smem_tile.*Likely cause: the 8-byte copy of element \\(0, 1\\) of block \\(0, 0\\)'s tile went to float 129 of smem_tile = 1 \\* 129: the destination's columns are 129 floats apart \\(padded by 1 float\\), so column 1 starts at byte 516, no multiple of 8: a copy of 8 bytes needs a padding that is a multiple of 2 floats")

# The pairs' tile addressed with the 16-byte copies' layout (columns 132 apart) where it
# is declared with smem_8_layout (130): the last columns land past its end.
wb_wrong_kernel(pair_tile_with_the_16_byte_layout
  STEP 1
  FIND "wb::cp_async_ca<8>(&smem_tile[smem_8_layout(row, col)]"
  REPLACE "wb::cp_async_ca<8>(&smem_tile[smem_16_layout(row, col)]"
  EXPECT "step 1.*Likely cause: the copy of element \\([0-9]+, 15\\) of block \\([0-9]+, [0-9]+\\)'s tile went to float [0-9]+ of smem_tile = [0-9]+ \\+ 15 \\* 132, past its end: columns 132 floats apart, the stride of smem_16_layout")

# The 16-byte copies through the 8-byte copies' layout: columns 130 floats apart, so column
# 1 starts at byte 520, off a 16-byte boundary. The padding is right; the layout is not.
wb_wrong_kernel(sixteen_byte_copies_through_the_8_byte_layout
  STEP 1
  FIND "    wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  REPLACE "    wb::cp_async_cg(&smem_tile[smem_8_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  EXPECT "step 1.*not 16-byte aligned.*Likely cause: the 16-byte copy of element \\(0, 1\\) of block \\(0, 0\\)'s tile went to float 130 of smem_tile = 1 \\* 130: the destination's columns are 130 floats apart: the stride of smem_8_layout \\(128 \\+ kPad8\\), the 8-byte copies' tile. A copy of 16 bytes needs every column at a multiple of 16 bytes: index its tile with the layout padded for 16-byte copies")

# A quad copied as one float: wb::cp_async_ca<4> read as "4 floats" where it means 4 bytes.
# Every quad's first float lands, its other 3 are never filled: the simulator's footprint
# shows it, and the copy's size proves it.
wb_wrong_kernel(quad_copied_as_four_bytes
  STEP 1
  FIND "    wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  REPLACE "    wb::cp_async_ca<4>(&smem_tile[smem_16_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  EXPECT "step 1.*Likely cause: thread \\([0-9]+,0,0\\) of block \\(0,0,0\\) read smem_tile\\[[0-9]+\\] at [^ ]*vector.cu:[0-9]+, which no copy or store of the block had filled; by then the block had filled 1 word of every 4 of smem_tile.*Each cp.async at [^ ]*vector.cu:[0-9]+ copies 4 bytes, 1 float.*Either the copy's size is a count of floats where bytes are asked.*or it is the one-float wb::cp_async where a quad's 16-byte copy is meant \\(wb::cp_async_ca<16>, or wb::cp_async_cg\\)")

# The same quad copied with the one-float wb::cp_async: the same footprint, so both
# readings are named.
wb_wrong_kernel(quad_copied_with_the_one_float_copy
  STEP 1
  FIND "    wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  REPLACE "    wb::cp_async(&smem_tile[smem_16_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  EXPECT "step 1.*Each cp.async at [^ ]*vector.cu:[0-9]+ copies 4 bytes, 1 float.*or it is the one-float wb::cp_async where a quad's 16-byte copy is meant")

# A vector copy whose source starts one float late: 4 bytes past a 16-byte boundary.
wb_wrong_kernel(vector_source_offset_by_one_element
  STEP 1
  FIND "wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  REPLACE "wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)], &gmem_tile_in[row + 1 + col * rows]);"
  EXPECT "step 1.*the global source 0x[0-9a-f]+ is not 16-byte aligned.*float element [0-9]+, of its device allocation")

# The quad's first row taken as thread_coord.row, not 4 times it: overlapping,
# misaligned vectors.
wb_wrong_kernel(quad_row_not_scaled
  STEP 1
  FIND "  const int row = 4 * thread_coord.row;  // the quad's first row\n  for (int col = thread_coord.col; col < kTileCols; col += thread_16_layout.cols)"
  REPLACE "  const int row = thread_coord.row;  // the quad's first row\n  for (int col = thread_coord.col; col < kTileCols; col += thread_16_layout.cols)"
  EXPECT "step 1.*not 16-byte aligned.*from its float element 1\\).*Below 128 it lies in column 0.*4 \\* thread_coord.row for quads")

# Mixed widths: the 16-byte kernel copies each quad as four 4-byte copies. Right
# results, four times the copy instructions.
wb_wrong_kernel(mixed_widths_four_byte_copies_in_the_16_byte_kernel
  STEP 1
  FIND "    wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  REPLACE "    for (int i = 0; i < 4; ++i) wb::cp_async_ca<4>(&smem_tile[smem_16_layout(row + i, col)], &gmem_tile_in[row + i + col * rows]);"
  EXPECT "step 1.*in copies of 16 bytes should take [0-9]+ copies of 16 bytes, 0 of 8 and 0 of 4; the kernel issued 0 of 16 bytes, 0 of 8 and [0-9]+ of 4")

# The column loop stepping by 1 instead of by the thread layout's 8 columns: threads
# (r, 0) to (r, 7) all copy column 7's quad r. An index mistake, which a barrier would not
# fix.
wb_wrong_kernel(column_loop_stepping_by_one
  STEP 1
  FIND "  for (int col = thread_coord.col; col < kTileCols; col += thread_16_layout.cols) {\n    wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)]"
  REPLACE "  for (int col = thread_coord.col; col < kTileCols; col += 1) {\n    wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)]"
  EXPECT "step 1.*cp.async of 16 bytes: two threads write smem_tile\\[[0-9]+\\] \\(in 4-byte elements\\) between the same two barriers: thread \\([0-9]+,0,0\\) of block \\([0-9]+,[0-9]+,0\\) wrote it at [^ ]*vector.cu:[0-9]+, then thread \\([0-9]+,0,0\\) writes it at [^ ]*vector.cu:[0-9]+\\. One line computed the same index for both threads.*Likely cause: thread \\([0-9]+, 0\\) \\([^)]*\\) and thread \\([0-9]+, 0\\) \\([^)]*\\) both copied element \\([0-9]+, [0-9]+\\) of block \\([0-9]+, [0-9]+\\)'s tile of the input.*either a loop's step is too small")

# A pair copied as one float: the odd rows never filled, half of each pair the reads expect.
wb_wrong_kernel(pair_copied_as_one_float
  STEP 1
  FIND "    wb::cp_async_ca<8>(&smem_tile[smem_8_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  REPLACE "    wb::cp_async_ca<4>(&smem_tile[smem_8_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  EXPECT "step 1.*Likely cause: .*copies 4 bytes, and every word the block read unfilled is the one after a copy's: the reads expect vectors of 8 bytes")

# Step 1's 8-byte copy loop counting its columns from 0, not the thread's column: every
# thread of a row of the layout starts at that row's first element. The threads' (row,
# col) from threadIdx coinciding gives the same evidence, so both are named.
wb_wrong_kernel(column_loop_from_0
  STEP 1
  FIND "  for (int col = thread_coord.col; col < kTileCols; col += thread_8_layout.cols) {"
  REPLACE "  for (int col = 0; col < kTileCols; col += thread_8_layout.cols) {"
  EXPECT "step 1.*both threads start at that element: either the column loop counts from 0 where it starts at the thread's column")

# The output right, the copies serialised: a commit and a wait after each copy, one copy
# in flight at a time.
wb_wrong_kernel(commit_and_wait_in_the_copy_loop
  STEP 1
  FIND "    wb::cp_async_ca<8>(&smem_tile[smem_8_layout(row, col)], &gmem_tile_in[row + col * rows]);\n  }\n  wb::cp_async_commit();\n  wb::cp_async_wait<0>();\n"
  REPLACE "    wb::cp_async_ca<8>(&smem_tile[smem_8_layout(row, col)], &gmem_tile_in[row + col * rows]);\n    wb::cp_async_commit();\n    wb::cp_async_wait<0>();\n  }\n"
  EXPECT "step 1.*4.0 waits per thread for 4.0 copies, with 1.0 of them in flight at a wait on average: a wait inside the copy loop lets only the copies issued since the last wait travel together")

# Mixed widths in the GEMM: B's tiles always take the 4-byte fallback.
wb_wrong_kernel(gemm_b_tiles_in_4_byte_copies
  STEP 2
  FIND "  const bool b_in_quads = n % 4 == 0;"
  REPLACE "  const bool b_in_quads = false;"
  EXPECT "step 2.*should take [0-9]+ copies of 16 bytes, 0 of 8 and 0 of 4; the kernel issued [0-9]+ of 16 bytes, 0 of 8 and [1-9][0-9]* of 4")

# The edge tiles' quads all read whole: past valid_k, the last k-tile's copies read
# columns of A beyond its end.
wb_wrong_kernel(gemm_edge_quads_read_whole
  STEP 2
  FIND "    const bool inside = row < valid_rows && col < valid_k;\n    wb::cp_async_cg("
  REPLACE "    const bool inside = true;\n    wb::cp_async_cg("
  EXPECT "step 2.*past its end.*must read 0 bytes \\(load_tile_16\\)")

# Every tile taken for whole: the edge tiles too are copied without bounds.
wb_wrong_kernel(gemm_edge_tiles_copied_as_whole
  STEP 2
  FIND "  } else if (valid_rows == kGemmTile && valid_k == kGemmTileK) {"
  REPLACE "  } else if (true) {"
  EXPECT "step 2.*past its end.*only whole tiles may take load_whole_tile_16")

# The edge tiles' quads with a source size in floats: each brings its first float only.
wb_wrong_kernel(gemm_edge_quad_source_size_in_floats
  STEP 2
  FIND "                    inside ? 16 : 0);"
  REPLACE "                    inside ? 4 : 0);"
  EXPECT "step 2.*Likely cause: C is exactly the product in which every quad that load_tile_16 copies \\(the tiles at an edge\\) brought its first float alone")

# The edge tiles' quads outside the array skipped instead of zero-filled: the stage keeps
# what an earlier k-tile left there.
wb_wrong_kernel(gemm_edge_quads_skipped
  STEP 2
  FIND "    wb::cp_async_cg(&smem_tile[smem_gemm_layout(row, col)], inside ? &gmem_tile[row + col * ld] : gmem_tile,\n                    inside ? 16 : 0);"
  REPLACE "    if (inside) wb::cp_async_cg(&smem_tile[smem_gemm_layout(row, col)], &gmem_tile[row + col * ld]);"
  EXPECT "step 2.*Likely cause: C is exactly the product in which the last k-tile's columns past k \\([0-9]+ to [0-9]+\\) hold what their stage held 3 k-tiles before")

# A whole tile's quads copied for the thread's first column only: no loop over col and
# col + 8, so columns 8 to 15 of every stage are never filled.
wb_wrong_kernel(whole_tile_first_column_only
  STEP 2
  FIND "  WB_UNROLL\n  for (int col = 0; col < kGemmTileK; col += gemm_copy_layout.cols) {\n    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * ld);\n  }"
  REPLACE "  wb::cp_async_cg(smem_quad, gmem_quad);"
  EXPECT "step 2.*The copies filled the first 1024 words of every 2048-word tile, one half, and the reads walk the whole.*A loop that steps a thread over the tile \\(across its columns, or down its rows\\)")

# A whole tile's loop started from the thread's column, over pointers that already point
# at it: thread (r, c) copies columns 2c and 2c + 8, onto other threads' quads.
wb_wrong_kernel(whole_tile_column_counted_twice
  STEP 2
  FIND "  for (int col = 0; col < kGemmTileK; col += gemm_copy_layout.cols) {\n    wb::cp_async_cg(smem_quad"
  REPLACE "  for (int col = thread_coord.col; col < kGemmTileK; col += gemm_copy_layout.cols) {\n    wb::cp_async_cg(smem_quad"
  EXPECT "step 2.*Likely cause: thread \\([0-9]+, 0\\)'s first copy brought element \\([0-9]+, [0-9]+\\) of its block's tile of [AB], where its first element is .*the thread's column is counted twice.*the loop counts from 0")

# The thread's start column left out of the global quad: every thread copies columns 0
# and 8 of the k-tile into its own columns.
wb_wrong_kernel(whole_tile_without_the_thread_column
  STEP 2
  FIND "const float* gmem_quad = gmem_tile + 4 * thread_coord.row + thread_coord.col * ld;"
  REPLACE "const float* gmem_quad = gmem_tile + 4 * thread_coord.row;"
  EXPECT "step 2.*Likely cause: C is exactly the product whose copies read a thread's columns of each k-tile from the k-tile's column 0.*thread_coord.col \\* ld, is left out")

# The edge quad's test compares the thread's quad coordinate with the valid rows where its
# first row (4 * thread_coord.row) is meant: quads past the valid rows read 16 bytes.
wb_wrong_kernel(edge_quad_test_on_the_coordinate
  STEP 2
  FIND "  const int row = 4 * thread_coord.row;\n  for (int col = thread_coord.col; col < kGemmTileK; col += gemm_copy_layout.cols) {\n    const bool inside = row < valid_rows && col < valid_k;"
  REPLACE "  const int row = 4 * thread_coord.row;\n  for (int col = thread_coord.col; col < kGemmTileK; col += gemm_copy_layout.cols) {\n    const bool inside = thread_coord.row < valid_rows && col < valid_k;"
  EXPECT "step 2.*Likely cause: .*Either the row test compares the thread's coordinate \\(thread_coord.row = [0-9]+\\) with the valid rows where its first row \\([0-9]+\\) is meant")

# The loop's column offset without ld: the copy into column c + 8 brings rows 8 further
# down column c.
wb_wrong_kernel(whole_tile_column_without_ld
  STEP 2
  FIND "gmem_quad + col * ld);"
  REPLACE "gmem_quad + col);"
  EXPECT "step 2.*Likely cause: C is exactly the product whose copies read a thread's first column of each k-tile right and the columns after it \\(its loop's col, 8 apart\\) col floats further instead of col \\* ld: the loop's global column step is 1 \\(ld left out")

# The outside quads redirected to the tile's start but copied with no source size: each
# brings the tile's first quad in full instead of zeros.
wb_wrong_kernel(edge_quads_without_a_source_size
  STEP 2
  FIND "    wb::cp_async_cg(&smem_tile[smem_gemm_layout(row, col)], inside ? &gmem_tile[row + col * ld] : gmem_tile,\n                    inside ? 16 : 0);"
  REPLACE "    wb::cp_async_cg(&smem_tile[smem_gemm_layout(row, col)], inside ? &gmem_tile[row + col * ld] : gmem_tile);"
  EXPECT "step 2.*Likely cause: C is exactly the product in which the last k-tile's columns past k .* hold copies of the tile's first quad")

# Step 2's whole tiles step the global pointer by the shared tile's rows (128) where a
# column of A or B is ld floats further: a thread's second column comes from elsewhere.
wb_wrong_kernel(whole_tile_global_column_step_of_the_tile
  STEP 2
  FIND "    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * ld);"
  REPLACE "    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * kGemmTile);"
  EXPECT "step 2.*Likely cause: C is exactly the product whose copies read a thread's first column of each k-tile right and the columns after it \\(its loop's col, 8 apart\\) col \\* 128 floats further instead of col \\* ld")

# Step 2's whole-tile copy loop bounded by the tile's rows where its k-columns are meant:
# the copies run past smem_a. The report names the two ways past a tile, not one.
wb_wrong_kernel(whole_tile_columns_bounded_by_the_tile_rows
  STEP 2
  FIND "  for (int col = thread_coord.col; col < kGemmTileK; col += gemm_copy_layout.cols) {"
  REPLACE "  for (int col = thread_coord.col; col < kGemmTile; col += gemm_copy_layout.cols) {"
  EXPECT "step 2.*the shared address of a cp.async lies outside the tile: its index reaches past the tile, either through a loop bound")

# A wait_all at the end of the whole-tile load: it lands the stages in flight too, and the
# pipeline no longer overlaps copies and FMAs (right output).
wb_wrong_kernel(wait_all_in_the_tile_load
  STEP 2
  FIND "    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * ld);\n  }\n  //! [step 2a hole]"
  REPLACE "    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * ld);\n  }\n  wb::cp_async_wait_all();\n  //! [step 2a hole]"
  EXPECT "step 2.*the waits found [0-9.]+ tiles in flight on average.*another wait \\(in the code that loads a tile, say\\) lands the tiles in flight")

# The thread's column added again to a pointer that already starts at it.
wb_wrong_kernel(thread_column_counted_twice
  STEP 2
  FIND "    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * ld);"
  REPLACE "    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + (thread_coord.col + col) * ld);"
  EXPECT "step 2.*with the thread's first column counted twice.*the thread's column is added to an index or pointer that already starts at it")

# 16-byte copies of an odd-length tail: the last, partial quad copied whole, past the
# array's end.
# The test of a whole quad with `<` for `<=`: each tile's last quad, ending exactly at
# valid, goes float by float.
wb_wrong_kernel(whole_quad_test_one_short
  STEP 3
  FIND "  if (first + 4 <= valid) {"
  REPLACE "  if (first + 4 < valid) {"
  EXPECT "step 3.*1 whole quad was copied float by float.*the test is first \\+ 4 <= valid, not first \\+ 4 < valid")

wb_wrong_kernel(tail_read_as_a_whole_quad
  STEP 3
  FIND "  if (first + 4 <= valid) {"
  REPLACE "  if (first < valid) {"
  EXPECT "step 3.*past its end.*Likely cause: a 16-byte read of elements [0-9]+ to [0-9]+ of the input, which has [0-9]+: only [1-3] of them lie inside.*copy the floats of a partial vector with 4-byte copies")

# The last, partial quad with one 16-byte copy and a smaller source size: it reads only
# what exists, but still addresses 16 bytes past the end (compute-sanitizer reports it).
wb_wrong_kernel(tail_quad_with_a_partial_source_size
  STEP 3
  FIND "    for (int index = first; index < valid; ++index) wb::cp_async_ca<4>(&smem_tile[index], &gmem_tile_in[index]);"
  REPLACE "    if (first < valid) wb::cp_async_cg(&smem_tile[first], &gmem_tile_in[first], 4 * (valid - first));"
  EXPECT "step 3.*source size is [0-9]+ bytes, all inside the array, but the copy still addresses all 16")

# The last, partial quad forgotten: its floats are never copied, and the output keeps
# the poison of unwritten shared memory there.
wb_wrong_kernel(tail_quad_dropped
  STEP 3
  FIND "    for (int index = first; index < valid; ++index) wb::cp_async_ca<4>(&smem_tile[index], &gmem_tile_in[index]);"
  REPLACE ""
  EXPECT "step 3.*only floats 1024 to 1026 can be wrong here, those of the array.s last, partial quad")

# The barrier after the wait missing in step 3: the stores read other threads' quads.
wb_wrong_kernel(tail_missing_barrier
  STEP 3
  FIND "  wb::cp_async_wait<0>();\n  __syncthreads();\n  //! [step 3 hole]"
  REPLACE "  wb::cp_async_wait<0>();\n  //! [step 3 hole]"
  EXPECT "step 3.*(race on shared memory|before their cp.async had landed).*barrier")

# A quad's first float counted in bytes: the copies' starts four times too far apart.
wb_wrong_kernel(quad_start_in_bytes
  STEP 3
  FIND "  const int first = 4 * threadIdx.x;  // this thread's quad"
  REPLACE "  const int first = 16 * threadIdx.x;  // this thread's quad"
  EXPECT "step 3.*Likely cause: .*copies 16 bytes, 4 floats, and each copy starts 16 floats after the one before: four times too far apart")

# The test that sends a quad to the 16-byte copy compares a tile's offset with the array's
# count: in the last tile every quad takes it, and one reads past the end.
wb_wrong_kernel(whole_quad_test_against_the_count
  STEP 3
  FIND "  if (first + 4 <= valid) {"
  REPLACE "  if (first + 4 <= count) {"
  EXPECT "step 3.*past its end.*Either the test that sends a vector to the wide copy lets a partial one through \\(all of its floats must lie inside: first \\+ 4 <= the valid count")

# Step 3's copies read from the array's start, not the block's tile: every tile after the
# first holds the first tile's elements (at 1027 floats, only the last partial quad).
wb_wrong_kernel(tail_copies_from_the_array_start
  STEP 3
  FIND "    wb::cp_async_cg(&smem_tile[first], &gmem_tile_in[first]);"
  REPLACE "    wb::cp_async_cg(&smem_tile[first], &gmem_in[first]);"
  EXPECT "step 3.*Likely cause: every wrong tile holds the data of the array's first tile.*gmem_in for gmem_tile_in")

# Step 3's quad addressed through float4 pointers with a float index: four times as far.
wb_wrong_kernel(float_index_on_float4_pointers
  STEP 3
  FIND "    wb::cp_async_cg(&smem_tile[first], &gmem_tile_in[first]);"
  REPLACE "    wb::cp_async_cg(reinterpret_cast<float4*>(smem_tile) + first, reinterpret_cast<const float4*>(gmem_tile_in) + first);"
  EXPECT "step 3.*Likely cause: block 0's thread [0-9]+ read float [0-9]+ of its tile with its first copy, where its quad starts at float [0-9]+: four times as far. Either a float index is added to a float4 pointer, which moves 16 bytes a step, or an offset in bytes")

# Step 3's source offset counted in bytes on a float pointer: four times as far too.
wb_wrong_kernel(source_offset_in_bytes_on_a_float_pointer
  STEP 3
  FIND "    wb::cp_async_cg(&smem_tile[first], &gmem_tile_in[first]);"
  REPLACE "    wb::cp_async_cg(&smem_tile[first], gmem_tile_in + sizeof(float) * first);"
  EXPECT "step 3.*Likely cause: block 0's thread [0-9]+ read float [0-9]+ of its tile with its first copy, where its quad starts at float [0-9]+: four times as far.*or an offset in bytes \\(sizeof\\(float\\) \\* first\\) to a float pointer")

# The commit only on the whole quad's path: the partial quad's 4-byte copies join no group,
# and wait<0> does not wait for them.
wb_wrong_kernel(partial_quad_copies_never_committed
  STEP 3
  FIND "    for (int index = first; index < valid; ++index) wb::cp_async_ca<4>(&smem_tile[index], &gmem_tile_in[index]);\n  }\n  wb::cp_async_commit();\n  wb::cp_async_wait<0>();"
  REPLACE "    for (int index = first; index < valid; ++index) wb::cp_async_ca<4>(&smem_tile[index], &gmem_tile_in[index]);\n  }\n  if (first + 4 <= valid) wb::cp_async_commit();\n  wb::cp_async_wait<0>();"
  EXPECT "step 3.*Likely cause: .*a copy that no cp_async_commit\\(\\) had put in a group")

# Whole tiles copied with the source-size form: no quad of a whole tile needs zero-filling
# (right output, a costlier copy on the hot path).
wb_wrong_kernel(whole_tile_copies_with_a_source_size
  STEP 2
  FIND "    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * ld);"
  REPLACE "    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * ld, 16);"
  EXPECT "step 2.*has whole tiles only, and [0-9]+ of its [0-9]+ copies took the form with a source size")

# An edge tile's quad read at row * ld + col, a row-major index in a column-major operand.
wb_wrong_kernel(edge_quad_index_row_major
  STEP 2
  FIND "inside ? &gmem_tile[row + col * ld] : gmem_tile,"
  REPLACE "inside ? &gmem_tile[row * ld + col] : gmem_tile,"
  EXPECT "step 2.*Likely cause: .*row \\* ld \\+ col, the index of a row-major array")

# The shared index of the whole tile's copies steps its columns by the array's leading
# dimension: the third stage's copies run past smem_a.
wb_wrong_kernel(whole_tile_shared_columns_strided_by_ld
  STEP 2
  FIND "    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * ld);"
  REPLACE "    wb::cp_async_cg(smem_quad + col * ld, gmem_quad + col * ld);"
  EXPECT "step 2.*Likely cause: the copy of element .* went to float [0-9]+ of smem_[ab] = .*the shared index steps its columns by [0-9]+, [AB]'s leading dimension")

# The quad's shared offset in floats added to a byte pointer: the quad of row 4 goes to
# byte 4, where it lies at byte 16, off a 16-byte boundary (column 1 would start at byte
# 132, not 528). A quad index on a float pointer lands on the same byte, so both are named.
wb_wrong_kernel(shared_offset_in_floats_on_a_byte_pointer
  STEP 1
  FIND "    wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  REPLACE "    wb::cp_async_cg(reinterpret_cast<float*>(reinterpret_cast<char*>(smem_tile) + smem_16_layout(row, col)), &gmem_tile_in[row + col * rows]);"
  EXPECT "step 1.*not 16-byte aligned.*Likely cause: the 16-byte copy of element \\([0-9]+, [0-9]+\\) of block \\(0, 0\\)'s tile went to byte 4 of smem_tile: either its row, 4 floats, added to a byte pointer as 4 bytes, where the element lies at byte 16, or its index counted in quads \\(a float4 index, a quarter of the element's\\) on a float pointer, which counts floats \\(row 1 where 4 is meant\\): both put the copy there. On a char\\* every float counts sizeof\\(float\\) bytes")

# Step 3's quads two a thread, adjacent: threads 128 to 255 of every block copy nothing,
# and the output stays right.
wb_wrong_kernel(two_adjacent_quads_a_thread
  STEP 3
  FIND "  if (first + 4 <= valid) {\n    wb::cp_async_cg(&smem_tile[first], &gmem_tile_in[first]);\n  } else {"
  REPLACE "  for (int quad = 2 * static_cast<int>(threadIdx.x); quad < 2 * static_cast<int>(threadIdx.x) + 2 && quad < kThreads; ++quad) {\n    if (4 * quad + 4 <= valid) {\n      wb::cp_async_cg(&smem_tile[4 * quad], &gmem_tile_in[4 * quad]);\n    } else {\n      for (int index = 4 * quad; index < valid; ++index) wb::cp_async_ca<4>(&smem_tile[index], &gmem_tile_in[index]);\n    }\n  }\n  if (false) {\n  } else if (first < 0) {"
  EXPECT "step 3.*128 of the launch's 256 threads issued no cp.async.*one quad for each thread")

# The whole tiles' quads moved with a plain float4 load and store, as vector code does on
# a CPU: the output is right, and nothing travels while the block computes.
wb_wrong_kernel(whole_tile_through_registers
  STEP 2
  FIND "    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * ld);"
  REPLACE "    *reinterpret_cast<float4*>(smem_quad + smem_gemm_layout(0, col)) = *reinterpret_cast<const float4*>(gmem_quad + col * ld);"
  EXPECT "step 2.*the kernel issued 0 of 16 bytes, 0 of 8 and 0 of 4. Fewer copies than the vectors, and the kernel made [0-9]+ plain loads of global memory: vectors reached shared memory through registers")

# Step 1's 16-byte source taken from a float4 pointer to the column, indexed with the
# quad's row in floats: four times as far down, into the columns after its own.
wb_wrong_kernel(quad_row_in_floats_on_a_float4_pointer
  STEP 1
  FIND "    wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)], &gmem_tile_in[row + col * rows]);"
  REPLACE "    wb::cp_async_cg(&smem_tile[smem_16_layout(row, col)], reinterpret_cast<const float4*>(gmem_tile_in + col * rows) + row);"
  EXPECT "step 1.*its row offset is counted four times over: the row in floats added to a pointer to float4")

# Step 2's shared destination indexed with the quad's row again over a pointer that
# already starts at it: two threads' copies meet on one word.
wb_wrong_kernel(shared_quad_row_counted_twice
  STEP 2
  FIND "    wb::cp_async_cg(smem_quad + smem_gemm_layout(0, col), gmem_quad + col * ld);"
  REPLACE "    wb::cp_async_cg(smem_quad + smem_gemm_layout(4 * thread_coord.row, col), gmem_quad + col * ld);"
  EXPECT "step 2.*the row counted twice")

# Step 1's shared destination walked by a pointer from the thread's first word, whose
# column is stepped by the input's rows: the loop then steps the padded tile's columns,
# and the first column's offset carries the input's stride into every copy.
wb_wrong_kernel(shared_start_column_strided_by_the_rows
  STEP 1
  FIND "  for (int col = thread_coord.col; col < kTileCols; col += thread_8_layout.cols) {\n    wb::cp_async_ca<8>(&smem_tile[smem_8_layout(row, col)], &gmem_tile_in[row + col * rows]);\n  }"
  REPLACE "  float* smem_pair = &smem_tile[row + thread_coord.col * rows];\n  for (int col = thread_coord.col; col < kTileCols; col += thread_8_layout.cols) {\n    wb::cp_async_ca<8>(smem_pair, &gmem_tile_in[row + col * rows]);\n    smem_pair += thread_8_layout.cols * (kTileRows + kPad8);\n  }"
  EXPECT "step 1.*Likely cause: the copy of element \\([0-9]+, [0-9]+\\) of block \\(0, 0\\)'s tile of the input went to float [0-9]+ of smem_tile = [0-9]+ \\+ [0-9]+ \\* 256 \\+ [0-9]+ \\* 130, past its end: the thread's first column, [0-9]+, is stepped by 256, the input's leading dimension \\(rows\\), and the loop's columns after it by 130")

# Step 3's test for a whole quad written as a test for a whole tile: in a partial tile every
# quad goes float by float, and the float loop, which runs to valid, takes the next
# threads' floats too.
wb_wrong_kernel(whole_tile_test_for_a_whole_quad
  STEP 3
  FIND "  if (first + 4 <= valid) {"
  REPLACE "  if (valid == kTailTile) {"
  EXPECT "step 3.*Likely cause: block 0's thread 0 copied floats 0 to 4 of its tile one at a time.*its quad, floats 0 to 3, lies wholly inside the tile's 5 valid floats.*Either the test that picks the 16-byte copy sends whole quads to the float loop")
