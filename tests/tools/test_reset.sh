#!/usr/bin/env bash
# test_reset.sh RESET_SCRIPT SKELETON_CHECK
# reset-chapterN on a sample chapter in a temporary folder: the learner's file is saved
# (never over an earlier save) before the skeleton is put back, from the build's copy or
# from git history past the learner's own commits; with no pristine skeleton anywhere,
# nothing is touched.
. "$(dirname "$0")/testing.sh"
reset=$1 skeleton_check=$2
write_sample_chapter "$test_dir"
learner="$test_dir/learner/sample.cu"
store="$test_dir/pristine"
mkdir -p "$store"
cp "$learner" "$store/sample.cu"
cp "$learner" "$test_dir/pristine.cu"
run_reset() {  # run_reset STORE SOURCE_ROOT: the output in $test_dir/out
  bash "$reset" "Chapter 9 (09_sample)" "$test_dir/learner" "$test_dir/solution" "$1" "$skeleton_check" "$2" \
    sample.cu > "$test_dir/out" 2>&1
}
saved_copies() { ls "$test_dir/learner" | grep -c '^sample\.cu\..*\.bak$'; }

# 1. From the build's copy: the learner's work saved, then the skeleton back.
echo "  out[threadIdx.x] = 42.0f;  // my first try" >> "$learner"
cp "$learner" "$test_dir/first_try.cu"
run_reset "$store" "$test_dir/no-git"
expect_status 0 $? "reset from the build's copy"
cat "$test_dir/out"
expect_same "$test_dir/pristine.cu" "$learner" "the skeleton is back"
first_saved=$(sed -n 's/.*saved your .* as \(.*\)$/\1/p' "$test_dir/out")
expect_line "$test_dir/out" "saved your $learner as $learner\\.[0-9T-]+\\.bak$" "both paths printed"
[ -n "$first_saved" ] && expect_same "$test_dir/first_try.cu" "$first_saved" "the first try saved whole"

# 2. A second reset within the same second gets a file of its own.
echo "  out[threadIdx.x] = 43.0f;  // my second try" >> "$learner"
cp "$learner" "$test_dir/second_try.cu"
run_reset "$store" "$test_dir/no-git"
expect_status 0 $? "a second reset"
second_saved=$(sed -n 's/.*saved your .* as \(.*\)$/\1/p' "$test_dir/out")
[ "$second_saved" != "$first_saved" ] || { echo "FAIL: the second save reused $first_saved"; failures=$((failures + 1)); }
[ -n "$first_saved" ] && expect_same "$test_dir/first_try.cu" "$first_saved" "the first save is still the first try"
[ -n "$second_saved" ] && expect_same "$test_dir/second_try.cu" "$second_saved" "the second try saved"
[ "$(saved_copies)" -eq 2 ] || { echo "FAIL: $(saved_copies) saved copies, expected 2"; failures=$((failures + 1)); }

# 3. A file that is the skeleton already: nothing saved.
run_reset "$store" "$test_dir/no-git"
expect_status 0 $? "a reset of the skeleton"
expect_line "$test_dir/out" "is the skeleton already" "nothing to do said"
[ "$(saved_copies)" -eq 2 ] || { echo "FAIL: a save of an untouched skeleton"; failures=$((failures + 1)); }

# 4. No pristine copy anywhere (the stored one is the learner's work, which
#    skeleton_check rejects; no git): nothing touched, a non-zero exit.
echo "  out[threadIdx.x] = 44.0f;" >> "$learner"
cp "$learner" "$test_dir/third_try.cu"
mkdir -p "$test_dir/bad-store"
cp "$learner" "$test_dir/bad-store/sample.cu"
run_reset "$test_dir/bad-store" "$test_dir/no-git"
expect_status 1 $? "no pristine skeleton found"
expect_line "$test_dir/out" "no pristine skeleton" "why said"
expect_same "$test_dir/third_try.cu" "$learner" "the learner's file left alone"
[ "$(saved_copies)" -eq 2 ] || { echo "FAIL: a save without a reset"; failures=$((failures + 1)); }

# 5. From git history, past the learner's own commit of their work.
if command -v git >/dev/null 2>&1; then
  repo="$test_dir/repo"
  mkdir -p "$repo/chapters/09_sample"
  cp "$test_dir/pristine.cu" "$repo/chapters/09_sample/sample.cu"
  git -C "$repo" init -q && git -C "$repo" add . &&
    git -C "$repo" -c user.name=t -c user.email=t@t commit -q -m skeleton &&
    echo "  out[threadIdx.x] = 45.0f;" >> "$repo/chapters/09_sample/sample.cu" &&
    git -C "$repo" -c user.name=t -c user.email=t@t commit -q -am "my work" &&
    echo "  out[threadIdx.x] = 46.0f;" >> "$repo/chapters/09_sample/sample.cu"
  cp "$repo/chapters/09_sample/sample.cu" "$test_dir/fourth_try.cu"
  bash "$reset" "Chapter 9 (09_sample)" "$repo/chapters/09_sample" "$test_dir/solution" "$test_dir/empty-store" \
    "$skeleton_check" "$repo" sample.cu > "$test_dir/out" 2>&1
  expect_status 0 $? "reset from git"
  cat "$test_dir/out"
  expect_line "$test_dir/out" "from git, commit" "the skeleton's origin said"
  expect_same "$test_dir/pristine.cu" "$repo/chapters/09_sample/sample.cu" "the skeleton from git, not the learner's commit"
  saved=$(ls "$repo/chapters/09_sample/"sample.cu.*.bak)
  expect_same "$test_dir/fourth_try.cu" "$saved" "the uncommitted work saved"
else
  echo "(git is not installed: the git case is not run)"
fi
finish
