#!/usr/bin/env bash
# save_pristine.sh SKELETON_CHECK SOLUTION SKELETON STORED
# Run by the build: while the learner's SKELETON is still untouched (the solution minus
# its holes, as skeleton_check says), keeps a copy of it as STORED, from which
# `make reset-chapterN` can put it back later without git. Once the learner has worked
# on the file, it leaves STORED as it is. Never fails the build.
# STORED's folder is made either way: the build touches a stamp beside STORED, and Make
# (unlike Ninja) does not make an output's folder, so a build folder made fresh after
# the learner's edits would stop there.
skeleton_check=$1 solution=$2 skeleton=$3 stored=$4
mkdir -p "$(dirname "$stored")"
if CI= "$skeleton_check" "$solution" "$skeleton" >/dev/null 2>&1; then
  cp "$skeleton" "$stored.new.$$" && mv "$stored.new.$$" "$stored"
fi
exit 0
