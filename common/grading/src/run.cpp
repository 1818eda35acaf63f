#include "wb/grading/run.hpp"

#include <gtest/gtest.h>

#include "wb/wb.cuh"

namespace wb::grading {

bool run_kernel(const std::function<void()>& launch, const std::string& where, const Step& step,
                const std::string& note) {
  try {
    launch();
    synchronize();
  } catch (const Error& error) {
    ADD_FAILURE() << where << "the kernel failed: " << error.what() << "\n"
                  << step.cause_line(error.kind()) << note << step.hint_line();
    return false;
  }
  return true;
}

}  // namespace wb::grading
