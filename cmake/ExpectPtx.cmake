# A technique check on what nvcc emits: the PTX file(s) PTX must contain INSTRUCTION (a
# regular expression), so that a reference really uses what its chapter teaches on the
# GPU too, not only in the simulator's counters.
set(count 0)
foreach(file IN LISTS PTX)
  file(READ "${file}" text)
  string(REGEX MATCHALL "${INSTRUCTION}" found "${text}")
  list(LENGTH found n)
  math(EXPR count "${count} + ${n}")
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "no /${INSTRUCTION}/ in ${PTX}: ${WHAT}")
endif()
message("${count} instructions /${INSTRUCTION}/ in ${PTX}")
