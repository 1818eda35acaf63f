#!/usr/bin/env bash
# step_times.sh LIMIT GRADER...: runs each grader's report (--wb-report --wb-results) and
# prints every step's wall time, slowest first; fails (exit 1) when a step did not pass,
# or took more than a fifth of LIMIT, the seconds a step may take before it counts as
# hung (WB_STEP_TIMEOUT): a correct kernel must never come near failing by the clock.
# The maintainers' check of the references (gpu_check.sh), on each backend.
set -u
limit=$1
shift
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
status=0
for grader in "$@"; do
  name=$(basename "$grader")
  WB_STEP_TIMEOUT=$limit "$grader" --wb-report --wb-results "$work/$name.tsv" > "$work/$name.txt" 2>&1
  awk -F '\t' -v grader="$name" '{ printf "%8.2f s  %-8s %s, %s\n", $4, $2, grader, $3 }' "$work/$name.tsv"
done | sort -rn > "$work/all"
cat "$work/all"
allowed=$(awk -v l="$limit" 'BEGIN { print l / 5 }')
if awk -v a="$allowed" '$1 > a { bad = 1 } END { exit !bad }' "$work/all"; then
  echo "FAIL: a step took more than a fifth of the step limit ($allowed of $limit s)"
  status=1
fi
if awk '$3 != "passed" { bad = 1 } END { exit !bad }' "$work/all"; then
  echo "FAIL: a step did not pass"
  status=1
fi
[ -s "$work/all" ] || { echo "FAIL: no step was timed"; status=1; }
echo "slowest step: $(head -1 "$work/all")"
exit $status
