# A grader self-test: runs GRADER --wb-report on a kernel that must be rejected (WHAT)
# and passes only if the grader fails it AND its report matches EXPECT, the diagnosis
# the kernel deserves. With SKELETON_CHECK given, the test applies to the pristine
# skeleton only: once a learner has worked on the file it prints SKIPPED.
foreach(required GRADER EXPECT WHAT)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "ExpectRejection.cmake needs -D${required}=...")
  endif()
endforeach()

if(DEFINED SKELETON_CHECK)
  execute_process(COMMAND "${SKELETON_CHECK}" "${SOLUTION}" "${SKELETON}"
                  RESULT_VARIABLE pristine OUTPUT_VARIABLE check_out ERROR_VARIABLE check_out)
  if(pristine EQUAL 77)
    message("SKIPPED: ${check_out}")
    return()
  elseif(NOT pristine EQUAL 0)
    message(FATAL_ERROR "the skeleton is not its solution minus the holes:\n${check_out}")
  endif()
endif()

execute_process(COMMAND "${GRADER}" --wb-report
                RESULT_VARIABLE status OUTPUT_VARIABLE report ERROR_VARIABLE report)
message("${report}")
if(status EQUAL 0)
  message(FATAL_ERROR "the grader accepted ${WHAT}: it has no teeth for this mistake")
endif()
if(NOT report MATCHES "${EXPECT}")
  message(FATAL_ERROR "the grader rejected ${WHAT}, but its report lacks the expected diagnosis /${EXPECT}/")
endif()
message("rejected ${WHAT} with the expected diagnosis /${EXPECT}/")
