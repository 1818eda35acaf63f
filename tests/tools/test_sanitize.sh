#!/usr/bin/env bash
# test_sanitize.sh SANITIZE_SCRIPT
# sanitize-chapterN without a GPU (a clear message, a pointer to the simulator's race
# check, exit code 2: never a silent pass), and its verdicts read from captured
# compute-sanitizer reports, played by a stand-in compute-sanitizer on the PATH for a
# stand-in grader that "has" a GPU.
. "$(dirname "$0")/testing.sh"
sanitize=$1
here=$(cd "$(dirname "$0")" && pwd)
run_sanitize() {  # run_sanitize GRADER: the output in $test_dir/out
  bash "$sanitize" "Chapter 3 (03_transpose)" 3 "$1" "" "$test_dir/logs" > "$test_dir/out" 2>&1
}

# Without a GPU, three ways.
run_sanitize ""
expect_status 2 $? "no GPU backend"
expect_line "$test_dir/out" "not run: this build has no GPU backend" "why, without a GPU build"
expect_line "$test_dir/out" "make check-chapter3" "the pointer to the simulator's check"
expect_line "$test_dir/out" "race" "the race check named"
run_sanitize "$test_dir/absent/grade_chapter3_learner_cuda"
expect_status 2 $? "GPU grader not built"
expect_line "$test_dir/out" "not built" "why, without the GPU grader"
cp "$here/fakes/fake_program.sh" "$test_dir/grader"
run_sanitize "$test_dir/grader"
expect_status 2 $? "no GPU answers"
expect_line "$test_dir/out" "no GPU answers here" "why, without a GPU"

# A GPU, but no compute-sanitizer.
echo "Fake GPU (sm_90)" > "$test_dir/grader.probe"
WB_COMPUTE_SANITIZER="$test_dir/none" run_sanitize "$test_dir/grader"
expect_status 2 $? "no compute-sanitizer"
expect_line "$test_dir/out" "compute-sanitizer .* is not on the PATH" "why, without the tool"

# Every tool clean.
export PATH="$here/fakes:$PATH" FAKE_SANITIZER_DIR="$test_dir/reports"
mkdir -p "$FAKE_SANITIZER_DIR"
cp "$here/samples/clean.txt" "$FAKE_SANITIZER_DIR/memcheck.txt"
cp "$here/samples/racecheck_clean.txt" "$FAKE_SANITIZER_DIR/racecheck.txt"
cp "$here/samples/clean.txt" "$FAKE_SANITIZER_DIR/synccheck.txt"
run_sanitize "$test_dir/grader"
expect_status 0 $? "all clean"
cat "$test_dir/out"
expect_line "$test_dir/out" "^  memcheck +clean: 0 errors$" "memcheck's verdict"
expect_line "$test_dir/out" "^  racecheck +clean: 0 hazards displayed \(0 errors, 0 warnings\)$" "racecheck's verdict"
expect_line "$test_dir/out" "^  synccheck +clean: 0 errors$" "synccheck's verdict"
expect_line "$FAKE_SANITIZER_DIR/calls" "^racecheck $test_dir/grader$" "the grader run plainly under each tool"

# Findings, and a run that ends without a summary.
cp "$here/samples/memcheck_errors.txt" "$FAKE_SANITIZER_DIR/memcheck.txt"
cp "$here/samples/racecheck_hazard.txt" "$FAKE_SANITIZER_DIR/racecheck.txt"
rm "$FAKE_SANITIZER_DIR/synccheck.txt"
echo 134 > "$test_dir/grader.exit"
run_sanitize "$test_dir/grader"
expect_status 1 $? "findings"
cat "$test_dir/out"
expect_line "$test_dir/out" '^  memcheck +FAILED: 2 errors; first: Invalid __shared__ read of size 4 bytes, at .*chapters/03_transpose/transpose.cu:84 \(transpose_tile_kernel' \
  "memcheck's first error and its line"
expect_line "$test_dir/out" '^  racecheck +FAILED: 1 hazard displayed \(1 error, 0 warnings\); first: Error: Race reported between Write access at .*transpose.cu:80' \
  "racecheck's hazard and its lines"
expect_line "$test_dir/out" '^  synccheck +NO VERDICT: no summary \(the run crashed or was stopped, exit 134\)' "a run without a summary"

# synccheck's known report inside the CUDA library's cuda::pipeline (chapter 7): named as
# that, and no failure; beside a report in the learner's own code, that one fails.
rm -f "$test_dir/grader.exit"
cp "$here/samples/clean.txt" "$FAKE_SANITIZER_DIR/memcheck.txt"
cp "$here/samples/racecheck_clean.txt" "$FAKE_SANITIZER_DIR/racecheck.txt"
cp "$here/samples/synccheck_library_pipeline.txt" "$FAKE_SANITIZER_DIR/synccheck.txt"
run_sanitize "$test_dir/grader"
expect_status 0 $? "only the library's known report"
cat "$test_dir/out"
expect_line "$test_dir/out" "^  synccheck +clean in your code: 512 errors, and the 2 printed are all the known report inside the CUDA library's own cuda::pipeline barriers" \
  "the library's report named as such"
expect_line "$test_dir/out" "the other 510 were not printed" "what was not printed, said"
cp "$here/samples/synccheck_library_and_yours.txt" "$FAKE_SANITIZER_DIR/synccheck.txt"
run_sanitize "$test_dir/grader"
expect_status 1 $? "the library's report and one of the learner's"
cat "$test_dir/out"
expect_line "$test_dir/out" "^  synccheck +FAILED: 3 errors \(2 of them the known report .*; first: Barrier error detected. Divergent thread\(s\) in warp., at .*chapters/07_library/library.cu:141 \(ch07::<unnamed>::convolve_pipelined_kernel" \
  "the learner's report first, the library's counted aside"
finish
