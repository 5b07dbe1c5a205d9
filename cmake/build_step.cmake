# The launcher of a submission's compiles and its runner's link (Grading.cmake):
#   cmake -DRECORD=<file> -DDAY=<day> -DSTEP=compile|link -DTARGET=<target> [-DFILE=<source>]
#         [-DALLOWED=<dir|dir...> -DDENIED=<dir|dir...>] [-DSANDBOX=<bwrap> -DREADABLE=<dir|dir...>]
#         -P build_step.cmake -- <command...>
# Runs the command with its output passed through. When it fails, RECORD
# holds the step, its exit status and its first error line
# (build_record.cmake); when it succeeds, there is no RECORD. With ALLOWED,
# a compile that succeeded has its includes checked in the dependency file
# it wrote (include_check.cmake); a refused one removes the object, records
# step "includes" and fails. With SANDBOX, a compile runs in a bubblewrap
# sandbox that holds the system read-only, the ALLOWED and READABLE (the
# compilers' own) folders less DENIED, and the folders its object and
# dependency file go to: nothing else of the build, no solution, no other
# student. A file the compile reads outside them (an assembler's .incbin or
# .include) is not there, and the compile fails naming it.
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
# The value after `flag` in the command, made absolute ("" when absent).
function(_grading_path_after out flag)
  list(FIND command "${flag}" at)
  set(path "")
  if(at GREATER -1)
    math(EXPR at "${at} + 1")
    list(GET command ${at} path)
    get_filename_component(path "${path}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(${out} "${path}" PARENT_SCOPE)
endfunction()
if(SANDBOX AND STEP STREQUAL "compile")
  string(REPLACE "|" ";" readable "${ALLOWED}|${READABLE}")
  string(REPLACE "|" ";" hidden "${DENIED}")
  set(jail --die-with-parent --new-session --unshare-all --ro-bind /usr /usr --ro-bind /etc /etc --proc /proc
           --dev /dev --tmpfs /tmp)
  # /bin, /lib, ...: links into /usr on merged systems, folders elsewhere.
  foreach(top IN ITEMS /bin /sbin /lib /lib32 /lib64 /libx32)
    if(IS_SYMLINK "${top}")
      file(READ_SYMLINK "${top}" target)
      list(APPEND jail --symlink "${target}" "${top}")
    elseif(EXISTS "${top}")
      list(APPEND jail --ro-bind "${top}" "${top}")
    endif()
  endforeach()
  foreach(dir IN LISTS readable)
    if(IS_DIRECTORY "${dir}")
      file(REAL_PATH "${dir}" dir)
      if(NOT dir MATCHES "^/(usr|etc)(/|$)")  # those are there already, read-only
        list(APPEND jail --ro-bind "${dir}" "${dir}")
      endif()
    endif()
  endforeach()
  foreach(dir IN LISTS hidden)
    if(IS_DIRECTORY "${dir}")
      list(APPEND jail --tmpfs "${dir}")
    endif()
  endforeach()
  list(APPEND jail --dir "${CMAKE_CURRENT_BINARY_DIR}" --chdir "${CMAKE_CURRENT_BINARY_DIR}")
  foreach(flag IN ITEMS -o -MF)
    _grading_path_after(written "${flag}")
    if(written)
      get_filename_component(folder "${written}" DIRECTORY)
      list(APPEND jail --bind "${folder}" "${folder}")
    endif()
  endforeach()
  list(PREPEND command "${SANDBOX}" ${jail} --)
endif()
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
