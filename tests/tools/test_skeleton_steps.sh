#!/usr/bin/env bash
# test_skeleton_steps.sh SKELETON_CHECK
# `skeleton_check --steps` tells a step whose holes are as the skeleton left them
# ("untouched": check-all's "not started") from one the learner has worked on.
. "$(dirname "$0")/testing.sh"
skeleton_check=$1
write_sample_chapter "$test_dir"
solution="$test_dir/solution/sample.cu"
skeleton="$test_dir/learner/sample.cu"

"$skeleton_check" "$solution" "$skeleton" > "$test_dir/out" 2>&1
expect_status 0 $? "the sample skeleton is its solution minus the holes"

# after PATTERN TEXT FILE: FILE with the line TEXT added after the line matching PATTERN.
after() {
  awk -v pattern="$1" -v text="$2" '{ print } $0 ~ pattern { print text }' "$3"
}
# states FILE: the --steps answer for FILE, on one line.
states() {
  "$skeleton_check" --steps "$solution" "$1" | tr '\n' ';'
}
check() {
  local answer
  answer=$(states "$1")
  if [ "$answer" != "$2" ]; then
    echo "FAIL: $3: got '$answer', expected '$2'"
    failures=$((failures + 1))
  fi
}

check "$skeleton" "step 1: untouched;step 2: untouched;" "the untouched skeleton"
after 'TODO\(step 1\)' '  out[threadIdx.x] = 1.0f;' "$skeleton" > "$test_dir/a.cu"
check "$test_dir/a.cu" "step 1: worked on;step 2: untouched;" "code written under step 1's TODO"
after 'TODO\(step 1\)' '  // first the index, then the store' "$skeleton" > "$test_dir/b.cu"
check "$test_dir/b.cu" "step 1: untouched;step 2: untouched;" "only a comment added to step 1's hole"
after 'then add 1' '  out[i] += 1.0f;' "$skeleton" > "$test_dir/c.cu"
check "$test_dir/c.cu" "step 1: untouched;step 2: worked on;" "step 2's second hole filled"
grep -v 'TODO(step 1)' "$skeleton" > "$test_dir/d.cu"
check "$test_dir/d.cu" "step 1: worked on;step 2: untouched;" "step 1's TODO deleted"
after 'const int i' '  const int j = i;' "$skeleton" > "$test_dir/e.cu"
check "$test_dir/e.cu" "step 1: untouched;step 2: worked on;" "a line added just before step 2's hole"
check "$solution" "step 1: worked on;step 2: worked on;" "the solution itself"
finish
