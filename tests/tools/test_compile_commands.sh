#!/usr/bin/env bash
# test_compile_commands.sh DATABASE SOURCE_DIR KERNEL_COMPILER
# compile_commands.json has an entry for every kernel file of chapters/ and solutions/,
# named as itself (not the simulator's generated wrapper), so that an editor's language
# server reads it with the build's flags. KERNEL_COMPILER says whose entry that is: nvcc's
# (`-x cu`) where the GPU build compiles the kernel files, else the simulator's (`-x c++`).
. "$(dirname "$0")/testing.sh"
database=$1 source_dir=$2 kernel_compiler=$3
[ -f "$database" ] || { echo "FAIL: $database is missing"; exit 1; }
for file in "$source_dir"/chapters/*/*.cu "$source_dir"/solutions/*/*.cu; do
  expect_line "$database" "\"file\" ?: \"$file\"" "an entry for ${file#"$source_dir"/}"
done
case $kernel_compiler in
  nvcc) expect_line "$database" "nvcc .*-std=[a-z+]*17 .*-x cu -c $source_dir/chapters/01_copy/copy.cu" \
          "a kernel file with nvcc's own entry, compiled as CUDA C++17" ;;
  sim) expect_line "$database" "-std=[a-z+]*17 .*-x c\\+\\+ $source_dir/chapters/01_copy/copy.cu" \
         "a kernel file compiled as C++17, the standard spelled out for clang" ;;
esac
finish
