#!/usr/bin/env bash
# test_profile.sh PROFILE_SCRIPT SIM_BENCH
# profile-chapterN, on chapter 2's reference bench in the simulator (SIM_BENCH, which
# records its launches) and a stand-in ncu on the PATH that plays back a captured
# Nsight Compute CSV: each kernel's table with both sides, kernels matched across the
# two compilers' names, metrics an ncu lacks left out, one launch of each kernel asked
# for; then without a GPU (the simulator's side alone), and an ncu that profiled nothing.
. "$(dirname "$0")/testing.sh"
profile=$1 sim_bench=$2
here=$(cd "$(dirname "$0")" && pwd)
export PATH="$here/fakes:$PATH" FAKE_NCU_DIR="$test_dir/ncu"
mkdir -p "$FAKE_NCU_DIR"
cp "$here/samples/ncu_raw.csv" "$FAKE_NCU_DIR/raw.csv"
cp "$here/samples/ncu_query.txt" "$FAKE_NCU_DIR/query.txt"
cp "$here/fakes/fake_program.sh" "$test_dir/bench"
echo "Fake H100 (sm_90)" > "$test_dir/bench.probe"
run_profile() {  # run_profile CUDA_RUN: the output in $test_dir/out
  bash "$profile" "Chapter 2 (02_padded)" 2 ch02 "$1" "$sim_bench" "" "$test_dir/logs" > "$test_dir/out" 2>&1
}
# block KERNEL: the lines of KERNEL's table in $test_dir/out, into $test_dir/block.
block() {
  awk -v k="$1" '$1 == k { on = 1; print; next } on && /^  / { print; next } { on = 0 }' "$test_dir/out" > "$test_dir/block"
}

run_profile "$test_dir/bench"
expect_status 0 $? "a GPU profile"
cat "$test_dir/out"
expect_line "$test_dir/out" "^GPU: Fake H100 \(sm_90\), one launch of each kernel" "the GPU named"
block "column_sums_kernel<0>"
expect_line "$test_dir/block" "^  shared loads: wavefronts per request +31\.97 +31\.76 \(ideal 1\.00\)$" "unpadded: both sides"
expect_line "$test_dir/block" "^  shared loads: bank conflicts per request +31\.22 +30\.76$" "unpadded: conflicts"
expect_line "$test_dir/block" "^  DRAM throughput +865 GB/s \(26% of peak\)$" "bandwidth"
expect_line "$test_dir/block" "^  global stores: sectors per request +4\.00 +4\.00$" "coalesced stores"
expect_line "$test_dir/block" "^  cp\.async global reads: sectors per request +- +4\.00$" "a ratio whose metric this ncu lacks"
expect_line "$test_dir/block" "^  cp\.async: warp instructions \(a count\) +8388608 +8192 \(copies of 4/8/16 B: 262144/0/0\)$" "cp.async counts"
expect_line "$test_dir/block" "^  stalls \(warps per issued instruction\) +short_scoreboard 20\.75, long_scoreboard 12\.50, barrier 3\.10" "the main stalls"
expect_line "$test_dir/block" "^  launches +1 +1$" "one launch each"
block "column_sums_kernel<1>"
expect_line "$test_dir/block" "^  shared loads: wavefronts per request +1\.00 +1\.00$" "padded: both sides"
block "copy_tile_padded_kernel"
expect_line "$test_dir/block" "^  time of a launch +0\.725 ms$" "a kernel only the GPU ran"
expect_line "$test_dir/block" "^  launches +1 +-$" "no simulator launch of it"
args="$FAKE_NCU_DIR/args.txt"
expect_line "$args" "--kernel-id ::regex:ch02:1 " "the first launch of each chapter kernel"
expect_line "$args" "--kernel-name-base demangled" "matched on the namespace"
expect_line "$args" "^WB_BENCH_RUNS=1$" "the bench asked for one run"
expect_line "$args" "--metrics [^ ]*smsp__inst_executed_op_ldgsts\.sum" "a metric the GPU has"
expect_no_line "$args" "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts|stalled_mio_throttle" "metrics the query lacks left out"

# No GPU: the simulator's side alone, exit code 0.
run_profile ""
expect_status 0 $? "without a GPU build"
expect_line "$test_dir/out" "^GPU: not profiled: this build has no GPU backend" "why, without a GPU"
block "column_sums_kernel<0>"
expect_line "$test_dir/block" "^  shared loads: wavefronts per request +- +31\.76 \(ideal 1\.00\)$" "the simulator's side alone"
rm "$test_dir/bench.probe"
run_profile "$test_dir/bench"
expect_line "$test_dir/out" "^GPU: not profiled: no GPU answers here" "why, with no GPU answering"

# ncu that profiles nothing: exit code 1, its warning shown.
echo "Fake H100 (sm_90)" > "$test_dir/bench.probe"
rm "$FAKE_NCU_DIR/raw.csv"
run_profile "$test_dir/bench"
expect_status 1 $? "nothing profiled"
expect_line "$test_dir/out" "ncu profiled nothing \(exit 0\): ==WARNING== No kernels were profiled" "ncu's warning"
finish
