#!/usr/bin/env bash
# test_targets.sh CMAKE BUILD_DIR
# The targets a learner types, as the build wired them: profile-chapter1 finds the
# simulator's bench (its kernel in the table), and sanitize-chapter1 says why it cannot
# run here with a non-zero exit code. Reads chapters/ only. Skipped where a GPU answers
# (there the tools would run for real, which is the GPU run's business).
. "$(dirname "$0")/testing.sh"
cmake=$1 build=$2
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: a GPU answers here; gpu_check.sh runs these targets on it"
  exit 77
fi
"$cmake" --build "$build" --target profile-chapter1 > "$test_dir/out" 2>&1
expect_status 0 $? "profile-chapter1 without a GPU"
cat "$test_dir/out"
expect_line "$test_dir/out" "^GPU: not profiled: " "why the GPU side is missing"
expect_no_line "$test_dir/out" "simulator is not built" "the simulator's bench found"
expect_line "$test_dir/out" "^copy_tile_kernel " "chapter 1's kernel in the table"
"$cmake" --build "$build" --target sanitize-chapter1 > "$test_dir/out" 2>&1
status=$?
[ "$status" -ne 0 ] || { echo "FAIL: sanitize-chapter1 passed without a GPU"; failures=$((failures + 1)); }
expect_line "$test_dir/out" "compute-sanitizer was not run: " "why sanitize cannot run"
finish
