# cmake -DCOMPILER=nvcc -DFILE=<submission file> -DINCLUDES=<dirs> -DALLOWED=<dirs> [-DDENIED=<dirs>]
#       -DSTAMP=<out> -DRECORD=<file> -DDAY=<day> -DTARGET=<unit> -P include_check.cmake
# A submission compiles against the course's headers only: every file the
# preprocessor pulls in must lie under one of ALLOWED (reference/<day>/,
# harness/course, the submission's own folder, the toolkit's and the
# system's headers) and under none of DENIED (reference/<day>/solution/).
# Anything else (an instructor solution, another student's file) stops the
# build with a message naming it, and RECORD says so (build_record.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/build_record.cmake")
file(REMOVE "${RECORD}")
get_filename_component(dir "${FILE}" DIRECTORY)
set(flags "")
foreach(inc IN LISTS INCLUDES)
  list(APPEND flags "-I${inc}")
endforeach()
execute_process(COMMAND "${COMPILER}" -M -std=c++17 -x cu ${flags} "${FILE}"
                WORKING_DIRECTORY "${dir}" OUTPUT_VARIABLE deps ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  # The compile itself reports what is wrong with the file.
  file(WRITE "${STAMP}" "preprocessing failed; the compile reports why\n")
  return()
endif()
string(REPLACE "\\\n" " " deps "${deps}")
string(REGEX REPLACE "^[^:]*:" "" deps "${deps}")
string(REGEX REPLACE "[ \t\r\n]+" ";" deps "${deps}")
function(_real_roots out)
  set(roots "")
  foreach(root IN LISTS ARGN)
    get_filename_component(real "${root}" REALPATH)
    list(APPEND roots "${real}")
  endforeach()
  set(${out} "${roots}" PARENT_SCOPE)
endfunction()
# Whether `path` lies under one of `roots`.
function(_under out path)
  set(${out} FALSE PARENT_SCOPE)
  foreach(root IN LISTS ARGN)
    string(FIND "${path}/" "${root}/" at)
    if(at EQUAL 0)
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()
_real_roots(roots ${ALLOWED})
_real_roots(denied ${DENIED})
foreach(dep IN LISTS deps)
  if(dep STREQUAL "")
    continue()
  endif()
  get_filename_component(real "${dep}" REALPATH BASE_DIR "${dir}")
  _under(ok "${real}" ${roots})
  _under(instructor "${real}" ${denied})
  if(NOT ok OR instructor)
    string(CONCAT error "${FILE}: error: it includes ${real}, which the course does not provide: "
                        "a submission compiles against the course's headers only")
    message(NOTICE "${error}")  # unwrapped, as the record has it (FATAL_ERROR wraps)
    grading_write_build_record("${RECORD}" "${DAY}" includes "${TARGET}" "${FILE}" 1 "${error}")
    message(FATAL_ERROR "the include check stopped the build")
  endif()
endforeach()
file(WRITE "${STAMP}" "${deps}\n")
