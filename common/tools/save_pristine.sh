#!/usr/bin/env bash
# save_pristine.sh SKELETON_CHECK SOLUTION SKELETON STORED
# Run by the build: while the learner's SKELETON is still untouched (the solution minus
# its holes, as skeleton_check says), keeps a copy of it as STORED, from which
# `make reset-chapterN` can put it back later without git. Once the learner has worked
# on the file, it leaves STORED as it is. Never fails the build.
skeleton_check=$1 solution=$2 skeleton=$3 stored=$4
if CI= "$skeleton_check" "$solution" "$skeleton" >/dev/null 2>&1; then
  mkdir -p "$(dirname "$stored")" &&
    cp "$skeleton" "$stored.new.$$" && mv "$stored.new.$$" "$stored"
fi
exit 0
