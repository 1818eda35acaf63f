// The model of a copy's source size given in elements where bytes are asked: a 4-byte
// cp.async of one float given a source size of 1 (`inside ? 1 : 0`) reads the float's
// first byte and zero-fills the other three. A check runs its reference on the input so
// truncated and compares it with the learner's output.
#pragma once

#include <string>
#include <vector>

namespace wb::grading {

// `values` with each float's bytes from `bytes` on set to zero, as a copy of a source
// size of `bytes` (1 to 3) leaves it.
std::vector<float> first_bytes_only(const std::vector<float>& values, int bytes);

// The cause, for a model of `bytes` that reproduces the output.
std::string source_size_in_elements_cause(int bytes);

}  // namespace wb::grading
