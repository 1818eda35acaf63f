#!/usr/bin/env bash
# check_chapter.sh TITLE CUDA_GRADER SIM_GRADER
# Grades the learner's file of a chapter in the CPU simulator, always (it checks the
# technique, races and exact causes, which a GPU cannot), and on the GPU as well when
# the GPU build exists and a GPU answers. Exit code 0 only when every report passes.
set -u
. "$(dirname "$0")/wb_common.sh"
title=$1 cuda_grader=$2 sim_grader=$3
status=0
summary=()
if [ -z "$sim_grader" ]; then
  echo "$title: the simulator is not built (configure with -DWB_BACKEND=auto or sim): it grades the technique"
  exit 1
fi
gpu=$(wb_gpu_name "$cuda_grader") || gpu=""
echo "== $title, in the CPU simulator (technique, races, causes)"
if "$sim_grader" --wb-report; then summary+=("simulator: passed"); else summary+=("simulator: FAILED"); status=1; fi
if [ -n "$gpu" ]; then
  echo
  echo "== $title, on the GPU: $gpu"
  if "$cuda_grader" --wb-report; then summary+=("GPU: passed"); else summary+=("GPU: FAILED"); status=1; fi
elif [ -n "$cuda_grader" ]; then
  summary+=("GPU: not run, no GPU answers here")
else
  summary+=("GPU: not run, this build has no GPU backend")
fi
echo
(IFS=';'; echo "$title: ${summary[*]}" | sed 's/;/; /g')
exit $status
