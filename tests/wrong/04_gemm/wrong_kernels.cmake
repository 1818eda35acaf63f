# Known-wrong versions of chapter 4's solution, each one mistake a learner makes, with
# the diagnosis the grader must give. Each is the solution with FIND replaced by REPLACE
# (every occurrence).

# The number of k-tiles rounded down: the last, partial k-tile is never loaded (all
# four kernels; step 1 meets it first, at k = 52).
wb_wrong_kernel(last_partial_k_tile_dropped
  STEP 1
  FIND "  const int k_tiles = (k + kTileK - 1) / kTileK;"
  REPLACE "  const int k_tiles = k / kTileK;"
  EXPECT "step 1.*C is exactly the product over k < 48: the last, partial k-tile \\(k = 48 to 51\\) was dropped")

# `=` where the products add up: each element of C is the product of the last column of
# A and of B alone (step 1; the model recomputes it from the same A and B).
wb_wrong_kernel(product_assigned_instead_of_added
  STEP 1
  FIND "          acc[i][j] += smem_a[smem_a_layout(thread_coord.row + i * kThreadRows, kk)] *"
  REPLACE "          acc[i][j] = smem_a[smem_a_layout(thread_coord.row + i * kThreadRows, kk)] *"
  EXPECT "step 1.*C is exactly the product of A's and B's last column alone \\(k = 63\\).*acc\\[i\\]\\[j\\] \\+= ")

# The accumulator declared inside the loop over k-tiles: the sums restart in each one.
wb_wrong_kernel(accumulator_zeroed_in_every_k_tile
  STEP 1
  FIND "    const int k0 = k_tile * kTileK;                // the tiles are columns [k0, k0 + 8) of A and B\n"
  REPLACE "    const int k0 = k_tile * kTileK;                // the tiles are columns [k0, k0 + 8) of A and B\n    for (auto& row : acc) for (float& element : row) element = 0.0f;\n"
  EXPECT "step 1.*C is exactly the product over the last k-tile alone \\(k = 56 to 63\\).*zeroed \\(or declared\\) inside that loop")

# A k-tile's origin moved down k0 rows instead of k0 columns along (both tiles).
wb_wrong_kernel(k_tile_origin_counted_in_rows
  STEP 1
  FIND "    load_tile_sync(smem_a, smem_a_layout, gmem_a_rows + k0 * m, m, valid_m, valid_k);\n    load_tile_sync(smem_b, smem_b_layout, gmem_b_rows + k0 * n, n, valid_n, valid_k);"
  REPLACE "    load_tile_sync(smem_a, smem_a_layout, gmem_a_rows + k0, m, valid_m, valid_k);\n    load_tile_sync(smem_b, smem_b_layout, gmem_b_rows + k0, n, valid_n, valid_k);"
  EXPECT "step 1.*reads A's and B's k-tiles k0 rows down instead of k0 columns along.*gmem_rows \\+ k0 \\* ld")

# A's tile read from A's first rows in every block: the block's row origin left out.
wb_wrong_kernel(a_rows_without_the_block_origin
  STEP 1
  FIND "    load_tile_sync(smem_a, smem_a_layout, gmem_a_rows + k0 * m, m, valid_m, valid_k);"
  REPLACE "    load_tile_sync(smem_a, smem_a_layout, gmem_a + k0 * m, m, valid_m, valid_k);"
  EXPECT "step 1.*Likely cause: every row of blocks computed the first one's rows of C.*left out of A's address")

# The two tile loads exchanged: smem_a filled from B and smem_b from A. Each tile of C
# holds its own transpose, as with A and B exchanged in the reads: both are named.
wb_wrong_kernel(step1_loads_exchanged
  STEP 1
  FIND "    load_tile_sync(smem_a, smem_a_layout, gmem_a_rows + k0 * m, m, valid_m, valid_k);\n    load_tile_sync(smem_b, smem_b_layout, gmem_b_rows + k0 * n, n, valid_n, valid_k);"
  REPLACE "    load_tile_sync(smem_a, smem_a_layout, gmem_b_rows + k0 * n, n, valid_n, valid_k);\n    load_tile_sync(smem_b, smem_b_layout, gmem_a_rows + k0 * m, m, valid_m, valid_k);"
  EXPECT "step 1.*Likely cause: each 128x128 tile of C holds its own transpose: A and B are exchanged where the tile is computed, either in the loads")

# B's load given A's source (a copy-paste slip): the same C as B's fragments read from
# A's tile, so both are named.
wb_wrong_kernel(step1_b_loaded_from_a
  STEP 1
  FIND "    load_tile_sync(smem_b, smem_b_layout, gmem_b_rows + k0 * n, n, valid_n, valid_k);"
  REPLACE "    load_tile_sync(smem_b, smem_b_layout, gmem_a_rows + k0 * m, m, valid_m, valid_k);"
  EXPECT "step 1.*Likely cause: C is exactly the product that reads B's fragments from A's shared tile: either .* or smem_b is loaded from A")

# The seed's race: no barrier between the wait and the reads of the tile. A thread's
# wait makes its own copies visible to itself only; the simulator's race check names
# the cp.async of one thread and the read of another, under every schedule.
wb_wrong_kernel(no_barrier_between_wait_and_reads
  STEP 2
  FIND "    wb::cp_async_wait<0>();  // this thread's copies have landed: visible to this thread only\n    __syncthreads();         // every thread has waited: the whole tiles are visible to all\n"
  REPLACE "    wb::cp_async_wait<0>();  // this thread's copies have landed: visible to this thread only\n"
  EXPECT "step 2.*another thread's cp.async.*a __syncthreads\\(\\) after everyone's wait \\(the seed's race\\)")

# No wait at all: the reads find the copies of the thread itself still in flight.
wb_wrong_kernel(no_wait
  STEP 2
  FIND "    wb::cp_async_wait<0>();  // this thread's copies have landed: visible to this thread only\n"
  REPLACE ""
  EXPECT "step 2.*Likely cause: thread \\([0-9]+, [0-9]+\\) of block \\([0-9]+, [0-9]+\\) read, at [^ ]*gemm.cu:[0-9]+, a word that its own cp.async was still bringing, and that thread had not waited at all: a cp_async_wait is missing")

# A thread's row and column exchanged in the products of step 2 (the store keeps them).
wb_wrong_kernel(thread_row_and_column_exchanged_in_the_products
  STEP 2
  FIND "          acc[i][j] += smem_a[smem_a_layout(thread_coord.row + i * kThreadRows, kk)] *\n                       smem_b[smem_b_layout(thread_coord.col + j * kThreadCols, kk)];\n        }\n      }\n    }\n    __syncthreads();  // everyone has read the tiles before the next copies overwrite them"
  REPLACE "          acc[i][j] += smem_a[smem_a_layout(thread_coord.col + i * kThreadRows, kk)] *\n                       smem_b[smem_b_layout(thread_coord.row + j * kThreadCols, kk)];\n        }\n      }\n    }\n    __syncthreads();  // everyone has read the tiles before the next copies overwrite them"
  EXPECT "step 2.*thread's coordinate is read one way for the products and the other way for the store")

# B's tile loaded with A's valid rows: in the last column of blocks (valid_n 8) the copies
# read B's rows past n, past its end in its last column.
wb_wrong_kernel(b_tile_bounded_by_valid_m
  STEP 2
  FIND "    load_tile_async(smem_b, smem_b_layout, gmem_b_rows + k0 * n, n, valid_n, valid_k);"
  REPLACE "    load_tile_async(smem_b, smem_b_layout, gmem_b_rows + k0 * n, n, valid_m, valid_k);"
  EXPECT "step 2.*Likely cause: block \\([0-9]+, 1\\)'s thread \\([0-9]+, [0-9]+\\) read row [0-9]+ of its tile of B in the last column, past B's end: its tile has 8 valid rows, and A's has [0-9]+. B's tile is loaded with A's valid rows or with no bound on its rows \\(the whole tile's [0-9]+\\): bound it by its own \\(valid_n\\)")

# load_tile_async steps through A's and B's columns by the shared tile's rows (128) where
# they are ld floats apart: every column after a tile's first comes from elsewhere.
wb_wrong_kernel(copies_step_global_columns_by_the_tile_rows
  STEP 2
  FIND "inside ? &gmem_tile[row + col * ld] : gmem_tile"
  REPLACE "inside ? &gmem_tile[row + col * kTileM] : gmem_tile"
  EXPECT "step 2.*Likely cause: C is exactly the product whose copies read column kk of each k-tile kk \\* 128 floats after its first column instead of kk \\* ld")

# wait<0> where the pipeline asks for wait<kStages - 2>: every copy lands at each wait,
# the next tile's too, and nothing is left in flight while a tile is computed.
wb_wrong_kernel(pipeline_serialised_by_wait_0
  STEP 3
  FIND "    wb::cp_async_wait<kStages - 2>();  // tile k_tile has landed"
  REPLACE "    wb::cp_async_wait<0>();  // tile k_tile has landed"
  EXPECT "step 3.*the waits found [0-9.]+ tiles in flight.*serialises the pipeline")

# The barrier at the end of the loop missing: the next iteration's copies refill the
# stage another thread still reads.
wb_wrong_kernel(stage_refilled_before_its_readers_are_done
  STEP 3
  FIND "    __syncthreads();  // everyone has read this stage before the next iteration refills it\n"
  REPLACE ""
  EXPECT "step 3.*kernel failed.*Likely cause: thread \\([0-9]+, 0\\) copied into a stage in its commit group [0-9]+ while thread \\([0-9]+, 0\\), which had committed [0-9]+ groups, still read it.*at the end of the loop")

# The stage read off by one: the tile after k_tile, still in flight.
wb_wrong_kernel(stage_index_off_by_one
  STEP 3
  FIND "    const int stage = k_tile % kStages;"
  REPLACE "    const int stage = (k_tile + 1) % kStages;"
  EXPECT "step 3.*Likely cause: .*its last wait<1>, with 2 groups committed, left the newest 1 in flight, this one among them, as the step's pipeline means it to. So the stage read is not the one holding the tile the wait has just landed: the read and the load in flight share a stage \\(the read's stage index ahead")

# A wait that leaves one group too many in flight: wait<kStages - 1> lands nothing of the
# tile about to be computed, which the simulator's record of the read in flight shows.
wb_wrong_kernel(wait_leaves_the_tile_in_flight
  STEP 3
  FIND "    wb::cp_async_wait<kStages - 2>();  // tile k_tile has landed; the kStages - 2 after it may not"
  REPLACE "    wb::cp_async_wait<kStages - 1>();"
  EXPECT "step 3.*Likely cause: .*its last wait<2>, with 2 groups committed, left the newest 2 in flight, this one among them: this step waits with wait<1>")

# The refill put into the stage about to be computed: a copy issued after the last wait
# into words read before any wait lands them.
wb_wrong_kernel(refill_into_the_stage_being_computed
  STEP 3
  FIND "    load_stage(k_tile + kStages - 1, (k_tile + kStages - 1) % kStages);\n    __syncthreads();  // every thread has waited"
  REPLACE "    load_stage(k_tile + kStages - 1, k_tile % kStages);\n    __syncthreads();  // every thread has waited"
  EXPECT "step 3.*Likely cause: .*a copy issued after that thread's last wait, into a word read before any wait lands it: a stage is refilled while it is read")

# The refill's stage written `(k_tile - 1) % kStages`, which C++ makes -1 at the first
# tile (the remainder takes the dividend's sign): that tile's copies land before the
# stage array, in another kernel's, and the stage meant for it is read unfilled.
wb_wrong_kernel(refill_stage_negative_at_the_first_tile
  STEP 3
  FIND "    load_stage(k_tile + kStages - 1, (k_tile + kStages - 1) % kStages);\n    __syncthreads();  // every thread has waited"
  REPLACE "    load_stage(k_tile + kStages - 1, (k_tile - 1) % kStages);\n    __syncthreads();  // every thread has waited"
  EXPECT "step 3.*kernel failed.*at element -[0-9]+ of this kernel.s smem_[ab], which has [0-9]+ floats.*before its start, outside this kernel.s shared memory.*An index into smem_[ab] below 0.*\\(i - 1\\) % n")

# A and B exchanged in step 4's fragments: each tile of C holds its own transpose.
wb_wrong_kernel(a_and_b_swapped
  STEP 4
  FIND "*reinterpret_cast<const float4*>(&smem_a_stage[smem_a4_layout(micro_row(thread_coord.row, v), kk)]);\n        a_frag[v] = a4.x, a_frag[v + 1] = a4.y, a_frag[v + 2] = a4.z, a_frag[v + 3] = a4.w;\n      }\n      WB_UNROLL\n      for (int v = 0; v < kMicroN; v += kVector) {\n        const float4 b4 = *reinterpret_cast<const float4*>(&smem_b_stage[smem_b4_layout("
  REPLACE "*reinterpret_cast<const float4*>(&smem_b_stage[smem_b4_layout(micro_row(thread_coord.row, v), kk)]);\n        a_frag[v] = a4.x, a_frag[v + 1] = a4.y, a_frag[v + 2] = a4.z, a_frag[v + 3] = a4.w;\n      }\n      WB_UNROLL\n      for (int v = 0; v < kMicroN; v += kVector) {\n        const float4 b4 = *reinterpret_cast<const float4*>(&smem_a_stage[smem_a4_layout("
  EXPECT "step 4.*each 128x128 tile of C holds its own transpose: A and B are exchanged")

# Step 4's one barrier with the refill issued before it: a fast thread's copies land in
# the stage that a slow thread still reads from the previous iteration.
wb_wrong_kernel(refill_issued_before_the_one_barrier
  STEP 4
  FIND "    __syncthreads();\n    load_stage(k_tile + kStages - 1, (k_tile + kStages - 1) % kStages);\n    const float* smem_a_stage"
  REPLACE "    load_stage(k_tile + kStages - 1, (k_tile + kStages - 1) % kStages);\n    __syncthreads();\n    const float* smem_a_stage"
  EXPECT "step 4.*kernel failed.*copied into a stage in its commit group [0-9]+ while .*Step 4 has one __syncthreads\\(\\) per k-tile.*load_stage, which refills that stage, must come after it")

# The micro-tile's i and j exchanged in step 4's product.
wb_wrong_kernel(micro_tile_indices_exchanged
  STEP 4
  FIND "        for (int j = 0; j < kMicroN; ++j) acc[i][j] += a_frag[i] * b_frag[j];"
  REPLACE "        for (int j = 0; j < kMicroN; ++j) acc[i][j] += a_frag[j] * b_frag[i];"
  EXPECT "step 4.*acc\\[i\\]\\[j\\] holds the sum for row j and column i")

# B's fragment read for the thread's row: every thread multiplies by the columns of C
# that the thread (r, r) owns.
wb_wrong_kernel(b_fragment_at_the_thread_row
  STEP 4
  FIND "&smem_b_stage[smem_b4_layout(micro_col(thread_coord.col, v), kk)]"
  REPLACE "&smem_b_stage[smem_b4_layout(micro_col(thread_coord.row, v), kk)]"
  EXPECT "step 4.*Likely cause: each thread multiplied its rows of A by the columns of B that its thread row picks")

# A's fragments counted 0, 1 and the count passed to micro_row, which takes an element
# index: the second float4 starts at row 4r + 1, off a 16-byte boundary.
wb_wrong_kernel(fragment_number_as_element_index
  STEP 4
  FIND "      for (int v = 0; v < kMicroM; v += kVector) {\n        const float4 a4 = *reinterpret_cast<const float4*>(&smem_a_stage[smem_a4_layout(micro_row(thread_coord.row, v), kk)]);\n        a_frag[v] = a4.x, a_frag[v + 1] = a4.y, a_frag[v + 2] = a4.z, a_frag[v + 3] = a4.w;"
  REPLACE "      for (int v = 0; v < kMicroM / kVector; ++v) {\n        const float4 a4 = *reinterpret_cast<const float4*>(&smem_a_stage[smem_a4_layout(micro_row(thread_coord.row, v), kk)]);\n        a_frag[v * kVector] = a4.x, a_frag[v * kVector + 1] = a4.y, a_frag[v * kVector + 2] = a4.z, a_frag[v * kVector + 3] = a4.w;"
  EXPECT "step 4.*Likely cause: fragment v of A \\(4 elements\\) was read from micro_row\\(thread_coord.row, v\\), where it starts at micro_row\\(thread_coord.row, 4 \\* v\\)")

# B's float4 fragment addressed by hand with a column stride of kTileK (8) where the
# (128,8) tile's columns are 128 floats apart: column kk is read from column 0 or 1.
wb_wrong_kernel(b_fragment_column_stride_of_the_k_tile
  STEP 4
  FIND "&smem_b_stage[smem_b4_layout(micro_col(thread_coord.col, v), kk)]"
  REPLACE "&smem_b_stage[micro_col(thread_coord.col, v) + kk * kTileK]"
  EXPECT "step 4.*Likely cause: C is exactly the product that reads B's fragments from its shared tile with a column stride of 8 .the k-tile's width. where the tile's columns are 128 floats apart")

# B's fragment read from A's stage: every column of C multiplies A by A's own rows.
wb_wrong_kernel(b_fragment_from_a_stage
  STEP 4
  FIND "&smem_b_stage[smem_b4_layout(micro_col(thread_coord.col, v), kk)]"
  REPLACE "&smem_a_stage[smem_b4_layout(micro_col(thread_coord.col, v), kk)]"
  EXPECT "step 4.*Likely cause: C is exactly the product that reads B's fragments from A's shared tile")

# Step 4's A fragment indexes a float4 pointer with the layout's float offset: four times
# as far, and past the stages before the last kk.
wb_wrong_kernel(float4_pointer_indexed_in_floats
  STEP 4
  FIND "*reinterpret_cast<const float4*>(&smem_a_stage[smem_a4_layout(micro_row(thread_coord.row, v), kk)])"
  REPLACE "reinterpret_cast<const float4*>(smem_a_stage)[smem_a4_layout(micro_row(thread_coord.row, v), kk)]"
  EXPECT "step 4.*Likely cause: block \\([0-9]+, [0-9]+\\)'s thread [0-9]+ read A's fragments at floats .* of smem_a, the last past its end: each is 4 times the offset of the float it was meant to start at")

# Both of step 4's fragment loops count float4 fragments and pass the fragment's number
# to micro_row and micro_col, which take an element index.
wb_wrong_kernel(fragment_numbers_as_element_indices
  STEP 4
  FIND "      for (int v = 0; v < kMicroM; v += kVector) {\n        const float4 a4 = *reinterpret_cast<const float4*>(&smem_a_stage[smem_a4_layout(micro_row(thread_coord.row, v), kk)]);\n        a_frag[v] = a4.x, a_frag[v + 1] = a4.y, a_frag[v + 2] = a4.z, a_frag[v + 3] = a4.w;\n      }\n      WB_UNROLL\n      for (int v = 0; v < kMicroN; v += kVector) {\n        const float4 b4 = *reinterpret_cast<const float4*>(&smem_b_stage[smem_b4_layout(micro_col(thread_coord.col, v), kk)]);\n        b_frag[v] = b4.x, b_frag[v + 1] = b4.y, b_frag[v + 2] = b4.z, b_frag[v + 3] = b4.w;"
  REPLACE "      for (int v = 0; v < kMicroM / kVector; ++v) {\n        const float4 a4 = *reinterpret_cast<const float4*>(&smem_a_stage[smem_a4_layout(micro_row(thread_coord.row, v), kk)]);\n        a_frag[v * kVector] = a4.x, a_frag[v * kVector + 1] = a4.y, a_frag[v * kVector + 2] = a4.z, a_frag[v * kVector + 3] = a4.w;\n      }\n      WB_UNROLL\n      for (int v = 0; v < kMicroN / kVector; ++v) {\n        const float4 b4 = *reinterpret_cast<const float4*>(&smem_b_stage[smem_b4_layout(micro_col(thread_coord.col, v), kk)]);\n        b_frag[v * kVector] = b4.x, b_frag[v * kVector + 1] = b4.y, b_frag[v * kVector + 2] = b4.z, b_frag[v * kVector + 3] = b4.w;"
  EXPECT "step 4.*Likely cause: fragment v of A \\(4 elements\\) was read from micro_row\\(thread_coord.row, v\\).*B's fragments are read the same way")

# Step 4's one barrier placed before the wait: the copies land after it, while others read.
wb_wrong_kernel(barrier_before_the_wait
  STEP 4
  FIND "    wb::cp_async_wait<kStages - 2>();\n    // One barrier does both of step 3's jobs: tile k_tile is visible to all, and everyone\n    // is done reading the stage of the previous iteration, which the load below refills.\n    __syncthreads();\n"
  REPLACE "    // One barrier does both of step 3's jobs: tile k_tile is visible to all, and everyone\n    // is done reading the stage of the previous iteration, which the load below refills.\n    __syncthreads();\n    wb::cp_async_wait<kStages - 2>();\n"
  EXPECT "step 4.*its wait came after the last __syncthreads\\(\\).*Likely cause: either the wait comes after the __syncthreads\\(\\)")

# Step 5 refills the stage at its last kk before the barrier: a fast thread's copies
# overwrite the stage while a slow one still reads its column 14.
wb_wrong_kernel(step5_refill_before_the_barrier
  STEP 5
  FIND "        wb::cp_async_wait<kStages - 2>();\n        __syncthreads();\n        load_stage(k_tile + kStages, stage);"
  REPLACE "        wb::cp_async_wait<kStages - 2>();\n        load_stage(k_tile + kStages, stage);\n        __syncthreads();"
  EXPECT "step 5.*Likely cause: .*Step 5 refills a stage at the last kk of its tile, after the wait and the __syncthreads\\(\\) there")

# Step 5's wait in the loop lets two groups stay in flight: the next tile is read before
# it lands.
wb_wrong_kernel(step5_wait_leaves_the_next_tile_in_flight
  STEP 5
  FIND "        wb::cp_async_wait<kStages - 2>();\n        __syncthreads();\n        load_stage(k_tile + kStages, stage);"
  REPLACE "        wb::cp_async_wait<kStages - 1>();\n        __syncthreads();\n        load_stage(k_tile + kStages, stage);"
  EXPECT "step 5.*its wait came after the last __syncthreads\\(\\).*Likely cause: thread \\(0, 0\\)'s wait<2> landed nothing.*This step waits with wait<1>")

# Step 5's prologue as step 4's (kStages - 1 stages): tile 2 is never loaded.
wb_wrong_kernel(step5_prologue_of_step_4
  STEP 5
  FIND "  for (int stage = 0; stage < kStages; ++stage) load_stage(stage, stage);\n  wb::cp_async_wait<kStages - 1>();"
  REPLACE "  for (int stage = 0; stage < kStages - 1; ++stage) load_stage(stage, stage);\n  wb::cp_async_wait<kStages - 1>();"
  EXPECT "step 5.*Likely cause: thread \\(0, 0\\)'s first wait, wait<2>, found only 2 groups committed.*the prologue committed 2 where this step's commits 3.*Step 5 loads all kStages stages before the loop")

# Step 5's FMAs take the buffer being read (column kk + 1's) instead of column kk's.
wb_wrong_kernel(step5_fmas_on_the_buffer_being_read
  STEP 5
  FIND "multiply_fragments(acc, a_frag[kk % 2], b_frag[kk % 2]);"
  REPLACE "multiply_fragments(acc, a_frag[(kk + 1) % 2], b_frag[(kk + 1) % 2]);"
  EXPECT "step 5.*Likely cause: C is exactly the product in which every column's FMAs took the next column's fragments")

# Step 5's FMAs of column kk before the reads of column kk + 1: the output is right, and
# the double buffer hides nothing (each read waits for the FMAs before it).
wb_wrong_kernel(step5_fmas_before_the_next_reads
  STEP 5
  FIND "      read_fragments(smem_a[next_stage], smem_b[next_stage], (kk + 1) % kDeepTileK, thread_coord,\n                     a_frag[(kk + 1) % 2], b_frag[(kk + 1) % 2]);\n      multiply_fragments(acc, a_frag[kk % 2], b_frag[kk % 2]);"
  REPLACE "      multiply_fragments(acc, a_frag[kk % 2], b_frag[kk % 2]);\n      read_fragments(smem_a[next_stage], smem_b[next_stage], (kk + 1) % kDeepTileK, thread_coord,\n                     a_frag[(kk + 1) % 2], b_frag[(kk + 1) % 2]);"
  EXPECT "step 5.*[0-9]+ of [0-9]+ calls of multiply_fragments came before the thread had read the next column's fragments.*at the FMAs of column 0 of k-tile 0, had made 4 shared loads, where the fragments of the columns up to the next one take 8 .*Call read_fragments for column kk \\+ 1")

# Step 5's FMAs written out in the loop, not through multiply_fragments: the simulator
# cannot see where they run.
wb_wrong_kernel(step5_fmas_without_multiply_fragments
  STEP 5
  FIND "      multiply_fragments(acc, a_frag[kk % 2], b_frag[kk % 2]);"
  REPLACE "      for (int i = 0; i < kMicroM; ++i) {\n        for (int j = 0; j < kMicroN; ++j) acc[i][j] += a_frag[kk % 2][i] * b_frag[kk % 2][j];\n      }"
  EXPECT "step 5.*multiply_fragments was never called: the simulator sees no arithmetic")

# Step 5 reads the next tile's column 0 from the stage it has just refilled.
wb_wrong_kernel(step5_next_column_from_the_refilled_stage
  STEP 5
  FIND "        next_stage = (k_tile + 1) % kStages;\n"
  REPLACE ""
  EXPECT "step 5.*Likely cause: .*read that stage with no barrier between, after committing that same group itself.*or the read's stage is this one where the next column to read, column 0 of the next tile, is in stage \\(k_tile \\+ 1\\) % kStages")

# Step 5's kk loop as step 4's, to kTileK: only the first 8 of each k-tile's 16 columns.
wb_wrong_kernel(step5_columns_to_the_depth_of_step_4
  STEP 5
  FIND "    for (int kk = 0; kk < kDeepTileK; ++kk) {\n      int next_stage = stage;  // where column kk + 1 lies: this stage, or at the last kk the next tile's\n      if (kk == kDeepTileK - 1) {\n        // Every thread read its last fragments of this stage at kk - 1. Past the barrier the\n        // stage is free for tile k_tile + kStages, and tile k_tile + 1 is visible to all.\n        wb::cp_async_wait<kStages - 2>();\n        __syncthreads();\n        load_stage(k_tile + kStages, stage);\n        next_stage = (k_tile + 1) % kStages;\n      }\n      // The next column's fragments travel from shared memory while this column's FMAs run.\n      // (After the last tile this reads a stage that no tile fills any more: unused.)\n      read_fragments(smem_a[next_stage], smem_b[next_stage], (kk + 1) % kDeepTileK, thread_coord,"
  REPLACE "    for (int kk = 0; kk < kTileK; ++kk) {\n      int next_stage = stage;  // where column kk + 1 lies: this stage, or at the last kk the next tile's\n      if (kk == kTileK - 1) {\n        // Every thread read its last fragments of this stage at kk - 1. Past the barrier the\n        // stage is free for tile k_tile + kStages, and tile k_tile + 1 is visible to all.\n        wb::cp_async_wait<kStages - 2>();\n        __syncthreads();\n        load_stage(k_tile + kStages, stage);\n        next_stage = (k_tile + 1) % kStages;\n      }\n      // The next column's fragments travel from shared memory while this column's FMAs run.\n      // (After the last tile this reads a stage that no tile fills any more: unused.)\n      read_fragments(smem_a[next_stage], smem_b[next_stage], (kk + 1) % kTileK, thread_coord,"
  EXPECT "step 5.*Likely cause: C is exactly the product of only the first 8 columns of each 16-column k-tile: the kk loop runs to kTileK")

# Step 2's A tile committed and waited for before B's copies are issued: B's copies wait
# for A's to land, two trips of the latency a k-tile (right output).
wb_wrong_kernel(a_and_b_waited_in_turn
  STEP 2
  FIND "    load_tile_async(smem_a, smem_a_layout, gmem_a_rows + k0 * m, m, valid_m, valid_k);\n    load_tile_async(smem_b, smem_b_layout, gmem_b_rows + k0 * n, n, valid_n, valid_k);\n    wb::cp_async_commit();\n    wb::cp_async_wait<0>();"
  REPLACE "    load_tile_async(smem_a, smem_a_layout, gmem_a_rows + k0 * m, m, valid_m, valid_k);\n    wb::cp_async_commit();\n    wb::cp_async_wait<0>();\n    load_tile_async(smem_b, smem_b_layout, gmem_b_rows + k0 * n, n, valid_n, valid_k);\n    wb::cp_async_commit();\n    wb::cp_async_wait<0>();"
  EXPECT "step 2.*the threads waited 16 times each for 8 k-tiles: one wait a k-tile lets all of its copies, A's and B's, travel together")

# Step 4's wait lets kStages - 1 groups stay in flight, all there are: it lands nothing.
wb_wrong_kernel(step4_wait_leaves_every_tile_in_flight
  STEP 4
  FIND "    wb::cp_async_wait<kStages - 2>();\n    // One barrier does both of step 3's jobs"
  REPLACE "    wb::cp_async_wait<kStages - 1>();\n    // One barrier does both of step 3's jobs"
  EXPECT "step 4.*Likely cause: thread \\([0-9]+, [0-9]+\\)'s wait<2> landed nothing.*This step waits with wait<1>")

# The products' rows of A taken as 8 consecutive rows a thread (8 * row + i) while the
# store writes rows row + 16 * i: the right values in the wrong rows of C.
wb_wrong_kernel(product_rows_consecutive_store_rows_strided
  STEP 1
  FIND "          acc[i][j] += smem_a[smem_a_layout(thread_coord.row + i * kThreadRows, kk)] *"
  REPLACE "          acc[i][j] += smem_a[smem_a_layout(thread_coord.row * kMicroM + i, kk)] *"
  EXPECT "step 1.*every wrong element of C \\([0-9]+\\) holds the right value of another row of its column, in the same tile")

# Step 3's stages filled and read through a mask, & (kStages - 1), which with 3 stages is
# not % kStages: stages 0 and 2 only in the loop, so some k-tiles are read from a stage
# that holds another.
wb_wrong_kernel(stage_read_through_a_mask
  STEP 3
  FIND "    load_stage(k_tile + kStages - 1, (k_tile + kStages - 1) % kStages);\n    __syncthreads();  // every thread has waited: tile k_tile is visible to all\n    const int stage = k_tile % kStages;\n"
  REPLACE "    load_stage(k_tile + kStages - 1, (k_tile + kStages - 1) & (kStages - 1));\n    __syncthreads();  // every thread has waited: tile k_tile is visible to all\n    const int stage = k_tile & (kStages - 1);\n"
  EXPECT "step 3.*Likely cause: C is exactly the sum of the k-tiles' products \\(8 columns of A and B each\\) with .*never.*twice multiplied")

# Step 4's refill guarded by the tile count: past the last tile no empty group is
# committed, so the last iteration's wait<kStages - 2> finds one group in flight and
# lands nothing.
wb_wrong_kernel(refill_guard_skips_the_empty_commit
  STEP 4
  FIND "    load_stage(k_tile + kStages - 1, (k_tile + kStages - 1) % kStages);\n    const float* smem_a_stage"
  REPLACE "    if (k_tile + kStages - 1 < k_tiles) load_stage(k_tile + kStages - 1, (k_tile + kStages - 1) % kStages);\n    const float* smem_a_stage"
  EXPECT "step 4.*Likely cause: thread \\([0-9]+, 0\\)'s wait<1>, after its [0-9]+ commits, landed nothing.*The loop's commits stopped before its waits did")

# Step 5 without the barrier after the prologue's wait: a wait lands only its own
# thread's copies, and the first fragments are read before the others have issued theirs.
wb_wrong_kernel(prologue_barrier_missing
  STEP 5
  FIND "  wb::cp_async_wait<kStages - 1>();  // tile 0 has landed\n  __syncthreads();\n"
  REPLACE "  wb::cp_async_wait<kStages - 1>();  // tile 0 has landed\n"
  EXPECT "step 5.*Likely cause: thread \\([0-9]+, 0\\) issued its copy into the stage in its commit group [1-3], one of the prologue's.*the __syncthreads\\(\\) after the prologue's wait")

# Step 5's next stage not wrapped: at the last kk of stage kStages - 1 the fragments of
# the next tile are read from stage kStages, past the end of smem_a.
wb_wrong_kernel(next_stage_not_wrapped
  STEP 5
  FIND "        next_stage = (k_tile + 1) % kStages;"
  REPLACE "        next_stage = stage + 1;"
  EXPECT "step 5.*Likely cause: block \\([0-9]+, [0-9]+\\)'s thread [0-9]+ read A's fragment at float [0-9]+ of smem_a, which holds 3 stages.*a stage counter moved on without wrapping around")

# Step 5's wait and barrier at every kk, not only at the last: the output stays right,
# and every warp stops sixteen times a k-tile.
wb_wrong_kernel(wait_and_barrier_at_every_kk
  STEP 5
  FIND "      if (kk == kDeepTileK - 1) {\n        // Every thread read its last fragments of this stage at kk - 1. Past the barrier the\n        // stage is free for tile k_tile + kStages, and tile k_tile + 1 is visible to all.\n        wb::cp_async_wait<kStages - 2>();\n        __syncthreads();\n"
  REPLACE "      wb::cp_async_wait<kStages - 2>();\n      __syncthreads();\n      if (kk == kDeepTileK - 1) {\n"
  EXPECT "step 5.*each block met [0-9.]+ barriers, and each thread waited [0-9.]+ times, for [0-9]+ k-tiles of 16 columns: step 5 waits and meets the block once a k-tile")

# Step 4's fragments of B read one float at a time: right, and under the 0.25 loads a
# warp FMA where shared memory bounds the speed, but 0.156 where float4 reads make 0.0625.
wb_wrong_kernel(b_fragments_read_one_float_at_a_time
  STEP 4
  FIND "      for (int v = 0; v < kMicroN; v += kVector) {\n        const float4 b4 = *reinterpret_cast<const float4*>(&smem_b_stage[smem_b4_layout(micro_col(thread_coord.col, v), kk)]);\n        b_frag[v] = b4.x, b_frag[v + 1] = b4.y, b_frag[v + 2] = b4.z, b_frag[v + 3] = b4.w;\n      }"
  REPLACE "      for (int v = 0; v < kMicroN; ++v) b_frag[v] = smem_b_stage[smem_b4_layout(micro_col(thread_coord.col, v), kk)];"
  EXPECT "step 4.*0.156 shared-load requests for each 32 elements of C.*where the fragments read as float4 make 0.0625")

# Step 4's A fragment read at its float offset added to a byte pointer: misaligned for
# every thread whose first row is no multiple of 16 bytes' worth.
wb_wrong_kernel(a_fragment_offset_in_bytes
  STEP 4
  FIND "const float4 a4 = *reinterpret_cast<const float4*>(&smem_a_stage[smem_a4_layout(micro_row(thread_coord.row, v), kk)]);"
  REPLACE "const float4 a4 = *reinterpret_cast<const float4*>(reinterpret_cast<const char*>(smem_a_stage) + smem_a4_layout(micro_row(thread_coord.row, v), kk));"
  EXPECT "step 4.*read A's fragment at byte [0-9]+ of a stage of smem_a, which is the offset in floats of the float4 it was meant to read.*added to a byte pointer")

# Step 3's A read through a pointer to its stage counted without the padding, stage *
# kTileM * kTileK (1024) where a stage is smem_a_layout.cosize() (1031) floats.
wb_wrong_kernel(stage_start_without_the_padding
  STEP 3
  FIND "    const int stage = k_tile % kStages;\n    for (int kk = 0; kk < kTileK; ++kk) {\n      for (int i = 0; i < kMicroM; ++i) {\n        for (int j = 0; j < kMicroN; ++j) {\n          acc[i][j] += smem_a[stage][smem_a_layout("
  REPLACE "    const int stage = k_tile % kStages;\n    const float* a_stage = &smem_a[0][0] + stage * kTileM * kTileK;\n    for (int kk = 0; kk < kTileK; ++kk) {\n      for (int i = 0; i < kMicroM; ++i) {\n        for (int j = 0; j < kMicroN; ++j) {\n          acc[i][j] += a_stage[smem_a_layout("
  EXPECT "step 3.*Likely cause: .*The copies filled 3 stages of 8 columns of 128 words, 129 apart: stage s starts at s \\* 1031.*when that stage starts at s \\* 1024.*is counted without the padding")

# Step 1's second barrier moved into the kk loop: right, but every warp stops at each of
# the tile's 8 columns, 9 barriers a k-tile where 2 do.
wb_wrong_kernel(barrier_inside_the_kk_loop
  STEP 1
  FIND "        }\n      }\n    }\n    __syncthreads();  // everyone has read the tiles before the next k-tile overwrites them\n    //! [step 1 hole]"
  REPLACE "        }\n      }\n      __syncthreads();\n    }\n    //! [step 1 hole]"
  EXPECT "step 1.*each block met [0-9.]+ barriers for [0-9]+ k-tiles \\([0-9]+ of them at [^)]*gemm.cu:[0-9]+\\), where a k-tile needs two")

# Step 4's FMA loop one row past the micro-tile: acc[8][j] and a_frag[8], outside their
# arrays. On a GPU the output may come out right; another register is overwritten.
wb_wrong_kernel(fma_loop_one_row_past_the_micro_tile
  STEP 4
  FIND "      for (int i = 0; i < kMicroM; ++i) {\n        WB_UNROLL\n        for (int j = 0; j < kMicroN; ++j) acc[i][j] += a_frag[i] * b_frag[j];"
  REPLACE "      for (int i = 0; i <= kMicroM; ++i) {\n        WB_UNROLL\n        for (int j = 0; j < kMicroN; ++j) acc[i][j] += a_frag[i] * b_frag[j];"
  EXPECT "step 4.*gemm.cu:[0-9]+: block .*index 8 into a local array of type float \\[8\\].*Likely cause: an index outside a local array")
