#!/usr/bin/env bash
# profile_chapter.sh TITLE NUMBER NAMESPACE CUDA_RUN SIM_RUN TOOLKIT_BIN LOG_DIR
# `make profile-chapterN`: the learner's kernels under Nsight Compute (ncu) with the few
# metrics the chapters are about (shared-memory wavefronts and bank conflicts, global
# sectors per request, cp.async instructions, DRAM throughput, the main stall reasons),
# one launch of each kernel (of NAMESPACE) of CUDA_RUN (the chapter's GPU bench, made to
# run each kernel once by WB_BENCH_RUNS=1), printed as a short table per kernel beside
# what the CPU simulator counted for the same kernels in SIM_RUN (its bench, with
# WB_SIM_LAUNCH_LOG). Without a GPU or ncu, it says so and prints the simulator's side.
#
# Exit codes: 0 the table was printed (the GPU's side too, where a GPU and ncu are
# there); 1 ncu ran but profiled nothing, or failed; 2 neither side could run.
set -u
. "$(dirname "$0")/wb_common.sh"
title=$1 number=$2 namespace=$3 cuda_run=$4 sim_run=$5 toolkit_bin=$6 log_dir=$7
mkdir -p "$log_dir" || exit 2
here=$(dirname "$0")

# The metrics, each a name Nsight Compute knows on Ampere and Hopper; those a GPU or ncu
# version lacks are left out (an unknown name would stop the whole run) and show as "-".
metrics=(
  gpu__time_duration.sum
  dram__bytes.sum.per_second
  dram__throughput.avg.pct_of_peak_sustained_elapsed
  smsp__sass_inst_executed_op_shared_ld.sum
  smsp__sass_inst_executed_op_shared_st.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
  smsp__inst_executed_op_ldgsts.sum
  smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
  smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
  smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
  smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
  smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
  smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
)

# known_metrics NCU: the metrics above that `ncu --query-metrics` lists for this GPU
# (by base name, before the first dot), comma-separated; all of them when the query
# says nothing usable, so that an unexpected listing never empties the profile.
known_metrics() {
  local listing kept=() metric
  listing=$(LC_ALL=C "$1" --query-metrics 2>/dev/null)
  for metric in "${metrics[@]}"; do
    echo "$listing" | grep -q -E "^${metric%%.*}([[:space:]]|$)" && kept+=("$metric")
  done
  [ ${#kept[@]} -gt 0 ] || kept=("${metrics[@]}")
  (IFS=,; echo "${kept[*]}")
}

# The simulator's side: the same kernels, counted per launch.
sim_log="$log_dir/chapter${number}_sim_launches.tsv"
: > "$sim_log"
sim_note=""
if [ -n "$sim_run" ] && [ -x "$sim_run" ]; then
  WB_SIM_LAUNCH_LOG="$sim_log" WB_SIM_QUIET=1 "$sim_run" > "$log_dir/chapter${number}_sim_run.txt" 2>&1 ||
    sim_note="the simulator's run stopped early (exit $?: $log_dir/chapter${number}_sim_run.txt says why)"
else
  sim_note="the simulator is not built"
fi

# The GPU's side.
csv="$log_dir/chapter${number}_ncu.csv"
: > "$csv"
status=0 gpu="" gpu_note=""
if [ -z "$cuda_run" ]; then
  gpu_note="this build has no GPU backend (no nvcc when it was configured)"
elif [ ! -x "$cuda_run" ]; then
  gpu_note="the GPU build of this chapter is not built, since no GPU answered when the build was configured"
elif ! gpu=$(wb_gpu_name "$cuda_run"); then
  gpu_note="no GPU answers here"
elif ! ncu=$(wb_find_tool ncu WB_NCU "$toolkit_bin" $(ls -d /opt/nvidia/nsight-compute/*/ 2>/dev/null | sort -rV)); then
  gpu_note="Nsight Compute (ncu) is not on the PATH, nor in $toolkit_bin or /opt/nvidia/nsight-compute"
  gpu=""
else
  report="$log_dir/chapter${number}"
  rm -f "$report.ncu-rep"
  # The first launch of each of the chapter's kernels (--kernel-id's last field: the
  # invocation, counted per kernel and launch shape), with nothing else of the bench
  # (cudaMemcpy, cuBLAS) profiled; the report is read back as CSV afterwards.
  LC_ALL=C WB_BENCH_RUNS=1 timeout "${WB_PROFILE_TIMEOUT:-600}" "$ncu" --force-overwrite --export "$report" \
    --kernel-name-base demangled --kernel-id "::regex:${namespace}:1" \
    --metrics "$(known_metrics "$ncu")" "$cuda_run" > "$log_dir/chapter${number}_gpu_run.txt" 2>&1
  run_status=$?
  if [ -s "$report.ncu-rep" ]; then
    LC_ALL=C "$ncu" --import "$report.ncu-rep" --page raw --csv --print-units base > "$csv" 2>> "$log_dir/chapter${number}_gpu_run.txt"
    [ "$run_status" -eq 0 ] ||
      gpu_note="the GPU run ended with exit $run_status (wrong results? make check-chapter$number says; $log_dir/chapter${number}_gpu_run.txt)"
  else
    why=$(grep -E '^==(ERROR|WARNING)==' "$log_dir/chapter${number}_gpu_run.txt" | head -3)
    gpu_note="ncu profiled nothing (exit $run_status): ${why:-see $log_dir/chapter${number}_gpu_run.txt}"
    status=1
  fi
fi

echo "== $title: your kernels on the GPU (Nsight Compute) beside the CPU simulator's counts"
if [ -n "$gpu" ] && [ "$status" -eq 0 ]; then
  echo "GPU: $gpu, one launch of each kernel at the bench's sizes (bench-chapter$number)."
else
  echo "GPU: not profiled: $gpu_note."
fi
[ -z "$sim_note" ] || echo "Simulator: $sim_note."
echo "The simulator runs smaller sizes: compare the ratios, not the counts."
awk -f "$here/profile_table.awk" "$csv" "$sim_log"
[ -z "$gpu_note" ] || [ -z "$gpu" ] || echo "Note: $gpu_note."
if [ ! -s "$csv" ] && [ ! -s "$sim_log" ]; then
  exit 2
fi
exit $status
