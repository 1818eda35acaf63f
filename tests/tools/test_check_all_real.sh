#!/usr/bin/env bash
# test_check_all_real.sh skeletons|references CHECK_ALL SKELETON_CHECK MANIFEST
# check-all with the build's real graders, reading the chapters' files without writing
# them. "skeletons": MANIFEST is check-all's own (the learner's files, untouched in a
# fresh clone): every step not started, exit code 1; skipped once a learner has worked
# on a chapter. "references": the manifest with the reference solutions in the learner's
# place: every step passed, exit code 0.
. "$(dirname "$0")/testing.sh"
mode=$1 check_all=$2 skeleton_check=$3 manifest=$4
tab=$'\t'

if [ "$mode" = skeletons ]; then
  while IFS="$tab" read -r number folder sim cuda learner solution files; do
    case $number in "#"* | "") continue ;; esac
    for file in $files; do
      if ! CI= "$skeleton_check" "$solution/$file" "$learner/$file" > /dev/null 2>&1; then
        echo "SKIPPED: $learner/$file has been worked on; this test is for the untouched skeletons"
        exit 77
      fi
    done
  done < "$manifest"
fi

bash "$check_all" "$manifest" "$skeleton_check" "$test_dir/logs" > "$test_dir/out" 2>&1
status=$?
cat "$test_dir/out"
steps=$(awk '/^Chapter +Step/ { on = 1; next } on && /^$/ { exit } on { n++ } END { print n + 0 }' "$test_dir/out")
[ "$steps" -gt 0 ] || { echo "FAIL: no step in the table"; failures=$((failures + 1)); }
# The steps' titles as their graders' Steps spell them, punctuation and all.
expect_line "$test_dir/out" "load the tiles with cp\.async" "a title with its cp.async"
expect_line "$test_dir/out" "double buffer with cuda::pipeline" "a title with its cuda::pipeline"
if [ "$mode" = skeletons ]; then
  expect_status 1 $status "the untouched skeletons fail"
  expect_no_line "$test_dir/out" "  passed( |$)" "no step of a skeleton passes"
  expect_line "$test_dir/out" "^0 of $steps steps pass \\($steps not started, 0 failed\\)\\.$" "every step not started"
else
  expect_status 0 $status "the references pass"
  expect_no_line "$test_dir/out" "  (not started|FAILED|SKIPPED|CRASHED)" "no step of a reference fails"
  expect_line "$test_dir/out" "^$steps of $steps steps pass \\(0 not started, 0 failed\\)\\.$" "every step passed"
fi
finish
