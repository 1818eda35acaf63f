// Poison, comparison and guard bands for every element type a chapter may output:
// float, double, __half, __nv_bfloat16 and the integers. Each type's poison is its own
// (a NaN of the type, or a documented value for the integers), the comparison finds and
// names it, accepts a value within the tolerance and never a NaN, and a guard band
// locates a store outside the output. Device memory only where a buffer is filled and
// read back (skipped on the GPU backend without a GPU); the rest runs on the host.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "wb/grading/backend_test.hpp"
#include "wb/grading/compare.hpp"
#include "wb/grading/guarded_buffer.hpp"
#include "wb/grading/random.hpp"
#include "wb/wb.cuh"

namespace {

using wb::grading::ArrayShape;
using wb::grading::CompareOptionsFor;
using wb::grading::matches_reference;
using wb::poison::Kind;
using wb::poison::kKinds;

using FloatingTypes = ::testing::Types<float, double, __half, __nv_bfloat16>;
using AllTypes = ::testing::Types<float, double, __half, __nv_bfloat16, std::int32_t, std::uint32_t,
                                  std::int64_t, std::uint64_t>;

struct TypeNames {
  template <class T>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<T, float>) return "float";
    if constexpr (std::is_same_v<T, double>) return "double";
    if constexpr (std::is_same_v<T, __half>) return "half";
    if constexpr (std::is_same_v<T, __nv_bfloat16>) return "bfloat16";
    if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
    if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
    if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
    return "uint64";
  }
};

// A double as T, rounded to nearest (the 16-bit types through CUDA's conversions).
template <class T>
T from_double(double value) {
  if constexpr (std::is_same_v<T, __half>) {
    return __double2half(value);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __double2bfloat16(value);
  } else {
    return static_cast<T>(value);
  }
}

template <class T>
double to_double(T value) {
  if constexpr (std::is_same_v<T, __half>) {
    return __half2float(value);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __bfloat162float(value);
  } else {
    return static_cast<double>(value);
  }
}

// Small whole numbers: exact in every type, bfloat16's 8 bits included.
template <class T>
std::vector<T> small_numbers(std::size_t count, std::vector<double>* as_doubles) {
  std::vector<T> values;
  for (std::size_t i = 0; i < count; ++i) {
    as_doubles->push_back(static_cast<double>(1 + (i * 37) % 200));
    values.push_back(from_double<T>(as_doubles->back()));
  }
  return values;
}

// A 16x8 array in 8x4 tiles: enough to locate an element.
constexpr ArrayShape kShape{16, 8, 8, 4};
constexpr std::size_t kElements = 16 * 8;

// ---------------------------------------------------------------------------------
// The patterns, on the host

template <class T>
class PoisonPatterns : public ::testing::Test {};
TYPED_TEST_SUITE(PoisonPatterns, AllTypes, TypeNames);

TYPED_TEST(PoisonPatterns, EachKindIsRecognisedAsItselfOnly) {
  for (Kind kind : kKinds) {
    const TypeParam poisoned = wb::poison::pattern<TypeParam>(kind);
    for (Kind other : kKinds) {
      EXPECT_EQ(wb::poison::matches(poisoned, other), kind == other)
          << "the " << wb::poison::name(kind) << " pattern against the " << wb::poison::name(other)
          << " kind";
    }
    EXPECT_EQ(wb::poison::kind_of(poisoned), kind) << wb::poison::name(kind);
  }
}

TYPED_TEST(PoisonPatterns, OrdinaryValuesAreNoPoison) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  // Data of the kind tests use: numbers in [-1, 1) for floating point, counts and
  // indices for integers.
  const std::vector<float> unit = wb::grading::random_floats(4096, seed);
  for (std::size_t i = 0; i < unit.size(); ++i) {
    const TypeParam value = std::is_integral_v<TypeParam>
                                ? from_double<TypeParam>(std::fabs(unit[i]) * 1e6)
                                : from_double<TypeParam>(unit[i]);
    ASSERT_FALSE(wb::poison::kind_of(value).has_value()) << "the value " << to_double(value);
  }
  EXPECT_FALSE(wb::poison::kind_of(from_double<TypeParam>(0.0)).has_value());
}

template <class T>
class FloatingPoison : public ::testing::Test {};
TYPED_TEST_SUITE(FloatingPoison, FloatingTypes, TypeNames);

TYPED_TEST(FloatingPoison, EveryPatternIsANaNOfTheType) {
  static_assert(wb::poison::Traits<TypeParam>::kIsNaN, "floating-point poison is a NaN");
  for (Kind kind : kKinds) {
    EXPECT_TRUE(std::isnan(to_double(wb::poison::pattern<TypeParam>(kind))))
        << "the " << wb::poison::name(kind) << " pattern";
  }
}

TYPED_TEST(FloatingPoison, ArithmeticSignAndQuietBitsDoNotHideTheKind) {
  using Traits = wb::poison::Traits<TypeParam>;
  for (Kind kind : kKinds) {
    const auto flipped = static_cast<typename Traits::Bits>(Traits::pattern(kind) ^ Traits::kFree);
    TypeParam value;
    std::memcpy(static_cast<void*>(&value), &flipped, sizeof value);
    EXPECT_EQ(wb::poison::kind_of(value), kind)
        << wb::poison::name(kind) << ", sign and quiet bit flipped";
  }
}

TEST(HalfPoison, IsAQuietNaNOfHalfPrecision) {
  for (Kind kind : kKinds) {
    const std::uint16_t bits = wb::poison::bits(wb::poison::pattern<__half>(kind));
    EXPECT_EQ(bits & 0x7C00u, 0x7C00u) << wb::poison::name(kind) << ": exponent all ones";
    EXPECT_NE(bits & 0x0200u, 0u) << wb::poison::name(kind) << ": the quiet bit";
    EXPECT_NE(bits & 0x01FFu, 0u) << wb::poison::name(kind) << ": a payload";
    EXPECT_TRUE(std::isnan(__half2float(wb::poison::pattern<__half>(kind))));
  }
}

TEST(BFloat16Poison, IsAQuietNaNOfBFloat16) {
  for (Kind kind : kKinds) {
    const std::uint16_t bits = wb::poison::bits(wb::poison::pattern<__nv_bfloat16>(kind));
    EXPECT_EQ(bits & 0x7F80u, 0x7F80u) << wb::poison::name(kind) << ": exponent all ones";
    EXPECT_NE(bits & 0x0040u, 0u) << wb::poison::name(kind) << ": the quiet bit";
    EXPECT_NE(bits & 0x003Fu, 0u) << wb::poison::name(kind) << ": a payload";
    EXPECT_NE(bits, 0x7FFFu) << "not the canonical NaN a conversion produces";
  }
}

TEST(DoublePoison, TwoFloatWordsAreRecognisedAsTheirKind) {
  for (Kind kind : kKinds) {
    // What a double read finds where the simulator poisoned a float word at a time.
    const std::uint64_t two_words =
        std::uint64_t{wb::poison::word(kind)} << 32 | wb::poison::word(kind);
    double value;
    std::memcpy(&value, &two_words, sizeof value);
    EXPECT_FALSE(std::isnan(value)) << "two float words are no double NaN (exponent 0x7FE)";
    EXPECT_EQ(wb::poison::kind_of(value), kind) << wb::poison::name(kind);
  }
}

// The simulator fills shared memory with 32-bit words; a kernel that reads 16-bit
// floats there, at either half of a word, must find that type's pattern of the kind.
TEST(SixteenBitPoison, EitherHalfOfAWordIsTheKindAsHalfAndAsBFloat16) {
  for (Kind kind : kKinds) {
    SCOPED_TRACE(wb::poison::name(kind));
    const std::uint32_t word = wb::poison::word(kind);
    std::uint16_t halves[2];
    std::memcpy(halves, &word, sizeof word);
    for (std::uint16_t half_bits : halves) {
      __half as_half;
      __nv_bfloat16 as_bfloat16;
      std::memcpy(static_cast<void*>(&as_half), &half_bits, 2);
      std::memcpy(static_cast<void*>(&as_bfloat16), &half_bits, 2);
      EXPECT_EQ(wb::poison::kind_of(as_half), kind) << "as __half";
      EXPECT_EQ(wb::poison::kind_of(as_bfloat16), kind) << "as __nv_bfloat16";
    }
  }
}

TEST(IntegerPoison, IsTheDocumentedValue) {
  EXPECT_EQ(wb::poison::pattern<std::int32_t>(Kind::unwritten), 2146271213);
  EXPECT_EQ(wb::poison::pattern<std::uint32_t>(Kind::in_flight), 2145746917u);
  EXPECT_EQ(wb::poison::pattern<std::int32_t>(Kind::stale), 2145288158);
  EXPECT_EQ(wb::poison::pattern<std::int32_t>(Kind::guard), 2144174029);
  EXPECT_EQ(wb::poison::pattern<std::uint64_t>(Kind::unwritten), 0x7FED7FED7FED7FEDull);
  EXPECT_EQ(wb::poison::pattern<std::uint16_t>(Kind::unwritten), 0x7FEDu);
  EXPECT_EQ(wb::poison::pattern<std::uint8_t>(Kind::unwritten), 0xEDu);
  // An int read of a float word the simulator wrote is that integer's poison.
  EXPECT_EQ(wb::poison::kind_of(static_cast<std::int32_t>(wb::poison::in_flight)), Kind::in_flight);
}

// ---------------------------------------------------------------------------------
// The comparison, on the host

template <class T>
class CompareResults : public ::testing::Test {};
TYPED_TEST_SUITE(CompareResults, AllTypes, TypeNames);

TYPED_TEST(CompareResults, PoisonedElementsAreFoundLocatedAndNamed) {
  const struct {
    Kind kind;
    const char* cause;
  } cases[] = {{Kind::unwritten, "never written by the kernel"},
               {Kind::in_flight, "read before the copy landed"},
               {Kind::stale, "that no copy of this block had filled yet"},
               {Kind::guard, "read from outside an array"}};
  for (const auto& test : cases) {
    SCOPED_TRACE(wb::poison::name(test.kind));
    std::vector<double> expected;
    std::vector<TypeParam> actual = small_numbers<TypeParam>(kElements, &expected);
    actual[5] = actual[70] = actual[127] = wb::poison::pattern<TypeParam>(test.kind);
    const ::testing::AssertionResult same = matches_reference(actual, expected, kShape);
    ASSERT_FALSE(same);
    const std::string report = same.message();
    EXPECT_NE(report.find("3 of 128 elements are wrong"), std::string::npos) << report;
    EXPECT_NE(report.find(test.cause), std::string::npos) << report;
    EXPECT_NE(report.find("(5, 0) [tile (0, 0)]"), std::string::npos) << report;  // element 5
    EXPECT_NE(report.find("(6, 4) [tile (0, 1)]"), std::string::npos) << report;  // element 70
    EXPECT_NE(report.find(std::string("Poison among them: 3 ") + wb::poison::name(test.kind)),
              std::string::npos)
        << report;
  }
}

TYPED_TEST(CompareResults, ValuesWithinTheToleranceAreAcceptedAndOthersNot) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  std::vector<double> expected;
  std::vector<TypeParam> actual;
  CompareOptionsFor<TypeParam> options;
  if constexpr (std::is_integral_v<TypeParam>) {
    actual = small_numbers<TypeParam>(kElements, &expected);
    actual[9] = static_cast<TypeParam>(actual[9] + 1);  // off by one
    EXPECT_FALSE(matches_reference(actual, expected, kShape, options)) << "exact by default";
    options.tolerance.absolute = 1;
  } else {
    // Random references, rounded to the type: wrong by up to half a unit in the last
    // place, which the type's tolerance must accept.
    for (float value : wb::grading::random_floats(kElements, seed)) {
      expected.push_back(value);
      actual.push_back(from_double<TypeParam>(value));
    }
    const double unit = std::is_same_v<TypeParam, double>   ? 0x1p-52
                        : std::is_same_v<TypeParam, float>  ? 0x1p-23
                        : std::is_same_v<TypeParam, __half> ? 0x1p-10
                                                            : 0x1p-7;
    options.tolerance.relative = unit;
    EXPECT_TRUE(matches_reference(actual, expected, kShape, options));
    actual[9] = from_double<TypeParam>(expected[9] + 0.25);  // far outside
    const ::testing::AssertionResult off = matches_reference(actual, expected, kShape, options);
    ASSERT_FALSE(off);
    EXPECT_NE(std::string(off.message()).find("1 of 128 elements are wrong"), std::string::npos)
        << off.message();
    EXPECT_NE(std::string(off.message()).find("(9, 0)"), std::string::npos) << off.message();
    actual[9] = from_double<TypeParam>(expected[9]);
  }
  EXPECT_TRUE(matches_reference(actual, expected, kShape, options));
}

template <class T>
class CompareFloatingResults : public ::testing::Test {};
TYPED_TEST_SUITE(CompareFloatingResults, FloatingTypes, TypeNames);

TYPED_TEST(CompareFloatingResults, ANaNIsNeverAccepted) {
  std::vector<double> expected;
  std::vector<TypeParam> actual = small_numbers<TypeParam>(kElements, &expected);
  CompareOptionsFor<TypeParam> options;
  options.tolerance.absolute = std::numeric_limits<double>::infinity();  // accepts any number
  EXPECT_TRUE(matches_reference(actual, expected, kShape, options));
  actual[3] = from_double<TypeParam>(std::numeric_limits<double>::quiet_NaN());
  const ::testing::AssertionResult with_nan = matches_reference(actual, expected, kShape, options);
  ASSERT_FALSE(with_nan) << "a NaN passed an infinite tolerance";
  EXPECT_NE(std::string(with_nan.message()).find("-> NaN"), std::string::npos)
      << with_nan.message();
  expected[4] = std::numeric_limits<double>::quiet_NaN();  // not even against a NaN
  actual[4] = from_double<TypeParam>(std::numeric_limits<double>::quiet_NaN());
  EXPECT_NE(std::string(matches_reference(actual, expected, kShape, options).message())
                .find("2 of 128 elements are wrong"),
            std::string::npos);
}

TEST(CompareDoubleResults, AReadOfTwoFloatPoisonWordsIsNamed) {
  std::vector<double> expected;
  std::vector<double> actual = small_numbers<double>(kElements, &expected);
  const std::uint64_t two_words =
      std::uint64_t{wb::poison::in_flight} << 32 | wb::poison::in_flight;
  std::memcpy(&actual[17], &two_words, sizeof(double));
  const ::testing::AssertionResult same = matches_reference(actual, expected, kShape);
  ASSERT_FALSE(same);
  EXPECT_NE(std::string(same.message()).find("read before the copy landed"),
            std::string::npos)
      << same.message();
}

// ---------------------------------------------------------------------------------
// Device buffers: their poison, and the guard bands around an output

template <class T>
class DevicePoison : public wb::grading::KernelTest {};
TYPED_TEST_SUITE(DevicePoison, AllTypes, TypeNames);

TYPED_TEST(DevicePoison, EveryElementHoldsThePatternOfItsKind) {
  wb::DeviceBuffer<TypeParam> buffer(1001);  // an odd size: a partial last word
  for (Kind kind : kKinds) {
    buffer.poison(kind);
    const std::vector<TypeParam> values = buffer.download();
    for (std::size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(wb::poison::kind_of(values[i]), kind)
          << "element " << i << " after poison(" << wb::poison::name(kind) << ")";
    }
  }
}

TYPED_TEST(DevicePoison, GuardBandsLocateAStoreOutsideTheOutput) {
  wb::grading::GuardedBuffer<TypeParam> out(100);
  EXPECT_TRUE(out.guards_intact());
  for (const TypeParam& value : out.download()) {
    ASSERT_TRUE(wb::poison::matches(value, Kind::unwritten)) << "the inside starts unwritten";
  }
  // A store one past the end, as a kernel without a bounds check makes it.
  const TypeParam stray = from_double<TypeParam>(42.0);
  wb::detail::copy_to_device(out.data() + 100, &stray, sizeof stray);
  const ::testing::AssertionResult guards = out.guards_intact();
  ASSERT_FALSE(guards);
  EXPECT_NE(std::string(guards.message())
                .find("0 before its start, 1 past its end; the first at index 100"),
            std::string::npos)
      << guards.message();
  wb::detail::copy_to_device(out.data() - 3, &stray, sizeof stray);
  EXPECT_NE(std::string(out.guards_intact().message())
                .find("1 before its start, 1 past its end; the first at index -3"),
            std::string::npos)
      << out.guards_intact().message();
}

}  // namespace
