#include "wb/grading/run.hpp"

#include <gtest/gtest.h>

#include "wb/wb.cuh"

namespace wb::grading {

namespace {

// A race whose copy landed, at its thread's wait, in the barrier interval where another
// thread touched its word: the simulator saw that wait come after the interval's
// __syncthreads(). Where every wait of the copying thread landed something, that wait is
// the one meant for this copy, placed after the barrier; a wait that landed nothing (a
// wait<N> with N too large) lets copies travel on to a later wait, which also lands them
// past a barrier, and is left to the step's own reading.
std::string wait_after_the_barrier(const Error& error) {
  if (error.kind() != ErrorKind::shared_race || !error.fault() || !error.fault()->racing_copy) return "";
  const RacingCopy& copy = *error.fault()->racing_copy;
  if (!copy.landed_after_the_barrier || copy.writer_idle_wait >= 0) return "";
  return "the wait comes after the __syncthreads(): a thread's copies land only at its own wait, so every thread "
         "waits for its copies first, and the barrier after everyone's wait lets the others read them (wait, then "
         "__syncthreads(), then the reads).";
}

}  // namespace

bool run_kernel(const std::function<void()>& launch, const std::string& where, const Step& step,
                const std::string& note, const std::function<std::string(const Error&)>& explain) {
  try {
    launch();
    synchronize();
  } catch (const Error& error) {
    std::string proven = explain ? explain(error) : std::string();
    if (proven.empty()) proven = wait_after_the_barrier(error);
    ADD_FAILURE() << where << "the kernel failed: " << error.what() << "\n"
                  << (proven.empty() ? step.cause_line(error.kind()) : "Likely cause: " + proven + "\n") << note
                  << step.hint_line();
    return false;
  }
  return true;
}

}  // namespace wb::grading
