#!/usr/bin/env bash
# bench_chapter.sh TITLE "CUDA_BENCHES" "SIM_BENCHES" NAMESPACE
# Runs the learner's and the reference benchmark on the GPU when one answers, each
# followed by the registers and local memory of the chapter's kernels (those in
# NAMESPACE) as the binary records them; otherwise says that speed needs a GPU and
# prints the simulator's counters instead.
set -u
title=$1 cuda_benches=$2 sim_benches=$3 namespace=$4

# resource_usage BENCH: one line per kernel of the chapter: registers per thread, local
# memory per thread (register spills, or arrays indexed at run time) and static shared
# memory per block, from `cuobjdump --dump-resource-usage` (part of the CUDA toolkit).
resource_usage() {
  if ! command -v cuobjdump >/dev/null 2>&1; then
    echo "  (registers and spills: cuobjdump, from the CUDA toolkit, is not on the PATH)"
    return
  fi
  local demangle=cat
  command -v cu++filt >/dev/null 2>&1 && demangle=cu++filt
  command -v c++filt >/dev/null 2>&1 && demangle=c++filt
  echo "  registers and local memory per thread of $(basename "$1")'s kernels (cuobjdump; LOCAL > 0 means spills):"
  cuobjdump --dump-resource-usage "$1" 2>/dev/null |
    awk -v ns="$namespace" '
      /Function / { name = $2; sub(/:$/, "", name); next }
      name != "" && /REG:/ { if (index(name, ns) > 0) print name, $1, $2, $3, $4; name = "" }' |
    while read -r name registers stack shared local; do
      printf "    %-40s %-8s %-8s %-8s %s\n" \
        "$(echo "$name" | $demangle | sed -E 's/\(anonymous namespace\):://g; s/^[A-Za-z_0-9]+:://; s/\([^(]*$//')" \
        "$registers" "$local" "$stack" "$shared"
    done
}
if [ -n "$cuda_benches" ] && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "$title: speed on the GPU ($(date +%F)); learner first, then the reference solution"
  status=0
  for bench in $cuda_benches; do
    "$bench" || status=1
    resource_usage "$bench"
  done
  exit $status
fi
echo "$title: speed needs a GPU, and none answers here. What the kernels did in the CPU simulator:"
for bench in $sim_benches; do "$bench"; done
