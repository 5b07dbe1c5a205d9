# Helpers shared by the days: runners built from interchangeable units, and
# one gtest binary registered once per runner.

set(GRADING_RUNNER_DIR "${PROJECT_BINARY_DIR}/runners")
set(GRADING_UNIT_INCLUDES
    "${PROJECT_SOURCE_DIR}/reference"
    "${PROJECT_SOURCE_DIR}/harness/cuda/include"
    "${PROJECT_SOURCE_DIR}/harness/core/include")

# grading_add_unit(<target> <source> [INCLUDES dir...] [DEFINES name...])
# One interchangeable piece of a runner: a reference file, the submission's
# copy of it, or a planted bug.
function(grading_add_unit target source)
  cmake_parse_arguments(U "" "" "INCLUDES;DEFINES" ${ARGN})
  add_library(${target} STATIC "${source}")
  target_include_directories(${target} PRIVATE ${U_INCLUDES} ${GRADING_UNIT_INCLUDES})
  target_compile_definitions(${target} PRIVATE ${U_DEFINES})
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  target_link_libraries(${target} PUBLIC CUDA::cudart_static)
endfunction()

# grading_add_runner(<target> MAIN <object library> UNITS <unit targets...>)
function(grading_add_runner target)
  cmake_parse_arguments(R "" "MAIN" "UNITS" ${ARGN})
  add_executable(${target} $<TARGET_OBJECTS:${R_MAIN}>)
  target_link_libraries(${target} PRIVATE ${R_UNITS} grading_cuda grading_core)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${GRADING_RUNNER_DIR}")
endfunction()

# grading_add_student_runners(<day> FILE <path under exercises/> SLOT <name>
#                             MAIN <object library> UNITS <units with STUDENT>
#                             [INCLUDES dir...] [LINK library...])
# The runners built from the student's file: <day>_runner_exercise from the
# untouched stub, <day>_runner_submission from GRADING_SUBMISSION_DIR. The
# file becomes the unit <day>_<slot>_exercise (or _submission), put where
# STUDENT stands in UNITS. A missing submission file is named at configure
# time and its runner only says so, so that day's tests fail naming the path
# while every other day still builds and grades.
function(grading_add_student_runners day)
  cmake_parse_arguments(S "" "FILE;SLOT;MAIN" "UNITS;INCLUDES;LINK" ${ARGN})
  set(exercise "${PROJECT_SOURCE_DIR}/exercises/${S_FILE}")
  set(submission "${GRADING_SUBMISSION_DIR}/${S_FILE}")
  foreach(kind exercise submission)
    set(source "${${kind}}")
    set(runner ${day}_runner_${kind})
    if(EXISTS "${source}")
      set(unit ${day}_${S_SLOT}_${kind})
      grading_add_unit(${unit} "${source}" INCLUDES ${S_INCLUDES})
      if(S_LINK)
        target_link_libraries(${unit} PUBLIC ${S_LINK})
      endif()
      list(TRANSFORM S_UNITS REPLACE "^STUDENT$" ${unit} OUTPUT_VARIABLE units)
      grading_add_runner(${runner} MAIN ${S_MAIN} UNITS ${units})
    else()
      message(WARNING "${day}: the ${kind} file ${source} is missing; its tests will fail")
      add_executable(${runner} "${PROJECT_SOURCE_DIR}/harness/cuda/src/missing_submission_runner.cpp")
      target_compile_definitions(${runner} PRIVATE "GRADING_MISSING_FILE=\"${source}\"")
      set_target_properties(${runner} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${GRADING_RUNNER_DIR}")
    endif()
  endforeach()
endfunction()

# grading_register_suite(<test binary> [RUNNER <runner target>] AS <reference|submission|...>
#                        [FILTER <gtest filter>] [SERIAL] [LABELS extra...] [TIMEOUT seconds])
# The directory's LABELS property names the day; AS and LABELS add to it.
# FILTER registers only the matching tests (gtest syntax, "-" to exclude).
# SERIAL runs them alone (RUN_SERIAL): timings are skewed when other tests'
# kernels time-slice the GPU.
# Each test holds one GPU slot: with `ctest --resource-spec-file` (see
# .ci/gpu-resources.sh) one test runs per GPU at a time, and the runner is
# bound to the GPU ctest assigned; without a spec file the groups are ignored.
function(grading_register_suite binary)
  cmake_parse_arguments(S "SERIAL" "RUNNER;AS;TIMEOUT;FILTER" "LABELS" ${ARGN})
  if(NOT S_TIMEOUT)
    set(S_TIMEOUT 300)
  endif()
  set(labels ${S_AS} ${S_LABELS})
  string(REPLACE ";" "\\;" labels "${labels}")
  set(extra "--runner-dir=${GRADING_RUNNER_DIR}")
  if(S_RUNNER)
    list(APPEND extra "--runner=$<TARGET_FILE:${S_RUNNER}>")
  endif()
  set(filter "")
  if(S_FILTER)
    set(filter TEST_FILTER "${S_FILTER}")
  endif()
  set(serial "")
  if(S_SERIAL)
    set(serial RUN_SERIAL TRUE)
  endif()
  gtest_discover_tests(${binary}
    TEST_PREFIX "${S_AS}."
    NO_PRETTY_VALUES  # names come from our name generators; no "# GetParam() = ..." tails
    ${filter}
    EXTRA_ARGS ${extra}
    DISCOVERY_MODE PRE_TEST
    PROPERTIES LABELS "${labels}" TIMEOUT ${S_TIMEOUT} RESOURCE_GROUPS "gpus:1" ${serial})
endfunction()
