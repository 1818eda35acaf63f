#!/usr/bin/env bash
# check_chapter.sh TITLE CUDA_GRADER SIM_GRADER
# Grades the learner's file of a chapter on the GPU when the GPU build exists and a GPU
# answers, otherwise in the CPU simulator, and says which. Exit code: the grader's.
set -u
title=$1 cuda_grader=$2 sim_grader=$3
if [ -n "$cuda_grader" ] && device=$("$cuda_grader" --wb-probe-gpu 2>/dev/null); then
  echo "$title: grading on the GPU, $device"
  exec "$cuda_grader" --wb-report
fi
if [ -z "$sim_grader" ]; then
  echo "$title: no GPU answers and the simulator is not built (configure with -DWB_BACKEND=auto or sim)"
  exit 1
fi
if [ -n "$cuda_grader" ]; then
  echo "$title: no GPU answers here, so the kernels run in the CPU simulator"
else
  echo "$title: grading in the CPU simulator (this build has no GPU backend)"
fi
exec "$sim_grader" --wb-report
