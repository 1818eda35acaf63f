#!/usr/bin/env bash
# A stand-in for a grader or bench of the GPU build, for the tools' tests. Copied under
# the name a test needs; reads its behaviour from files beside that copy:
#   $0.probe    the GPU it "runs on" (--wb-probe-gpu prints it); absent: no GPU answers
#   $0.results  for --wb-report --wb-results FILE: the lines it writes to FILE (test,
#               status, title); the exit code is 0 only when all say "passed"
#   $0.exit     the exit code of a plain run (0 when absent)
# Every call appends its arguments to $0.calls.
echo "$*" >> "$0.calls"
if [ "${1:-}" = --wb-probe-gpu ]; then
  [ -f "$0.probe" ] || exit 1
  cat "$0.probe"
  exit 0
fi
if [ "${1:-}" = --wb-report ]; then
  results=""
  [ "${2:-}" = --wb-results ] && results=$3
  [ -z "$results" ] || cp "$0.results" "$results"
  echo "fake report"
  awk -F '\t' '$2 != "passed" { failed = 1 } END { exit failed }' "$0.results"
  exit $?
fi
echo "fake run"
exit "$(cat "$0.exit" 2>/dev/null || echo 0)"
