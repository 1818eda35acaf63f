#include "wb/grading/random.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <random>

namespace wb::grading {
namespace {
std::atomic<std::uint64_t> the_last_seed{0};
}

std::uint64_t fresh_seed() {
  std::uint64_t seed = 0;
  if (const char* fixed = std::getenv("WB_SEED"); fixed != nullptr && *fixed != '\0') {
    seed = std::strtoull(fixed, nullptr, 10);
  } else {
    std::random_device device;
    seed = (std::uint64_t{device()} << 32) ^ device();
  }
  the_last_seed = seed;
  return seed;
}

std::uint64_t last_seed() { return the_last_seed; }

std::vector<float> random_floats(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& value : values) {
    do {
      value = uniform(engine);
    } while (value == 0.0f);
  }
  return values;
}

std::vector<std::uint32_t> random_words(std::size_t count, std::uint64_t seed) {
  std::mt19937 engine(static_cast<std::mt19937::result_type>(seed ^ (seed >> 32)));
  std::vector<std::uint32_t> words(count);
  for (std::uint32_t& word : words) word = static_cast<std::uint32_t>(engine());
  return words;
}

std::uint16_t bf16_bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  bits += 0x7FFFu + (bits >> 16 & 1u);
  return static_cast<std::uint16_t>(bits >> 16);
}

float bf16_value(std::uint16_t bits) {
  const std::uint32_t widened = static_cast<std::uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &widened, sizeof value);
  return value;
}

}  // namespace wb::grading
