# testing.sh: what the tools' tests share. Sourced by each test script.
# Every test works in a temporary folder of its own, removed at the end, and never
# writes into the repository (chapters/ least of all).
set -u
test_dir=$(mktemp -d) || exit 1
trap 'rm -rf "$test_dir"' EXIT
failures=0

# expect_status WANTED ACTUAL WHAT
expect_status() {
  if [ "$2" -ne "$1" ]; then
    echo "FAIL: $3: exit code $2, expected $1"
    failures=$((failures + 1))
  fi
}

# expect_line FILE REGEX WHAT: some line of FILE matches the extended REGEX.
expect_line() {
  if ! grep -q -E -- "$2" "$1"; then
    echo "FAIL: $3: no line matches /$2/ in:"
    sed 's/^/  | /' "$1"
    failures=$((failures + 1))
  fi
}

# expect_no_line FILE REGEX WHAT
expect_no_line() {
  if grep -q -E -- "$2" "$1"; then
    echo "FAIL: $3: a line matches /$2/:"
    grep -E -- "$2" "$1" | sed 's/^/  | /'
    failures=$((failures + 1))
  fi
}

# expect_same FILE1 FILE2 WHAT
expect_same() {
  if ! cmp -s "$1" "$2"; then
    echo "FAIL: $3: $1 and $2 differ"
    failures=$((failures + 1))
  fi
}

# finish: the test's verdict, as its exit code.
finish() {
  if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed"
    exit 1
  fi
  echo "all checks passed"
  exit 0
}

# A small chapter of the workbook's shape, for the tools to work on: a solution with
# two steps' holes (step 2 in two places) and its skeleton, the solution minus them.
write_sample_chapter() {
  local dir=$1
  mkdir -p "$dir/solution" "$dir/learner"
  cat > "$dir/solution/sample.cu" <<'CODE'
// A sample kernel file.
__global__ void first_kernel(float* out) {
  //! [step 1 hole]
  out[threadIdx.x] = 1.0f;
  //! [step 1 hole]
}

__global__ void second_kernel(float* out) {
  const int i = threadIdx.x;
  //! [step 2a hole]
  out[i] = 2.0f;
  //! [step 2a hole]
  __syncthreads();
  //! [step 2b hole]
  out[i] += 1.0f;
  //! [step 2b hole]
}
CODE
  cat > "$dir/learner/sample.cu" <<'CODE'
// A sample kernel file.
__global__ void first_kernel(float* out) {
  // TODO(step 1): write 1 to this thread's element (about 1 line)
}

__global__ void second_kernel(float* out) {
  const int i = threadIdx.x;
  // TODO(step 2): write 2 to this thread's element (about 1 line)
  __syncthreads();
  // TODO(step 2): then add 1 to it (about 1 line)
}
CODE
}
