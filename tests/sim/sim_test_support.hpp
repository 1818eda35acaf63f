// Helpers shared by the simulator's own tests (sim backend only).
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <optional>
#include <string>

#include "wb/grading/backend_test.hpp"
#include "wb/wb.cuh"

namespace sim_test {

// Every simulator test runs kernels; the shared fixture keeps them in the same style as
// the graders (and skips nothing here, since these tests are built for the sim only).
using SimTest = wb::grading::KernelTest;

// What a launch that failed reported: its message and the kind of mistake.
struct KernelFailure {
  std::string message;
  wb::ErrorKind kind = wb::ErrorKind::other;
  std::optional<wb::Fault> fault;  // the evidence the error carries for the graders
};

// Runs `launch`, which must fail with a KernelError, and returns what it reported, so
// that the test can check what it tells the learner. An empty message (and a test
// failure) if nothing was thrown.
template <class Launch>
KernelFailure kernel_failure_of(Launch&& launch) {
  try {
    launch();
  } catch (const wb::sim::KernelError& error) {
    return {error.what(), error.kind(), error.fault()};
  }
  ADD_FAILURE() << "the launch should have failed with wb::sim::KernelError";
  return {};
}

// The message alone.
template <class Launch>
std::string kernel_error_of(Launch&& launch) {
  return kernel_failure_of(launch).message;
}

// True when `pattern` (ECMAScript) occurs anywhere in `text`.
inline bool contains(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

}  // namespace sim_test
