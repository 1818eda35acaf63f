// The fixture of every test that runs a kernel: on the GPU backend with no GPU present,
// the test is skipped with the reason (reported as skipped, never as passed).
//
//   using Runtime = wb::grading::KernelTest;
//   TEST_F(Runtime, LaunchSetsIndices) { ... }
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "wb/wb.cuh"

namespace wb::grading {

class KernelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string reason;
    if (wb::backend == wb::Backend::cuda && !wb::gpu_available(&reason)) {
      GTEST_SKIP() << "built for the GPU, but " << reason
                   << "; the simulator build of this test runs without one";
    }
  }
};

}  // namespace wb::grading

// In a test body: skips the test (reported as skipped, never as passed) where the device
// lacks what `available` asks for (wb::hopper_available, wb::wgmma_available), with its
// reason. The simulator has everything.
#define WB_SKIP_WITHOUT(available)                                    \
  do {                                                                \
    std::string wb_skip_reason;                                       \
    if (!(available)(&wb_skip_reason)) {                              \
      GTEST_SKIP() << "skipped: " << wb_skip_reason;                  \
    }                                                                 \
  } while (false)
