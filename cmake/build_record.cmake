# A submission's failed build step as data, for the report's <day>.builds
# (grade_report --build-records; harness/grading/src/build_records.cpp reads it):
# a TSV file, the header line, then one row:
#   day  step  target  file  status  error
# step: compile, link, includes (the include check), symbols (the symbol
# check), missing (the file is not there), build (grade.cmake: the day's build failed outside the
# submission's steps). status: the step's exit status ("" when nothing ran);
# error: its first error line. Included by Grading.cmake, grade.cmake and the
# step scripts (build_step.cmake, symbol_check.cmake).

# Written beside and renamed into place, so the report never reads half a record.
function(grading_write_build_record path day step target file status error)
  set(row "")
  foreach(field IN ITEMS "${day}" "${step}" "${target}" "${file}" "${status}" "${error}")
    string(REGEX REPLACE "[\t\r\n]" " " field "${field}")
    string(APPEND row "\t${field}")
  endforeach()
  string(SUBSTRING "${row}" 1 -1 row)
  get_filename_component(dir "${path}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  file(WRITE "${path}.part" "day\tstep\ttarget\tfile\tstatus\terror\n${row}\n")
  file(RENAME "${path}.part" "${path}")
endfunction()

# A check's refusal (the include or the symbol check): the error line for a
# person, as the record has it (message() wraps a FATAL_ERROR's text), the
# record when there is one, and the step's failure.
function(grading_refuse record day step target file error)
  message(NOTICE "${error}")
  if(record)
    grading_write_build_record("${record}" "${day}" "${step}" "${target}" "${file}" 1 "${error}")
  endif()
  message(FATAL_ERROR "the ${step} check stopped the build")
endfunction()

# The first line of a compiler's or linker's output that states an error
# (gcc "f.cpp:12:5: error:", nvcc "f.cu(63): error:", "fatal error:", the
# assembler's "Error:", ld's "undefined reference" and "multiple
# definition"), else its first line that is not blank, without colour
# codes; "" for no output.
function(grading_first_error out text)
  string(ASCII 27 escape)
  string(REGEX REPLACE "${escape}\\[[0-9;]*[A-Za-z]" "" text "${text}")
  string(REPLACE "\r" "" text "${text}")
  string(REGEX MATCH "[^\n]*(([Ee]rror|fatal)[ \t]*:|undefined reference|multiple definition)[^\n]*" line "${text}")
  if(line STREQUAL "")
    string(REGEX MATCH "[^\n]*[^ \t\n][^\n]*" line "${text}")
  endif()
  string(STRIP "${line}" line)
  set(${out} "${line}" PARENT_SCOPE)
endfunction()
