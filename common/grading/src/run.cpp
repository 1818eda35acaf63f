#include "wb/grading/run.hpp"

#include <gtest/gtest.h>

#include "wb/wb.cuh"

namespace wb::grading {

bool run_kernel(const std::function<void()>& launch, const std::string& where, const Step& step,
                const std::string& note, const std::function<std::string(const Error&)>& explain) {
  try {
    launch();
    synchronize();
  } catch (const Error& error) {
    const std::string proven = explain ? explain(error) : std::string();
    ADD_FAILURE() << where << "the kernel failed: " << error.what() << "\n"
                  << (proven.empty() ? step.cause_line(error.kind()) : "Likely cause: " + proven + "\n") << note
                  << step.hint_line();
    return false;
  }
  return true;
}

}  // namespace wb::grading
