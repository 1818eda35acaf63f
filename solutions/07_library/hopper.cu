// Chapter 7, Hopper: chapter 1's copy and chapter 3's transpose again, each tile brought
// into shared memory by one thread's single instruction that completes on a barrier.
//
// Step 3 streams an array through a bulk copy a tile (cp.async.bulk). One thread, the
// producer, issues the copy of a whole tile and arrives on the stage's cuda::barrier with
// the bytes the copy brings (barrier_arrive_tx: mbarrier.arrive.expect_tx). The barrier's
// phase completes when that arrival is in and the copy's bytes have landed; every thread
// waits for the phase (wait_parity: mbarrier.try_wait.parity) and then reads the tile.
// A stage's k-th use is its barrier's phase k, so its wait is for the parity k % 2.
//
// Step 4 is chapter 3's transpose with the TMA: a tensor map made on the host describes
// the input array and the box a copy takes; one tensor copy (cp.async.bulk.tensor.2d)
// brings a whole 32 x 64 box, zeros where it lies outside the array, laid out in shared
// memory with the map's 128-byte swizzle instead of a padding: the TMA writes a box
// densely, and the swizzle is what keeps the transposed reads free of bank conflicts.
//
// This file is compiled for sm_90 only (the bulk copies and the tensor copies are
// Hopper's); the host functions refuse an older GPU. Naming: gmem_ global memory, smem_
// shared memory; shapes in the comments.
#include <cuda/barrier>

#include <stdexcept>
#include <string>

#include "library.hpp"
#include "wb/tensor_map.hpp"
#include "wb/wb.cuh"

namespace ch07 {
namespace {

using Barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

static_assert(kBulkTile % 4 == 0 && kBulkTile % kThreads == 0, "a tile is whole 16-byte units, whole passes");
static_assert(kBoxRows * sizeof(float) == 128, "a column of the box is the 128-byte swizzle's span");
static_assert(kBoxRows == 32 && kBoxCols % 8 == 0, "a warp's pass is 16 rows by 8 columns of the box");
static_assert(kBoxThreads % 32 == 0 && (kBoxRows * kBoxCols / 128) % (kBoxThreads / 32) == 0,
              "the warps take the box's passes in whole rounds");

WB_HOST_DEVICE int tiles_of(int n, int tile) { return (n + tile - 1) / tile; }

void require_hopper(const char* function) {
  std::string reason;
  if (!wb::hopper_available(&reason)) throw std::runtime_error(std::string(function) + ": " + reason);
}

// The barriers exist for the copy engine once initialised: one thread initialises each
// (init) and makes that visible to the asynchronous proxy, which the copies complete on
// (fence.proxy.async); the block's barrier then orders it before every other use.
__device__ inline void init_barriers(Barrier* barriers, int count) {
  if (threadIdx.x == 0) {
    for (int b = 0; b < count; ++b) init(&barriers[b], 1);  // one arrival a phase: the producer's
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
}

//! [load tile bulk]
// The producer's half of a stage (thread 0 only): the tile's one bulk copy into smem_tile,
// and its arrival on the stage's barrier with the bytes that the copy brings. The last
// tile of the array may be partial; the bytes are its own.
__device__ inline void load_tile_bulk(float* smem_tile, const float* gmem_in, int n, int tile, Barrier& full) {
  const int first = tile * kBulkTile;
  const int bytes = static_cast<int>(sizeof(float)) * (n - first < kBulkTile ? n - first : kBulkTile);
  //! [step 3a hole]
  cuda::device::memcpy_async_tx(smem_tile, gmem_in + first, cuda::aligned_size_t<16>(bytes), full);
  (void)cuda::device::barrier_arrive_tx(full, 1, bytes);
  //! [step 3a hole]
}
//! [load tile bulk]

// Every thread: the tile's floats, a 16-byte vector a thread at a time, to global memory.
// Plain stores: streaming ones (__stcs, st.global.cs), which let the output's lines leave
// L2 first, made about one point more of cudaMemcpy's bandwidth on the H100 and about one
// point less on the H200.
__device__ inline void store_tile(const float* smem_tile, float* gmem_out, int n, int tile) {
  const int first = tile * kBulkTile;
  const int vectors = (n - first < kBulkTile ? n - first : kBulkTile) / 4;
  const auto* smem_vectors = reinterpret_cast<const float4*>(smem_tile);
  auto* gmem_vectors = reinterpret_cast<float4*>(gmem_out + first);
  for (int v = threadIdx.x; v < vectors; v += kThreads) gmem_vectors[v] = smem_vectors[v];
}

//! [step 3 kernel]
// Block b copies the tiles 4 b to 4 b + 3 (kBlockTiles); its i-th goes to stage i % 2, at
// smem_tile(stage). The two tiles, 8 KiB, are dynamic shared memory, sized at the launch
// from kStages and kBulkTile (static __shared__ arrays could hold them too, up to 48 KiB).
__global__ void copy_bulk_kernel(const float* gmem_in, float* gmem_out, int n) {
  WB_DYNAMIC_SHARED(float, smem_tiles);  // kStages x (1024)
  const auto smem_tile = [&](int stage) { return smem_tiles + stage * kBulkTile; };
  WB_SHARED_LIBRARY_STATE
  __shared__ Barrier full[kStages];  // full[s]: the tile of stage s has landed

  init_barriers(full, kStages);
  const int tiles = tiles_of(n, kBulkTile);
  const int first_tile = blockIdx.x * kBlockTiles;
  const int end_tile = tiles - first_tile < kBlockTiles ? tiles : first_tile + kBlockTiles;  // past its last
  // The first tile of each stage in flight before any wait.
  if (threadIdx.x == 0) {
    for (int stage = 0; stage < kStages; ++stage) {
      const int tile = first_tile + stage;
      if (tile < end_tile) load_tile_bulk(smem_tile(stage), gmem_in, n, tile, full[stage]);
    }
  }
  for (int i = 0; first_tile + i < end_tile; ++i) {
    const int tile = first_tile + i;
    const int stage = i % kStages;
    //! [step 3b hole]
    full[stage].wait_parity((i / kStages) % 2);  // this stage's use i / 2: its barrier's phase i / 2
    //! [step 3b hole]
    store_tile(smem_tile(stage), gmem_out, n, tile);
    __syncthreads();  // every thread is done reading the stage: it may be refilled
    const int next_tile = tile + kStages;
    if (threadIdx.x == 0 && next_tile < end_tile) load_tile_bulk(smem_tile(stage), gmem_in, n, next_tile, full[stage]);
  }
}
//! [step 3 kernel]

//! [swizzled word]
// The word of smem_box that holds element (row, col) of the box. The TMA writes the box
// column after column (the input's contiguous dimension first), 32 floats, 128 bytes, a
// column; the 128-byte swizzle then moves the 16-byte chunk row / 4 of column col to chunk
// (row / 4) ^ (col % 8), so that 8 neighbouring columns put one chunk in 8 different places.
__device__ inline int swizzled_word(int row, int col) {
  int chunk = row / 4;  // the chunk of the column that holds the row, before the swizzle
  //! [step 4b hole]
  chunk ^= col % 8;
  //! [step 4b hole]
  return col * kBoxRows + chunk * 4 + row % 4;
}
//! [swizzled word]

//! [step 4 kernel]
// Block (x, y) transposes the box whose first element is in(32 y, 64 x): blockIdx.x counts the
// boxes along the input's columns, as chapter 3's grid does, so that blocks that run side by
// side write neighbouring 256-byte pieces of the same output rows. A thread stores 4
// neighbouring outputs at once, (row, col) to (row, col + 3) of the box, one 16-byte store;
// a warp's pass covers 16 rows by 8 columns: lane l takes row l % 16 and the columns
// 4 (l / 16) to 4 (l / 16) + 3 of the pass. Each of its 4 reads is conflict-free: the 16
// rows are the 4 words of 4 chunks, and the two halves' columns, 4 apart, give those chunks
// two different swizzles, so 32 banks. Its stores are 16 runs of 32 bytes: whole sectors.
// The box's 16 passes (2 of rows by 8 of columns) are dealt to the warps in turn.
__global__ void transpose_tma_kernel(const __grid_constant__ CUtensorMap tensor_map, float* gmem_out, int rows,
                                     int cols) {
  __shared__ __align__(1024) float smem_box[kBoxCols * kBoxRows];  // 64 columns of (32), swizzled
  WB_SHARED_LIBRARY_STATE
  __shared__ Barrier full;  // the box has landed

  init_barriers(&full, 1);
  const int box_row = blockIdx.y * kBoxRows;
  const int box_col = blockIdx.x * kBoxCols;
  //! [step 4c hole]
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(smem_box, &tensor_map, box_row, box_col, full);
    (void)cuda::device::barrier_arrive_tx(full, 1, sizeof(smem_box));  // the whole box, even outside the array
  }
  full.wait_parity(0);
  //! [step 4c hole]
  const int lane = threadIdx.x % 32;
  for (int pass = threadIdx.x / 32; pass < kBoxRows * kBoxCols / 128; pass += kBoxThreads / 32) {
    const int row = (pass % 2) * 16 + lane % 16;
    const int col = (pass / 2) * 8 + (lane / 16) * 4;
    const float4 outputs = make_float4(smem_box[swizzled_word(row, col)], smem_box[swizzled_word(row, col + 1)],
                                       smem_box[swizzled_word(row, col + 2)], smem_box[swizzled_word(row, col + 3)]);
    if (box_row + row >= rows) continue;
    float* gmem_outputs = gmem_out + (box_col + col) + static_cast<long long>(box_row + row) * cols;
    if (cols % 4 == 0 && box_col + col + 4 <= cols) {
      *reinterpret_cast<float4*>(gmem_outputs) = outputs;  // 16-byte aligned: cols and col are multiples of 4
    } else {  // the last columns of the array, or rows of outputs not whole 16-byte units
      const float values[4] = {outputs.x, outputs.y, outputs.z, outputs.w};
      for (int k = 0; k < 4 && box_col + col + k < cols; ++k) gmem_outputs[k] = values[k];
    }
  }
}
//! [step 4 kernel]

}  // namespace

void copy_bulk(const float* gmem_in, float* gmem_out, int n) {
  if (n <= 0 || n % 4 != 0) {
    throw std::invalid_argument("copy_bulk: n must be a positive multiple of 4 (" + std::to_string(n) + ")");
  }
  require_hopper("copy_bulk");
  // A block for every kBlockTiles tiles: many short blocks, not as many long ones as the GPU
  // runs at once, which made about 2 points more of cudaMemcpy's bandwidth on the H100
  // (likely because a new block's first copies go out while the blocks beside it store
  // their last tiles). Short in bytes too: on the H200, blocks of 4 tiles of 1024 floats
  // (16 KiB a block) made about 98.5% of cudaMemcpy, blocks of 4 tiles of 8192 (128 KiB)
  // about 94%.
  const std::size_t shared_bytes = sizeof(float) * kStages * kBulkTile;
  const dim3 grid(static_cast<unsigned>(tiles_of(tiles_of(n, kBulkTile), kBlockTiles)));
  wb::launch(copy_bulk_kernel, grid, dim3(kThreads), shared_bytes, gmem_in, gmem_out, n);
}

void transpose_tma(const float* gmem_in, float* gmem_out, int rows, int cols) {
  if (rows <= 0 || cols <= 0 || rows % 4 != 0) {
    throw std::invalid_argument("transpose_tma: rows must be a positive multiple of 4 and cols positive (" +
                                std::to_string(rows) + "x" + std::to_string(cols) + ")");
  }
  require_hopper("transpose_tma");
  //! [tensor map]
  CUtensorMap tensor_map;
  cuuint64_t global_dims[2] = {};     // elements, innermost dimension first
  cuuint64_t global_strides[1] = {};  // bytes from one index of dimension 1 to the next
  cuuint32_t box_dims[2] = {};        // elements, innermost first
  //! [step 4a hole]
  global_dims[0] = static_cast<cuuint64_t>(rows);
  global_dims[1] = static_cast<cuuint64_t>(cols);
  global_strides[0] = sizeof(float) * static_cast<cuuint64_t>(rows);
  box_dims[0] = kBoxRows;
  box_dims[1] = kBoxCols;
  //! [step 4a hole]
  const cuuint32_t element_strides[2] = {1, 1};
  // A box's column is one 128-byte run of the input. The L2 promotion of 256 bytes has the
  // L2 fetch the run's next 128 bytes with it, the same column's next 32 rows: the box that
  // the block one grid row on (blockIdx.y + 1) loads while this one's neighbours still run.
  wb::encode_tensor_map_tiled(&tensor_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(gmem_in),
                              global_dims, global_strides, box_dims, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                              CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  //! [tensor map]
  const dim3 grid(static_cast<unsigned>(tiles_of(cols, kBoxCols)), static_cast<unsigned>(tiles_of(rows, kBoxRows)));
  wb::launch(transpose_tma_kernel, grid, dim3(kBoxThreads), 0, tensor_map, gmem_out, rows, cols);
}

}  // namespace ch07
