#!/usr/bin/env bash
# gpu_check.sh [BUILD_DIR]: the maintainers' run on a machine with a GPU. Builds both
# backends warning-free, runs ctest (the GPU tests as well), grades chapter 1 with
# `make check-chapter1` as a learner would (the untouched skeleton, then known-wrong
# kernels copied over it, then the solution), checks the reference under
# compute-sanitizer, and runs the benchmarks. Logs go to $OUT when it is set.
# It edits chapters/ in the tree it runs in: run it on a copy, never on a learner's.
set -uo pipefail
build=${1:-build-gpu}
logs=${OUT:-$build/logs}
mkdir -p "$logs"
nvidia-smi -L | tee "$logs/gpu.txt"
cmake -S . -B "$build" -DWB_WERROR=ON -DCMAKE_CUDA_ARCHITECTURES=90 2>&1 | tee "$logs/configure.txt" | grep -E "wb:"
cmake --build "$build" -j 16 2>&1 | tee "$logs/build.txt" | grep -Ei "warning|error" | head -20
echo "build exit: ${PIPESTATUS[0]}"
ctest --test-dir "$build" -j 8 2>&1 | tee "$logs/ctest.txt" | grep -E "tests passed|Failed|\*\*\*"
for workers in 16 64; do
  WB_SIM_THREADS=$workers ctest --test-dir "$build" -j 8 -L sim 2>&1 | grep -E "tests passed" | sed "s/^/WB_SIM_THREADS=$workers: /"
done
skeleton=chapters/01_copy/copy.cu
cp "$skeleton" "$logs/skeleton.cu.orig"
check() {  # check NAME: make check-chapter1 on the file now in the skeleton's place
  echo "== check-chapter1 with $1"
  (cd "$build" && make check-chapter1 > "$logs/check_$1.txt" 2>&1; echo "exit $?" >> "$logs/check_$1.txt")
  grep -E "^== |steps pass|^Chapter 1|^exit" "$logs/check_$1.txt"
}
check untouched_skeleton
for wrong in plain_loads missing_barrier missing_wait; do
  cp "$build/wrong/chapter1/$wrong/copy.cu" "$skeleton"
  check "$wrong"
done
cp solutions/01_copy/copy.cu "$skeleton"
check solution
cp "$logs/skeleton.cu.orig" "$skeleton"
if command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 "$build"/tests/grade_chapter1_solution_cuda \
      > "$logs/sanitizer_$tool.txt" 2>&1
    echo "compute-sanitizer $tool: exit $?: $(grep -E 'SUMMARY' "$logs/sanitizer_$tool.txt" | tr '\n' ' ')"
  done
fi
(cd "$build" && make bench-chapter1 2>&1 | tee "$logs/bench.txt" | grep -E "GB/s|Chapter")
for workers in 2 16; do WB_SIM_THREADS=$workers "$build/tests/sim/sim_speed"; done | tee "$logs/bench_sim.txt"
