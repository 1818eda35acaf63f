# wb_add_chapter: everything one chapter of the workbook needs.
#
#   wb_add_chapter(1 01_copy
#     KERNELS copy.cu                       # in chapters/01_copy and solutions/01_copy
#     GRADER  tests/chapters/grade_01_copy.cpp
#     BENCH   bench/bench_01_copy.cpp
#     WRONG   tests/wrong/01_copy/wrong_kernels.cmake
#     SKELETON_FAILS_WITH "TODO\\(step 1\\)")
#
# BENCH_BESIDE names chapters whose references the bench runs in the same table (chapter
# 5's bench beside chapters 1 and 4), and BENCH_CUBLAS links cuBLAS into its GPU build.
#
# SM90_KERNELS names the files among KERNELS that use Hopper's instructions (bulk and
# tensor copies): on the GPU backend they are compiled for sm_90 only, in an object
# library of their own, and their reference's PTX must hold each of SM90_PTX_INSTRUCTIONS.
#
# makes, for each backend:
#   chapterN_learner_<b>, chapterN_solution_<b>   the kernels (learner's and reference)
#   grade_chapterN_learner_<b>, grade_chapterN_solution_<b>   the grader linked to each
# and the targets and tests:
#   check-chapterN   grades the learner's file: on the GPU if there is one, else in the
#                    simulator; a short report, exit code 0 only if every step passes
#   bench-chapterN   the learner's and the reference kernel beside cudaMemcpy (GPU), or
#                    the simulator's counters
#   timeline-chapterN  where TIMELINE names a timeline program: the reference's and the
#                    learner's copies, waits and barriers drawn warp by warp (an SVG in
#                    build/logs/), measured on the GPU or in the simulator's logical time
#                    (TIMELINE_SIM_ONLY: the simulator's only; SERIALISED_FIND and
#                    SERIALISED_REPLACE: the reference serialised, whose timeline the
#                    book shows beside the reference's)
#   sanitize-chapterN, profile-chapterN, reset-chapterN   the learner's tools
#                    (wb_chapter_learner_tools, below); check-all grades every chapter
#                    (wb_add_check_all, called once all chapters are added)
#   ctest: the reference passes every step (each backend); the skeleton structure check;
#          the untouched skeleton is rejected with a message that points at its TODO;
#          each known-wrong kernel of WRONG is rejected with the right diagnosis.

set(WB_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(WB_EXPECT_REJECTION "${CMAKE_CURRENT_LIST_DIR}/ExpectRejection.cmake")
set(WB_CHECK_SCRIPT "${PROJECT_SOURCE_DIR}/common/tools/check_chapter.sh")
set(WB_BENCH_SCRIPT "${PROJECT_SOURCE_DIR}/common/tools/bench_chapter.sh")
set(WB_TOOLS_DIR "${PROJECT_SOURCE_DIR}/common/tools")
# Where the learner's tools keep their full outputs (the reports they summarise).
set(WB_TOOL_LOGS "${PROJECT_BINARY_DIR}/logs")
# Where make probe-memory leaves this GPU's DRAM latency, which the benches read to say how
# many bytes each SM needs in flight.
set(WB_PROBE_FILE "${WB_TOOL_LOGS}/memory_probe.txt")
file(MAKE_DIRECTORY "${WB_TOOL_LOGS}")

# The learner's half-done file must build: unused set-up variables and parameters (a
# function whose whole body is a hole) are expected there, and a mistake the compiler
# warns of (`row + 32` for `row += 32`) is shown, never an error, so that the grader can
# explain it.
function(wb_relax_learner_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wno-unused-variable -Wno-unused-but-set-variable -Wno-unused-parameter -Wno-error=unused-value>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wno-unused-variable,-Wno-unused-but-set-variable,-Wno-unused-parameter --diag-suppress=177,550>)
endfunction()

# wb_backend_files(<out-var> <backend> <names>...): the files of targets <name>_<backend>,
# space-separated, or "" when that backend is not built (an argument for the scripts).
function(wb_backend_files out backend)
  set(files "")
  foreach(name IN LISTS ARGN)
    if(TARGET ${name}_${backend})
      list(APPEND files "$<TARGET_FILE:${name}_${backend}>")
    endif()
  endforeach()
  list(JOIN files " " files)
  set(${out} "${files}" PARENT_SCOPE)
endfunction()

# A grader executable for one variant's kernels.
function(wb_chapter_grader number variant backend kernels)
  set(exe grade_chapter${number}_${variant}_${backend})
  set(exclude "")
  if(NOT WB_MAINTAINER_TESTS AND NOT variant STREQUAL "learner")
    set(exclude EXCLUDE_FROM_ALL)
  endif()
  if(variant MATCHES "^variant_")
    set(exclude EXCLUDE_FROM_ALL)  # graded by common/tools/mutate, which builds what it grades
  endif()
  add_executable(${exe} ${exclude} $<TARGET_OBJECTS:grader_chapter${number}_${backend}>)
  target_link_libraries(${exe} PRIVATE ${kernels} wb_grading_main_${backend})
  wb_target_defaults(${exe} ${backend})
endfunction()

# A variant of the chapter's solution, FILE (the first kernel file by default) with FIND
# replaced by REPLACE (every occurrence), and the sim grader linked to it: target
# grade_chapterN_<kind>_<name>_sim. A FIND that the solution no longer contains stops the
# configure, so the lists of variants cannot drift from the solution unnoticed.
function(wb_solution_variant kind name file find replace)
  if(NOT file)
    list(GET chapter_kernels 0 file)
  endif()
  # The solution is a configure dependency: edit it and the variants are made anew.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${solution_dir}/${file}")
  file(READ "${solution_dir}/${file}" text)
  string(FIND "${text}" "${find}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${kind} kernel ${name} of chapter ${chapter_number}: solutions/${chapter_folder}/${file} no longer contains:\n${find}")
  endif()
  string(REPLACE "${find}" "${replace}" text "${text}")
  set(dir "${PROJECT_BINARY_DIR}/${kind}/chapter${chapter_number}/${name}")
  foreach(kernel IN LISTS chapter_kernels)
    if(kernel STREQUAL file)
      # Verbatim (no @name@ substitution), and rewritten only when it changed, so that
      # a configure does not rebuild every variant.
      file(WRITE "${dir}/${kernel}.new" "${text}")
      configure_file("${dir}/${kernel}.new" "${dir}/${kernel}" COPYONLY)
    else()
      configure_file("${solution_dir}/${kernel}" "${dir}/${kernel}" COPYONLY)
    endif()
  endforeach()
  # In a learner's build the only variants are those the book shows, built by `make book`.
  set(exclude "")
  if(NOT WB_MAINTAINER_TESTS)
    set(exclude EXCLUDE_FROM_ALL)
  endif()
  wb_variant_grader(${kind} ${name} "${dir}" "${exclude}")
endfunction()

# The sim kernels of one variant, the chapter's kernel files as they lie in `dir`, and the
# sim grader linked to them: grade_chapterN_<kind>_<name>_sim. `exclude`: EXCLUDE_FROM_ALL,
# or "" where `all` builds them.
function(wb_variant_grader kind name dir exclude)
  list(TRANSFORM chapter_kernels PREPEND "${dir}/" OUTPUT_VARIABLE sources)
  set(lib chapter${chapter_number}_${kind}_${name})
  wb_backend_sources(sources sim ${sources})
  add_library(${lib}_sim STATIC ${exclude} ${sources})
  wb_target_defaults(${lib}_sim sim)
  wb_instrument_kernels(${lib}_sim sim)
  wb_relax_learner_warnings(${lib}_sim)
  target_include_directories(${lib}_sim PUBLIC "${learner_dir}")
  target_link_libraries(${lib}_sim PUBLIC wb_runtime_sim)
  wb_chapter_grader(${chapter_number} ${kind}_${name} sim ${lib}_sim)
endfunction()

# The variants of WB_VARIANT_DIRS for this chapter: each folder <dir>/chapterN/<id>/ holds
# some of the chapter's kernel files (a mutant of the reference, or a learner's attempt
# kept outside the tree); the others are the reference's. Each gets a sim grader,
# grade_chapterN_variant_<id>_sim, outside `all` (common/tools/mutate builds and runs them).
function(wb_chapter_variants)
  if(NOT "sim" IN_LIST WB_BACKENDS)
    return()
  endif()
  foreach(root IN LISTS WB_VARIANT_DIRS)
    file(GLOB ids LIST_DIRECTORIES true RELATIVE "${root}/chapter${chapter_number}" "${root}/chapter${chapter_number}/*")
    list(SORT ids)
    foreach(id IN LISTS ids)
      set(from "${root}/chapter${chapter_number}/${id}")
      if(NOT IS_DIRECTORY "${from}" OR NOT id MATCHES "^[A-Za-z0-9_]+$")
        continue()
      endif()
      set(dir "${PROJECT_BINARY_DIR}/variant/chapter${chapter_number}/${id}")
      foreach(kernel IN LISTS chapter_kernels)
        if(EXISTS "${from}/${kernel}")
          configure_file("${from}/${kernel}" "${dir}/${kernel}" COPYONLY)
        else()
          configure_file("${solution_dir}/${kernel}" "${dir}/${kernel}" COPYONLY)
        endif()
      endforeach()
      wb_variant_grader(variant ${id} "${dir}" EXCLUDE_FROM_ALL)
    endforeach()
  endforeach()
endfunction()

# mutate-chapterN (maintainers): every mutant of the reference's holes graded in the
# simulator, in a build folder of its own (build/mutate), and the table of what the graders
# caught; common/tools/mutate/mutate.py, the book's simulator page.
function(wb_chapter_mutate_target)
  if(NOT WB_MAINTAINER_TESTS OR NOT "sim" IN_LIST WB_BACKENDS)
    return()
  endif()
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(NOT Python3_Interpreter_FOUND)
    return()
  endif()
  add_custom_target(mutate-chapter${chapter_number}
    COMMAND "${Python3_EXECUTABLE}" "${WB_TOOLS_DIR}/mutate/mutate.py" mutants --source "${PROJECT_SOURCE_DIR}"
            --build "${PROJECT_BINARY_DIR}/mutate" --chapters ${chapter_number} --generator "${CMAKE_GENERATOR}"
    USES_TERMINAL VERBATIM)
endfunction()

# Inside a WRONG file: a known-wrong kernel made from the solution by replacing FIND
# (every occurrence) with REPLACE, which the sim grader must reject with a report that
# matches EXPECT (ENVIRONMENT: variables for that run, such as a short WB_STEP_TIMEOUT).
# STEP, the step it is a mistake of, goes into the test's name
# (selftest.chapter7.step3.rejects_...); each chapter's list is ordered by step.
function(wb_wrong_kernel name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "STEP;FILE;FIND;REPLACE;EXPECT" "ENVIRONMENT")
  if(NOT arg_STEP)
    message(FATAL_ERROR "wb_wrong_kernel(${name}): STEP, the step whose grader must reject it, is missing")
  endif()
  if(NOT WB_MAINTAINER_TESTS)
    # A learner's build makes only the known-wrong kernels whose reports the book shows.
    if("${chapter_number}:${name}" IN_LIST WB_BOOK_WRONG_KERNELS)
      wb_solution_variant(wrong ${name} "${arg_FILE}" "${arg_FIND}" "${arg_REPLACE}")
    endif()
    return()
  endif()
  wb_solution_variant(wrong ${name} "${arg_FILE}" "${arg_FIND}" "${arg_REPLACE}")
  set(test selftest.chapter${chapter_number}.step${arg_STEP}.rejects_${name})
  add_test(NAME ${test}
    COMMAND ${CMAKE_COMMAND} "-DGRADER=$<TARGET_FILE:grade_chapter${chapter_number}_wrong_${name}_sim>"
            "-DEXPECT=${arg_EXPECT}" "-DWHAT=the known-wrong kernel ${name}"
            -P "${WB_EXPECT_REJECTION}")
  set_tests_properties(${test} PROPERTIES LABELS "selftest" ENVIRONMENT "${arg_ENVIRONMENT}")
endfunction()

# Inside a WRONG file too: a variant of the solution written another way that is just
# as right, which the sim grader must pass (a check that judges more than its step asks
# would reject it).
function(wb_accepted_kernel name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "FILE;FIND;REPLACE" "")
  if(NOT WB_MAINTAINER_TESTS)
    return()
  endif()
  wb_solution_variant(accepted ${name} "${arg_FILE}" "${arg_FIND}" "${arg_REPLACE}")
  add_test(NAME selftest.chapter${chapter_number}.accepts_${name}
    COMMAND grade_chapter${chapter_number}_accepted_${name}_sim)
  set_tests_properties(selftest.chapter${chapter_number}.accepts_${name} PROPERTIES
    LABELS "selftest" SKIP_REGULAR_EXPRESSION "  SKIPPED ")
endfunction()

# The architectures of CMAKE_CUDA_ARCHITECTURES that run Hopper's instructions (90 and
# newer), or 90 where it names none: a file of SM90_KERNELS is built for these only. 90
# becomes 90a, whose arch-specific instructions (wgmma) run on compute capability 9.0
# alone; newer GPUs lack wgmma, and their builds trap there.
function(wb_sm90_architectures out)
  set(result "")
  foreach(arch IN LISTS CMAKE_CUDA_ARCHITECTURES)
    if(arch MATCHES "^90(-real|-virtual)?$")
      list(APPEND result "90a${CMAKE_MATCH_1}")
    elseif(arch MATCHES "^([0-9]+)" AND CMAKE_MATCH_1 GREATER_EQUAL 90)
      list(APPEND result "${arch}")
    endif()
  endforeach()
  if(NOT result)
    set(result 90a)
  endif()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# Moves the SM90_KERNELS of the chapter's GPU library `target` into an object library
# built for sm_90 only, whose objects the library keeps.
function(wb_split_sm90_kernels target dir learner_dir variant)
  set(sm90_sources "")
  get_target_property(sources ${target} SOURCES)
  foreach(kernel IN LISTS ARGN)
    list(REMOVE_ITEM sources "${dir}/${kernel}")
    list(APPEND sm90_sources "${dir}/${kernel}")
  endforeach()
  set_target_properties(${target} PROPERTIES SOURCES "${sources}")
  wb_sm90_architectures(architectures)
  add_library(${target}_sm90 OBJECT ${sm90_sources})
  set_target_properties(${target}_sm90 PROPERTIES CUDA_ARCHITECTURES "${architectures}")
  wb_target_defaults(${target}_sm90 cuda)
  target_include_directories(${target}_sm90 PRIVATE "${learner_dir}")
  target_link_libraries(${target}_sm90 PRIVATE wb_runtime_cuda)
  if(variant STREQUAL "learner")
    wb_relax_learner_warnings(${target}_sm90)
  endif()
  target_sources(${target} PRIVATE $<TARGET_OBJECTS:${target}_sm90>)
endfunction()

# wb_gpu_program(<out-var> <target> <built>): the path of a GPU program for a tool's
# command: $<TARGET_FILE> where it is built for the tools (a GPU answered at configure
# time), else its path without the generator expression, which would make the tool's
# target build it (nvcc's minutes, for a GPU that is not there); "" where the build has
# no such target.
function(wb_gpu_program out target built)
  if(NOT TARGET ${target})
    set(${out} "" PARENT_SCOPE)
  elseif(built)
    set(${out} "$<TARGET_FILE:${target}>" PARENT_SCOPE)
  else()
    set(${out} "${CMAKE_CURRENT_BINARY_DIR}/${target}${CMAKE_EXECUTABLE_SUFFIX}" PARENT_SCOPE)
  endif()
endfunction()

# The learner's tools of a chapter, beside check-chapterN and bench-chapterN:
#   reset-chapterN     the skeleton back, the learner's file saved first (reset_chapter.sh),
#                      from the pristine copy the build keeps (chapterN_pristine, in ALL)
#                      or from git;
#   sanitize-chapterN  the GPU grader under compute-sanitizer (sanitize_chapter.sh);
#   profile-chapterN   Nsight Compute beside the simulator's counts (profile_chapter.sh),
#                      on the chapter's bench (its grader where it has none);
# and the chapter's line of check-all's manifest. The GPU programs are built for them
# only when a GPU answered at configure time, as for check-chapterN.
function(wb_chapter_learner_tools number folder kernels bench)
  set(learner_dir "${PROJECT_SOURCE_DIR}/chapters/${folder}")
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${folder}")
  set(title "Chapter ${number} (${folder})")
  set(toolkit_bin "")
  if(DEFINED CUDAToolkit_BIN_DIR)
    set(toolkit_bin "${CUDAToolkit_BIN_DIR}")
  endif()
  set(gpu_programs OFF)
  if(WB_GPU_PRESENT AND "cuda" IN_LIST WB_BACKENDS)
    set(gpu_programs ON)
  endif()

  # A copy of each skeleton while it is untouched, for reset-chapterN without git.
  set(stamps "")
  foreach(kernel IN LISTS kernels)
    set(stored "${PROJECT_BINARY_DIR}/pristine/${folder}/${kernel}")
    add_custom_command(OUTPUT "${stored}.stamp"
      COMMAND bash "${WB_TOOLS_DIR}/save_pristine.sh" "$<TARGET_FILE:skeleton_check>"
              "${solution_dir}/${kernel}" "${learner_dir}/${kernel}" "${stored}"
      COMMAND ${CMAKE_COMMAND} -E touch "${stored}.stamp"
      DEPENDS skeleton_check "${solution_dir}/${kernel}" "${learner_dir}/${kernel}"
              "${WB_TOOLS_DIR}/save_pristine.sh"
      VERBATIM)
    list(APPEND stamps "${stored}.stamp")
  endforeach()
  add_custom_target(chapter${number}_pristine ALL DEPENDS ${stamps})
  add_custom_target(reset-chapter${number}
    COMMAND bash "${WB_TOOLS_DIR}/reset_chapter.sh" "${title}" "${learner_dir}" "${solution_dir}"
            "${PROJECT_BINARY_DIR}/pristine/${folder}" "$<TARGET_FILE:skeleton_check>"
            "${PROJECT_SOURCE_DIR}" ${kernels}
    DEPENDS chapter${number}_pristine skeleton_check
    USES_TERMINAL VERBATIM)

  # sanitize-chapterN: the GPU grader (its path even where it is not built, so that the
  # script can say why it cannot run).
  wb_gpu_program(cuda_grader grade_chapter${number}_learner_cuda ${gpu_programs})
  set(depends "")
  if(gpu_programs)
    list(APPEND depends grade_chapter${number}_learner_cuda)
  endif()
  add_custom_target(sanitize-chapter${number}
    COMMAND bash "${WB_TOOLS_DIR}/sanitize_chapter.sh" "${title}" ${number} "${cuda_grader}"
            "${toolkit_bin}" "${WB_TOOL_LOGS}/sanitize"
    DEPENDS ${depends}
    USES_TERMINAL VERBATIM)

  # profile-chapterN: the bench runs the kernels at a GPU's sizes; its simulator build
  # records the same kernels' counters.
  set(run grade_chapter${number}_learner)
  if(bench)
    set(run bench_chapter${number}_learner)
  endif()
  wb_gpu_program(cuda_run ${run}_cuda ${gpu_programs})
  wb_backend_files(sim_run sim ${run})
  set(depends "")
  if(TARGET ${run}_sim)
    list(APPEND depends ${run}_sim)
  endif()
  if(gpu_programs)
    list(APPEND depends ${run}_cuda)
  endif()
  if(number LESS 10)
    set(namespace "ch0${number}")
  else()
    set(namespace "ch${number}")
  endif()
  add_custom_target(profile-chapter${number}
    COMMAND bash "${WB_TOOLS_DIR}/profile_chapter.sh" "${title}" ${number} ${namespace} "${cuda_run}"
            "${sim_run}" "${toolkit_bin}" "${WB_TOOL_LOGS}/profile"
    DEPENDS ${depends}
    USES_TERMINAL VERBATIM)

  # check-all's manifest (see check_all.sh): the learner's files and graders, and, for
  # the tools' own tests, the same with the reference solutions in their place.
  list(JOIN kernels " " kernel_list)
  wb_backend_files(sim_grader sim grade_chapter${number}_learner)
  wb_backend_files(sim_solution sim grade_chapter${number}_solution)
  set(check_cuda "-")  # "-" for none: the reading shell would merge two tabs
  if(NOT sim_grader)
    set(sim_grader "-")
    set(sim_solution "-")
  endif()
  if(gpu_programs)
    set(check_cuda "${cuda_grader}")
    set_property(GLOBAL APPEND PROPERTY WB_CHECK_ALL_PROGRAMS grade_chapter${number}_learner_cuda)
  endif()
  if(TARGET grade_chapter${number}_learner_sim)
    set_property(GLOBAL APPEND PROPERTY WB_CHECK_ALL_PROGRAMS grade_chapter${number}_learner_sim)
  endif()
  set_property(GLOBAL APPEND PROPERTY WB_CHAPTER_MANIFEST
    "${number}\t${folder}\t${sim_grader}\t${check_cuda}\t${learner_dir}\t${solution_dir}\t${kernel_list}")
  set_property(GLOBAL APPEND PROPERTY WB_CHAPTER_MANIFEST_SOLUTIONS
    "${number}\t${folder}\t${sim_solution}\t-\t${solution_dir}\t${solution_dir}\t${kernel_list}")
endfunction()

# check-all: every chapter's check in one table (check_all.sh), from the chapters added
# so far. Also writes the manifests the table is made from:
#   wb_chapters.tsv             the learner's files and graders (check-all's)
#   wb_chapters_solutions.tsv   the reference solutions in their place (for tests)
function(wb_add_check_all)
  get_property(lines GLOBAL PROPERTY WB_CHAPTER_MANIFEST)
  get_property(solution_lines GLOBAL PROPERTY WB_CHAPTER_MANIFEST_SOLUTIONS)
  get_property(programs GLOBAL PROPERTY WB_CHECK_ALL_PROGRAMS)
  set(header "# number\tfolder\tsim-grader\tcuda-grader\tlearner-dir\tsolution-dir\tkernel-files")
  list(JOIN lines "\n" body)
  file(GENERATE OUTPUT "${PROJECT_BINARY_DIR}/wb_chapters.tsv" CONTENT "${header}\n${body}\n")
  list(JOIN solution_lines "\n" body)
  file(GENERATE OUTPUT "${PROJECT_BINARY_DIR}/wb_chapters_solutions.tsv" CONTENT "${header}\n${body}\n")
  add_custom_target(check-all
    COMMAND bash "${WB_TOOLS_DIR}/check_all.sh" "${PROJECT_BINARY_DIR}/wb_chapters.tsv"
            "$<TARGET_FILE:skeleton_check>" "${WB_TOOL_LOGS}/check-all"
    DEPENDS ${programs} skeleton_check
    USES_TERMINAL VERBATIM
    COMMENT "Grading every chapter")
endfunction()

# The jobs of wb_add_chapter, one function each. Each is called from wb_add_chapter and
# reads the chapter it is making from there: chapter_number, chapter_folder,
# chapter_kernels, learner_dir and solution_dir.

# The kernels: chapterN_learner_<b> and chapterN_solution_<b>, a library per variant and
# backend (the files of SM90_KERNELS in an sm_90 object library on the GPU backend).
function(wb_chapter_kernels sm90_kernels)
  foreach(variant learner solution)
    set(dir "${${variant}_dir}")
    list(TRANSFORM chapter_kernels PREPEND "${dir}/" OUTPUT_VARIABLE sources)
    wb_add_backend_library(chapter${chapter_number}_${variant} SOURCES ${sources})
    foreach(backend IN LISTS WB_BACKENDS)
      set(lib chapter${chapter_number}_${variant}_${backend})
      target_include_directories(${lib} PUBLIC "${learner_dir}")
      if(variant STREQUAL "learner")
        wb_relax_learner_warnings(${lib})
      endif()
      if(backend STREQUAL "cuda" AND sm90_kernels)
        wb_split_sm90_kernels(${lib} "${dir}" "${learner_dir}" ${variant} ${sm90_kernels})
      endif()
    endforeach()
  endforeach()
endfunction()

# The grader, compiled once a backend and linked to each variant's kernels; ctest runs
# the reference's steps (each backend, and the simulator with 64 workers).
function(wb_chapter_graders grader)
  set(number ${chapter_number})
  foreach(backend IN LISTS WB_BACKENDS)
    add_library(grader_chapter${number}_${backend} OBJECT "${PROJECT_SOURCE_DIR}/${grader}")
    wb_target_defaults(grader_chapter${number}_${backend} ${backend})
    target_include_directories(grader_chapter${number}_${backend} PRIVATE "${learner_dir}")
    target_link_libraries(grader_chapter${number}_${backend} PRIVATE wb_grading_${backend})
    foreach(variant learner solution)
      wb_chapter_grader(${number} ${variant} ${backend} chapter${number}_${variant}_${backend})
    endforeach()
    if(NOT WB_MAINTAINER_TESTS)
      continue()
    endif()
    gtest_discover_tests(grade_chapter${number}_solution_${backend}
      TEST_PREFIX "${backend}.solution."
      # GoogleTest prints "[  SKIPPED ]"; the pattern avoids brackets and backslashes,
      # which some CMake versions quote wrongly in the generated test files.
      PROPERTIES SKIP_REGULAR_EXPRESSION "  SKIPPED " LABELS "${backend}" TIMEOUT 600)
  endforeach()

  # Learners' machines have many cores: the reference passes with 64 and 256 simulator
  # workers too, each step in its process as check-chapterN runs it (within the step's
  # address-space bound, WB_STEP_MEMORY_MB), and with glibc allowed as many heap arenas as
  # on a 16-core host (8 a core), where 64 workers once took the whole bound.
  if("sim" IN_LIST WB_BACKENDS AND WB_MAINTAINER_TESTS)
    foreach(workers 64 256)
      add_test(NAME sim.solution.chapter${number}.with_${workers}_workers
               COMMAND grade_chapter${number}_solution_sim --wb-report)
      set_tests_properties(sim.solution.chapter${number}.with_${workers}_workers PROPERTIES
        ENVIRONMENT "WB_SIM_THREADS=${workers};MALLOC_ARENA_MAX=128" LABELS "sim" TIMEOUT 600)
    endforeach()
  endif()
endfunction()

# The reference's PTX, on the GPU backend: it really holds cp.async (`instruction`, the
# form the chapter teaches, a regular expression) and, for SM90_KERNELS, each of the
# Hopper instructions; and the simulator's copies have nvcc's widths (ptx_widths).
function(wb_chapter_ptx_tests instruction sm90_kernels sm90_instructions untaken)
  if(NOT WB_MAINTAINER_TESTS)
    return()
  endif()
  set(number ${chapter_number})
  if("cuda" IN_LIST WB_BACKENDS)
    set(ptx_kernels ${chapter_kernels})
    if(sm90_kernels)
      list(REMOVE_ITEM ptx_kernels ${sm90_kernels})
      list(TRANSFORM sm90_kernels PREPEND "${solution_dir}/" OUTPUT_VARIABLE sources)
      add_library(chapter${number}_solution_sm90_ptx OBJECT ${sources})
      set_target_properties(chapter${number}_solution_sm90_ptx PROPERTIES CUDA_PTX_COMPILATION ON
                            CUDA_ARCHITECTURES 90a)
      wb_target_defaults(chapter${number}_solution_sm90_ptx cuda)
      target_include_directories(chapter${number}_solution_sm90_ptx PRIVATE "${learner_dir}")
      target_link_libraries(chapter${number}_solution_sm90_ptx PRIVATE wb_runtime_cuda)
      set(index 0)
      foreach(hopper_instruction IN LISTS sm90_instructions)
        math(EXPR index "${index} + 1")
        add_test(NAME selftest.chapter${number}.solution_ptx_has_hopper_copies_${index}
          COMMAND ${CMAKE_COMMAND} "-DPTX=$<TARGET_OBJECTS:chapter${number}_solution_sm90_ptx>"
                  "-DINSTRUCTION=${hopper_instruction}"
                  "-DWHAT=the Hopper steps of chapter ${number}'s reference do not use their copies on the GPU"
                  -P "${WB_CMAKE_DIR}/ExpectPtx.cmake")
        set_tests_properties(selftest.chapter${number}.solution_ptx_has_hopper_copies_${index} PROPERTIES
                             LABELS "selftest")
      endforeach()
    endif()
  endif()
  # A chapter whose kernels are all Hopper's (chapter 8) has its PTX checked above only.
  if("cuda" IN_LIST WB_BACKENDS AND ptx_kernels)
    list(TRANSFORM ptx_kernels PREPEND "${solution_dir}/" OUTPUT_VARIABLE sources)
    add_library(chapter${number}_solution_ptx OBJECT ${sources})
    set_target_properties(chapter${number}_solution_ptx PROPERTIES CUDA_PTX_COMPILATION ON
                          CUDA_ARCHITECTURES 80)  # -ptx takes one architecture
    wb_target_defaults(chapter${number}_solution_ptx cuda)
    target_include_directories(chapter${number}_solution_ptx PRIVATE "${learner_dir}")
    target_link_libraries(chapter${number}_solution_ptx PRIVATE wb_runtime_cuda)
    add_test(NAME selftest.chapter${number}.solution_ptx_has_cp_async
      COMMAND ${CMAKE_COMMAND} "-DPTX=$<TARGET_OBJECTS:chapter${number}_solution_ptx>"
              "-DINSTRUCTION=${instruction}"
              "-DWHAT=the reference of chapter ${number} does not use cp.async on the GPU"
              -P "${WB_CMAKE_DIR}/ExpectPtx.cmake")
    set_tests_properties(selftest.chapter${number}.solution_ptx_has_cp_async PROPERTIES LABELS "selftest")
  endif()

  # The simulator's copies have nvcc's widths: kernel by kernel, the kinds of copy in the
  # reference's PTX (cp.async of 4, 8 or 16 bytes, bulk and tensor copies) are those the
  # simulator issued while the reference's grader ran (ptx_widths), but for the kinds
  # `untaken` names (KERNEL:KIND, a branch the graded sizes never take). The PTX is the
  # build's own (the objects above), so the test costs one grader run. Without nvcc it is
  # reported skipped, with the reason.
  if("sim" IN_LIST WB_BACKENDS)
    set(test selftest.chapter${number}.copy_widths_match_ptx)
    if("cuda" IN_LIST WB_BACKENDS)
      set(ptx "")
      if(ptx_kernels)
        set(ptx "$<TARGET_OBJECTS:chapter${number}_solution_ptx>")
      endif()
      if(sm90_kernels)
        if(ptx)
          set(ptx "${ptx}$<SEMICOLON>")
        endif()
        set(ptx "${ptx}$<TARGET_OBJECTS:chapter${number}_solution_sm90_ptx>")
      endif()
      string(REPLACE ";" "$<SEMICOLON>" untaken "${untaken}")
      add_test(NAME ${test}
        COMMAND ${CMAKE_COMMAND} "-DGRADER=$<TARGET_FILE:grade_chapter${number}_solution_sim>"
                "-DTOOL=$<TARGET_FILE:ptx_widths>" "-DLOG=${PROJECT_BINARY_DIR}/ptx_widths/chapter${number}.log"
                "-DPTX=${ptx}" "-DUNTAKEN=${untaken}"
                -P "${WB_CMAKE_DIR}/ComparePtxWidths.cmake")
      set_tests_properties(${test} PROPERTIES LABELS "selftest" TIMEOUT 600)
    else()
      add_test(NAME ${test} COMMAND ${CMAKE_COMMAND} -E echo
               "SKIPPED: no nvcc at configure time, so no PTX to compare the simulator's copies with")
      set_tests_properties(${test} PROPERTIES LABELS "selftest" SKIP_REGULAR_EXPRESSION "SKIPPED:")
    endif()
  endif()
endfunction()

# check-chapterN: the learner's grader in the simulator, and on the GPU as well when
# one answered at configure time (without one, the GPU grader is not even built: it
# would double the time and show nvcc's messages first). The simulator's grader is
# built first, so that a compile error shows in g++'s words before nvcc's.
# A build of the GPU backend alone (-DWB_BACKEND=cuda) has no simulator's grader:
# check_chapter.sh then grades on the GPU alone and says what that cannot check.
function(wb_chapter_check_target)
  set(number ${chapter_number})
  wb_backend_files(sim_grader sim grade_chapter${number}_learner)
  set(cuda_grader "")
  set(check_graders "")
  if(TARGET grade_chapter${number}_learner_sim)
    list(APPEND check_graders grade_chapter${number}_learner_sim)
  endif()
  if(WB_GPU_PRESENT AND "cuda" IN_LIST WB_BACKENDS)
    wb_backend_files(cuda_grader cuda grade_chapter${number}_learner)
    list(APPEND check_graders grade_chapter${number}_learner_cuda)
    if(TARGET grade_chapter${number}_learner_sim)
      add_dependencies(grade_chapter${number}_learner_cuda grade_chapter${number}_learner_sim)
    endif()
  endif()
  set(gpu_backend "")
  if("cuda" IN_LIST WB_BACKENDS)
    set(gpu_backend built)
  endif()
  add_custom_target(check-chapter${number}
    COMMAND bash "${WB_CHECK_SCRIPT}" "Chapter ${number} (${chapter_folder})" "${cuda_grader}" "${sim_grader}"
            "${gpu_backend}"
    DEPENDS ${check_graders}
    USES_TERMINAL VERBATIM
    COMMENT "Grading chapters/${chapter_folder}")
endfunction()

# The grader's own tests, in the simulator: the skeleton is its solution minus the holes
# (skipped once a learner has filled it), the untouched skeleton fails pointing at its
# TODO (`skeleton_fails_with`, a regular expression), and the known-wrong and accepted
# kernels of the `wrong` file are judged as they must be.
function(wb_chapter_selftests skeleton_fails_with wrong)
  if(NOT "sim" IN_LIST WB_BACKENDS)
    return()
  endif()
  if(NOT WB_MAINTAINER_TESTS)
    if(wrong)
      include("${PROJECT_SOURCE_DIR}/${wrong}")  # the book's known-wrong kernels alone
    endif()
    return()
  endif()
  set(number ${chapter_number})
  foreach(kernel IN LISTS chapter_kernels)
    add_test(NAME selftest.chapter${number}.skeleton_matches_solution.${kernel}
      COMMAND skeleton_check "${solution_dir}/${kernel}" "${learner_dir}/${kernel}")
    set_tests_properties(selftest.chapter${number}.skeleton_matches_solution.${kernel}
      PROPERTIES SKIP_RETURN_CODE 77 LABELS "selftest")
  endforeach()
  list(GET chapter_kernels 0 first_kernel)
  add_test(NAME selftest.chapter${number}.rejects_untouched_skeleton
    COMMAND ${CMAKE_COMMAND} "-DGRADER=$<TARGET_FILE:grade_chapter${number}_learner_sim>"
            "-DEXPECT=${skeleton_fails_with}" "-DWHAT=the untouched skeleton"
            "-DSKELETON_CHECK=$<TARGET_FILE:skeleton_check>"
            "-DSOLUTION=${solution_dir}/${first_kernel}" "-DSKELETON=${learner_dir}/${first_kernel}"
            -P "${WB_EXPECT_REJECTION}")
  set_tests_properties(selftest.chapter${number}.rejects_untouched_skeleton PROPERTIES
    SKIP_REGULAR_EXPRESSION "SKIPPED:" LABELS "selftest")
  if(wrong)
    include("${PROJECT_SOURCE_DIR}/${wrong}")
  endif()
endfunction()

# bench-chapterN: the bench linked to each variant's kernels, with the references of the
# chapters in `beside` (their kernels run in the same table) and cuBLAS on the GPU where
# `cublas` is set.
function(wb_chapter_bench bench beside cublas)
  set(number ${chapter_number})
  set(bench_exes "")
  foreach(backend IN LISTS WB_BACKENDS)
    foreach(variant learner solution)
      set(exe bench_chapter${number}_${variant}_${backend})
      wb_backend_sources(sources ${backend} "${PROJECT_SOURCE_DIR}/${bench}")
      add_executable(${exe} ${sources})
      wb_target_defaults(${exe} ${backend})
      target_include_directories(${exe} PRIVATE "${learner_dir}")
      target_link_libraries(${exe} PRIVATE chapter${number}_${variant}_${backend} wb_grading_${backend})
      foreach(other IN LISTS beside)
        target_link_libraries(${exe} PRIVATE chapter${other}_solution_${backend})
      endforeach()
      if(cublas AND backend STREQUAL "cuda")
        target_link_libraries(${exe} PRIVATE CUDA::cublas)
      endif()
      target_compile_definitions(${exe} PRIVATE "WB_BENCH_VARIANT=\"${variant}\"" "WB_PROBE_FILE=\"${WB_PROBE_FILE}\"")
      list(APPEND bench_exes ${exe})
    endforeach()
  endforeach()
  wb_backend_files(cuda_benches cuda bench_chapter${number}_learner bench_chapter${number}_solution)
  wb_backend_files(sim_benches sim bench_chapter${number}_learner bench_chapter${number}_solution)
  add_custom_target(bench-chapter${number}
    COMMAND bash "${WB_BENCH_SCRIPT}" "Chapter ${number} (${chapter_folder})" "${cuda_benches}" "${sim_benches}"
            "ch0${number}"
    DEPENDS ${bench_exes}
    USES_TERMINAL VERBATIM)
endfunction()

# timeline-chapterN: the timeline program (one step's kernel, traced) linked to each
# variant's kernels, then timeline_svg draws the reference's and the learner's timelines
# into build/logs/. On the GPU backend the kernels are built again with WB_TRACE=1 (their
# wb:: calls and barriers record events), outside `all`: the ordinary build pays nothing.
# The simulator's ordinary build records. `gpu` OFF: the step's calls are not traced on
# the GPU (the CUDA C++ library's), and the target draws the simulator's timeline only.
#
# `find` and `replace` (optional): the reference with its pipeline serialised (find
# replaced by replace), whose simulator timeline the book shows beside the reference's
# (timeline_chapterN_serialised_sim).
function(wb_chapter_timeline program gpu find replace)
  set(number ${chapter_number})
  set(exes "")
  if(find AND "sim" IN_LIST WB_BACKENDS)
    wb_solution_variant(book serialised "" "${find}" "${replace}")
    set(exe timeline_chapter${number}_serialised_sim)
    wb_backend_sources(sources sim "${PROJECT_SOURCE_DIR}/${program}")
    add_executable(${exe} EXCLUDE_FROM_ALL ${sources})  # the book's: `make book` builds it
    wb_target_defaults(${exe} sim)
    target_include_directories(${exe} PRIVATE "${learner_dir}")
    target_link_libraries(${exe} PRIVATE chapter${number}_book_serialised_sim wb_grading_sim)
    target_compile_definitions(${exe} PRIVATE "WB_TIMELINE_VARIANT=\"serialised by wait<0>\"")
  endif()
  foreach(backend IN LISTS WB_BACKENDS)
    if(backend STREQUAL "cuda" AND NOT gpu)
      continue()
    endif()
    foreach(variant learner solution)
      set(kernels chapter${number}_${variant}_${backend})
      if(backend STREQUAL "cuda")
        set(kernels chapter${number}_${variant}_trace_cuda)
        list(TRANSFORM chapter_kernels PREPEND "${${variant}_dir}/" OUTPUT_VARIABLE sources)
        add_library(${kernels} STATIC EXCLUDE_FROM_ALL ${sources})
        wb_target_defaults(${kernels} cuda)
        target_compile_definitions(${kernels} PRIVATE WB_TRACE=1)
        target_include_directories(${kernels} PUBLIC "${learner_dir}")
        target_link_libraries(${kernels} PUBLIC wb_runtime_cuda)
        if(variant STREQUAL "learner")
          wb_relax_learner_warnings(${kernels})
        endif()
      endif()
      set(exe timeline_chapter${number}_${variant}_${backend})
      wb_backend_sources(sources ${backend} "${PROJECT_SOURCE_DIR}/${program}")
      add_executable(${exe} ${sources})
      if(backend STREQUAL "cuda")
        set_target_properties(${exe} PROPERTIES EXCLUDE_FROM_ALL ON)
      endif()
      wb_target_defaults(${exe} ${backend})
      target_include_directories(${exe} PRIVATE "${learner_dir}")
      target_link_libraries(${exe} PRIVATE ${kernels} wb_grading_${backend})
      if(variant STREQUAL "solution")
        target_compile_definitions(${exe} PRIVATE "WB_TIMELINE_VARIANT=\"the reference\"")
      else()
        target_compile_definitions(${exe} PRIVATE "WB_TIMELINE_VARIANT=\"yours\"")
      endif()
      list(APPEND exes ${exe})
    endforeach()
  endforeach()
  wb_backend_files(cuda_programs cuda timeline_chapter${number}_solution timeline_chapter${number}_learner)
  wb_backend_files(sim_programs sim timeline_chapter${number}_solution timeline_chapter${number}_learner)
  if(NOT gpu)
    set(cuda_programs "")
  endif()
  add_custom_target(timeline-chapter${number}
    COMMAND bash "${PROJECT_SOURCE_DIR}/common/tools/timeline_chapter.sh" "${number}" "${cuda_programs}"
            "${sim_programs}" "$<TARGET_FILE:timeline_svg>" "${CMAKE_BINARY_DIR}/logs"
    DEPENDS ${exes} timeline_svg
    USES_TERMINAL VERBATIM)
endfunction()

function(wb_add_chapter number folder)
  cmake_parse_arguments(PARSE_ARGV 2 arg "BENCH_CUBLAS;TIMELINE_SIM_ONLY" "GRADER;BENCH;WRONG;SKELETON_FAILS_WITH;PTX_INSTRUCTION;TIMELINE;SERIALISED_FIND;SERIALISED_REPLACE"
                        "KERNELS;SM90_KERNELS;SM90_PTX_INSTRUCTIONS;PTX_UNTAKEN;BENCH_BESIDE")
  if(NOT arg_PTX_INSTRUCTION)
    set(arg_PTX_INSTRUCTION "cp\\.async\\.c[ag]\\.shared\\.global")
  endif()
  set(chapter_number ${number})
  set(chapter_folder ${folder})
  set(chapter_kernels ${arg_KERNELS})
  set(learner_dir "${PROJECT_SOURCE_DIR}/chapters/${folder}")
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${folder}")

  wb_chapter_kernels("${arg_SM90_KERNELS}")
  wb_chapter_graders(${arg_GRADER})
  wb_chapter_ptx_tests("${arg_PTX_INSTRUCTION}" "${arg_SM90_KERNELS}" "${arg_SM90_PTX_INSTRUCTIONS}"
                       "${arg_PTX_UNTAKEN}")
  wb_chapter_check_target()
  wb_chapter_selftests("${arg_SKELETON_FAILS_WITH}" "${arg_WRONG}")
  wb_chapter_variants()
  wb_chapter_mutate_target()
  set(has_bench OFF)
  if(arg_BENCH)
    wb_chapter_bench(${arg_BENCH} "${arg_BENCH_BESIDE}" ${arg_BENCH_CUBLAS})
    set(has_bench ON)
  endif()
  if(arg_TIMELINE)
    if(arg_TIMELINE_SIM_ONLY)
      wb_chapter_timeline(${arg_TIMELINE} OFF "${arg_SERIALISED_FIND}" "${arg_SERIALISED_REPLACE}")
    else()
      wb_chapter_timeline(${arg_TIMELINE} ON "${arg_SERIALISED_FIND}" "${arg_SERIALISED_REPLACE}")
    endif()
  endif()
  # Last, once the graders and benches it runs exist.
  wb_chapter_learner_tools(${number} ${folder} "${arg_KERNELS}" ${has_bench})
endfunction()
