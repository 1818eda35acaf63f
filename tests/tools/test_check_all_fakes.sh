#!/usr/bin/env bash
# test_check_all_fakes.sh CHECK_ALL SKELETON_CHECK FAKE_PROGRAM
# check-all's table from stand-in graders (a GPU one among them, which no machine of CI
# has): passed, FAILED, not started (the hole untouched), the GPU column, the count,
# and the exit code, 0 only when every step passes on every backend that ran.
. "$(dirname "$0")/testing.sh"
check_all=$1 skeleton_check=$2 fake=$3
tab=$'\t'

# Chapter 1: step 1 worked on, step 2 untouched; both fail in the simulator, no GPU.
write_sample_chapter "$test_dir/one"
awk '{ print } /TODO\(step 1\)/ { print "  out[threadIdx.x] = 0.0f;" }' "$test_dir/one/learner/sample.cu" \
  > "$test_dir/one/learner/sample.cu.new" && mv "$test_dir/one/learner/sample.cu.new" "$test_dir/one/learner/sample.cu"
cp "$fake" "$test_dir/one/sim"
printf 'S.Step1WriteOne\tfailed\tstep 1: write one\nS.Step2AddOne\tfailed\tstep 2: add one\n' > "$test_dir/one/sim.results"
# Chapter 2: the solution as the learner's file; passes in the simulator, step 2 fails on
# the GPU.
write_sample_chapter "$test_dir/two"
cp "$test_dir/two/solution/sample.cu" "$test_dir/two/learner/sample.cu"
cp "$fake" "$test_dir/two/sim"
cp "$fake" "$test_dir/two/gpu"
printf 'S.Step1WriteOne\tpassed\tstep 1: write one\nS.Step2AddOne\tpassed\tstep 2: add one\n' > "$test_dir/two/sim.results"
printf 'S.Step1WriteOne\tpassed\tstep 1: write one\nS.Step2AddOne\tcrashed\tstep 2: add one\n' > "$test_dir/two/gpu.results"
echo "Fake GPU (sm_90)" > "$test_dir/two/gpu.probe"
cp "$test_dir/one/learner/sample.cu" "$test_dir/one/before.cu"
manifest="$test_dir/manifest.tsv"
{
  echo "# number${tab}folder${tab}sim${tab}cuda${tab}learner${tab}solution${tab}files"
  echo "1${tab}01_one${tab}$test_dir/one/sim${tab}-${tab}$test_dir/one/learner${tab}$test_dir/one/solution${tab}sample.cu"
  echo "2${tab}02_two${tab}$test_dir/two/sim${tab}$test_dir/two/gpu${tab}$test_dir/two/learner${tab}$test_dir/two/solution${tab}sample.cu"
} > "$manifest"

bash "$check_all" "$manifest" "$skeleton_check" "$test_dir/logs" > "$test_dir/out" 2>&1
expect_status 1 $? "steps fail"
cat "$test_dir/out"
expect_line "$test_dir/out" '^1 one +1: write one +FAILED +-$' "a worked-on step that fails"
expect_line "$test_dir/out" '^ +2: add one +not started +-$' "an untouched step"
expect_line "$test_dir/out" '^2 two +1: write one +passed +passed$' "a step that passes on both"
expect_line "$test_dir/out" '^ +2: add one +passed +CRASHED$' "a step that crashes on the GPU"
expect_line "$test_dir/out" '^1 of 4 steps pass \(1 not started, 2 failed\)\.$' "the count"
expect_line "$test_dir/out" '^GPU: Fake GPU \(sm_90\)' "the GPU named"
expect_line "$test_dir/one/sim.calls" '^--wb-report --wb-results ' "the grader's report mode, with its results file"
expect_line "$test_dir/two/gpu.calls" '^--wb-report --wb-results ' "the GPU grader run too"
expect_same "$test_dir/one/before.cu" "$test_dir/one/learner/sample.cu" "the learner's file as it was"

# Everything passes: exit code 0.
printf 'S.Step1WriteOne\tpassed\tstep 1: write one\nS.Step2AddOne\tpassed\tstep 2: add one\n' > "$test_dir/two/gpu.results"
grep -v '^1' "$manifest" > "$test_dir/passing.tsv"
bash "$check_all" "$test_dir/passing.tsv" "$skeleton_check" "$test_dir/logs" > "$test_dir/out" 2>&1
expect_status 0 $? "every step passes"
expect_line "$test_dir/out" '^2 of 2 steps pass \(0 not started, 0 failed\)\.$' "the count when all pass"

# A grader that is not built, and one that gives no report at all.
rm "$test_dir/two/sim.results"
{
  echo "1${tab}01_one${tab}-${tab}-${tab}$test_dir/one/learner${tab}$test_dir/one/solution${tab}sample.cu"
  echo "2${tab}02_two${tab}$test_dir/two/sim${tab}-${tab}$test_dir/two/learner${tab}$test_dir/two/solution${tab}sample.cu"
} > "$test_dir/broken.tsv"
bash "$check_all" "$test_dir/broken.tsv" "$skeleton_check" "$test_dir/logs" > "$test_dir/out" 2>&1
expect_status 1 $? "graders missing or silent"
cat "$test_dir/out"
expect_line "$test_dir/out" '^1 one +\(not built\)' "a grader not built"
expect_line "$test_dir/out" '^2 two +\(no report\) +FAILED' "a grader without a report"
finish
