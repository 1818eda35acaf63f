// Kernels that load 8x8 matrices with every form of ldmatrix and multiply with mma.sync
// m16n8k16 (bf16 in, float out), one warp each. Names: smem_ shared memory, the
// fragments a lane holds in registers a_frag, b_frag, c_frag, d_frag; g = lane / 4 and
// q = lane % 4 as the PTX ISA's fragment layouts call them (groupID, threadID_in_group).
#include "tensor_core_kernels.hpp"

#include "test_buffers.hpp"
#include "wb/wb.cuh"

namespace tensor_core_test {
namespace {

using runtime_test::poisoned;
using runtime_test::uploaded;

constexpr unsigned kWarp = 32;
constexpr int kRows = 32;        // the rows of four 8x8 matrices, 8 elements (16 bytes, a uint4) each
constexpr int kSlotsPerRow = 2;  // a shared row holds two 16-byte slots

// Where matrix row i (of 32) lies in shared memory: shared row 7 i % 32, in slot i % 2.
// Every matrix row starts on 16 bytes, and no two of a matrix are adjacent: ldmatrix
// takes each row where its lane says.
__device__ int shared_row_of(int i) { return 7 * i % kRows; }
__device__ int slot_of(int i) { return i % kSlotsPerRow; }

// Two bf16 patterns in one register, the first in the low half.
__device__ unsigned bf16_pair(std::uint16_t low, std::uint16_t high) {
  return static_cast<unsigned>(low) | static_cast<unsigned>(high) << 16;
}

// D = A B + C with this lane's fragment of C gathered from the row-major 16x8 c and its
// fragment of D scattered to d, as the mma's fragment layout places them.
__device__ void multiply_and_store(const unsigned (&a_frag)[4], const unsigned (&b_frag)[2], const float* c,
                                   float* d, int g, int q) {
  const float c_frag[4] = {c[g * 8 + 2 * q], c[g * 8 + 2 * q + 1],            // row g
                           c[(g + 8) * 8 + 2 * q], c[(g + 8) * 8 + 2 * q + 1]};  // row g + 8
  float d_frag[4];
  wb::mma_m16n8k16_bf16(d_frag, a_frag, b_frag, c_frag);
  d[g * 8 + 2 * q] = d_frag[0];
  d[g * 8 + 2 * q + 1] = d_frag[1];
  d[(g + 8) * 8 + 2 * q] = d_frag[2];
  d[(g + 8) * 8 + 2 * q + 1] = d_frag[3];
}

// The form of ldmatrix the template names.
template <int Matrices, bool Transposed>
__device__ void ldmatrix(unsigned (&regs)[Matrices], const void* smem_row) {
  if constexpr (Matrices == 1 && Transposed) {
    wb::ldmatrix_x1_trans(regs, smem_row);
  } else if constexpr (Matrices == 1) {
    wb::ldmatrix_x1(regs, smem_row);
  } else if constexpr (Matrices == 2 && Transposed) {
    wb::ldmatrix_x2_trans(regs, smem_row);
  } else if constexpr (Matrices == 2) {
    wb::ldmatrix_x2(regs, smem_row);
  } else if constexpr (Transposed) {
    wb::ldmatrix_x4_trans(regs, smem_row);
  } else {
    wb::ldmatrix_x4(regs, smem_row);
  }
}

// matrices: 32 rows of 8 patterns (16 bytes each); out: 4 words a lane.
template <int Matrices, bool Transposed>
__global__ void load_matrices_kernel(const uint4* matrices, unsigned* out) {
  __shared__ uint4 smem_rows[kRows][kSlotsPerRow];  // (32, 2 x 8 patterns)
  const int lane = static_cast<int>(threadIdx.x);
  smem_rows[shared_row_of(lane)][slot_of(lane)] = matrices[lane];
  __syncthreads();

  // Lanes past 8 x Matrices give a row too, though ldmatrix does not use their addresses.
  const int i = lane % (8 * Matrices);  // matrix i / 8, row i % 8
  unsigned regs[Matrices];
  ldmatrix<Matrices, Transposed>(regs, &smem_rows[shared_row_of(i)][slot_of(i)]);
  for (int m = 0; m < Matrices; ++m) out[4 * lane + m] = regs[m];
}

// a: 16x16, b: 16x8 (bf16 patterns), c, d: 16x8, all row-major.
__global__ void multiply_kernel(const std::uint16_t* a, const std::uint16_t* b, const float* c, float* d) {
  const int lane = static_cast<int>(threadIdx.x);
  const int g = lane / 4, q = lane % 4;
  const unsigned a_frag[4] = {
      bf16_pair(a[g * 16 + 2 * q], a[g * 16 + 2 * q + 1]),                    // row g,     columns 2q, 2q+1
      bf16_pair(a[(g + 8) * 16 + 2 * q], a[(g + 8) * 16 + 2 * q + 1]),        // row g + 8, columns 2q, 2q+1
      bf16_pair(a[g * 16 + 2 * q + 8], a[g * 16 + 2 * q + 9]),                // row g,     columns 2q+8, 2q+9
      bf16_pair(a[(g + 8) * 16 + 2 * q + 8], a[(g + 8) * 16 + 2 * q + 9])};   // row g + 8, columns 2q+8, 2q+9
  const unsigned b_frag[2] = {
      bf16_pair(b[(2 * q) * 8 + g], b[(2 * q + 1) * 8 + g]),                  // rows 2q, 2q+1,   column g
      bf16_pair(b[(2 * q + 8) * 8 + g], b[(2 * q + 9) * 8 + g])};             // rows 2q+8, 2q+9, column g
  multiply_and_store(a_frag, b_frag, c, d, g, q);
}

// A's shared rows: 16 elements and 8 of padding, three groups of 8 (48 bytes).
constexpr int kPaddedGroupsA = 3;

// a: 16x16 (two uint4 a row), b: 16x8 (one uint4 a row) bf16 patterns; c, d: 16x8 floats.
__global__ void multiply_through_ldmatrix_kernel(const uint4* a, const uint4* b, const float* c, float* d) {
  __shared__ uint4 smem_a[16][kPaddedGroupsA];  // (16, 16 + 8) elements
  __shared__ uint4 smem_b[16];                  // (16, 8): row k holds B's row k
  const int lane = static_cast<int>(threadIdx.x);
  smem_a[lane / 2][lane % 2] = a[lane];
  if (lane < 16) smem_b[lane] = b[lane];
  __syncthreads();

  // A's four 8x8 quarters in the order of its fragment: rows 0-7 and 8-15 of columns 0-7,
  // then of columns 8-15. B's two halves (k 0-7, k 8-15), transposed: b_frag holds columns.
  unsigned a_frag[4], b_frag[2];
  wb::ldmatrix_x4(a_frag, &smem_a[lane % 8 + 8 * (lane / 8 % 2)][lane / 16]);
  wb::ldmatrix_x2_trans(b_frag, &smem_b[lane % 16]);

  const int g = lane / 4, q = lane % 4;
  multiply_and_store(a_frag, b_frag, c, d, g, q);
}

using LoadKernel = void (*)(const uint4*, unsigned*);

LoadKernel load_kernel(LdmatrixForm form) {
  switch (form.matrices) {
    case 1: return form.transposed ? load_matrices_kernel<1, true> : load_matrices_kernel<1, false>;
    case 2: return form.transposed ? load_matrices_kernel<2, true> : load_matrices_kernel<2, false>;
    default: return form.transposed ? load_matrices_kernel<4, true> : load_matrices_kernel<4, false>;
  }
}

// 16-bit patterns as 16-byte groups, for the kernels that copy whole rows.
wb::DeviceBuffer<uint4> uploaded_rows(const std::vector<std::uint16_t>& patterns) {
  std::vector<uint4> rows(patterns.size() / 8);
  for (std::size_t row = 0; row < rows.size(); ++row) {
    unsigned words[4];
    for (int w = 0; w < 4; ++w) {
      words[w] = static_cast<unsigned>(patterns[8 * row + 2 * w]) |
                 static_cast<unsigned>(patterns[8 * row + 2 * w + 1]) << 16;
    }
    rows[row] = make_uint4(words[0], words[1], words[2], words[3]);
  }
  return uploaded(rows);
}

}  // namespace

std::vector<std::uint32_t> load_matrices(LdmatrixForm form, const std::vector<std::uint16_t>& matrices) {
  wb::DeviceBuffer<uint4> in = uploaded_rows(matrices);
  wb::DeviceBuffer<unsigned> out = poisoned<unsigned>(4 * kWarp);
  wb::launch(load_kernel(form), dim3(1), dim3(kWarp), 0, in.data(), out.data());
  wb::synchronize();
  const std::vector<unsigned> words = out.download();
  return {words.begin(), words.end()};
}

std::vector<float> multiply(const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& b,
                            const std::vector<float>& c) {
  wb::DeviceBuffer<std::uint16_t> a_in = uploaded(a), b_in = uploaded(b);
  wb::DeviceBuffer<float> c_in = uploaded(c);
  wb::DeviceBuffer<float> d = poisoned<float>(16 * 8);
  wb::launch(multiply_kernel, dim3(1), dim3(kWarp), 0, a_in.data(), b_in.data(), c_in.data(), d.data());
  wb::synchronize();
  return d.download();
}

std::vector<float> multiply_through_ldmatrix(const std::vector<std::uint16_t>& a,
                                             const std::vector<std::uint16_t>& b, const std::vector<float>& c) {
  wb::DeviceBuffer<uint4> a_in = uploaded_rows(a), b_in = uploaded_rows(b);
  wb::DeviceBuffer<float> c_in = uploaded(c);
  wb::DeviceBuffer<float> d = poisoned<float>(16 * 8);
  wb::launch(multiply_through_ldmatrix_kernel, dim3(1), dim3(kWarp), 0, a_in.data(), b_in.data(), c_in.data(),
             d.data());
  wb::synchronize();
  return d.download();
}

}  // namespace tensor_core_test
