#!/usr/bin/env bash
# test_presets.sh CMAKE SOURCE_DIR
# CMakePresets.json is read by CMake and offers the sim, gpu and auto presets, each
# building in a folder of its own.
. "$(dirname "$0")/testing.sh"
cmake=$1 source_dir=$2
(cd "$source_dir" && "$cmake" --list-presets) > "$test_dir/out" 2>&1
status=$?
if grep -q -E "Unrecognized|unknown option|Unknown argument" "$test_dir/out"; then
  echo "SKIPPED: this CMake predates presets"
  exit 77
fi
expect_status 0 $status "cmake --list-presets"
cat "$test_dir/out"
for preset in sim gpu auto; do
  expect_line "$test_dir/out" "^ +\"$preset\"" "the $preset preset"
  expect_line "$source_dir/CMakePresets.json" "\"binaryDir\": \"\\\$\\{sourceDir\\}/build/$preset\"" "the $preset preset's own folder"
done
finish
