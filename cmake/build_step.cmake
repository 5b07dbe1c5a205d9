# The launcher of a submission's compiles and its runner's link (Grading.cmake):
#   cmake -DRECORD=<file> -DDAY=<day> -DSTEP=compile|link -DTARGET=<target> [-DFILE=<source>]
#         [-DALLOWED=<dir|dir...> -DDENIED=<dir|dir...>] -P build_step.cmake -- <command...>
# Runs the command with its output passed through. When it fails, RECORD
# holds the step, its exit status and its first error line
# (build_record.cmake); when it succeeds, there is no RECORD. With ALLOWED,
# a compile that succeeded has its includes checked in the dependency file
# it wrote (include_check.cmake); a refused one removes the object, records
# step "includes" and fails.
include("${CMAKE_CURRENT_LIST_DIR}/build_record.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/include_check.cmake")
set(command "")
set(in_command FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(in_command)
    string(REPLACE ";" "\\;" arg "${CMAKE_ARGV${i}}")  # one argument, whatever it holds
    list(APPEND command "${arg}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(in_command TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "build_step.cmake: no command after --")
endif()
file(REMOVE "${RECORD}")
execute_process(COMMAND ${command} RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT errors STREQUAL "")
  string(REGEX REPLACE "\n$" "" shown "${errors}")
  message(NOTICE "${shown}")
endif()
if(status EQUAL 0)
  if(NOT ALLOWED)
    return()
  endif()
  string(REPLACE "|" ";" ALLOWED "${ALLOWED}")
  string(REPLACE "|" ";" DENIED "${DENIED}")
  # The compile's own -MF and -o, as the generator wrote them.
  list(FIND command "-MF" at)
  set(depfile "")
  if(at GREATER -1)
    math(EXPR at "${at} + 1")
    list(GET command ${at} depfile)
  endif()
  grading_check_includes(error "${depfile}" "${FILE}" "${ALLOWED}" "${DENIED}")
  if(error STREQUAL "")
    return()
  endif()
  list(FIND command "-o" at)
  if(at GREATER -1)
    math(EXPR at "${at} + 1")
    list(GET command ${at} object)
    file(REMOVE "${object}")
  endif()
  grading_refuse("${RECORD}" "${DAY}" includes "${TARGET}" "${FILE}" "${error}")
endif()
grading_first_error(error "${errors}")
grading_write_build_record("${RECORD}" "${DAY}" "${STEP}" "${TARGET}" "${FILE}" "${status}" "${error}")
# cmake -P has no exit status of its choosing before CMake 3.29: any failure is 1.
message(FATAL_ERROR "${STEP} of ${TARGET} failed (exit status ${status}); recorded in ${RECORD}")
