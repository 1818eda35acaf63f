# Known-wrong versions of chapter 8's solution, each one mistake a learner makes, with
# the diagnosis the grader must give. Each is the solution with FIND replaced by REPLACE.

# A's fragments loaded without .trans: every 8x8 matrix of A's fragment reaches the lanes
# transposed, and C is exactly the product with those blocks transposed.
wb_wrong_kernel(a_fragments_without_trans
  STEP 1
  FIND "wb::ldmatrix_x4_trans(a[i], "
  REPLACE "wb::ldmatrix_x4(a[i], "
  EXPECT "step 1.*C is exactly the product in which every 8x8 matrix of A's fragments is transposed.*ldmatrix's .trans form")

# B's pair of fragments with its matrices' roles exchanged: matrix / 2 picks k + 8 and
# matrix % 2 the columns + 8, so b[j][1] gets columns j + 8 at k 0-7.
wb_wrong_kernel(b_matrices_exchanged
  STEP 1
  FIND "      const int k_row = kk + row + (matrix % 2) * 8;\n      const int j_col = warp_n + j * kMmaN + (matrix / 2) * 8;"
  REPLACE "      const int k_row = kk + row + (matrix / 2) * 8;\n      const int j_col = warp_n + j * kMmaN + (matrix % 2) * 8;"
  EXPECT "step 1.*C is exactly the product in which B's fragments took two of an ldmatrix.x4's four matrices in each other's place")

# The accumulator not carried: each mma adds its product to zeros, so every step of K
# replaces the sum and C is the last 16 of K's product alone.
wb_wrong_kernel(accumulator_not_carried
  STEP 1
  FIND "wb::mma_m16n8k16_bf16(acc[i][j], a[i], b[j], acc[i][j]);"
  REPLACE "{ const float zero[4] = {}; wb::mma_m16n8k16_bf16(acc[i][j], a[i], b[j], zero); }"
  EXPECT "step 1.*C is exactly the product of the last 16 of K alone.*Pass acc\\[i\\]\\[j\\] as the C operand")

# B's fragments loaded again for every fragment of A: right, but 4 times the ldmatrix
# of B a warp needs.
wb_wrong_kernel(b_fragments_reloaded_for_each_a
  STEP 1
  FIND "    WB_UNROLL\n    for (int i = 0; i < kWarpMmasM; ++i) {\n      WB_UNROLL\n      for (int j = 0; j < kWarpMmasN; ++j) wb::mma_m16n8k16_bf16"
  REPLACE "    WB_UNROLL\n    for (int i = 0; i < kWarpMmasM; ++i) {\n      for (int j = 0; j < kWarpMmasN; j += 2) {\n        unsigned again[4];\n        wb::ldmatrix_x4_trans(again, &smem_b[at(kk + row + (matrix % 2) * 8, warp_n + j * kMmaN + (matrix / 2) * 8)]);\n      }\n      WB_UNROLL\n      for (int j = 0; j < kWarpMmasN; ++j) wb::mma_m16n8k16_bf16"
  EXPECT "step 1.*ldmatrix loaded [0-9]+ 8x8 matrices where the product needs [0-9]+.*Load each fragment once per 16 of K")

# The padded layout's rows taken with the unpadded width: every row of an ldmatrix matrix
# in the same four banks, the result still right.
wb_wrong_kernel(stage_rows_with_the_unpadded_stride
  STEP 1
  FIND "WB_HOST_DEVICE int operator()(int kk, int element) const { return kk * kRowStride + element; }"
  REPLACE "WB_HOST_DEVICE int operator()(int kk, int element) const { return kk * kTileM + element; }"
  EXPECT "step 1.*the ldmatrix rows conflict.*kTileM")

# The accumulators stored with the fragment's row and column roles exchanged.
wb_wrong_kernel(accumulator_rows_and_columns_exchanged
  STEP 1
  FIND "        const int row = tile_m + warp_m + i * kMmaM + g + (e / 2) * 8;\n        const int col = tile_n + warp_n + j * kMmaN + 2 * q + e % 2;"
  REPLACE "        const int row = tile_m + warp_m + i * kMmaM + 2 * q + e % 2;\n        const int col = tile_n + warp_n + j * kMmaN + g + (e / 2) * 8;"
  EXPECT "step 1.*elements are wrong")

# The block's row origin added again in the store: every block but the first row of
# blocks stores past m, and their rows stay unwritten.
wb_wrong_kernel(store_row_origin_counted_twice
  STEP 1
  FIND "        const int row = tile_m + warp_m + i * kMmaM + g + (e / 2) * 8;"
  REPLACE "        const int row = 2 * tile_m + warp_m + i * kMmaM + g + (e / 2) * 8;"
  EXPECT "step 1.*C is exactly what a store with the block's row origin counted twice leaves")

# The accumulators stored with n as C's leading dimension.
wb_wrong_kernel(store_leading_dimension_n
  STEP 1
  FIND "if (row < m && col < n) gmem_c[row + static_cast<std::size_t>(col) * m] = acc[i][j][e];"
  REPLACE "if (row < m && col < n) gmem_c[row + static_cast<std::size_t>(col) * n] = acc[i][j][e];"
  EXPECT "step 1.*C is exactly what a store with n as C's leading dimension leaves")

# A's fragments loaded one matrix a call: the same 4 matrices, in 4 instructions that each
# use 8 of the warp's lanes.
wb_wrong_kernel(a_fragments_one_matrix_a_call
  STEP 1
  FIND "      wb::ldmatrix_x4_trans(a[i], &smem_a[at(k_row, i_col)]);"
  REPLACE "      for (int q = 0; q < 4; ++q) {\n        unsigned one[1];\n        wb::ldmatrix_x1_trans(one, &smem_a[at(kk + row + (q / 2) * 8, warp_m + i * kMmaM + (q % 2) * 8)]);\n        a[i][q] = one[0];\n      }"
  EXPECT "step 1.*ldmatrix for [0-9]+ matrices, [0-9.]+ a call, where the step's .x4 loads make [0-9]+ calls of 4")

# Step 2: the layout's chunks left where they were: every line unswizzled, each matrix's 8
# k-rows in the same four banks.
wb_wrong_kernel(swizzle_left_out
  STEP 2
  FIND "  chunk = (element % kLineElements / kChunk) ^ (kk % 8);"
  REPLACE "  chunk = element % kLineElements / kChunk;"
  EXPECT "step 2.*not at the swizzle's chunks.*No chunk moves: the layout is not swizzled")

# The swizzle's pattern repeating every 4 lines instead of 8.
wb_wrong_kernel(swizzle_of_four_lines
  STEP 2
  FIND "  chunk = (element % kLineElements / kChunk) ^ (kk % 8);"
  REPLACE "  chunk = (element % kLineElements / kChunk) ^ (kk % 4);"
  EXPECT "step 2.*not at the swizzle's chunks: element \\(k-row 4, element 0\\) is in chunk 0 of its line, where the swizzle puts chunk 0 of k-row 4 at chunk 4")

# A k-row's two halves in consecutive lines (256-byte rows), not in the two boxes.
wb_wrong_kernel(halves_in_consecutive_lines
  STEP 2
  FIND "  line = element / kLineElements * kTileK + kk;"
  REPLACE "  line = kk * 2 + element / kLineElements;"
  EXPECT "step 2.*not in the TMA's lines: element \\(k-row 0, element 64\\) is in line 1")

# The chunk swizzled by the whole k-row, not its last three bits: chunks leave the line.
wb_wrong_kernel(swizzle_by_the_whole_k_row
  STEP 2
  FIND "  chunk = (element % kLineElements / kChunk) ^ (kk % 8);"
  REPLACE "  chunk = (element % kLineElements / kChunk) ^ kk;"
  EXPECT "step 2.*(are both at offset|outside the tile's 4096 bf16)")

# Step 3: the transaction count in elements, not bytes: the phase completes when half the
# stage's bytes have landed.
wb_wrong_kernel(transaction_count_in_elements
  STEP 3
  FIND "  (void)cuda::device::barrier_arrive_tx(full, 1, kStageBytes);"
  REPLACE "  (void)cuda::device::barrier_arrive_tx(full, 1, 2 * kRingTileElements);"
  EXPECT "step 3.*expects 16384 bytes while the copies of this phase bring 32768 bytes: exactly twice the count: a count of 2-byte elements where barrier_arrive_tx takes bytes")

# Step 3: the arrival announces one box's bytes, where the stage's four boxes complete on
# the phase.
wb_wrong_kernel(transaction_count_of_one_box
  STEP 3
  FIND "  (void)cuda::device::barrier_arrive_tx(full, 1, kStageBytes);"
  REPLACE "  (void)cuda::device::barrier_arrive_tx(full, 1, kStageBytes / 4);"
  EXPECT "step 3.*exactly four times the count: either the bytes of one of the phase's 4 copies.*or a count in floats or 4-byte words")

# The stage refilled without waiting for every warp's release.
wb_wrong_kernel(stage_refilled_before_its_release
  STEP 3
  FIND "      empty[stage].wait_parity(parity);  // every warp has released this use of the stage\n"
  REPLACE ""
  EXPECT "step 3.*a race on shared memory: this copy overwrites.*Likely cause: thread \\(0,0,0\\) has waited only on barriers that no other thread arrives on")

# The full barrier waited for on parity 0 at every use of the stage.
wb_wrong_kernel(full_wait_parity_not_flipped
  STEP 3
  FIND "    full[stage].wait_parity(parity);"
  REPLACE "    full[stage].wait_parity(0);"
  EXPECT "step 3.*(Likely cause: a wait returned at once on a phase that had completed before.*the wait was for the wrong phase|waits on a barrier returned at once on a phase that had completed before.*those waits named the wrong phase)")

# The warp releases the stage before it reads it: the arrival right after the full wait.
wb_wrong_kernel(stage_released_before_the_reads
  STEP 3
  FIND "    full[stage].wait_parity(parity);\n    //! [step 3b hole]\n    tiles.multiply(smem_a, smem_b, acc);\n    //! [step 3c hole]\n    __syncwarp();  // the warp's reads of the stage are all done\n    if (lane == 0) (void)empty[stage].arrive();\n"
  REPLACE "    full[stage].wait_parity(parity);\n    if (lane == 0) (void)empty[stage].arrive();\n    //! [step 3b hole]\n    tiles.multiply(smem_a, smem_b, acc);\n    //! [step 3c hole]\n"
  EXPECT "step 3.*Likely cause: the release this thread waited for came right before the read, not after it")

# Only the first half of each operand's tile copied; the arrival still expects all four boxes.
wb_wrong_kernel(second_half_never_copied
  STEP 3
  FIND "  for (int half = 0; half < 2; ++half) {\n    cde::"
  REPLACE "  for (int half = 0; half < 1; ++half) {\n    cde::"
  EXPECT "step 3.*expects 32768 bytes while the copies of this phase bring 16384 bytes.*is a copy missing")

# The box's coordinates in (k, row) order: dimension 0 of the map is the operand's rows.
wb_wrong_kernel(box_coordinates_exchanged
  STEP 3
  FIND "tile_m + half * kLineElements, k0, full);"
  REPLACE "k0, tile_m + half * kLineElements, full);"
  EXPECT "step 3.*C is exactly the product in which A's boxes were copied with their two coordinates exchanged")

# Every thread arrives on the empty barrier, which expects one arrival a warp.
wb_wrong_kernel(every_thread_releases_the_stage
  STEP 3
  FIND "    if (lane == 0) (void)empty[stage].arrive();"
  REPLACE "    (void)empty[stage].arrive();"
  EXPECT "step 3.*Likely cause: every thread arrives on the empty barrier")

# The warps read the stage without waiting for its full phase.
wb_wrong_kernel(full_wait_left_out
  STEP 3
  FIND "    full[stage].wait_parity(parity);\n"
  REPLACE ""
  EXPECT "step 3.*a race on shared memory: this thread reads.*That write is a bulk or tensor copy, which lands when its barrier's phase completes: a thread reads its tile only after waiting for that phase")

# A's fragments stepped by kMmaN (8) rows where kMmaM (16) is meant: they overlap.
wb_wrong_kernel(a_fragments_eight_rows_apart
  STEP 1
  FIND "      const int i_col = warp_m + i * kMmaM + (matrix % 2) * 8;"
  REPLACE "      const int i_col = warp_m + i * kMmaN + (matrix % 2) * 8;"
  EXPECT "step 1.*C is exactly the product in which A's fragments start 8 rows apart instead of 16")

# The accumulators stored row-major, row * n + col, where C is column-major.
wb_wrong_kernel(store_row_major
  STEP 1
  FIND "if (row < m && col < n) gmem_c[row + static_cast<std::size_t>(col) * m] = acc[i][j][e];"
  REPLACE "if (row < m && col < n) gmem_c[static_cast<std::size_t>(row) * n + col] = acc[i][j][e];"
  EXPECT "step 1.*C is exactly what a row-major store leaves")

# The chunk counted along the whole k-row (0 to 15), not within its line of 64: the
# chunks of elements 64-127 run into the next line.
wb_wrong_kernel(chunk_counted_along_the_k_row
  STEP 2
  FIND "chunk = (element % kLineElements / kChunk) ^ (kk % 8);"
  REPLACE "chunk = (element / kChunk) ^ (kk % 8);"
  EXPECT "step 2.*Likely cause: swizzled follows, for every element, the layout whose chunk is element / 8")

# An arrival with bytes after each half's two copies: a stage's fill completes two phases,
# and the waits' parity, one a use, falls behind.
wb_wrong_kernel(two_arrivals_a_stage
  STEP 3
  FIND "                                                  tile_n + half * kLineElements, k0, full);\n  }\n  (void)cuda::device::barrier_arrive_tx(full, 1, kStageBytes);"
  REPLACE "                                                  tile_n + half * kLineElements, k0, full);\n    (void)cuda::device::barrier_arrive_tx(full, 1, kStageBytes / 2);\n  }"
  EXPECT "step 3.*Likely cause: the barrier full\\[0\\] took two arrivals with bytes")

# Step 4: the stride byte offset counted in bf16 elements (8 lines of 64), not bytes.
wb_wrong_kernel(descriptor_stride_in_elements
  STEP 4
  FIND "kBoxBytes, 8 * kLineBytes,"
  REPLACE "kBoxBytes, 8 * kLineElements,"
  EXPECT "step 4.*Likely cause: the first wgmma's descriptor of A gives a stride byte offset of 512")

# Step 4: the leading byte offset counted in bf16 elements: B's second box 4096 bytes on.
wb_wrong_kernel(descriptor_leading_offset_in_elements
  STEP 4
  FIND "smem_tile + kk * kLineElements, kBoxBytes,"
  REPLACE "smem_tile + kk * kLineElements, kBoxElements,"
  EXPECT "step 4.*Likely cause: the first wgmma's descriptor of B gives a leading byte offset of 4096")

# Step 4: the descriptors say no swizzle, where the TMA swizzled the stages in 128 bytes.
wb_wrong_kernel(descriptor_without_the_swizzle
  STEP 4
  FIND "wb::Swizzle::bytes128);"
  REPLACE "wb::Swizzle::none);"
  EXPECT "step 4.*Likely cause: the first wgmma's descriptor of A gives no swizzle")

# Step 4: no wait for the k-tile's group: the accumulators are stored still pending.
wb_wrong_kernel(wgmma_wait_left_out
  STEP 4
  FIND "    wb::wgmma_wait_group<0>(acc);  // the products done, the stage read: it may be released\n"
  REPLACE ""
  EXPECT "step 4.*accumulators read before their wgmma completed")

# Step 4: the wait leaves the k-tile's group in flight, and the stage is released while the
# tensor cores still read it.
wb_wrong_kernel(wgmma_wait_leaves_the_group_in_flight
  STEP 4
  FIND "wb::wgmma_wait_group<0>(acc);"
  REPLACE "wb::wgmma_wait_group<1>(acc);"
  EXPECT "step 4.*the shared memory that a wgmma of this thread read .* changed before the wait on it.*Likely cause: the warp released the stage this wgmma reads .* wgmma_wait_group<1> at .* lets the newest committed group run on")

# Step 4: no fence before the wgmmas.
wb_wrong_kernel(wgmma_fence_left_out
  STEP 4
  FIND "    wb::wgmma_fence();  // the accumulators' zeros"
  REPLACE "    // the accumulators' zeros"
  EXPECT "step 4.*wgmma with no wgmma_fence\\(\\) before it")

# Step 4: each wgmma replaces the accumulators instead of adding to them.
wb_wrong_kernel(wgmma_not_accumulating
  STEP 4
  FIND "k_slice_descriptor(smem_b, kk), true);"
  REPLACE "k_slice_descriptor(smem_b, kk), false);"
  EXPECT "step 4.*C is exactly the product of the last 16 of K alone.*scale-d")

# Step 4: both warpgroups read A's first box.
wb_wrong_kernel(warpgroups_share_a_box
  STEP 4
  FIND "k_slice_descriptor(smem_a + warpgroup * kBoxElements, kk)"
  REPLACE "k_slice_descriptor(smem_a, kk)"
  EXPECT "step 4.*C is exactly the product in which both warpgroups read A's first box")

# Step 5: the consumers wait for every group before they issue the next k-tile's: right,
# but the products and the next issue take turns again.
wb_wrong_kernel(consumer_waits_for_every_group
  STEP 5
  FIND "wb::wgmma_wait_group<1>(acc);  // this k-tile's group may run on"
  REPLACE "wb::wgmma_wait_group<0>(acc);  // this k-tile's group may run on"
  EXPECT "step 5.*groups in flight on average.*wgmma_wait_group<0>")

# Step 5: the producer refills a stage without waiting for its release.
wb_wrong_kernel(producer_without_the_empty_wait
  STEP 5
  FIND "        if (k_tile >= kWideStages) empty[stage].wait_parity((k_tile / kWideStages - 1) % 2);\n"
  REPLACE ""
  EXPECT "step 5.*Likely cause: the buffer whose copies complete on the barrier full\\[0\\] was filled twice")

# Step 5: the producer waits for the parity of the use it fills, not of the use before:
# the wait returns at once, on the phase before the first.
wb_wrong_kernel(producer_waits_on_this_uses_parity
  STEP 5
  FIND "empty[stage].wait_parity((k_tile / kWideStages - 1) % 2);"
  REPLACE "empty[stage].wait_parity((k_tile / kWideStages) % 2);"
  EXPECT "step 5.*Likely cause: the buffer whose copies complete on the barrier full\\[0\\] was filled twice")

# Step 5: the consumers release the stage whose group is still in flight.
wb_wrong_kernel(consumer_releases_the_stage_in_flight
  STEP 5
  FIND "if (k_tile > 0 && lane == 0) (void)empty[(k_tile - 1) % kWideStages].arrive();"
  REPLACE "if (lane == 0) (void)empty[stage].arrive();"
  EXPECT "step 5.*changed before the wait on it.*Likely cause: the warp released the stage this wgmma reads \\(its arrival on empty\\[0\\].*wgmma_wait_group<1>")

# Step 5: the consumers never take the registers the producer gave back.
wb_wrong_kernel(consumers_keep_their_registers
  STEP 5
  FIND "  wb::setmaxnreg_increase<kConsumerRegisters>();\n"
  REPLACE ""
  EXPECT "step 5.*took more \\(setmaxnreg_increase\\)")

# Step 4: the wait before the commit: it counts committed groups only and waits for nothing.
wb_wrong_kernel(wgmma_wait_before_the_commit
  STEP 4
  FIND "    wb::wgmma_commit_group();\n    wb::wgmma_wait_group<0>(acc);  // the products done, the stage read: it may be released\n"
  REPLACE "    wb::wgmma_wait_group<0>(acc);  // the products done, the stage read: it may be released\n    wb::wgmma_commit_group();\n"
  EXPECT "step 4.*Likely cause: this wgmma was not yet committed when the thread waited")

# Step 4: the descriptor's start advanced by a byte count on a bf16 pointer.
wb_wrong_kernel(descriptor_start_stepped_in_bytes
  STEP 4
  FIND "wb::matrix_descriptor(smem_tile + kk * kLineElements,"
  REPLACE "wb::matrix_descriptor(smem_tile + kk * kLineBytes,"
  EXPECT "step 4.*Likely cause: a warp's first two wgmmas read B 4096 bytes apart")

# Step 5: the consumers take A's box by the warpgroup's index, one box too far.
wb_wrong_kernel(consumer_box_by_warpgroup
  STEP 5
  FIND "bf16* const smem_a = smem_stage(stage) + consumer * kBoxElements;"
  REPLACE "bf16* const smem_a = smem_stage(stage) + warpgroup * kBoxElements;"
  EXPECT "step 5.*Likely cause: warpgroup 1, the first that multiplies, reads A from byte 8192 of the stage.*one box too far")

# Step 5: B's tile placed after a tile of B's own size, not after A's.
wb_wrong_kernel(consumer_b_after_a_tile_of_b_rows
  STEP 5
  FIND "bf16* const smem_b = smem_stage(stage) + kTileM * kTileK;"
  REPLACE "bf16* const smem_b = smem_stage(stage) + kWideTileN * kTileK;"
  EXPECT "step 5.*Likely cause: the first wgmma's descriptor of B starts at byte 32768 of its stage.*B's own kWideTileN x kTileK")

# Step 5: the consumers release the stage before waiting for its wgmmas at all.
wb_wrong_kernel(consumer_releases_before_the_wait
  STEP 5
  FIND "    wb::wgmma_wait_group<1>(acc);  // this k-tile's group may run on; the previous one's is done\n    __syncwarp();\n    if (k_tile > 0 && lane == 0) (void)empty[(k_tile - 1) % kWideStages].arrive();"
  REPLACE "    __syncwarp();\n    if (lane == 0) (void)empty[stage].arrive();\n    wb::wgmma_wait_group<1>(acc);"
  EXPECT "step 5.*Likely cause: the warp released the stage this wgmma reads .* before any wgmma_wait_group after the wgmma")
