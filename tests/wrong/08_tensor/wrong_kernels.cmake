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
  REPLACE "    WB_UNROLL\n    for (int i = 0; i < kWarpMmasM; ++i) {\n      for (int j = 0; j < kWarpMmasN; j += 2) {\n        unsigned again[4];\n        wb::ldmatrix_x4_trans(again, &smem_b[(kk + row + (matrix % 2) * 8) * kRowStride + warp_n + j * kMmaN + (matrix / 2) * 8]);\n      }\n      WB_UNROLL\n      for (int j = 0; j < kWarpMmasN; ++j) wb::mma_m16n8k16_bf16"
  EXPECT "step 1.*ldmatrix loaded [0-9]+ 8x8 matrices where the product needs [0-9]+.*Load each fragment once per 16 of K")

# The rows' addresses taken with the unpadded width: every row of a matrix in the same
# four banks, the output wrong too (the stage's rows are kRowStride apart).
wb_wrong_kernel(a_rows_with_the_unpadded_stride
  STEP 1
  FIND "wb::ldmatrix_x4_trans(a[i], &smem_a[k_row * kRowStride + i_col]);"
  REPLACE "wb::ldmatrix_x4_trans(a[i], &smem_a[k_row * kTileM + i_col]);"
  EXPECT "step 1.*elements are wrong")

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
  FIND "      wb::ldmatrix_x4_trans(a[i], &smem_a[k_row * kRowStride + i_col]);"
  REPLACE "      for (int q = 0; q < 4; ++q) {\n        unsigned one[1];\n        wb::ldmatrix_x1_trans(one, &smem_a[(kk + row + (q / 2) * 8) * kRowStride + warp_m + i * kMmaM + (q % 2) * 8]);\n        a[i][q] = one[0];\n      }"
  EXPECT "step 1.*ldmatrix for [0-9]+ matrices, 1.33 a call, where the step's .x4 loads make [0-9]+ calls of 4")
