#!/usr/bin/env bash
# timeline_chapter.sh N "CUDA_PROGRAMS" "SIM_PROGRAMS" TIMELINE_SVG LOGS
# Runs the reference's and the learner's timeline program (solution first, then learner),
# on the GPU when one answers and the chapter is traced there, else in the simulator;
# then draws both into LOGS/timeline-chapterN.svg and prints its path and a line of
# summary for each.
set -u
number=$1 cuda_programs=$2 sim_programs=$3 timeline_svg=$4 logs=$5
mkdir -p "$logs"
programs=$sim_programs where=sim
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  if [ -n "$cuda_programs" ]; then
    programs=$cuda_programs where=gpu
  else
    echo "Chapter $number's calls are the CUDA C++ library's, which the GPU's trace build does not see:"
    echo "this is the simulator's timeline."
  fi
fi
read -r reference_program learner_program <<<"$programs"
reference="$logs/timeline-chapter$number-reference.$where.txt"
learner="$logs/timeline-chapter$number-learner.$where.txt"
export WB_SIM_QUIET=1  # the grader reports the simulator's warnings; here they would hide the summary
"$reference_program" "$reference" || { echo "The reference's timeline failed (above)."; exit 1; }
"$learner_program" "$learner" || exit 1
"$timeline_svg" "$logs/timeline-chapter$number.svg" "$reference" "$learner"
