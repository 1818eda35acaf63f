# Sample output for the book, from the tools themselves: runs a grader's report (or the
# check script around it) and writes what it printed to OUTPUT as a block of unparsed
# code, which a page pulls in with \includedoc (a block of lines, unlike \verbinclude's
# one <pre>, lets a wrapped line hang under its start). The book is rebuilt from it every
# time, so a sample can never drift from what the tools print today.
#
#   cmake -DOUTPUT=<file> -DGRADER=<exe> [-DCHECK_SCRIPT=<check_chapter.sh> -DTITLE=<title>]
#         [-DBUILD_DIR=<dir>] [-DSOURCE_DIR=<dir>] [-DSHOWN_AS=<path>/]
#         [-DSKELETON_CHECK=<exe> -DSOLUTION=<file> -DSKELETON=<file>] -P capture_report.cmake
#
# runs `GRADER --wb-report`, or, with CHECK_SCRIPT, the script as `make check-chapterN`
# runs it in a build without a GPU backend.
#
# The samples show reports of failing kernels (that is what a report is for), so the
# command must fail: one that passes means the sample no longer shows what its page
# says, and the book's build stops here. The data come from one fixed seed and the
# simulator's default order, whatever the caller's environment says, so that the same
# code prints the same sample on every machine.
#
# Paths: a known-wrong kernel is compiled from <BUILD_DIR>/wrong/chapterN/<name>/, and
# messages name the file with its absolute path; both prefixes are cut, and SHOWN_AS
# (such as chapters/01_copy/) stands for the wrong kernel's folder, so that the sample
# names the file as a learner's report would name their own.
#
# With SKELETON_CHECK, the command grades the learner's own file: once it has been worked
# on, the sample is no longer the untouched skeleton's, and it says so on its first line.

foreach(required OUTPUT GRADER)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "capture_report.cmake needs -D${required}=...")
  endif()
endforeach()

set(ENV{WB_SEED} 1)
foreach(variable WB_HINTS WB_SIM_SCHEDULE WB_SIM_QUIET WB_STEP_TIMEOUT)
  unset(ENV{${variable}})
endforeach()

set(note "")
if(DEFINED SKELETON_CHECK)
  execute_process(COMMAND "${SKELETON_CHECK}" "${SOLUTION}" "${SKELETON}"
                  RESULT_VARIABLE pristine OUTPUT_QUIET ERROR_QUIET)
  if(NOT pristine EQUAL 0)
    set(note "(This build's ${SKELETON} is no longer the untouched skeleton: this is what it gives now.)\n\n")
  endif()
endif()

# (Each call spelled out: a list variable would drop the script's empty argument, the
# GPU grader that a build without a GPU backend does not have.)
if(DEFINED CHECK_SCRIPT)
  set(command "bash ${CHECK_SCRIPT} \"${TITLE}\" \"\" ${GRADER}")
  execute_process(COMMAND bash "${CHECK_SCRIPT}" "${TITLE}" "" "${GRADER}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE report ERROR_VARIABLE report)
else()
  set(command "${GRADER} --wb-report")
  execute_process(COMMAND "${GRADER}" --wb-report
                  RESULT_VARIABLE status OUTPUT_VARIABLE report ERROR_VARIABLE report)
endif()
if(status EQUAL 0 AND note STREQUAL "")
  message(FATAL_ERROR "the sample for ${OUTPUT} shows a failing report, but this command passed:\n"
                      "${command}\n${report}")
endif()
if(report STREQUAL "")
  message(FATAL_ERROR "the command for ${OUTPUT} printed nothing: ${command}")
endif()

if(DEFINED BUILD_DIR)
  # The build folder as a regular expression that matches it literally.
  string(REGEX REPLACE "([][+.*?()^$|\\\\{}])" "\\\\\\1" build_dir_regex "${BUILD_DIR}")
  string(REGEX REPLACE "${build_dir_regex}/wrong/chapter[0-9]+/[A-Za-z0-9_]+/" "${SHOWN_AS}" report "${report}")
endif()
if(DEFINED SOURCE_DIR)
  string(REPLACE "${SOURCE_DIR}/" "" report "${report}")
endif()

string(STRIP "${report}" report)
file(WRITE "${OUTPUT}.new" "\\code{.unparsed}\n${note}${report}\n\\endcode\n")
# Rewritten only when it changed, so that an unchanged sample does not look new.
configure_file("${OUTPUT}.new" "${OUTPUT}" COPYONLY)
file(REMOVE "${OUTPUT}.new")
