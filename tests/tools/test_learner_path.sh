#!/usr/bin/env bash
# test_learner_path.sh SOURCE_DIR BINARY_DIR CMAKE SKELETON_CHECK
# A learner's everyday path, off CI's own road, on a copy of the workbook (a git
# repository of its own, as a clone is) in a temporary folder:
#   1. chapter 1 filled in, then a build folder made fresh with the default generator
#      (Unix Makefiles, which unlike Ninja does not make an output's folder) and the
#      Release build type, a common habit: `make check-chapter1` builds and passes;
#   2. the simulator's kernel objects carry line tables in that Release build, and a
#      race's message names the learner's file and its lines (not "copy.cu:?");
#   3. `make reset-chapter1` in another fresh build folder, before anything was built
#      there, puts the skeleton back and saves the learner's file first.
# Only chapter 1's targets are built, never the whole project. The simulator alone
# (-DWB_BACKEND=sim): nvcc's build is not what this test is about.
# Skipped (77) where this checkout's chapter 1 is not the untouched skeleton, which
# the copy needs as its committed state.
. "$(dirname "$0")/testing.sh"
source_dir=$1 binary_dir=$2 cmake=$3 skeleton_check=$4
skeleton="chapters/01_copy/copy.cu"
if ! CI= "$skeleton_check" "$source_dir/solutions/01_copy/copy.cu" "$source_dir/$skeleton" >/dev/null 2>&1; then
  echo "SKIPPED: $skeleton is no longer the untouched skeleton here"
  exit 77
fi
command -v git >/dev/null || { echo "SKIPPED: git is not installed"; exit 77; }

# The copy: the working tree as it is (this build folder and every build* folder left
# out), committed, as a learner's clone is.
work="$test_dir/workbook"
mkdir -p "$work"
binary_name=$(basename "$binary_dir")
tar -C "$source_dir" --exclude=./.git --exclude="./$binary_name" --exclude='./build*' -cf - . | tar -C "$work" -xf -
(cd "$work" && git init -q && git add -A && git -c user.name=learner -c user.email=learner@example.com \
   commit -qm "the workbook as cloned") || { echo "FAIL: could not make the copy a git repository"; exit 1; }
unset CMAKE_GENERATOR CMAKE_BUILD_TYPE WB_SIM_SCHEDULE WB_HINTS
export WB_SIM_QUIET=1

# 1. Chapter 1 filled in, then a fresh build folder: Makefiles, Release.
cp "$work/solutions/01_copy/copy.cu" "$work/$skeleton"
"$cmake" -S "$work" -B "$work/build" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release -DWB_BACKEND=sim \
  > "$test_dir/configure" 2>&1
expect_status 0 $? "configure a fresh build folder (Unix Makefiles, Release)"
(cd "$work/build" && make -j2 chapter1_pristine check-chapter1) > "$test_dir/check" 2>&1
expect_status 0 $? "make check-chapter1 on a filled-in chapter 1, in a fresh build folder"
expect_line "$test_dir/check" "Chapter 1 \\(01_copy\\): simulator: passed" "the report's summary"
expect_no_line "$test_dir/check" "failed to update|No such file or directory" "no build step stops"
# A learner's build makes none of the maintainers' tests (WB_MAINTAINER_TESTS is off).
(cd "$work/build" && make help) > "$test_dir/targets" 2>&1
expect_line "$test_dir/targets" "check-chapter1$" "the learner's targets listed"
expect_no_line "$test_dir/targets" "rejects|_wrong_plain_loads|ptx_widths|sim_tests|runtime_tests|headers_alone" \
  "no known-wrong kernel beyond the book's, no self-test, no PTX tool"
# A one-line edit of chapter 1: check-chapter1 compiles that file again and links its
# grader, and nothing else.
echo "// a learner's note" >> "$work/$skeleton"
(cd "$work/build" && make check-chapter1) > "$test_dir/edit" 2>&1
expect_status 0 $? "make check-chapter1 after a one-line edit"
expect_line "$test_dir/edit" "Building CXX object .*chapter1_learner_sim.*copy_cu" "the edited file compiled again"
expect_no_line "$test_dir/edit" "Building CXX object .*(chapter[2-9]|solution|wb_runtime|wb_grading|grader_chapter|bench|timeline)" \
  "nothing but the edited file compiled"

# 2. Line tables on the kernel objects, and a message that names the learner's lines.
object=$(find "$work/build" -path '*chapter1_learner_sim*' -name '*copy_cu.cpp.o' | head -1)
if [ -z "$object" ]; then
  echo "FAIL: no object of chapter 1's kernel file in the build folder"
  failures=$((failures + 1))
elif ! objdump -h "$object" | grep -q '\.debug_line'; then
  echo "FAIL: $object has no line table (.debug_line) in a Release build: the simulator would name no line"
  failures=$((failures + 1))
fi
cp "$work/build/wrong/chapter1/missing_barrier/copy.cu" "$work/$skeleton"
(cd "$work/build" && make check-chapter1) > "$test_dir/race" 2>&1
expect_status 2 $? "make check-chapter1 on a kernel without its barrier (make's code for a failed command)"
expect_line "$test_dir/race" "chapters/01_copy/copy\\.cu:[0-9]+: block .*a race on shared memory.*(wrote|read) at chapters/01_copy/copy\\.cu:[0-9]+" \
  "the race names the learner's file and both lines"
expect_no_line "$test_dir/race" "copy\\.cu:\\?|_cu\\.cpp:" "no line left unnamed, no generated wrapper named"

# 3. reset-chapter1 in a fresh build folder, nothing built there yet.
cp "$work/$skeleton" "$test_dir/learners_copy.cu"
"$cmake" -S "$work" -B "$work/build-fresh" -G "Unix Makefiles" -DWB_BACKEND=sim > "$test_dir/configure2" 2>&1
(cd "$work/build-fresh" && make reset-chapter1) > "$test_dir/reset" 2>&1
expect_status 0 $? "make reset-chapter1 before any build"
expect_line "$test_dir/reset" "is the skeleton again" "the reset says what it did"
if ! (cd "$work" && git diff --quiet -- "$skeleton"); then
  echo "FAIL: $skeleton is not the committed skeleton after the reset"
  failures=$((failures + 1))
fi
saved=$(sed -n 's/.*saved your .* as \(.*\)$/\1/p' "$test_dir/reset")
if [ -z "$saved" ] || ! cmp -s "$saved" "$test_dir/learners_copy.cu"; then
  echo "FAIL: the learner's file was not saved before the reset (saved as '${saved}')"
  failures=$((failures + 1))
fi
if [ "$failures" -gt 0 ]; then
  for log in configure check race reset; do echo "== $log"; tail -25 "$test_dir/$log"; done
fi
finish
