// __half and __nv_bfloat16 in kernels, on either backend: conversions from float round
// to nearest even through subnormals and overflow, conversions to float are exact,
// arithmetic is correctly rounded. All compared bit for bit (a NaN only as a NaN: the
// GPU may give any NaN pattern), against an independent reference that knows nothing
// of rounding code: the value of each of the 65536 patterns, from the format's
// definition, and the nearest of them to an exact value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "narrow_float_kernels.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/random.hpp"
#include "wb/wb.cuh"

namespace {

using narrow_test::Format;
using narrow_test::Operation;
using wb::grading::fresh_seed;
using wb::grading::random_floats;
using wb::grading::random_words;
using NarrowFloats = wb::grading::KernelTest;

constexpr std::size_t kCount = 4096;
constexpr int kReportedFailures = 5;

std::string seed_note(std::uint64_t seed) { return "WB_SEED=" + std::to_string(seed); }

float float_of(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

std::string hex(std::uint32_t bits, int digits) {
  std::ostringstream out;
  out << "0x" << std::hex << std::uppercase << std::setw(digits) << std::setfill('0') << bits;
  return out.str();
}

// A 16-bit IEEE format from its definition: sign, exponent bits, mantissa bits.
class FormatReference {
 public:
  FormatReference(int exponent_bits, int mantissa_bits)
      : mantissa_bits_(mantissa_bits),
        bias_((1 << (exponent_bits - 1)) - 1),
        max_exponent_field_((1u << exponent_bits) - 1),
        infinity_(static_cast<std::uint16_t>(max_exponent_field_ << mantissa_bits)) {}

  static FormatReference of(Format format) {
    return format == Format::half ? FormatReference(5, 10) : FormatReference(8, 7);
  }

  // The exact value of a pattern (NaN for a NaN); the infinity pattern is +-inf.
  double value(std::uint16_t bits) const {
    const bool negative = (bits & 0x8000u) != 0;
    const unsigned exponent = (bits & 0x7FFFu) >> mantissa_bits_;
    const unsigned mantissa = bits & ((1u << mantissa_bits_) - 1);
    double magnitude;
    if (exponent == max_exponent_field_) {
      magnitude = mantissa != 0 ? std::numeric_limits<double>::quiet_NaN()
                                : std::numeric_limits<double>::infinity();
    } else if (exponent == 0) {
      magnitude = std::ldexp(mantissa, 1 - bias_ - mantissa_bits_);
    } else {
      magnitude = std::ldexp((1u << mantissa_bits_) + mantissa,
                             static_cast<int>(exponent) - bias_ - mantissa_bits_);
    }
    return negative ? -magnitude : magnitude;
  }

  bool is_nan(std::uint16_t bits) const { return std::isnan(value(bits)); }

  // The pattern nearest to `x` (an exact value), ties to the even pattern; past the
  // largest finite value, infinity once x reaches the midpoint to the next power of two.
  // The result for a NaN is some NaN.
  std::uint16_t nearest(double x) const {
    if (std::isnan(x)) return static_cast<std::uint16_t>(infinity_ | 1u);
    const std::uint16_t sign = std::signbit(x) ? 0x8000u : 0u;
    const double magnitude = std::fabs(x);
    // Non-negative patterns are ordered like their values: search for the last one
    // not above `magnitude`.
    if (magnitude >= step_value(infinity_)) return static_cast<std::uint16_t>(sign | infinity_);
    std::uint16_t low = 0, high = infinity_;  // step_value(low) <= magnitude < step_value(high)
    while (high - low > 1) {
      const auto middle = static_cast<std::uint16_t>((low + high) / 2);
      (step_value(middle) <= magnitude ? low : high) = middle;
    }
    const double midpoint = (step_value(low) + step_value(high)) / 2;
    std::uint16_t chosen = low;
    if (magnitude > midpoint || (magnitude == midpoint && (low & 1u) != 0)) chosen = high;
    return static_cast<std::uint16_t>(sign | chosen);
  }

 private:
  // The value of a non-negative pattern, with the infinity pattern standing for the
  // next power of two, the value it would have if the exponent went on.
  double step_value(std::uint16_t bits) const {
    return bits == infinity_ ? std::ldexp(1.0, static_cast<int>(max_exponent_field_) - bias_)
                             : value(bits);
  }

  int mantissa_bits_;
  int bias_;
  unsigned max_exponent_field_;
  std::uint16_t infinity_;
};

const char* name_of(Format format) { return format == Format::half ? "__half" : "__nv_bfloat16"; }

// Fails unless `actual` is `expected`, or both are NaNs of the format.
::testing::AssertionResult same_pattern(const FormatReference& reference, std::uint16_t actual,
                                        std::uint16_t expected) {
  if (actual == expected || (reference.is_nan(actual) && reference.is_nan(expected))) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "got " << hex(actual, 4) << " (" << reference.value(actual) << "), expected "
         << hex(expected, 4) << " (" << reference.value(expected) << ")";
}

// ---------------------------------------------------------------------------------
// Known patterns, written out by hand from the formats' definitions.

struct KnownCase {
  std::uint32_t float_bits;
  std::uint16_t half_bits;
  std::uint16_t bfloat16_bits;
  const char* what;
};

constexpr std::uint16_t kAnyNaN = 0x7FFF;  // the test accepts any NaN here

const KnownCase kKnownCases[] = {
    {0x3F800000, 0x3C00, 0x3F80, "1"},
    {0xC0000000, 0xC000, 0xC000, "-2"},
    {0x3DCCCCCD, 0x2E66, 0x3DCD, "0.1"},
    {0x3EAAAAAB, 0x3555, 0x3EAB, "1/3"},
    {0x00000000, 0x0000, 0x0000, "+0"},
    {0x80000000, 0x8000, 0x8000, "-0 keeps its sign"},
    {0x7F800000, 0x7C00, 0x7F80, "+infinity"},
    {0xFF800000, 0xFC00, 0xFF80, "-infinity"},
    {0x7FC00000, kAnyNaN, kAnyNaN, "a quiet NaN"},
    {0x7F800001, kAnyNaN, kAnyNaN, "a signaling NaN, which truncation would turn into infinity"},
    {0xFFFFFFFF, kAnyNaN, kAnyNaN, "a negative NaN with a full payload"},
    {0x477FE000, 0x7BFF, 0x4780, "65504, half's largest finite value"},
    {0x477FEFFF, 0x7BFF, 0x4780, "just below half's overflow threshold"},
    {0x477FF000, 0x7C00, 0x4780, "65520: the tie rounds to even, which overflows half"},
    {0x501502F9, 0x7C00, 0x5015, "1e10"},
    {0x38800000, 0x0400, 0x3880, "2^-14, half's smallest normal"},
    {0x387FC000, 0x03FF, 0x3880, "half's largest subnormal"},
    {0x387FE000, 0x0400, 0x3880, "midway between half's largest subnormal and smallest normal"},
    {0x33800000, 0x0001, 0x3380, "2^-24, half's smallest subnormal"},
    {0x33000000, 0x0000, 0x3300, "2^-25: the tie rounds to even, to zero"},
    {0x33000001, 0x0001, 0x3300, "just above 2^-25"},
    {0x33C00000, 0x0002, 0x33C0, "3 * 2^-25: the tie rounds to even, up"},
    {0xB3000000, 0x8000, 0xB300, "-2^-25 rounds to -0"},
    {0x3F801000, 0x3C00, 0x3F80, "1 + 2^-11: the tie rounds down to even"},
    {0x3F803000, 0x3C02, 0x3F80, "1 + 3 * 2^-11: the tie rounds up to even"},
    {0x3F808000, 0x3C04, 0x3F80, "1 + 2^-8: bfloat16's tie rounds down to even"},
    {0x3F818000, 0x3C0C, 0x3F82, "1 + 3 * 2^-8: bfloat16's tie rounds up to even"},
    {0x3F808001, 0x3C04, 0x3F81, "just above bfloat16's tie"},
    {0x7F7FFFFF, 0x7C00, 0x7F80, "the largest float overflows bfloat16"},
    {0x7F7F7FFF, 0x7C00, 0x7F7F, "just below bfloat16's overflow threshold"},
    {0x7F7F8000, 0x7C00, 0x7F80, "bfloat16's overflow tie rounds to even: infinity"},
    {0x00000001, 0x0000, 0x0000, "float's smallest subnormal"},
    {0x00008000, 0x0000, 0x0000, "a float subnormal at bfloat16's tie, to even: zero"},
    {0x00018000, 0x0000, 0x0002, "a float subnormal at bfloat16's tie, to even: up"},
    {0x007FFFFF, 0x0000, 0x0080,
     "float's largest subnormal rounds up to bfloat16's smallest normal"},
};

TEST_F(NarrowFloats, KnownPatternsConvertExactly) {
  std::vector<float> values;
  for (const KnownCase& known : kKnownCases) values.push_back(float_of(known.float_bits));
  for (Format format : {Format::half, Format::bfloat16}) {
    SCOPED_TRACE(name_of(format));
    const FormatReference reference = FormatReference::of(format);
    const narrow_test::Narrowed out = narrow_test::narrow(format, values);
    ASSERT_EQ(out.plain.size(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      const KnownCase& known = kKnownCases[i];
      const std::uint16_t expected = format == Format::half ? known.half_bits : known.bfloat16_bits;
      EXPECT_TRUE(same_pattern(reference, out.plain[i], expected))
          << "conversion of " << hex(known.float_bits, 8) << " (" << known.what << ")";
      EXPECT_TRUE(same_pattern(reference, out.rn[i], expected))
          << "_rn conversion of " << hex(known.float_bits, 8) << " (" << known.what << ")";
      // The hand-written table agrees with the reference, so the reference can be trusted
      // with the random values below.
      EXPECT_TRUE(same_pattern(reference, reference.nearest(values[i]), expected))
          << "the reference itself, for " << known.what;
    }
  }
}

// Floats of every kind: any bit pattern (all exponents, NaNs, infinities), values
// around the format's range and subnormals, and exact midpoints between neighbours.
std::vector<float> hard_floats(const FormatReference& reference, std::uint64_t seed) {
  std::vector<float> values;
  for (std::uint32_t word : random_words(kCount, seed)) values.push_back(float_of(word));
  for (float u : random_floats(kCount, seed)) {
    values.push_back(u * 70000.0f);
    values.push_back(u * 1e-4f);
    values.push_back(u * 1e-38f);
  }
  for (std::uint32_t word : random_words(kCount, ~seed)) {
    const auto bits = static_cast<std::uint16_t>(word & 0x7FFFu);  // a pattern and its successor
    const double midpoint =
        (reference.value(bits) + reference.value(static_cast<std::uint16_t>(bits + 1))) / 2;
    if (std::isfinite(midpoint) && std::fabs(midpoint) <= std::numeric_limits<float>::max()) {
      values.push_back(static_cast<float>((word & 0x8000u) != 0 ? -midpoint : midpoint));
    }
  }
  return values;
}

TEST_F(NarrowFloats, ConversionsFromFloatRoundToNearestEven) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  for (Format format : {Format::half, Format::bfloat16}) {
    SCOPED_TRACE(name_of(format));
    const FormatReference reference = FormatReference::of(format);
    const std::vector<float> values = hard_floats(reference, seed);
    const narrow_test::Narrowed out = narrow_test::narrow(format, values);
    ASSERT_EQ(out.plain.size(), values.size());
    int failures = 0;
    for (std::size_t i = 0; i < values.size() && failures < kReportedFailures; ++i) {
      const std::uint16_t expected = reference.nearest(values[i]);
      for (const auto& [result, name] :
           {std::pair{out.plain[i], "plain"}, std::pair{out.rn[i], "_rn"}}) {
        if (const auto same = same_pattern(reference, result, expected); !same) {
          ++failures;
          ADD_FAILURE() << name << " conversion of " << values[i] << " ("
                        << hex(bits_of(values[i]), 8) << "): " << same.message();
        }
      }
    }
  }
}

TEST_F(NarrowFloats, EveryPatternWidensToItsExactValue) {
  std::vector<std::uint16_t> patterns(65536);
  for (std::size_t i = 0; i < patterns.size(); ++i) patterns[i] = static_cast<std::uint16_t>(i);
  for (Format format : {Format::half, Format::bfloat16}) {
    SCOPED_TRACE(name_of(format));
    const FormatReference reference = FormatReference::of(format);
    const std::vector<float> out = narrow_test::widen(format, patterns);
    ASSERT_EQ(out.size(), patterns.size());
    for (std::uint16_t bits : patterns) {
      const double expected = reference.value(bits);
      if (std::isnan(expected)) {
        ASSERT_TRUE(std::isnan(out[bits])) << hex(bits, 4) << " is a NaN, widened to " << out[bits];
      } else {
        ASSERT_EQ(bits_of(out[bits]), bits_of(static_cast<float>(expected)))
            << hex(bits, 4) << " widened to " << out[bits] << ", expected " << expected;
      }
    }
  }
}

TEST_F(NarrowFloats, NaNAndInfinityAreClassified) {
  std::vector<std::uint16_t> patterns(65536);
  for (std::size_t i = 0; i < patterns.size(); ++i) patterns[i] = static_cast<std::uint16_t>(i);
  for (Format format : {Format::half, Format::bfloat16}) {
    SCOPED_TRACE(name_of(format));
    const FormatReference reference = FormatReference::of(format);
    const narrow_test::Classified out = narrow_test::classify(format, patterns);
    for (std::uint16_t bits : patterns) {
      const double value = reference.value(bits);
      ASSERT_EQ(out.is_nan[bits], std::isnan(value) ? 1 : 0) << "__hisnan of " << hex(bits, 4);
      ASSERT_EQ(out.is_inf[bits], std::isinf(value) ? (value < 0 ? -1 : 1) : 0)
          << "__hisinf of " << hex(bits, 4);
    }
  }
}

// ---------------------------------------------------------------------------------
// Arithmetic: the exact result (double holds it, or rounds it harmlessly, see below),
// rounded once by the reference.

struct ArithmeticCase {
  Operation operation;
  const char* name;
  double (*exact)(double a, double b, double c);
  bool within_one_unit;  // __hdiv: computed in software on the GPU
};

const ArithmeticCase kArithmeticCases[] = {
    {Operation::hadd, "__hadd", [](double a, double b, double) { return a + b; }, false},
    {Operation::hsub, "__hsub", [](double a, double b, double) { return a - b; }, false},
    {Operation::hmul, "__hmul", [](double a, double b, double) { return a * b; }, false},
    {Operation::hdiv, "__hdiv", [](double a, double b, double) { return a / b; }, true},
    {Operation::hfma, "__hfma", [](double a, double b, double c) { return a * b + c; }, false},
    {Operation::plus, "operator+", [](double a, double b, double) { return a + b; }, false},
    {Operation::times, "operator*", [](double a, double b, double) { return a * b; }, false},
    {Operation::hadd2_low, "__hadd2 (low half)", [](double a, double b, double) { return a + b; },
     false},
    {Operation::hfma2_high, "__hfma2 (high half)",
     [](double a, double b, double c) { return a * b + c; }, false},
    {Operation::hneg, "__hneg", [](double a, double, double) { return -a; }, false},
    {Operation::habs, "__habs", [](double a, double, double) { return std::fabs(a); }, false},
};

// Operands for `operation`. Sums, differences, products and quotients are exact in
// double or rounded there harmlessly (double has more than twice the formats' precision
// plus two bits), so any patterns will do, NaNs and infinities included. For a*b + c
// the sum must be exact in double: operands between 1/16 and 16 in magnitude keep it
// within 40 bits.
std::vector<std::uint16_t> operands(const FormatReference& reference, bool fused,
                                    std::uint64_t seed) {
  std::vector<std::uint16_t> patterns;
  if (fused) {
    for (float u : random_floats(kCount, seed)) {
      const float scaled = std::fabs(u) * 8.0f, whole = std::floor(scaled);  // [0, 8)
      const float magnitude = std::ldexp(1.0f + (scaled - whole), static_cast<int>(whole) - 4);
      patterns.push_back(reference.nearest(u < 0 ? -magnitude : magnitude));
    }
  } else {
    for (std::uint32_t word : random_words(kCount, seed))
      patterns.push_back(static_cast<std::uint16_t>(word));
  }
  return patterns;
}

TEST_F(NarrowFloats, ArithmeticIsCorrectlyRounded) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  for (Format format : {Format::half, Format::bfloat16}) {
    const FormatReference reference = FormatReference::of(format);
    for (const ArithmeticCase& test : kArithmeticCases) {
      SCOPED_TRACE(std::string(test.name) + " of " + name_of(format));
      const bool fused =
          test.operation == Operation::hfma || test.operation == Operation::hfma2_high;
      const std::vector<std::uint16_t> a = operands(reference, fused, seed);
      const std::vector<std::uint16_t> b = operands(reference, fused, seed + 1);
      const std::vector<std::uint16_t> c = operands(reference, fused, seed + 2);
      const std::vector<std::uint16_t> out = narrow_test::apply(format, test.operation, a, b, c);
      ASSERT_EQ(out.size(), a.size());
      int failures = 0;
      for (std::size_t i = 0; i < a.size() && failures < kReportedFailures; ++i) {
        const std::uint16_t expected = reference.nearest(
            test.exact(reference.value(a[i]), reference.value(b[i]), reference.value(c[i])));
        ::testing::AssertionResult same = same_pattern(reference, out[i], expected);
        const int distance = static_cast<int>(out[i]) - static_cast<int>(expected);
        if (!same && test.within_one_unit && !reference.is_nan(out[i]) &&
            (out[i] & 0x8000u) == (expected & 0x8000u) && (distance == 1 || distance == -1)) {
          same = ::testing::AssertionSuccess();
        }
        if (!same) {
          ++failures;
          ADD_FAILURE() << "operands " << hex(a[i], 4) << ", " << hex(b[i], 4) << ", "
                        << hex(c[i], 4) << ": " << same.message();
        }
      }
    }
  }
}

TEST_F(NarrowFloats, PairsRoundBothHalves) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  const std::vector<float> x = random_floats(kCount, seed), y = random_floats(kCount, ~seed);
  for (Format format : {Format::half, Format::bfloat16}) {
    SCOPED_TRACE(name_of(format));
    const FormatReference reference = FormatReference::of(format);
    const std::vector<float> out = narrow_test::pair_round_trip(format, x, y);
    ASSERT_EQ(out.size(), 2 * kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
      ASSERT_EQ(out[2 * i], reference.value(reference.nearest(x[i]))) << "low half of pair " << i;
      ASSERT_EQ(out[2 * i + 1], reference.value(reference.nearest(y[i])))
          << "high half of pair " << i;
    }
  }
}

// The host conversions from double and int (no kernel): rounded once, not through float.
TEST(NarrowFloatsOnTheHost, ConversionsFromDoubleAndIntRoundOnce) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  const FormatReference half = FormatReference::of(Format::half);
  const FormatReference bfloat16 = FormatReference::of(Format::bfloat16);
  std::vector<int> integers{0,
                            1,
                            -1,
                            2049,
                            65519,
                            65520,
                            16842753 /* 2^24 + 2^16 + 1 */,
                            std::numeric_limits<int>::max(),
                            std::numeric_limits<int>::min()};
  for (std::uint32_t word : random_words(kCount, seed)) integers.push_back(static_cast<int>(word));
  for (int i : integers) {
    ASSERT_TRUE(same_pattern(half, __half_as_ushort(__int2half_rn(i)), half.nearest(i)))
        << "__int2half_rn(" << i << ")";
    ASSERT_TRUE(
        same_pattern(bfloat16, __bfloat16_as_ushort(__int2bfloat16_rn(i)), bfloat16.nearest(i)))
        << "__int2bfloat16_rn(" << i << ")";
  }
  // Doubles with more digits than float holds: a conversion through float would round
  // twice. Random ones of every exponent, in the formats' range and among half's
  // subnormals, and two that sit just above a tie (which a float would round onto it).
  std::vector<double> doubles{std::ldexp(1.0 + std::ldexp(1.0, -40), -25),
                              1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)};
  const std::vector<std::uint32_t> words = random_words(2 * kCount, ~seed);
  for (std::size_t k = 0; k < words.size(); k += 2) {
    const std::uint64_t bits = static_cast<std::uint64_t>(words[k]) << 32 | words[k + 1];
    double any;
    std::memcpy(&any, &bits, sizeof any);
    const double unit = std::ldexp(static_cast<double>(bits >> 11), -53);  // [0, 1)
    for (double value : {any, unit * 70000.0, unit * 1e-4, unit * 1e-6}) {
      if (!std::isnan(value)) doubles.push_back((bits & 1u) != 0 ? -value : value);
    }
  }
  for (double value : doubles) {
    ASSERT_TRUE(same_pattern(half, __half_as_ushort(__double2half(value)), half.nearest(value)))
        << "__double2half(" << value << ")";
    ASSERT_TRUE(same_pattern(bfloat16, __bfloat16_as_ushort(__double2bfloat16(value)),
                             bfloat16.nearest(value)))
        << "__double2bfloat16(" << value << ")";
  }
}

}  // namespace
