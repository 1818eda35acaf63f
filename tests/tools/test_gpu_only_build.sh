#!/usr/bin/env bash
# test_gpu_only_build.sh SOURCE_DIR CMAKE
# A build of the GPU backend alone (-DWB_BACKEND=cuda, as the README offers): its
# `make check-chapter1` has no simulator's grader to build, and must say what it can
# grade instead of stopping on a missing target. Where no GPU answers, it says that
# nothing here can grade and how to build the simulator; where one does, it grades on
# the GPU and says which checks need the simulator. Skipped (77) without nvcc.
. "$(dirname "$0")/testing.sh"
source_dir=$1 cmake=$2
unset CMAKE_GENERATOR
"$cmake" -S "$source_dir" -B "$test_dir/build" -G "Unix Makefiles" -DWB_BACKEND=cuda > "$test_dir/configure" 2>&1
if [ $? -ne 0 ]; then
  if grep -q "nvcc" "$test_dir/configure"; then
    echo "SKIPPED: no CUDA compiler here, which -DWB_BACKEND=cuda needs"
    exit 77
  fi
  cat "$test_dir/configure"
  echo "FAIL: configure with -DWB_BACKEND=cuda"
  exit 1
fi
(cd "$test_dir/build" && make -j2 check-chapter1) > "$test_dir/check" 2>&1
status=$?
expect_no_line "$test_dir/check" "No rule to make target|missing and no known rule" "no target missing"
if grep -q "a GPU answers here: ON" "$test_dir/configure"; then
  expect_line "$test_dir/check" "on the GPU: " "the GPU grades"
  expect_line "$test_dir/check" "simulator: not built .* the technique, the races and the causes went unchecked" \
    "what the GPU alone cannot check, said"
else
  expect_status 2 $status "make check-chapter1 with nothing to grade on"
  expect_line "$test_dir/check" "nothing here can grade it" "why nothing was graded"
  expect_line "$test_dir/check" "-DWB_BACKEND=auto" "how to build the simulator"
fi
[ "$failures" -eq 0 ] || tail -20 "$test_dir/check"
finish
