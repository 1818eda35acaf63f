#!/usr/bin/env bash
# check_all.sh MANIFEST SKELETON_CHECK LOG_DIR
# `make check-all`: grades every chapter as check-chapterN does (the simulator's grader
# always, the GPU's as well where one answers; each step in a process of its own, by the
# graders' --wb-report mode) and prints one table of every step: passed, FAILED, or not
# started (its hole still as the skeleton left it, which `skeleton_check --steps` tells
# from the solution's lines around the hole). Exit code 0 only when every step passes.
#
# MANIFEST: one line a chapter, written by the build (wb_add_check_all), tab-separated:
#   number  folder  sim-grader  cuda-grader  learner-dir  solution-dir  kernel-files
# ("-" for a grader that is not built; kernel-files space-separated).
# Each chapter's full reports are kept in LOG_DIR.
set -u
. "$(dirname "$0")/wb_common.sh"
manifest=$1 skeleton_check=$2 log_dir=$3
mkdir -p "$log_dir" || exit 2
tab=$'\t'
sep=$'\x1f'   # between the table's cells: not white space, so empty cells stay cells

# run_grader GRADER RESULTS LOG: the grader's report into LOG, its per-step results into
# RESULTS (test, status, title). An empty RESULTS means the grader gave no report at all.
run_grader() {
  : > "$2"
  "$1" --wb-report --wb-results "$2" > "$3" 2>&1
}

# step_states LEARNER_DIR SOLUTION_DIR FILES: "N untouched" or "N worked" a line, for each
# step with a hole; a step is untouched only when all its holes, in every file, are.
step_states() {
  local file
  for file in $3; do
    "$skeleton_check" --steps "$2/$file" "$1/$file" 2>/dev/null
  done | awk '/^step [0-9]+: / {
      step = $2; sub(/:$/, "", step)
      if (!(step in state)) { state[step] = "untouched"; order[++n] = step }
      if ($3 != "untouched") state[step] = "worked"
    }
    END { for (i = 1; i <= n; i++) print order[i], state[order[i]] }'
}

# shown STATUS UNTOUCHED: the word the table shows for a step's result on one backend.
shown() {
  case $1 in
    passed) echo "passed" ;;
    "") echo "-" ;;
    *) if [ "$2" = untouched ]; then echo "not started"; else
         case $1 in skipped) echo "SKIPPED" ;; crashed) echo "CRASHED" ;; *) echo "FAILED" ;; esac
       fi ;;
  esac
}

rows=()          # chapter, step, simulator, gpu, separated by $sep
notes=()         # lines under the table
status=0
total=0 passed=0 not_started=0 failed=0
gpu_seen=""
while IFS="$tab" read -r number folder sim_grader cuda_grader learner_dir solution_dir kernels; do
  case $number in "#"* | "") continue ;; esac
  [ "$sim_grader" != - ] || sim_grader=""
  [ "$cuda_grader" != - ] || cuda_grader=""
  chapter="$number ${folder#*_}"
  [ -t 2 ] && printf '\rgrading chapter %s ...' "$number" >&2
  states=$(step_states "$learner_dir" "$solution_dir" "$kernels")
  if [ -z "$sim_grader" ] || [ ! -x "$sim_grader" ]; then
    rows+=("$chapter$sep(not built)$sep-$sep-")
    notes+=("chapter $number: the simulator's grader is not built (configure with -DWB_BACKEND=sim or auto)")
    status=1
    continue
  fi
  run_grader "$sim_grader" "$log_dir/chapter${number}_sim.tsv" "$log_dir/chapter${number}_sim.txt"
  gpu=$(wb_gpu_name "$cuda_grader") || gpu=""
  if [ -n "$gpu" ]; then
    gpu_seen=$gpu
    run_grader "$cuda_grader" "$log_dir/chapter${number}_gpu.tsv" "$log_dir/chapter${number}_gpu.txt"
  else
    rm -f "$log_dir/chapter${number}_gpu.tsv"
  fi
  if [ ! -s "$log_dir/chapter${number}_sim.tsv" ]; then
    rows+=("$chapter$sep(no report)${sep}FAILED$sep-")
    notes+=("chapter $number: the simulator's grader gave no report: $log_dir/chapter${number}_sim.txt says why")
    status=1
    continue
  fi
  while IFS="$tab" read -r test sim_status title _seconds; do
    step=$(echo "$title" | sed -n 's/^step \([0-9][0-9]*\):.*/\1/p')
    label=${title#step }
    untouched=$(echo "$states" | awk -v s="$step" '$1 == s { print $2 }')
    gpu_status=""
    if [ -f "$log_dir/chapter${number}_gpu.tsv" ]; then
      gpu_status=$(awk -F "$tab" -v t="$test" '$1 == t { print $2 }' "$log_dir/chapter${number}_gpu.tsv")
      [ -n "$gpu_status" ] || gpu_status=failed   # the GPU's report ended before this step
    fi
    sim_word=$(shown "$sim_status" "$untouched")
    gpu_word=$(shown "$gpu_status" "$untouched")
    rows+=("$chapter$sep$label$sep$sim_word$sep$gpu_word")
    chapter=""   # the chapter's name on its first row only
    total=$((total + 1))
    if [ "$sim_status" = passed ] && { [ -z "$gpu_status" ] || [ "$gpu_status" = passed ]; }; then
      passed=$((passed + 1))
    elif [ "$sim_word" = "not started" ]; then
      not_started=$((not_started + 1)); status=1
    else
      failed=$((failed + 1)); status=1
    fi
  done < "$log_dir/chapter${number}_sim.tsv"
done < "$manifest"
[ -t 2 ] && printf '\r%-40s\r' "" >&2

# The steps' column as wide as the longest title (46 at least).
width=46
for row in "${rows[@]}"; do
  IFS="$sep" read -r _ label _ _ <<<"$row"
  [ ${#label} -lt "$width" ] || width=$((${#label} + 1))
done
printf "%-14s %-${width}s %-12s %s\n" "Chapter" "Step" "Simulator" "GPU"
for row in "${rows[@]}"; do
  IFS="$sep" read -r chapter label sim_word gpu_word <<< "$row"
  printf "%-14s %-${width}s %-12s %s\n" "$chapter" "$label" "$sim_word" "$gpu_word"
done
echo
echo "$passed of $total steps pass ($not_started not started, $failed failed)."
if [ -n "$gpu_seen" ]; then
  echo "GPU: $gpu_seen; a step passes when it passes on both."
else
  echo "GPU: not run (no GPU answers here, or the build has no GPU backend): the simulator's results stand alone."
fi
for note in "${notes[@]}"; do echo "$note"; done
[ "$total" -gt 0 ] || { echo "No step was graded."; status=1; }
[ "$status" -eq 0 ] || echo "A chapter's full report: make check-chapterN (and those of this run: $log_dir)."
exit $status
