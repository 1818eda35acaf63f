#!/usr/bin/env bash
# reset_chapter.sh TITLE LEARNER_DIR SOLUTION_DIR PRISTINE_DIR SKELETON_CHECK SOURCE_ROOT FILE...
# `make reset-chapterN`: puts each FILE of the chapter back as the skeleton it was, after
# saving the learner's version beside it as FILE.<time stamp>.bak. Nothing is ever lost:
# a saved file is never overwritten (a second reset in the same second gets its own
# name), the learner's file is replaced only once its copy is written and compared, and
# when a pristine skeleton cannot be found for every FILE, no file is touched at all.
#
# Where the pristine skeleton comes from, first that `skeleton_check` accepts (the
# solution minus its holes, so never the learner's own work):
#   1. PRISTINE_DIR/FILE, which the build saved while the file was still untouched
#      (save_pristine.sh), so a copy of the workbook without git works too;
#   2. the file's git history in SOURCE_ROOT, newest first (past the learner's commits).
set -u
. "$(dirname "$0")/wb_common.sh"
title=$1 learner_dir=$2 solution_dir=$3 pristine_dir=$4 skeleton_check=$5 source_root=$6
shift 6
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

# is_pristine SOLUTION CANDIDATE: whether CANDIDATE is the skeleton of SOLUTION.
is_pristine() {
  CI= "$skeleton_check" "$1" "$2" >/dev/null 2>&1
}

# find_pristine FILE OUT: writes the pristine skeleton of FILE to OUT; prints where from.
find_pristine() {
  local file=$1 out=$2 solution="$solution_dir/$1" relative commit
  if [ -f "$pristine_dir/$file" ] && is_pristine "$solution" "$pristine_dir/$file"; then
    cp "$pristine_dir/$file" "$out" && { echo "the copy the build saved"; return 0; }
  fi
  command -v git >/dev/null 2>&1 || return 1
  git -C "$source_root" rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 1
  relative=$(git -C "$source_root" ls-files --full-name -- "$learner_dir/$file" 2>/dev/null)
  [ -n "$relative" ] || return 1
  for commit in $(git -C "$source_root" log --format=%H -n 100 -- "$relative" 2>/dev/null); do
    git -C "$source_root" show "$commit:$relative" > "$out" 2>/dev/null || continue
    if is_pristine "$solution" "$out"; then
      echo "git, commit $(git -C "$source_root" log -1 --format='%h (%cs)' "$commit")"
      return 0
    fi
  done
  return 1
}

# save_copy FILE: copies FILE to a new FILE.<time stamp>[-N].bak, never over an existing
# file (noclobber makes the shell refuse), and prints the copy's path.
save_copy() {
  local base
  base="$1.$(wb_timestamp)"
  local candidate="$base.bak" n=1
  until (set -C; cat "$1" > "$candidate") 2>/dev/null; do
    n=$((n + 1))
    candidate="$base-$n.bak"
    [ "$n" -lt 100 ] || return 1
  done
  cmp -s "$1" "$candidate" || return 1
  echo "$candidate"
}

# Every file's skeleton is found before any file is touched.
for file in "$@"; do
  mkdir -p "$work/$(dirname "$file")"
  if ! from=$(find_pristine "$file" "$work/$file"); then
    echo "$title: no pristine skeleton of $learner_dir/$file was found: the build saves one at"
    echo "its first build (in $pristine_dir), and git history has one in a clone. Nothing was changed."
    echo "A fresh copy of the workbook has it as chapters/$(basename "$learner_dir")/$file."
    exit 1
  fi
  echo "$from" > "$work/$file.from"
done

status=0
for file in "$@"; do
  learner="$learner_dir/$file" saved=""
  if [ -f "$learner" ] && cmp -s "$learner" "$work/$file"; then
    echo "$title: $learner is the skeleton already; nothing to reset."
    continue
  fi
  if [ -f "$learner" ]; then
    if ! saved=$(save_copy "$learner"); then
      echo "$title: could not save a copy of $learner; it is left as it is."
      status=1
      continue
    fi
    echo "$title: saved your $learner as $saved"
  fi
  # Written beside it, then renamed over it: the learner's file is never half-written.
  if cp "$work/$file" "$learner.reset-$$" && mv "$learner.reset-$$" "$learner"; then
    echo "$title: $learner is the skeleton again (from $(cat "$work/$file.from"))."
  else
    rm -f "$learner.reset-$$"
    echo "$title: could not write $learner; your work is in ${saved:-$learner}."
    status=1
  fi
done
exit $status
