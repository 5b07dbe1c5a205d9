# The include check, run by build_step.cmake after a submission's compile
# succeeded: every file in the dependency file that compile wrote (its -MF,
# so the very flags, defines and build type of the compile) must lie under
# one of ALLOWED (reference/<day>/, harness/course, the submission's own
# folder, the toolkit's and the system's headers) and under none of DENIED
# (reference/<day>/solution/). An include behind a define the build sets, or
# a relative path into the instructor's folder, is seen as the compiler saw
# it. Anything else stops the build with a message naming the file.

# The real paths of `dirs`, for prefix tests that links cannot fool.
function(_grading_real_roots out)
  set(roots "")
  foreach(root IN LISTS ARGN)
    get_filename_component(real "${root}" REALPATH)
    list(APPEND roots "${real}")
  endforeach()
  set(${out} "${roots}" PARENT_SCOPE)
endfunction()

# Whether `path` lies under one of `roots`.
function(_grading_under out path)
  set(${out} FALSE PARENT_SCOPE)
  foreach(root IN LISTS ARGN)
    string(FIND "${path}/" "${root}/" at)
    if(at EQUAL 0)
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# The paths a make-style dependency file lists, its target left out.
function(grading_depfile_paths out depfile)
  file(READ "${depfile}" deps)
  string(REPLACE "\\\n" " " deps "${deps}")
  string(REGEX REPLACE "^[^:]*:" "" deps "${deps}")
  string(REGEX REPLACE "[ \t\r\n]+" ";" deps "${deps}")
  set(${out} "${deps}" PARENT_SCOPE)  # empty items too: a caller skips them
endfunction()

# grading_check_includes(<error out> <depfile> <file> <allowed> <denied>):
# "" when every dependency is allowed, else the error line naming the first
# that is not. Paths in the depfile are relative to the build's folder (the
# working directory of the compile).
function(grading_check_includes out depfile file allowed denied)
  set(${out} "" PARENT_SCOPE)
  if(NOT EXISTS "${depfile}")
    set(${out} "${file}: error: the compile wrote no dependency file (${depfile}) to check its includes in"
        PARENT_SCOPE)
    return()
  endif()
  grading_depfile_paths(deps "${depfile}")
  _grading_real_roots(roots ${allowed})
  _grading_real_roots(instructor ${denied})
  foreach(dep IN LISTS deps)
    if(dep STREQUAL "")
      continue()
    endif()
    get_filename_component(real "${dep}" REALPATH)
    _grading_under(ok "${real}" ${roots})
    _grading_under(refused "${real}" ${instructor})
    if(NOT ok OR refused)
      set(${out} "${file}: error: it includes ${real}, which the course does not provide: a submission compiles against the course's headers only"
          PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()
