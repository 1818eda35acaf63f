#!/usr/bin/env bash
# sanitize_chapter.sh TITLE NUMBER CUDA_GRADER TOOLKIT_BIN LOG_DIR
# `make sanitize-chapterN`: runs the GPU grader of the learner's file (a plain GoogleTest
# run: every step, in one process, which the sanitizer follows) under compute-sanitizer
# once per tool (memcheck, racecheck, synccheck; WB_SANITIZE_TOOLS chooses others) and
# prints one verdict line per tool, with the first finding and its source line. The full
# outputs stay in LOG_DIR.
#
# Exit codes: 0 every tool ran and found nothing; 1 a tool found errors (or gave no
# summary); 2 nothing could run: no GPU, no GPU build, no compute-sanitizer. Never a
# silent pass: without a GPU it says so and points at the simulator's race check.
set -u
. "$(dirname "$0")/wb_common.sh"
title=$1 number=$2 grader=$3 toolkit_bin=$4 log_dir=$5

not_run() {
  echo "$title: compute-sanitizer was not run: $1."
  echo "The simulator checks the same kinds of mistake on every run of \`make check-chapter$number\`:"
  echo "a shared-memory race (a word written by one thread and touched by another with no barrier"
  echo "between) names both threads and lines, a read of a cp.async destination before its wait"
  echo "sees poison, and out-of-bounds or misaligned copies and threads at different barriers stop"
  echo "with their line."
  exit 2
}

[ -n "$grader" ] || not_run "this build has no GPU backend (no nvcc when it was configured)"
[ -x "$grader" ] || not_run "the GPU grader is not built, since no GPU answered when the build was configured (configure again on the GPU's machine)"
gpu=$(wb_gpu_name "$grader") || not_run "no GPU answers here"
sanitizer=$(wb_find_tool compute-sanitizer WB_COMPUTE_SANITIZER "$toolkit_bin" \
                         "$toolkit_bin/../compute-sanitizer") ||
  not_run "compute-sanitizer (part of the CUDA toolkit) is not on the PATH nor in $toolkit_bin"
mkdir -p "$log_dir" || exit 2

# verdict TOOL LOG GRADER_STATUS: the tool's line, from its summary and first finding;
# returns 1 when it found errors or gave no summary.
verdict() {
  local tool=$1 log=$2 grader_status=$3 summary count first where
  if [ "$tool" = racecheck ]; then
    # "RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)"
    summary=$(grep -E 'RACECHECK SUMMARY: [0-9]+ hazard' "$log" | tail -1)
    count=$(echo "$summary" | sed -n 's/.*(\([0-9][0-9]*\) error.*/\1/p')
  else
    # "ERROR SUMMARY: 3 errors" (and past the print limit, a second line: "ERROR SUMMARY:
    # 412 errors were not printed. ...")
    summary=$(grep -E 'ERROR SUMMARY: [0-9]+ errors?$' "$log" | tail -1)
    count=$(echo "$summary" | sed -n 's/.*ERROR SUMMARY: \([0-9][0-9]*\) error.*/\1/p')
  fi
  if [ -z "$count" ]; then
    local why="the run crashed or was stopped, exit $grader_status"
    [ "$grader_status" -eq 124 ] && why="stopped after WB_SANITIZE_TIMEOUT=${WB_SANITIZE_TIMEOUT:-900} s"
    printf '  %-10s NO VERDICT: no summary (%s); see %s\n' "$tool" "$why" "$log"
    return 1
  fi
  summary=${summary#*SUMMARY: }
  if [ "$count" -eq 0 ]; then
    printf '  %-10s clean: %s\n' "$tool" "$summary"
    return 0
  fi
  # Reports of a known false finding inside the CUDA library, not in the learner's code:
  # set aside, counted, and named as what they are.
  local reports own known yours
  reports=$(report_lines "$log")
  own=$(learners_reports "$tool" <<< "$reports")
  known=$(($(grep -c . <<< "$reports") - $(grep -c . <<< "$own")))
  yours=$(grep -v '^Program hit' <<< "$own" | grep -c .)
  if [ "$known" -gt 0 ] && [ "$yours" -eq 0 ]; then
    # Past the tool's print limit the rest are counted, not shown: said as such.
    local unprinted
    unprinted=$(sed -n 's/.*ERROR SUMMARY: \([0-9][0-9]*\) errors* were not printed.*/\1/p' "$log" | tail -1)
    printf '  %-10s clean in your code: %s, %s %s\n' "$tool" "$summary" \
      "$([ -n "$unprinted" ] && echo "and the $known printed are all" || echo "all of them")" "$(known_library_text "$tool")"
    [ -z "$unprinted" ] || printf '  %-10s (the other %s were not printed: compute-sanitizer prints the first %s)\n' "" "$unprinted" "$known"
    return 0
  fi
  # The first finding: the learner's first report, then the first "at ... in FILE:LINE"
  # under it. A kernel's own error comes before the API errors it causes ("Program hit
  # ..."), which stand only where there is nothing else.
  local first_report
  first_report=$(grep -v '^Program hit' <<< "$own" | head -1)
  [ -n "$first_report" ] || first_report=$(head -1 <<< "$own")
  first=$(cut -f1 <<< "$first_report")
  where=$(cut -s -f2 <<< "$first_report")
  local aside=""
  [ "$known" -gt 0 ] && aside=" ($known of them $(known_library_text "$tool"))"
  printf '  %-10s FAILED: %s%s; first: %s%s\n' "$tool" "$summary" "$aside" "${first:-see the log}" \
    "${where:+, at $where}"
  return 1
}

# report_lines LOG: a line for each report of the tool, "MESSAGE<TAB>FILE:LINE (FRAME)",
# the place being the first "at ... in FILE:LINE" under the report's line (empty where
# it has none). A report's line is not indented; the banner, summaries and host frames
# are no reports.
report_lines() {
  awk '
    function flush() { if (message != "") print message "\t" where; message = ""; where = "" }
    /^========= [^ ]/ {
      line = substr($0, 11)
      if (line ~ /^(COMPUTE-SANITIZER|.*SUMMARY:|Saved host backtrace|Host Frame|Target application)/) next
      flush(); message = line; next
    }
    /^=========  *at / && message != "" && where == "" {
      frame = $0; sub(/^=========  *at /, "", frame)
      if (match(frame, / in [^ ]*:[0-9]+/)) {
        place = substr(frame, RSTART + 4, RLENGTH - 4); sub(/ in [^ ]*:[0-9]+.*/, "", frame)
        where = place " (" frame ")"
      }
    }
    END { flush() }' "$1"
}

# synccheck's known false report: "Barrier error detected. Missing wait." inside the
# library's own mbarrier_arrive (CUDA 13.0), which a block-scoped cuda::pipeline calls;
# chapter 7's page shows it for the smallest canonical pipeline loop.
known_library_pattern() {
  [ "$1" = synccheck ] && echo '^Barrier error detected\. Missing wait\.[[:space:]]([^[:space:]]*/)?mbarrier_arrive\.h:[0-9]'
}
known_library_text() {
  echo "the known report inside the CUDA library's own cuda::pipeline barriers (\"Barrier error detected. Missing wait.\" in mbarrier_arrive.h; chapter 7's page says why)"
}
# learners_reports TOOL: the lines of report_lines (on the input) that are not the tool's
# known false report.
learners_reports() {
  local pattern
  pattern=$(known_library_pattern "$1")
  if [ -n "$pattern" ]; then grep -v -E "$pattern"; else cat; fi
}

tools=${WB_SANITIZE_TOOLS:-memcheck racecheck synccheck}
echo "$title: the GPU grader of your file under compute-sanitizer ($gpu)"
status=0
for tool in $tools; do
  log="$log_dir/chapter${number}_$tool.txt"
  rm -f "$log"  # a report left by an earlier run must never stand for this one
  # Each tool slows the kernels 10 to 100 times; WB_SANITIZE_TIMEOUT bounds a run.
  timeout "${WB_SANITIZE_TIMEOUT:-900}" "$sanitizer" --tool "$tool" --log-file "$log" \
    "$grader" > "$log_dir/chapter${number}_${tool}_grader.txt" 2>&1
  grader_status=$?
  [ -f "$log" ] || : > "$log"
  verdict "$tool" "$log" "$grader_status" || status=1
done
echo "(full outputs: $log_dir/chapter${number}_<tool>.txt; the grader's own verdict: make check-chapter$number)"
exit $status
