# The grade target (cmake -P): the submission's runners built afresh, its
# tests run, the gate report printed. The exit status is the report's: 0 only
# when every gate passed.
#   -DCTEST -DCMAKE -DBUILD_DIR -DSOURCE_DIR -DSUBMISSION -DREPORT -DHTML -DGATES -DCHARTS -DCOURSE_INCLUDES
#   -DDAYS -DFILES
include("${CMAKE_CURRENT_LIST_DIR}/build_record.cmake")
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
# The build's output, for a person: the report reads the records that the
# failed steps left in ${records}/<day>/ (build_record.cmake).
set(log "${BUILD_DIR}/grade-build.log")
set(records "${BUILD_DIR}/build-records/submission")
set(output "")
set(header "")
list(APPEND header "--header" "submission=${SUBMISSION}")

foreach(day IN LISTS DAYS)
  set(runner ${day}_runner_submission)
  # This build's records only: a failed step leaves its output out of date,
  # so it runs again below and records again.
  file(REMOVE_RECURSE "${records}/${day}")
  file(MAKE_DIRECTORY "${records}/${day}")
  foreach(file IN LISTS FILES)
    if(NOT file MATCHES "^${day}/")
      continue()
    endif()
    if(EXISTS "${SUBMISSION}/${file}")
      file(SHA256 "${SUBMISSION}/${file}" hash)
      list(APPEND header "--header" "file ${file}=sha256 ${hash}")
    else()
      grading_write_build_record("${records}/${day}/${runner}.missing.tsv" ${day} missing ${runner}
                                 "${SUBMISSION}/${file}" "" "")
    endif()
  endforeach()
  # The old runner goes first: if the file no longer compiles, no runner is
  # left to grade in its place.
  file(REMOVE "${BUILD_DIR}/runners/${runner}")
  execute_process(COMMAND "${CMAKE}" --build "${BUILD_DIR}" --target ${runner}
                  OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
  string(APPEND output "${out}")
  if(NOT rc EQUAL 0)
    message(STATUS "${day}: building the submission's runner failed (see ${day}.builds below; the output: ${log})")
    file(GLOB recorded "${records}/${day}/*.tsv")
    if(NOT recorded)
      # No step of the submission's failed: what did is the harness's, and
      # the day's gate says so rather than that nothing ran.
      grading_first_error(error "${out}")
      grading_write_build_record("${records}/${day}/${runner}.build.tsv" ${day} build ${runner} "" "${rc}" "${error}")
    endif()
  endif()
endforeach()
file(WRITE "${log}" "${output}")

# One seed for the whole run, printed and kept, so every verdict replays.
if("$ENV{GRADING_SEED}" STREQUAL "")
  string(RANDOM LENGTH 9 ALPHABET 0123456789 seed)
  string(REGEX REPLACE "^0+([0-9])" "\\1" seed "${seed}")
  set(ENV{GRADING_SEED} "${seed}")
endif()
list(APPEND header "--header" "seed=$ENV{GRADING_SEED}")
execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD OUTPUT_VARIABLE commit
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_rc)
if(git_rc EQUAL 0)
  # Changed tracked files only: an untracked folder (a carried .deps, a build
  # tree inside the checkout) changes no verdict.
  execute_process(COMMAND git -C "${SOURCE_DIR}" status --porcelain --untracked-files=no -- . ":!exercises"
                  OUTPUT_VARIABLE dirty ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    string(APPEND commit " (with uncommitted changes)")
  endif()
else()
  set(commit "unknown (not a git checkout)")
endif()
list(APPEND header "--header" "harness=${commit}")

# Code worth an instructor's look, by line: flagged for review, never scored.
set(present "")
foreach(file IN LISTS FILES)
  if(EXISTS "${SUBMISSION}/${file}")
    list(APPEND present "${SUBMISSION}/${file}")
  endif()
endforeach()
set(flags "${BUILD_DIR}/precheck.tsv")
file(WRITE "${flags}" "")
if(present)
  execute_process(COMMAND "${REPORT}" precheck --allow-list "${COURSE_INCLUDES}" --tsv "${flags}" ${present} OUTPUT_QUIET)
endif()

set(junit "${BUILD_DIR}/junit-submission.xml")
file(REMOVE "${junit}")
execute_process(
  COMMAND "${CTEST}" --test-dir "${BUILD_DIR}" -L submission -j ${cores}
          --test-output-size-passed 65536 --output-junit "${junit}" --progress
          --output-log "${BUILD_DIR}/ctest-submission.log"
  RESULT_VARIABLE tests_rc)
string(REPLACE ";" "," days "${DAYS}")
set(junit_args "")
if(EXISTS "${junit}")
  set(junit_args --junit "${junit}")
endif()
execute_process(
  COMMAND "${REPORT}" ${junit_args} --gates "${GATES}" --prefix submission. --days "${days}" ${header}
          --build-records "${records}" --flags "${flags}" --show-reports --results-json "${BUILD_DIR}/results.json"
          --ctest-log "${BUILD_DIR}/ctest-submission.log"
  RESULT_VARIABLE report_rc)
# The same results as one page beside results.json (grading.md, "Pictures"),
# by grade_html (HTML); it never changes the verdict.
if(report_rc EQUAL 0 OR report_rc EQUAL 1 OR report_rc EQUAL 3)  # results.json is this run's
  execute_process(COMMAND "${HTML}" report --results "${BUILD_DIR}/results.json" --charts "${CHARTS}"
                          --out "${BUILD_DIR}/report.html" RESULT_VARIABLE html_rc)
  if(html_rc EQUAL 0)
    message(STATUS "the report as a page: ${BUILD_DIR}/report.html")
  else()
    message(WARNING "no report.html (grade_html: ${html_rc}); the text report above stands")
  endif()
endif()
# The grade workflow's last step (the test grade.graded_here) reads this:
# a failed gate fails this build step (the workflow exits 1), a grading
# that could not run here fails that test instead (the workflow exits 8).
set(verdict "${BUILD_DIR}/grade-verdict.txt")
if(report_rc EQUAL 3)
  file(WRITE "${verdict}" "not graded\n")
  message(WARNING "could not grade on this machine (the report's first lines say why and how to fix it); "
                  "no gate failed; results.json: ${BUILD_DIR}/results.json")
elseif(report_rc EQUAL 0)
  file(WRITE "${verdict}" "graded\n")
else()
  file(WRITE "${verdict}" "graded\n")
  message(FATAL_ERROR "not every gate passed (the report above says which); results.json: ${BUILD_DIR}/results.json")
endif()
