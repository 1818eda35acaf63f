// CUDA's surface in kernels, on either backend: min and max, the vector types, the float
// and bit intrinsics, the atomics and the fences. Results are checked exactly where the
// GPU is exact (overloads, bit patterns, correctly rounded intrinsics, atomics) and with
// the tolerance of CUDA's documented error bounds where it approximates (__expf and the
// other fast intrinsics, which the simulator computes exactly).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "atomic_kernels.hpp"
#include "cuda_surface_kernels.hpp"
#include "wb/grading/backend_test.hpp"
#include "wb/grading/random.hpp"

namespace {

using surface_test::BitIntrinsic;
using surface_test::FloatIntrinsic;
using wb::grading::fresh_seed;
using wb::grading::random_floats;
using wb::grading::random_words;
using CudaSurface = wb::grading::KernelTest;

constexpr std::size_t kCount = 1000;  // elements of the element-wise kernels
constexpr unsigned kBlocks = 64;      // the atomics: many blocks of many threads
constexpr unsigned kThreads = 128;
constexpr double kPi = 3.14159265358979323846;

// Each failure reports its element; after a handful the rest would only repeat them.
constexpr int kReportedFailures = 5;

std::string seed_note(std::uint64_t seed) { return "WB_SEED=" + std::to_string(seed); }

// Random ints in [low, high], from the seed.
std::vector<int> random_ints(std::size_t count, int low, int high, std::uint64_t seed) {
  std::vector<int> values;
  for (std::uint32_t word : random_words(count, seed)) {
    values.push_back(low + static_cast<int>(word % static_cast<std::uint32_t>(high - low + 1)));
  }
  return values;
}

template <class To, class From>
std::vector<To> converted(const std::vector<From>& values) {
  std::vector<To> result;
  for (const From& value : values) result.push_back(static_cast<To>(value));
  return result;
}

// ---------------------------------------------------------------------------------
// min and max

template <class T>
void expect_min_max(const std::vector<T>& a, const std::vector<T>& b, const std::string& type) {
  const surface_test::MinMax<T> result = surface_test::min_max(a, b);
  ASSERT_EQ(result.min.size(), a.size());
  ASSERT_EQ(result.max.size(), a.size());
  int failures = 0;
  for (std::size_t i = 0; i < a.size() && failures < kReportedFailures; ++i) {
    // fmin and fmax for floating point: a NaN argument loses to a number.
    T expected_min = std::min(a[i], b[i]), expected_max = std::max(a[i], b[i]);
    if constexpr (std::is_floating_point_v<T>) {
      expected_min = std::fmin(a[i], b[i]);
      expected_max = std::fmax(a[i], b[i]);
    }
    if (result.min[i] != expected_min || result.max[i] != expected_max) {
      ++failures;
      ADD_FAILURE() << type << " min/max(" << a[i] << ", " << b[i] << ") gave " << result.min[i]
                    << " / " << result.max[i] << ", expected " << expected_min << " / "
                    << expected_max << " (element " << i << ")";
    }
  }
}

TEST_F(CudaSurface, MinAndMaxUseTheOverloadOfEachType) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  const std::vector<std::uint32_t> words = random_words(4 * kCount, seed);
  const std::vector<std::uint32_t> a_words(words.begin(), words.begin() + kCount);
  const std::vector<std::uint32_t> b_words(words.begin() + kCount, words.begin() + 2 * kCount);
  std::vector<unsigned long long> a_wide, b_wide;
  for (std::size_t i = 0; i < kCount; ++i) {
    a_wide.push_back(static_cast<unsigned long long>(a_words[i]) << 32 | words[2 * kCount + i]);
    b_wide.push_back(static_cast<unsigned long long>(b_words[i]) << 32 | words[3 * kCount + i]);
  }
  expect_min_max(converted<int>(a_words), converted<int>(b_words), "int");
  expect_min_max(a_words, b_words, "unsigned int");
  expect_min_max(converted<long long>(a_wide), converted<long long>(b_wide), "long long");
  expect_min_max(a_wide, b_wide, "unsigned long long");

  std::vector<float> a_floats = random_floats(kCount, seed),
                     b_floats = random_floats(kCount, ~seed);
  a_floats[0] = std::nanf("");  // min(NaN, x) is x, as fminf has it
  b_floats[1] = std::nanf("");
  expect_min_max(a_floats, b_floats, "float");
  expect_min_max(converted<double>(a_floats), converted<double>(b_floats), "double");
}

TEST_F(CudaSurface, MinOfIntAndUnsignedComparesAsUnsigned) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  std::vector<int> a = random_ints(kCount, -1000, 1000, seed);
  const std::vector<unsigned int> b = converted<unsigned int>(random_ints(kCount, 0, 1000, ~seed));
  a[0] = -1;  // 0xFFFFFFFF as unsigned: larger than every b
  const surface_test::MinMax<unsigned int> result = surface_test::min_max_mixed(a, b);
  EXPECT_EQ(result.min[0], b[0]) << "min(-1, " << b[0] << "u) is the unsigned " << b[0];
  for (std::size_t i = 0; i < kCount; ++i) {
    const auto a_unsigned = static_cast<unsigned int>(a[i]);
    ASSERT_EQ(result.min[i], std::min(a_unsigned, b[i])) << "min(" << a[i] << ", " << b[i] << "u)";
    ASSERT_EQ(result.max[i], std::max(a_unsigned, b[i])) << "max(" << a[i] << ", " << b[i] << "u)";
  }
}

// ---------------------------------------------------------------------------------
// Vector types

// Checks that `components` holds, for each input x, the vector (f(x, 0), f(x, 1), ...).
template <class T, class Component>
void expect_components(const std::vector<T>& components, int width, const std::vector<float>& in,
                       Component component, const std::string& type) {
  ASSERT_EQ(components.size(), in.size() * static_cast<std::size_t>(width)) << type;
  for (std::size_t i = 0; i < in.size(); ++i) {
    for (int k = 0; k < width; ++k) {
      ASSERT_EQ(components[i * static_cast<std::size_t>(width) + static_cast<std::size_t>(k)],
                component(in[i], k))
          << type << " built from " << in[i] << ", component " << k;
    }
  }
}

TEST_F(CudaSurface, MakeFunctionsFillTheComponentsInOrder) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  const std::vector<float> in = random_floats(kCount, seed);
  const surface_test::VectorComponents out = surface_test::build_vectors(in);
  const auto scaled = [](float x, int k) { return static_cast<float>(k + 1) * x; };
  const auto scaled_double = [](float x, int k) { return static_cast<double>(k + 1) * x; };
  const auto counted = [](float x, int k) { return static_cast<int>(x * 1000.0f) + k; };
  const auto counted_unsigned = [](float x, int k) {
    return static_cast<unsigned int>(static_cast<int>(x * 1000.0f)) + static_cast<unsigned int>(k);
  };
  expect_components(out.float2s, 2, in, scaled, "float2");
  expect_components(out.float3s, 3, in, scaled, "float3");
  expect_components(out.float4s, 4, in, scaled, "float4");
  expect_components(out.double2s, 2, in, scaled_double, "double2");
  expect_components(out.int2s, 2, in, counted, "int2");
  expect_components(out.int3s, 3, in, counted, "int3");
  expect_components(out.int4s, 4, in, counted, "int4");
  expect_components(out.uint2s, 2, in, counted_unsigned, "uint2");
  expect_components(out.uint3s, 3, in, counted_unsigned, "uint3");
  expect_components(out.uint4s, 4, in, counted_unsigned, "uint4");
}

// ---------------------------------------------------------------------------------
// Float intrinsics

struct Range {
  float low, high;
};

struct IntrinsicCase {
  FloatIntrinsic which;
  const char* name;
  Range a, b, c;  // where the arguments are drawn from
  double (*reference)(float a, float b, float c);
  // |result - reference| <= relative * |reference| + absolute; both 0: bit-exact, where
  // the GPU computes the correctly rounded result too.
  double relative, absolute;
};

constexpr Range kAny{-4.0f, 4.0f};
constexpr Range kPositive{0.25f, 4.0f};
constexpr Range kNearOne{0.5f, 2.0f};
constexpr Range kUnit{-1.0f, 1.0f};
constexpr Range kThousands{-1000.0f, 1000.0f};
constexpr Range kHalfTurn{static_cast<float>(-kPi), static_cast<float>(kPi)};

// The tolerances follow CUDA's documented error bounds of the fast intrinsics on these
// ranges (a few ulp, or 2^-21.4 absolute for the logarithms, sine and cosine), rounded
// up.
const IntrinsicCase kIntrinsicCases[] = {
    {FloatIntrinsic::rsqrtf, "rsqrtf", kPositive, kAny, kAny,
     [](float a, float, float) { return 1.0 / std::sqrt(static_cast<double>(a)); }, 1e-6, 0},
    {FloatIntrinsic::fdividef, "__fdividef", kAny, kPositive, kAny,
     [](float a, float b, float) { return static_cast<double>(a) / b; }, 1e-6, 0},
    {FloatIntrinsic::expf, "__expf", kAny, kAny, kAny,
     [](float a, float, float) { return std::exp(static_cast<double>(a)); }, 2e-6, 0},
    {FloatIntrinsic::exp10f, "__exp10f", kUnit, kAny, kAny,
     [](float a, float, float) { return std::pow(10.0, static_cast<double>(a)); }, 2e-6, 0},
    {FloatIntrinsic::logf, "__logf", kNearOne, kAny, kAny,
     [](float a, float, float) { return std::log(static_cast<double>(a)); }, 0, 1e-6},
    {FloatIntrinsic::log2f, "__log2f", kNearOne, kAny, kAny,
     [](float a, float, float) { return std::log2(static_cast<double>(a)); }, 0, 1e-6},
    {FloatIntrinsic::log10f, "__log10f", kNearOne, kAny, kAny,
     [](float a, float, float) { return std::log10(static_cast<double>(a)); }, 0, 1e-6},
    {FloatIntrinsic::sinf, "__sinf", kHalfTurn, kAny, kAny,
     [](float a, float, float) { return std::sin(static_cast<double>(a)); }, 0, 1e-6},
    {FloatIntrinsic::cosf, "__cosf", kHalfTurn, kAny, kAny,
     [](float a, float, float) { return std::cos(static_cast<double>(a)); }, 0, 1e-6},
    {FloatIntrinsic::tanf, "__tanf", kUnit, kAny, kAny,
     [](float a, float, float) { return std::tan(static_cast<double>(a)); }, 1e-5, 1e-6},
    {FloatIntrinsic::sincosf_sine, "__sincosf (sine)", kHalfTurn, kAny, kAny,
     [](float a, float, float) { return std::sin(static_cast<double>(a)); }, 0, 1e-6},
    {FloatIntrinsic::sincosf_cosine, "__sincosf (cosine)", kHalfTurn, kAny, kAny,
     [](float a, float, float) { return std::cos(static_cast<double>(a)); }, 0, 1e-6},
    {FloatIntrinsic::powf, "__powf", kNearOne, kAny, kAny,
     [](float a, float b, float) {
       return std::pow(static_cast<double>(a), static_cast<double>(b));
     },
     1e-5, 0},
    {FloatIntrinsic::saturatef, "__saturatef", kAny, kAny, kAny,
     [](float a, float, float) { return static_cast<double>(std::clamp(a, 0.0f, 1.0f)); }, 0, 0},
    {FloatIntrinsic::frcp_rn, "__frcp_rn", kPositive, kAny, kAny,
     [](float a, float, float) { return static_cast<double>(1.0f / a); }, 0, 0},
    {FloatIntrinsic::fsqrt_rn, "__fsqrt_rn", kPositive, kAny, kAny,
     [](float a, float, float) { return static_cast<double>(std::sqrt(a)); }, 0, 0},
    {FloatIntrinsic::fadd_rn, "__fadd_rn", kAny, kAny, kAny,
     [](float a, float b, float) { return static_cast<double>(a + b); }, 0, 0},
    {FloatIntrinsic::fsub_rn, "__fsub_rn", kAny, kAny, kAny,
     [](float a, float b, float) { return static_cast<double>(a - b); }, 0, 0},
    {FloatIntrinsic::fmul_rn, "__fmul_rn", kAny, kAny, kAny,
     [](float a, float b, float) { return static_cast<double>(a * b); }, 0, 0},
    {FloatIntrinsic::fdiv_rn, "__fdiv_rn", kAny, kPositive, kAny,
     [](float a, float b, float) { return static_cast<double>(a / b); }, 0, 0},
    {FloatIntrinsic::fmaf_rn, "__fmaf_rn", kAny, kAny, kAny,
     [](float a, float b, float c) { return static_cast<double>(std::fma(a, b, c)); }, 0, 0},
    {FloatIntrinsic::fmaf, "fmaf", kAny, kAny, kAny,
     [](float a, float b, float c) { return static_cast<double>(std::fma(a, b, c)); }, 0, 0},
    {FloatIntrinsic::negate_through_int_bits, "__int_as_float(__float_as_int(a) ^ sign)", kAny,
     kAny, kAny, [](float a, float, float) { return static_cast<double>(-a); }, 0, 0},
    {FloatIntrinsic::abs_through_uint_bits, "__uint_as_float(__float_as_uint(a) & ~sign)", kAny,
     kAny, kAny, [](float a, float, float) { return static_cast<double>(std::fabs(a)); }, 0, 0},
    {FloatIntrinsic::float2int_rn, "__float2int_rn", kThousands, kAny, kAny,
     [](float a, float, float) { return std::nearbyint(static_cast<double>(a)); }, 0, 0},
    {FloatIntrinsic::float2int_rz, "__float2int_rz", kThousands, kAny, kAny,
     [](float a, float, float) { return std::trunc(static_cast<double>(a)); }, 0, 0},
};

// `unit` (values in [-1, 1)) mapped onto `range`.
std::vector<float> in_range(const std::vector<float>& unit, Range range) {
  std::vector<float> values;
  for (float u : unit) values.push_back(range.low + (u + 1.0f) / 2.0f * (range.high - range.low));
  return values;
}

TEST_F(CudaSurface, FloatIntrinsicsMatchTheirMeaning) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  const std::vector<float> unit = random_floats(3 * kCount, seed);
  const std::vector<float> unit_a(unit.begin(), unit.begin() + kCount);
  const std::vector<float> unit_b(unit.begin() + kCount, unit.begin() + 2 * kCount);
  const std::vector<float> unit_c(unit.begin() + 2 * kCount, unit.end());
  for (const IntrinsicCase& test : kIntrinsicCases) {
    SCOPED_TRACE(test.name);
    const std::vector<float> a = in_range(unit_a, test.a), b = in_range(unit_b, test.b),
                             c = in_range(unit_c, test.c);
    const std::vector<float> out = surface_test::apply_float_intrinsic(test.which, a, b, c);
    ASSERT_EQ(out.size(), kCount);
    int failures = 0;
    for (std::size_t i = 0; i < kCount && failures < kReportedFailures; ++i) {
      const double expected = test.reference(a[i], b[i], c[i]);
      const bool exact = test.relative == 0 && test.absolute == 0;
      const bool right =
          exact ? out[i] == static_cast<float>(expected)
                : std::abs(out[i] - expected) <= test.relative * std::abs(expected) + test.absolute;
      if (!right) {
        ++failures;
        ADD_FAILURE() << test.name << "(" << a[i] << ", " << b[i] << ", " << c[i] << ") gave "
                      << out[i] << ", expected " << expected
                      << (exact ? " exactly" : " within the tolerance") << " (element " << i << ")";
      }
    }
  }
}

// ---------------------------------------------------------------------------------
// Bit intrinsics, against plain loops over the bits

int count_bits(unsigned long long x) {
  int count = 0;
  for (; x != 0; x >>= 1) count += static_cast<int>(x & 1u);
  return count;
}

int leading_zeros(unsigned long long x, int width) {
  int zeros = 0;
  for (int bit = width - 1; bit >= 0 && (x >> bit & 1u) == 0; --bit) ++zeros;
  return zeros;
}

int first_set(unsigned long long x, int width) {
  for (int bit = 0; bit < width; ++bit) {
    if ((x >> bit & 1u) != 0) return bit + 1;
  }
  return 0;
}

unsigned int reversed(unsigned int x) {
  unsigned int result = 0;
  for (int bit = 0; bit < 32; ++bit) result |= (x >> bit & 1u) << (31 - bit);
  return result;
}

TEST_F(CudaSurface, BitIntrinsicsCountAndReverse) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  std::vector<unsigned int> x = random_words(kCount, seed), y = random_words(kCount, ~seed);
  // The edges: no bit, the lowest, the highest, all.
  const unsigned int edges[] = {0u, 1u, 0x80000000u, 0xFFFFFFFFu};
  for (std::size_t i = 0; i < 4; ++i) x[i] = y[i] = edges[i];
  x[4] = 0, y[4] = 1;  // a 64-bit word whose high half is empty
  const struct {
    BitIntrinsic which;
    const char* name;
    unsigned int (*reference)(unsigned int x, unsigned long long wide);
  } cases[] = {
      {BitIntrinsic::popc, "__popc",
       [](unsigned int v, unsigned long long) { return static_cast<unsigned int>(count_bits(v)); }},
      {BitIntrinsic::popcll, "__popcll",
       [](unsigned int, unsigned long long w) { return static_cast<unsigned int>(count_bits(w)); }},
      {BitIntrinsic::clz, "__clz",
       [](unsigned int v, unsigned long long) {
         return static_cast<unsigned int>(leading_zeros(v, 32));
       }},
      {BitIntrinsic::clzll, "__clzll",
       [](unsigned int, unsigned long long w) {
         return static_cast<unsigned int>(leading_zeros(w, 64));
       }},
      {BitIntrinsic::ffs, "__ffs",
       [](unsigned int v, unsigned long long) {
         return static_cast<unsigned int>(first_set(v, 32));
       }},
      {BitIntrinsic::ffsll, "__ffsll",
       [](unsigned int, unsigned long long w) {
         return static_cast<unsigned int>(first_set(w, 64));
       }},
      {BitIntrinsic::brev, "__brev",
       [](unsigned int v, unsigned long long) { return reversed(v); }},
      {BitIntrinsic::double_bits_round_trip, "__double_as_longlong(__longlong_as_double(w))",
       [](unsigned int, unsigned long long w) { return static_cast<unsigned int>(w >> 32 ^ w); }},
  };
  for (const auto& test : cases) {
    const std::vector<unsigned int> out = surface_test::apply_bit_intrinsic(test.which, x, y);
    ASSERT_EQ(out.size(), kCount) << test.name;
    for (std::size_t i = 0; i < kCount; ++i) {
      const unsigned long long wide = static_cast<unsigned long long>(x[i]) << 32 | y[i];
      ASSERT_EQ(out[i], test.reference(x[i], wide))
          << test.name << " of x = 0x" << std::hex << x[i] << ", y = 0x" << y[i] << std::dec
          << " (element " << i << ")";
    }
  }
}

// ---------------------------------------------------------------------------------
// Atomics: every total exact, whatever order the threads ran in

TEST_F(CudaSurface, AtomicAddAndSubOfManyBlocksGiveExactTotals) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  // |sum| <= 8192 * 1000 < 2^24: every partial float sum is an exact integer.
  const std::vector<int> values = random_ints(kBlocks * kThreads, -1000, 1000, seed);
  const atomic_test::Sums sums = atomic_test::atomic_sums(values, kThreads);
  int sum = 0;
  unsigned int uint_sum = 0;
  unsigned long long ull_sum = 0;
  for (int v : values) {
    sum += v;
    uint_sum += static_cast<unsigned int>(v);
    ull_sum += static_cast<unsigned long long>(v) << 32;
  }
  EXPECT_EQ(sums.int_sum, sum);
  EXPECT_EQ(sums.uint_sum, uint_sum);
  EXPECT_EQ(sums.ull_sum, ull_sum);
  EXPECT_EQ(sums.float_sum, static_cast<float>(sum));
  EXPECT_EQ(sums.double_sum, sum / 4.0);
  EXPECT_EQ(sums.int_difference, -sum);
  EXPECT_EQ(sums.uint_difference, 0u - uint_sum) << "unsigned subtraction wraps around";
  ASSERT_EQ(sums.block_sums.size(), kBlocks);
  for (unsigned block = 0; block < kBlocks; ++block) {
    int block_sum = 0;
    for (unsigned t = 0; t < kThreads; ++t) block_sum += values[block * kThreads + t];
    EXPECT_EQ(sums.block_sums[block], block_sum) << "shared-memory sum of block " << block;
  }
}

// What was taken out of a word plus what is left in it: each value put in exactly once,
// and the word's first value.
template <class T>
void expect_each_value_once(std::vector<T> taken, T left, T first, const std::string& type) {
  taken.push_back(left);
  std::vector<T> expected{first};
  for (std::size_t i = 0; i + 1 < taken.size(); ++i) expected.push_back(static_cast<T>(i));
  std::sort(taken.begin(), taken.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(taken, expected) << type << ": atomicExch lost or duplicated a value";
}

TEST_F(CudaSurface, AtomicExchangeHandsOnEachValueExactlyOnce) {
  const atomic_test::Exchanges out = atomic_test::atomic_exchanges(kBlocks, kThreads);
  expect_each_value_once(out.int_taken, out.int_left, -1, "int");
  expect_each_value_once(out.uint_taken, out.uint_left, 0xFFFFFFFFu, "unsigned int");
  expect_each_value_once(out.float_taken, out.float_left, -1.0f, "float");
  expect_each_value_once(out.ull_taken, out.ull_left, ~0ull, "unsigned long long");
}

TEST_F(CudaSurface, AtomicMinAndMaxFindTheExtremes) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  const std::vector<std::uint32_t> words = random_words(2 * kBlocks * kThreads, seed);
  std::vector<long long> values;
  for (std::size_t i = 0; i < words.size(); i += 2) {
    values.push_back(
        static_cast<long long>(static_cast<unsigned long long>(words[i]) << 32 | words[i + 1]));
  }
  const atomic_test::Extremes out = atomic_test::atomic_extremes(values, kThreads);
  const auto ints = converted<int>(values);
  const auto uints = converted<unsigned int>(values);
  const auto ulls = converted<unsigned long long>(values);
  EXPECT_EQ(out.int_min, *std::min_element(ints.begin(), ints.end()));
  EXPECT_EQ(out.int_max, *std::max_element(ints.begin(), ints.end()));
  EXPECT_EQ(out.uint_min, *std::min_element(uints.begin(), uints.end()));
  EXPECT_EQ(out.uint_max, *std::max_element(uints.begin(), uints.end()));
  EXPECT_EQ(out.ll_min, *std::min_element(values.begin(), values.end()));
  EXPECT_EQ(out.ll_max, *std::max_element(values.begin(), values.end()));
  EXPECT_EQ(out.ull_min, *std::min_element(ulls.begin(), ulls.end()));
  EXPECT_EQ(out.ull_max, *std::max_element(ulls.begin(), ulls.end()));
}

TEST_F(CudaSurface, AtomicCasLoopsAddExactly) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  const std::vector<int> values = random_ints(kBlocks * kThreads, -1000, 1000, seed);
  const atomic_test::CasSums sums = atomic_test::atomic_cas_sums(values, kThreads);
  int sum = 0;
  unsigned long long ull_sum = 0;
  for (int v : values) {
    sum += v;
    ull_sum += static_cast<unsigned long long>(v);
  }
  EXPECT_EQ(sums.int_sum, sum);
  EXPECT_EQ(sums.uint_sum, static_cast<unsigned int>(sum));
  EXPECT_EQ(sums.ull_sum, ull_sum);
  ASSERT_EQ(sums.block_counts.size(), 2 * kBlocks);
  for (std::size_t i = 0; i < sums.block_counts.size(); ++i) {
    EXPECT_EQ(sums.block_counts[i], kThreads / 2)
        << "16-bit CAS counter " << i % 2 << " of block " << i / 2;
  }
}

TEST_F(CudaSurface, AtomicAndOrXorCombineEveryValue) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  const std::vector<std::uint32_t> values = random_words(kBlocks * kThreads, seed);
  unsigned int all_and = ~0u, all_or = 0, all_xor = 0;
  unsigned long long wide_and = ~0ull, wide_or = 0, wide_xor = 0;
  for (unsigned int v : values) {
    const unsigned long long wide = v * 0x9E3779B97F4A7C15ull;
    all_and &= v | 0x0F0F0F0Fu;
    all_or |= v & 0x00FF00FFu;
    all_xor ^= v;
    wide_and &= wide | 0x0F0F0F0F0F0F0F0Full;
    wide_or |= wide & 0x00FF00FF00FF00FFull;
    wide_xor ^= wide;
  }
  const atomic_test::BitwiseResults out = atomic_test::atomic_bitwise(values, kThreads);
  EXPECT_EQ(static_cast<unsigned int>(out.int_and), all_and);
  EXPECT_EQ(static_cast<unsigned int>(out.int_or), all_or);
  EXPECT_EQ(static_cast<unsigned int>(out.int_xor), all_xor);
  EXPECT_EQ(out.uint_and, all_and);
  EXPECT_EQ(out.uint_or, all_or);
  EXPECT_EQ(out.uint_xor, all_xor);
  EXPECT_EQ(out.ull_and, wide_and);
  EXPECT_EQ(out.ull_or, wide_or);
  EXPECT_EQ(out.ull_xor, wide_xor);
}

// The values a wrapping counter hands out, one call after another: whatever order the
// threads call in, they take these (sorted), and the counter ends the same.
std::vector<unsigned int> handed_out(unsigned int start, std::size_t calls,
                                     unsigned int (*next)(unsigned int old, unsigned int limit),
                                     unsigned int limit, unsigned int* end) {
  std::vector<unsigned int> taken;
  unsigned int counter = start;
  for (std::size_t i = 0; i < calls; ++i) {
    taken.push_back(counter);
    counter = next(counter, limit);
  }
  *end = counter;
  std::sort(taken.begin(), taken.end());
  return taken;
}

TEST_F(CudaSurface, AtomicIncAndDecWrapAroundTheLimit) {
  constexpr unsigned int kLimit = 9;  // counts 0..9: 8192 calls are not a whole number of turns
  const auto inc = [](unsigned int old, unsigned int limit) { return old >= limit ? 0u : old + 1; };
  const auto dec = [](unsigned int old, unsigned int limit) {
    return old == 0 || old > limit ? limit : old - 1;
  };
  for (unsigned int start : {0u, 4u, 100u}) {  // 100 lies above the limit: both restart
    SCOPED_TRACE("counters starting at " + std::to_string(start) + ", limit " +
                 std::to_string(kLimit));
    atomic_test::WrappingCounts out =
        atomic_test::atomic_wrapping_counters(kBlocks, kThreads, kLimit, start);
    unsigned int inc_end = 0, dec_end = 0;
    const std::size_t calls = std::size_t{kBlocks} * kThreads;
    std::sort(out.inc_taken.begin(), out.inc_taken.end());
    std::sort(out.dec_taken.begin(), out.dec_taken.end());
    EXPECT_EQ(out.inc_taken, handed_out(start, calls, inc, kLimit, &inc_end)) << "atomicInc";
    EXPECT_EQ(out.inc_final, inc_end) << "atomicInc";
    EXPECT_EQ(out.dec_taken, handed_out(start, calls, dec, kLimit, &dec_end)) << "atomicDec";
    EXPECT_EQ(out.dec_final, dec_end) << "atomicDec";
  }
}

TEST_F(CudaSurface, FencesLetTheLastBlockAddUpEveryPartial) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_note(seed));
  const std::vector<int> values = random_ints(kBlocks * kThreads, -1000, 1000, seed);
  long long sum = 0;
  for (int v : values) sum += v;
  for (int run = 0; run < 3; ++run) {  // the blocks finish in a different order each time
    const atomic_test::LastBlockSum out = atomic_test::fence_then_last_block_sums(values, kThreads);
    EXPECT_EQ(out.last_blocks, 1) << "exactly one block must take the last ticket (run " << run
                                  << ")";
    EXPECT_EQ(out.total, sum) << "the last block saw every partial sum (run " << run << ")";
  }
}

}  // namespace
