#include "wb/grading/diagnosis/byte_counts.hpp"

#include <cstring>

namespace wb::grading {

std::vector<float> first_bytes_only(const std::vector<float>& values, int bytes) {
  std::vector<float> truncated(values.size(), 0.0f);
  for (std::size_t i = 0; i < values.size(); ++i) {
    unsigned char word[sizeof(float)] = {};
    std::memcpy(word, &values[i], static_cast<std::size_t>(bytes));  // the bytes the copy reads
    std::memcpy(&truncated[i], word, sizeof(float));
  }
  return truncated;
}

std::string source_size_in_elements_cause(int bytes) {
  return "every copy brought only the first " + std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes") +
         " of its float and zero-filled the rest: the output is exactly what the reference gives on an input so "
         "cut. A cp.async's source size counts bytes, not elements: a whole float reads sizeof(float) = 4 "
         "(inside ? 4 : 0), or wb::cp_async without one.";
}

}  // namespace wb::grading
