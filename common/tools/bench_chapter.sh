#!/usr/bin/env bash
# bench_chapter.sh TITLE "CUDA_BENCHES" "SIM_BENCHES"
# Runs the learner's and the reference benchmark on the GPU when one answers; otherwise
# says that speed needs a GPU and prints the simulator's counters instead.
set -u
title=$1 cuda_benches=$2 sim_benches=$3
if [ -n "$cuda_benches" ] && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "$title: speed on the GPU ($(date +%F)); learner first, then the reference solution"
  status=0
  for bench in $cuda_benches; do "$bench" || status=1; done
  exit $status
fi
echo "$title: speed needs a GPU, and none answers here. What the kernels did in the CPU simulator:"
for bench in $sim_benches; do "$bench"; done
