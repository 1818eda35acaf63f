#include "wb/grading/run.hpp"

#include <gtest/gtest.h>

#include "wb/wb.cuh"

namespace wb::grading {

namespace {

// A race whose copy landed, at its thread's wait, in the barrier interval where another
// thread touched its word: the simulator saw that wait come after the interval's
// __syncthreads(). Where every wait of the copying thread landed something (a wait<N>
// with N too large lands nothing and lets copies travel on to a later wait, past a
// barrier too: left to the step's own reading), that wait is the one meant for the copy,
// placed after the barrier. In a pipeline (the reader committed several groups) a read
// that reaches outside the stage being computed, into one whose refill is travelling,
// meets such a landing too, and is named beside it.
std::string wait_after_the_barrier(const Error& error) {
  if (error.kind() != ErrorKind::shared_race || !error.fault() || !error.fault()->racing_copy) return "";
  const RacingCopy& copy = *error.fault()->racing_copy;
  if (!copy.landed_after_the_barrier || copy.writer_idle_wait >= 0) return "";
  const std::string wait_first =
      "the wait comes after the __syncthreads(): a thread's copies land only at its own wait, so every thread "
      "waits for its copies first, and the barrier after everyone's wait lets the others read them (wait, then "
      "__syncthreads(), then the reads).";
  if (copy.reader_commits <= 1) return wait_first;
  return "either " + wait_first +
         " Or the read reaches outside the stage being computed, into a stage whose refill is still travelling "
         "(an index past the stage: a row or column counted in the wrong unit, a stage's offset).";
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
