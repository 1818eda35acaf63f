#!/usr/bin/env bash
# gpu_check.sh [BUILD_DIR]: the maintainers' run on a machine with a GPU. Builds both
# backends warning-free, runs ctest (the GPU tests as well), grades each chapter with
# `make check-chapterN` as a learner would (the untouched skeleton, then known-wrong
# kernels copied over it, then the solution), runs the learner's tools (check-all,
# sanitize-chapter3 and profile-chapter2 on the reference), checks the references under
# compute-sanitizer, runs the benchmarks and counts chapter 2's bank conflicts with
# ncu. Logs go to $OUT when it is set.
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
# Each reference step's time on each backend, slowest first: none may come near the step
# limit (at most a fifth of it). The simulator's on 2 cores, as CI and small machines.
references_sim=() references_cuda=()
for number in 1 2 3 4 5 6 7; do
  references_sim+=("$build/tests/grade_chapter${number}_solution_sim")
  references_cuda+=("$build/tests/grade_chapter${number}_solution_cuda")
done
echo "== reference step times on the GPU"
bash common/tools/step_times.sh 20 "${references_cuda[@]}" 2>&1 | tee "$logs/step_times_gpu.txt" | tail -4
echo "== reference step times in the simulator, 2 cores"
WB_SIM_THREADS=2 taskset -c 0,1 bash common/tools/step_times.sh 20 "${references_sim[@]}" 2>&1 |
  tee "$logs/step_times_sim.txt" | tail -4
# grade_as_learner N FOLDER FILE WRONG...: `make check-chapterN` on the untouched
# skeleton, on each known-wrong kernel copied over it, then on the solution; the
# skeleton is restored at the end.
grade_as_learner() {
  local number=$1 folder=$2 file=$3
  shift 3
  local skeleton="chapters/$folder/$file"
  cp "$skeleton" "$logs/skeleton_$number.orig"
  check() {
    echo "== check-chapter$number with $1"
    (cd "$build" && make "check-chapter$number" > "$logs/check${number}_$1.txt" 2>&1; echo "exit $?" >> "$logs/check${number}_$1.txt")
    grep -E "steps pass|^Chapter $number \(|^exit" "$logs/check${number}_$1.txt"
  }
  check untouched_skeleton
  for wrong in "$@"; do
    cp "$build/wrong/chapter$number/$wrong/$file" "$skeleton"
    check "$wrong"
  done
  cp "solutions/$folder/$file" "$skeleton"
  check solution
  cp "$logs/skeleton_$number.orig" "$skeleton"
}
grade_as_learner 1 01_copy copy.cu plain_loads missing_barrier missing_wait
grade_as_learner 2 02_padded padded.cu unpadded plus_two_for_row_reads missing_barrier
grade_as_learner 3 03_transpose transpose.cu unpadded_tile uncoalesced_writes missing_barrier \
  block_indices_not_swapped_on_the_way_out
grade_as_learner 4 04_gemm gemm.cu no_barrier_between_wait_and_reads pipeline_serialised_by_wait_0 \
  stage_index_off_by_one
grade_as_learner 6 06_halo halo.cu seed_pass_through_edges next_buffer_read_before_its_wait serialised_by_wait_0
# The learner's tools on the GPU, as a learner runs them: check-all on the untouched
# skeletons, then sanitize-chapter3 and profile-chapter2 with the reference copied over
# the skeleton (restored after).
(cd "$build" && make check-all > "$logs/check_all_skeletons.txt" 2>&1; echo "check-all on the skeletons: exit $?")
tail -3 "$logs/check_all_skeletons.txt"
# Every reference in place of the learner's files, check-all three times in a row: a
# correct kernel passes every step on both backends, every time.
mkdir -p "$logs/learner_files"
cp -r chapters/. "$logs/learner_files/"
cp -r solutions/. chapters/
for run in 1 2 3; do
  (cd "$build" && make check-all > "$logs/check_all_references_$run.txt" 2>&1; echo "check-all with the references, run $run: exit $?")
  grep -E "steps pass" "$logs/check_all_references_$run.txt"
done
cp -r "$logs/learner_files/." chapters/
tool_as_learner() {  # tool_as_learner TOOL N FOLDER FILE
  cp "chapters/$3/$4" "$logs/tool_$2.orig"
  cp "solutions/$3/$4" "chapters/$3/$4"
  (cd "$build" && make "$1-chapter$2" > "$logs/$1_chapter$2.txt" 2>&1; echo "$1-chapter$2 on the reference: exit $?")
  grep -v -E "^(\[|make|Scanning|Built target)" "$logs/$1_chapter$2.txt" | head -40
  cp "$logs/tool_$2.orig" "chapters/$3/$4"
}
tool_as_learner sanitize 3 03_transpose transpose.cu
tool_as_learner profile 2 02_padded padded.cu
if command -v compute-sanitizer >/dev/null; then
  for number in 1 2 3 4 6; do
    for tool in memcheck racecheck synccheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$build/tests/grade_chapter${number}_solution_cuda" \
        > "$logs/sanitizer${number}_$tool.txt" 2>&1
      echo "chapter $number compute-sanitizer $tool: exit $?: $(grep -E 'SUMMARY' "$logs/sanitizer${number}_$tool.txt" | tr '\n' ' ')"
    done
  done
fi
for number in 1 2 3 4 6; do
  (cd "$build" && make "bench-chapter$number" 2>&1 | tee "$logs/bench$number.txt" | grep -E "GB/s|TFLOP|Chapter|stride|cuBLAS|REG:")
done
# The bank conflicts of chapter 2's column sums as the GPU counts them, beside the
# simulator's figures (bench-chapter2's simulator lines).
if command -v ncu >/dev/null; then
  for which in "column_sums_kernel<\\(int\\)0>" "column_sums_kernel<\\(int\\)[1-9]"; do
    ncu --kernel-name-base demangled --kernel-name "regex:$which" --launch-count 1 \
      --metrics smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
      "$build/tests/bench_chapter2_solution_cuda" > "$logs/ncu_$(echo "$which" | tr -dc 'a-z0-9').txt" 2>&1
    echo "ncu $which:"; grep -E "column_sums|shared_ld|shared_op_ld" "$logs/ncu_$(echo "$which" | tr -dc 'a-z0-9').txt" | head -6
  done
fi
for number in 2 3; do "$build/tests/bench_chapter${number}_solution_sim"; done | tee "$logs/bench_sim_counters.txt"
for workers in 2 16; do WB_SIM_THREADS=$workers "$build/tests/sim/sim_speed"; done | tee "$logs/bench_sim.txt"
