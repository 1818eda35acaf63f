// The tensor cores' instructions on both backends, against values computed here on the
// host: every form of ldmatrix hands each lane the elements the PTX ISA's fragment layout
// names, bit for bit; one mma.sync m16n8k16 on bf16 gives A B + C within float rounding
// of a double-precision product, with its fragments gathered by each lane by hand, and
// loaded by ldmatrix as a GEMM loads them. On the GPU they check the hardware's behaviour
// the simulator copies; in the simulator, that the copy is faithful.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "tensor_core_kernels.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/random.hpp"

namespace {

using tensor_core_test::LdmatrixForm;

constexpr int kReportedMismatches = 5;

std::string seed_note(std::uint64_t seed) { return "WB_SEED=" + std::to_string(seed); }

std::string name_of(const LdmatrixForm& form) {
  return "x" + std::to_string(form.matrices) + (form.transposed ? "_trans" : "");
}

// `count` bf16 values, uniform in [-1, 1] before rounding.
std::vector<std::uint16_t> random_bf16(std::size_t count, std::uint64_t seed) {
  std::vector<std::uint16_t> values;
  for (float value : wb::grading::random_floats(count, seed)) values.push_back(wb::grading::bf16_bits(value));
  return values;
}

// ---------------------------------------------------------------------------------
// ldmatrix: lane t, matrix m, with g = t / 4 and q = t % 4, holds M_m[g][2q] and
// M_m[g][2q + 1] (low half first); with .trans M_m[2q][g] and M_m[2q + 1][g].

class Ldmatrix : public wb::grading::KernelTest, public ::testing::WithParamInterface<LdmatrixForm> {};

TEST_P(Ldmatrix, EachLaneHoldsTheElementsOfItsFragment) {
  const LdmatrixForm form = GetParam();
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  // Every 16-bit pattern equally likely: ldmatrix moves bits, whatever they mean.
  std::vector<std::uint16_t> matrices;
  for (std::uint32_t word : wb::grading::random_words(4 * 64 / 2, seed)) {
    matrices.push_back(static_cast<std::uint16_t>(word));
    matrices.push_back(static_cast<std::uint16_t>(word >> 16));
  }
  auto element = [&](int m, int row, int column) { return matrices[64 * m + 8 * row + column]; };

  const std::vector<std::uint32_t> got = tensor_core_test::load_matrices(form, matrices);
  ASSERT_EQ(got.size(), 4u * 32u);
  int mismatches = 0;
  std::ostringstream report;
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, q = lane % 4;
    for (int m = 0; m < form.matrices; ++m) {
      const std::uint16_t low = form.transposed ? element(m, 2 * q, g) : element(m, g, 2 * q);
      const std::uint16_t high = form.transposed ? element(m, 2 * q + 1, g) : element(m, g, 2 * q + 1);
      const std::uint32_t expected = static_cast<std::uint32_t>(low) | static_cast<std::uint32_t>(high) << 16;
      const std::uint32_t value = got[4 * lane + m];
      if (value == expected) continue;
      if (++mismatches <= kReportedMismatches) {
        report << "\n  lane " << lane << ", register " << m << ": 0x" << std::hex << value << ", expected 0x"
               << expected << std::dec;
      }
    }
  }
  EXPECT_EQ(mismatches, 0) << "registers that differ from the fragment layout (the first "
                           << kReportedMismatches << "):" << report.str();
}

INSTANTIATE_TEST_SUITE_P(EveryForm, Ldmatrix,
                         ::testing::Values(LdmatrixForm{1, false}, LdmatrixForm{2, false}, LdmatrixForm{4, false},
                                           LdmatrixForm{1, true}, LdmatrixForm{2, true}, LdmatrixForm{4, true}),
                         [](const ::testing::TestParamInfo<LdmatrixForm>& info) { return name_of(info.param); });

// ---------------------------------------------------------------------------------
// mma.sync m16n8k16: D = A B + C against a double-precision product. The products of
// bf16 values are exact in float; what differs is how the sum of 16 of them and C is
// rounded, at most a few units of a float's last place of the sum of their magnitudes.

constexpr double kRelativeTolerance = 1e-5;

struct MmaInputs {
  std::vector<std::uint16_t> a;  // 16x16, row-major
  std::vector<std::uint16_t> b;  // 16x8, row-major
  std::vector<float> c;          // 16x8, row-major
};

MmaInputs random_mma_inputs(std::uint64_t seed) {
  return {random_bf16(16 * 16, seed), random_bf16(16 * 8, seed + 1), wb::grading::random_floats(16 * 8, seed + 2)};
}

// Whether D is A B + C, element by element, within the tolerance of the sum of magnitudes.
::testing::AssertionResult is_product(const MmaInputs& in, const std::vector<float>& d) {
  if (d.size() != 16u * 8u) return ::testing::AssertionFailure() << "D has " << d.size() << " elements, not 128";
  int mismatches = 0;
  std::ostringstream report;
  for (int row = 0; row < 16; ++row) {
    for (int column = 0; column < 8; ++column) {
      double sum = in.c[8 * row + column], magnitude = std::fabs(sum);
      for (int k = 0; k < 16; ++k) {
        const double product = static_cast<double>(wb::grading::bf16_value(in.a[16 * row + k])) *
                               wb::grading::bf16_value(in.b[8 * k + column]);
        sum += product;
        magnitude += std::fabs(product);
      }
      const float got = d[8 * row + column];
      if (std::fabs(got - sum) <= kRelativeTolerance * magnitude) continue;  // false for a NaN
      if (++mismatches <= kReportedMismatches) {
        report << "\n  D[" << row << "][" << column << "] = " << got << ", expected " << sum;
      }
    }
  }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << mismatches << " of 128 elements of D differ from A B + C by more than "
                                       << kRelativeTolerance << " of the sum of magnitudes (the first "
                                       << kReportedMismatches << "):" << report.str();
}

using Mma = wb::grading::KernelTest;

TEST_F(Mma, FragmentsGatheredByHandGiveTheProduct) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  const MmaInputs in = random_mma_inputs(seed);
  EXPECT_TRUE(is_product(in, tensor_core_test::multiply(in.a, in.b, in.c)));
}

TEST_F(Mma, FragmentsLoadedByLdmatrixGiveTheProduct) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  const MmaInputs in = random_mma_inputs(seed);
  EXPECT_TRUE(is_product(in, tensor_core_test::multiply_through_ldmatrix(in.a, in.b, in.c)));
}

}  // namespace
