#!/usr/bin/env bash
# check_chapter.sh TITLE CUDA_GRADER SIM_GRADER [GPU_BACKEND]
# Grades the learner's file of a chapter in the CPU simulator, always (it checks the
# technique, races and exact causes, which a GPU cannot), and on the GPU as well when
# the GPU build exists and a GPU answers. Exit code 0 only when every report passes.
#
# GPU_BACKEND is "built" when the build has the GPU backend even though CUDA_GRADER is
# empty (no GPU answered at configure time, so the GPU grader is not built for this
# target), so that the summary tells that from a build without one.
# A build of the GPU backend alone (-DWB_BACKEND=cuda) has no SIM_GRADER: the GPU grades
# alone, and the report says which checks that leaves out.
set -u
. "$(dirname "$0")/wb_common.sh"
title=$1 cuda_grader=$2 sim_grader=$3 gpu_backend=${4:-}
status=0
summary=()
gpu=$(wb_gpu_name "$cuda_grader") || gpu=""
if [ -z "$sim_grader" ] && [ -z "$gpu" ]; then
  echo "$title: nothing here can grade it. This build has no CPU simulator (it was configured"
  echo "with -DWB_BACKEND=cuda), and no GPU answered when it was configured. The simulator grades"
  echo "without a GPU: configure a build folder with -DWB_BACKEND=auto (the default) or sim."
  exit 1
fi
if [ -n "$sim_grader" ]; then
  echo "== $title, in the CPU simulator (technique, races, causes)"
  if "$sim_grader" --wb-report; then summary+=("simulator: passed"); else summary+=("simulator: FAILED"); status=1; fi
else
  summary+=("simulator: not built (-DWB_BACKEND=cuda), so the technique, the races and the causes went unchecked")
fi
if [ -n "$gpu" ]; then
  [ -z "$sim_grader" ] || echo
  echo "== $title, on the GPU: $gpu"
  if "$cuda_grader" --wb-report; then summary+=("GPU: passed"); else summary+=("GPU: FAILED"); status=1; fi
elif [ -n "$cuda_grader" ] || [ "$gpu_backend" = built ]; then
  summary+=("GPU: not run, no GPU answers here")
else
  summary+=("GPU: not run, this build has no GPU backend")
fi
echo
(IFS=';'; echo "$title: ${summary[*]}" | sed 's/;/; /g')
if [ -z "$sim_grader" ] && [ "$status" -eq 0 ]; then
  echo "Only the results were graded: a build with the simulator (-DWB_BACKEND=auto) also checks how they were reached."
fi
exit $status
