#!/usr/bin/env bash
# gpu_check.sh [BUILD_DIR]: the maintainers' run on a machine with a GPU. Builds the
# GPU backend warning-free, runs its ctest (runtime tests and the reference graders),
# grades the reference and the untouched skeleton on the GPU, checks the reference
# under compute-sanitizer, and runs the benchmarks. Logs go to $OUT when it is set.
set -uo pipefail
build=${1:-build-gpu}
logs=${OUT:-$build/logs}
mkdir -p "$logs"
nvidia-smi -L | tee "$logs/gpu.txt"
cmake -S . -B "$build" -G Ninja -DWB_BACKEND=cuda -DWB_WERROR=ON -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES=90 2>&1 | tee "$logs/configure.txt" | tail -3
cmake --build "$build" 2>&1 | tee "$logs/build.txt" | grep -Ei "warning|error" | head -20
echo "build exit: ${PIPESTATUS[0]}"
ctest --test-dir "$build" -L cuda 2>&1 | tee "$logs/ctest.txt" | tail -15
for grader in "$build"/tests/grade_chapter*_solution_cuda; do
  echo "== $grader --wb-report"; "$grader" --wb-report 2>&1 | tee -a "$logs/report.txt"
done
echo "== check-chapter1 on the untouched skeleton (must fail, pointing at its TODO)"
cmake --build "$build" --target check-chapter1 2>&1 | tee "$logs/check.txt" | tail -25
if command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 "$build"/tests/grade_chapter1_solution_cuda \
      > "$logs/sanitizer_$tool.txt" 2>&1
    echo "compute-sanitizer $tool: exit $?: $(grep -E 'SUMMARY' "$logs/sanitizer_$tool.txt" | tr '\n' ' ')"
  done
fi
cmake --build "$build" --target bench-chapter1 2>&1 | tee "$logs/bench.txt" | tail -6
