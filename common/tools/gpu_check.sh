#!/usr/bin/env bash
# gpu_check.sh [PART...]: the maintainers' run on a machine with a GPU, in two parts (both
# by default), its logs in $OUT when it is set, else in the build folders' logs/:
#
#   learner     as a learner: the README's configure and build lines (Make) in
#               build-learner/, then every learner target of every chapter (check-, bench-,
#               sanitize-, profile-, timeline-chapterN), first with the references in
#               place of the learner's files, where each must exit 0, then with the
#               untouched skeletons, where each must answer (exit without a build error);
#               and check-chapterN with the references at WB_SIM_THREADS 1, 16, 64 and 256.
#               WB_GPU_CHECK_CHAPTERS, WB_GPU_CHECK_TARGETS, WB_GPU_CHECK_WITH (references,
#               skeletons) and WB_GPU_CHECK_WORKERS narrow it (a run is at most 10 minutes
#               on the lent machines).
#   maintainer  the maintainers' build (WB_MAINTAINER_TESTS, warnings as errors) in
#               build-gpu/: its ctest, each reference step's time on each backend, the
#               known-wrong kernels graded as a learner would, compute-sanitizer on the
#               references, the benchmarks and chapter 2's bank conflicts counted by ncu.
#
# It edits chapters/ in the tree it runs in (and puts each file back): run it on a copy,
# never on a learner's.
set -uo pipefail
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(learner maintainer)
mkdir -p "${OUT:-build-logs}"
nvidia-smi -L | tee "${OUT:-build-logs}/gpu.txt"

# learner_target LOG TARGET: `make TARGET` in build-learner, its full output in LOG; prints
# what it came to: "exit N" (the target's command's status, from make's "Error N"), or
# "BUILD FAILED" where a compiler or linker stopped it first.
learner_target() {
  local log=$1 target=$2
  (cd build-learner && timeout 900 make "$target" > "$log" 2>&1)
  local status=$?
  if grep -q -E "(error:|ptxas error|undefined reference|No rule to make target)" "$log"; then
    echo "BUILD FAILED"
  elif [ "$status" -eq 0 ]; then
    echo "exit 0"
  else
    local code
    code=$(grep -o -E "\] Error [0-9]+" "$log" | head -1 | grep -o -E "[0-9]+$")
    echo "exit ${code:-$status}"
  fi
}

learner_part() {
  local logs=${OUT:-build-learner/logs}/learner chapters targets kinds workers_list
  mkdir -p "$logs"
  chapters=${WB_GPU_CHECK_CHAPTERS:-1 2 3 4 5 6 7 8}
  targets=${WB_GPU_CHECK_TARGETS:-check bench sanitize profile timeline}
  kinds=${WB_GPU_CHECK_WITH:-references skeletons}
  workers_list=${WB_GPU_CHECK_WORKERS:-1 16 64 256}
  echo "== the README's lines, as a learner (Make)"
  local start=$SECONDS
  { cmake -S . -B build-learner && cmake --build build-learner -j "$(nproc)"; } > "$logs/build.txt" 2>&1
  echo "configure and build: exit $?, $((SECONDS - start)) s"
  grep -E "^-- wb:" "$logs/build.txt"
  mkdir -p "$logs/.learner_files" && cp -r chapters/. "$logs/.learner_files/"
  local failures=0 which chapter target result verdict
  for which in $kinds; do
    if [ "$which" = references ]; then cp -r solutions/. chapters/; else cp -r "$logs/.learner_files/." chapters/; fi
    # The edited files' objects in parallel first; each target then finds them built.
    cmake --build build-learner -j "$(nproc)" > "$logs/rebuild_$which.txt" 2>&1
    echo "== every learner target, with the $which in place"
    for chapter in $chapters; do
      for target in $targets; do
        [ "$target" != timeline ] || grep -q "^timeline-chapter$chapter:" build-learner/Makefile || continue
        start=$SECONDS
        result=$(learner_target "$logs/${target}${chapter}_$which.txt" "$target-chapter$chapter")
        verdict=ok
        if [ "$which" = references ] && [ "$result" != "exit 0" ]; then verdict=FAILED; fi
        if [ "$result" = "BUILD FAILED" ]; then verdict=FAILED; fi
        [ "$verdict" = ok ] || failures=$((failures + 1))
        # A line of the target's output beside its row; sanitize's verdicts and the
        # timelines' summaries, a line each, under it.
        local details="^  [a-z]+ +(clean|FAILED|NO VERDICT)|warps waited|no commit, wait or barrier"
        printf '  %-20s %-12s %-6s %4d s  %s\n' "$target-chapter$chapter" "$result" "$verdict" $((SECONDS - start)) \
          "$(grep -m1 -E "^Chapter $chapter \(|^Timeline written|GB/s|TFLOP/s" "$logs/${target}${chapter}_$which.txt" |
               cut -c1-120)"
        grep -E "$details" "$logs/${target}${chapter}_$which.txt" | sed 's/^ */      /' | cut -c1-200
      done
    done
    if [ "$which" = references ] && [[ " $targets " == *" check "* ]]; then
      (cd build-learner && make check-all > "$logs/check_all_$which.txt" 2>&1)
      local status=$?
      echo "  check-all            exit $status  $(grep -E "steps pass" "$logs/check_all_$which.txt" | tail -1)"
      [ "$status" -eq 0 ] || failures=$((failures + 1))
    fi
  done
  if [ -n "$workers_list" ]; then
    # check-chapterN's simulator half (the learner's grader, --wb-report) with the
    # references in place, at each number of workers; its GPU half does not use them.
    cp -r solutions/. chapters/
    (cd build-learner && make -j "$(nproc)" $(for c in $chapters; do echo grade_chapter${c}_learner_sim; done) > /dev/null 2>&1)
    echo "== the simulator's half of check-chapterN, references in place, by workers"
    local workers
    for workers in $workers_list; do
      local line="  WB_SIM_THREADS=$workers:"
      for chapter in $chapters; do
        WB_SIM_THREADS=$workers build-learner/tests/grade_chapter${chapter}_learner_sim --wb-report \
          > "$logs/sim${chapter}_workers$workers.txt" 2>&1
        if [ $? -eq 0 ]; then line+=" ch$chapter ok"; else line+=" ch$chapter FAILED"; failures=$((failures + 1)); fi
      done
      echo "$line"
    done
  fi
  cp -r "$logs/.learner_files/." chapters/
  rm -rf "$logs/.learner_files"
  echo "learner part: $failures failed"
  [ "$failures" -eq 0 ]
}

maintainer_part() {
build=build-gpu
logs=${OUT:-$build/logs}
mkdir -p "$logs"
cmake -S . -B "$build" -DWB_WERROR=ON -DWB_MAINTAINER_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 2>&1 | tee "$logs/configure.txt" | grep -E "wb:"
cmake --build "$build" -j 16 2>&1 | tee "$logs/build.txt" | grep -Ei "warning|error" | head -20
echo "build exit: ${PIPESTATUS[0]}"
ctest --test-dir "$build" -j 8 2>&1 | tee "$logs/ctest.txt" | grep -E "tests passed|Failed|\*\*\*"
for workers in 16 64; do
  WB_SIM_THREADS=$workers ctest --test-dir "$build" -j 8 -L sim 2>&1 | grep -E "tests passed" | sed "s/^/WB_SIM_THREADS=$workers: /"
done
# Each reference step's time on each backend, slowest first: none may come near the step
# limit (at most a fifth of it). The simulator's on 2 cores, as CI and small machines.
references_sim=() references_cuda=()
for number in 1 2 3 4 5 6 7 8; do
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
# check-all on the untouched skeletons (each learner target is the learner part's).
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
}

status=0
for part in "${parts[@]}"; do
  case $part in
    learner) learner_part || status=1 ;;
    maintainer) maintainer_part || status=1 ;;
    *) echo "gpu_check.sh: unknown part $part (learner, maintainer)"; exit 2 ;;
  esac
done
exit $status
