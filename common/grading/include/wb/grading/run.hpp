// Running the learner's kernel inside a graded step.
#pragma once

#include <functional>
#include <string>

#include "wb/error.hpp"
#include "wb/grading/step.hpp"

namespace wb::grading {

// Runs `launch` and waits for the device. A kernel that fails (wb::Error: a fault the
// simulator caught, or a GPU error) fails the test with `where`, the error, the step's
// likely cause for its kind, `note` and the step's hint; returns whether it ran.
// `explain`, where given, reads the error's evidence (the fault's block and address)
// and returns a cause that it proves, in place of the step's cause for the kind.
bool run_kernel(const std::function<void()>& launch, const std::string& where, const Step& step,
                const std::string& note = "", const std::function<std::string(const Error&)>& explain = {});

}  // namespace wb::grading
