// Grading a GEMM kernel, C = A * B^T with A (m,k), B (n,k), C (m,n), all column-major
// floats: one run on fresh random A and B, C poisoned with guard bands around it, then
// (1) nothing written outside C, (2) the relative error of the whole of C, in the
// Frobenius norm, against a double-precision product on the CPU, under a tolerance
// (never exact equality: float sums depend on the order of the additions and on FMA
// contraction), with the wrong elements located by tile and a likely cause where the
// evidence shows one (a trace finding, or a model of a mistake that reproduces C: see
// wb/grading/diagnosis/gemm_models.hpp), and (3) in the simulator, the step's technique.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "wb/grading/step.hpp"
#include "wb/grading/diagnosis/faults.hpp"  // ThreadStart
#include "wb/grading/diagnosis/micro_tile.hpp"
#include "wb/grading/diagnosis/shared_overruns.hpp"
#include "wb/wb.cuh"

namespace wb::grading {

// ||C - C_ref|| / ||C_ref|| in the Frobenius norm must stay below this. With inputs
// uniform in [-1, 1) and k up to a few thousand, a float GEMM in any summation order
// stays near 1e-7; a single element wrong by its own size at 2048x2048 is 5e-4.
inline constexpr double kGemmTolerance = 1e-5;

struct GemmShape {
  int m;
  int n;
  int k;
};

class Diagnosis;
struct GemmRun;

struct GemmCheck {
  Step step;
  GemmShape shape;
  int tile_m;  // the block's tile of C, and its step along K, to locate mismatches
  int tile_n;
  int tile_k;
  // The N of the step's cp_async_wait<N> (-1: none taught, or several), against which a
  // copy read in flight is read (diagnosis/in_flight.hpp).
  int step_wait = -1;
  // What the kernel's inputs can hold: each random element of A and B is passed through
  // this before the run, and the reference multiplies what it returns (empty: the floats
  // as drawn; a bf16 GEMM's grader rounds them to bf16 values).
  std::function<float(float)> input_rounding;
  // Launches the learner's kernel on device pointers.
  std::function<void(const float* gmem_a, const float* gmem_b, float* gmem_c)> run;
  // Whether the step loads through cp.async (if it issued none, the report says so), or
  // through bulk or tensor copies that complete on mbarriers (the same, and a read in
  // flight is read against the waits' phases).
  bool uses_cp_async = true;
  bool copies_on_mbarriers = false;
  // Whether the step multiplies with wgmma (the models then name its accumulate argument).
  bool wgmma = false;
  // Which elements of C a thread owns, for the models of the micro-tile's mistakes
  // (none: those models are not tried).
  MicroTile micro_tile;
  // Where each thread's copies of an operand's tile start, where the step fixes its copy
  // layout (empty: not known; diagnosis/faults.hpp).
  std::function<std::optional<ThreadStart>(unsigned thread)> copy_thread_start;
  // How many columns apart a thread's copies of a k-tile are (its copy layout's
  // columns; 0: not known; diagnosis/gemm_models.hpp).
  int copy_column_step = 0;
  // How each thread reads its fragments of A and B from a stage, where the step reads
  // them as vectors (empty: not known; diagnosis/shared_overruns.hpp).
  std::vector<FragmentReads> fragment_reads;
  // Where the step's barrier between a stage's reads and its refill goes, for a refill
  // that raced a read (empty: at the end of the loop).
  std::string refill_barrier;
  // Which stage the step reads after the refill of this iteration, for a read of the stage
  // just refilled (empty: not named).
  std::string refilled_stage_read;
  // The groups the step commits before its first wait (its prologue's, one a stage; 0: not
  // known) and how its page writes that prologue, for a first wait that found fewer.
  int prologue_commits = 0;
  std::string prologue;
  // The step's own models of its mistakes, tried after the shared ones (empty: none).
  std::function<void(Diagnosis& diagnosis, const GemmRun& run)> models;
  // The step's readings of where its store put C's elements (C as the learner left it,
  // unwritten poison included, and the tolerance of a value; "" where none fits), tried
  // before the models (empty: none).
  std::function<std::string(const std::vector<float>& c, const GemmRun& run, double tolerance)> store_readings;
#if WB_BACKEND_SIM
  // The step's reading of its trace's counts in a failing run, its barriers' arrivals and
  // its wgmma descriptors ("" where they are the step's): tried first on a kernel that
  // failed, and before a read in flight is read against the waits' phases on a wrong C
  // (an arrival too many completes phases early, which the waits' parity would otherwise
  // be blamed for; empty: none).
  std::function<std::string(const sim::LaunchStats&)> barrier_counts;
  std::function<::testing::AssertionResult(const sim::LaunchStats&)> technique;
  std::function<void(const sim::LaunchStats&)> on_success;
#endif
};

// One run under the schedule named by `configuration`.
void check_gemm(const GemmCheck& check, const std::string& configuration);

// check_gemm for each shape, under each schedule, stopping at the first failure.
void check_gemm_shapes(const std::vector<GemmShape>& shapes,
                       const std::function<GemmCheck(const GemmShape&)>& make);

// C(i, j) = sum over p < k_limit of A(i, p) * B(j, p) in double (k_limit < 0: all of k).
std::vector<double> gemm_abt_reference(const std::vector<float>& a, const std::vector<float>& b,
                                       int m, int n, int k, int k_limit = -1);

// ||actual - expected|| / ||expected||, Frobenius; infinity if any element is not finite.
double relative_error(const std::vector<float>& actual, const std::vector<double>& expected);

// "C 256x256 = A 256x64 * B^T (B 256x64)"
std::string gemm_shape_text(const GemmShape& shape);

}  // namespace wb::grading
