# wb_common.sh: what the learner's tools (check, check-all, sanitize, profile, reset)
# share. Sourced, never run: `. "$(dirname "$0")/wb_common.sh"`.

# wb_gpu_name CUDA_BINARY: prints the GPU that CUDA_BINARY (a grader or bench of the
# GPU build) would run on, and succeeds, when the binary exists and a GPU answers it;
# prints nothing and fails otherwise. The binary asks the CUDA runtime itself
# (--wb-probe-gpu), so the answer is the one its run would get.
wb_gpu_name() {
  [ -n "$1" ] && [ -x "$1" ] || return 1
  "$1" --wb-probe-gpu 2>/dev/null
}

# wb_find_tool NAME VARIABLE [DIR...]: the path of the program NAME: the value of the
# environment variable VARIABLE when set (a learner's own install, or a test's fake),
# else NAME on the PATH, else the first DIR that holds it (the CUDA toolkit's folders,
# which are often not on the PATH). Fails, printing nothing, when none has it.
wb_find_tool() {
  local name=$1 variable=$2 dir
  shift 2
  if [ -n "${!variable:-}" ]; then
    [ -x "${!variable}" ] && { echo "${!variable}"; return 0; }
    return 1
  fi
  command -v "$name" 2>/dev/null && return 0
  for dir in "$@"; do
    [ -n "$dir" ] && [ -x "$dir/$name" ] && { echo "$dir/$name"; return 0; }
  done
  return 1
}

# wb_timestamp: the time now, for file names (no colons: some file systems refuse them).
wb_timestamp() {
  date +%Y-%m-%dT%H-%M-%S
}
