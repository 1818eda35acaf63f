// Kernels that use the tensor cores' instructions (wb/tensor_core.hpp) on either backend,
// with host wrappers that speak in bit patterns (bf16 as std::uint16_t), so that the tests
// stay plain C++: each uploads its inputs, poisons its outputs, runs one warp and downloads.
#pragma once

#include <cstdint>
#include <vector>

namespace tensor_core_test {

// The six forms of ldmatrix: .x1, .x2, .x4, each plain and .trans.
struct LdmatrixForm {
  int matrices;  // 1, 2 or 4
  bool transposed;
};

// Four 8x8 matrices of 16-bit patterns, matrix m's row r at [8 (8m + r), 8 (8m + r) + 8),
// put in shared memory one row here and one there (no two rows adjacent) and loaded with
// `form`, each lane giving the address of row t % 8 of matrix t / 8 (t % (8 matrices)
// where fewer matrices are loaded). Each lane's registers: 4 words a lane, lane by lane,
// of which the first form.matrices are written.
std::vector<std::uint32_t> load_matrices(LdmatrixForm form, const std::vector<std::uint16_t>& matrices);

// D = A B + C by one mma.sync m16n8k16: A 16x16 and B 16x8 as bf16 bit patterns, C and the
// returned D 16x8 floats, all row-major. The fragments are gathered by each lane from
// global memory by the layout of the PTX ISA.
std::vector<float> multiply(const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& b,
                            const std::vector<float>& c);

// The same product with A and B first put in shared memory and their fragments loaded by
// ldmatrix (.x4 for A, .x2.trans for B, stored k-major), as a GEMM's inner loop does.
std::vector<float> multiply_through_ldmatrix(const std::vector<std::uint16_t>& a,
                                             const std::vector<std::uint16_t>& b, const std::vector<float>& c);

}  // namespace tensor_core_test
