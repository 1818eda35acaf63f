#include "wb/grading/random.hpp"

#include <cstdlib>
#include <random>

namespace wb::grading {

std::uint64_t fresh_seed() {
  if (const char* fixed = std::getenv("WB_SEED"); fixed != nullptr && *fixed != '\0') {
    return std::strtoull(fixed, nullptr, 10);
  }
  std::random_device device;
  return (std::uint64_t{device()} << 32) ^ device();
}

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

}  // namespace wb::grading
