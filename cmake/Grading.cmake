# One function builds a day: grading_add_day(), called once from
# harness/<day>/CMakeLists.txt. A day lives in four folders:
#
#   reference/<day>/           the course's code and contracts; solution/ is instructor-only
#   exercises/<day>/           the student's stubs
#   harness/<day>/             the grader's half: declarations, gates, cases, runner, report, plants
#   tests/<day>/               the day's host tests and hostile/ submissions
#
# From them it builds
#
#   runners    <day>_runner_reference   the course's code + reference/<day>/solution/ (when the tree has it)
#              <day>_runner_exercise    the course's code + the untouched stub in exercises/<day>/
#              <day>_runner_submission  the course's code + GRADING_SUBMISSION_DIR/<day>/
#              <day>_runner_planted_<p> the reference with one planted bug (plants.cmake)
#              <day>_runner_hostile_<h> the course's code + tests/<day>/hostile/<h>.cu
#   <day>_grader     the host side: gate declarations, cases, reports
#   <day>_tests      the generic driver over the declaration; it registers every
#                    suite with ctest itself (see harness/gtest/src/driver.cpp)
#   <day>_host_tests the day's host-only tests (label harness)
#
# and writes <build>/harness/<day>/gates.tsv, which the report reads, and
# charts.tsv beside it, the day's charts, which the HTML page draws. A
# submission's failed build steps leave records in
# <build>/build-records/<submission or student>/<day>/ (build_record.cmake),
# which the report reads for <day>.builds.

set(GRADING_RUNNER_DIR "${PROJECT_BINARY_DIR}/runners")
# What a student's file and the course's code may include: the course's
# headers and the CUDA checks, never the solutions or the runner's internals.
set(GRADING_COURSE_INCLUDES "${PROJECT_SOURCE_DIR}/harness/course/include")
set(GRADING_BUILD_RECORDS "${PROJECT_BINARY_DIR}/build-records")
include("${CMAKE_CURRENT_LIST_DIR}/build_record.cmake")

# grading_add_unit(<target> <source> [INCLUDES <dirs...>])
# One interchangeable piece of a runner: a course file, a solution, the
# submission's copy, a planted bug. It sees the day's course headers (and
# INCLUDES) and links the day's RUNNER_LINK, as grading_add_day set them.
function(grading_add_unit target source)
  cmake_parse_arguments(U "" "" "INCLUDES" ${ARGN})
  add_library(${target} STATIC "${source}")
  target_include_directories(${target} PRIVATE ${U_INCLUDES} ${GRADING_DAY_UNIT_INCLUDES} ${GRADING_COURSE_INCLUDES})
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  target_link_libraries(${target} PUBLIC CUDA::cudart_static ${GRADING_DAY_RUNNER_LINK})
endfunction()

# grading_add_runner(<target> <day> UNITS <unit targets...>)
# A unit sealed by grading_seal_unit is linked as its sealed archive.
function(grading_add_runner target day)
  cmake_parse_arguments(R "" "" "UNITS" ${ARGN})
  # Every object of every unit and of the runner library is linked, whether
  # or not something asks for it: a second definition of a course or harness
  # function is then a link error, never a silent choice of whichever came
  # first. (The units also call one another in either direction.)
  add_executable(${target} $<TARGET_OBJECTS:${day}_runner_main> $<TARGET_OBJECTS:grading_cuda>)
  set(linked "")
  foreach(unit IN LISTS R_UNITS)
    get_target_property(sealed ${unit} GRADING_SEALED_ARCHIVE)
    if(sealed)
      list(APPEND linked "${sealed}")
      add_dependencies(${target} ${unit}_sealed)
      set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${sealed}")
    else()
      list(APPEND linked ${unit})
    endif()
  endforeach()
  string(JOIN "," linked ${linked})
  target_link_libraries(${target} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${linked}>" grading_cuda
                                          ${GRADING_DAY_RUNNER_LINK})
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${GRADING_RUNNER_DIR}")
  set_property(GLOBAL APPEND PROPERTY GRADING_${day}_RUNNERS ${target})
endfunction()

# A runner that only says which submission file is missing, so that day's
# tests fail naming the path while every other day still builds and grades.
function(grading_add_missing_runner target path)
  add_executable(${target} "${PROJECT_SOURCE_DIR}/harness/cuda/src/missing_submission_runner.cpp")
  target_compile_definitions(${target} PRIVATE "GRADING_MISSING_FILE=\"${path}\"")
  target_link_libraries(${target} PRIVATE grading_core)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${GRADING_RUNNER_DIR}")
endfunction()

# Writes `text` verbatim (no @VAR@ or ${} expansion), touching the file only
# when it changes, so a reconfigure does not rebuild what it feeds.
function(_grading_write_if_changed path text)
  file(WRITE "${path}.new" "${text}")
  file(COPY_FILE "${path}.new" "${path}" ONLY_IF_DIFFERENT)
  file(REMOVE "${path}.new")
endfunction()

# An instructor's input files a day also grades on (-D<var>="a.txt;b.txt", or
# the policy's inputs.<day>.<name>): relative paths are the caller's (the
# folder cmake runs in) and are kept absolute; a path with no file fails this
# configure and is dropped from the cache, so the next configure is not stuck
# on it. The list goes to <build>/<listfile>, one path a line, which the
# day's grader reads from the compile definition <define>.
#   grading_instructor_files(<var> <target> <define> <listfile> <doc>)
function(grading_instructor_files var target define listfile doc)
  set(${var} "" CACHE STRING "${doc}")
  set(lines "")
  set(kept "")
  foreach(path IN LISTS ${var})
    get_filename_component(path "${path}" ABSOLUTE BASE_DIR "$ENV{PWD}")
    if(NOT EXISTS "${path}" OR IS_DIRECTORY "${path}")
      message(SEND_ERROR "${var}: no file at ${path} (dropped from the cache)")
      continue()
    endif()
    list(APPEND kept "${path}")
    string(APPEND lines "${path}\n")
  endforeach()
  set(${var} "${kept}" CACHE STRING "${doc}" FORCE)
  _grading_write_if_changed("${CMAKE_CURRENT_BINARY_DIR}/${listfile}" "${lines}")
  target_compile_definitions(${target} PUBLIC ${define}="${CMAKE_CURRENT_BINARY_DIR}/${listfile}")
endfunction()

function(_grading_stem out path)
  get_filename_component(stem "${path}" NAME_WE)
  set(${out} "${stem}" PARENT_SCOPE)
endfunction()

# What a day whose work stays on the legacy default stream lets its
# exercise call (its course header says so too). Refused by name, since no
# use of them keeps that contract: a host callback (it runs on the driver's
# thread, past the call), and the driver API and its entry points (streams
# and launches no check of the runtime's sees; runners link no libcuda).
set(GRADING_OFF_STREAM_CALLS
    cudaLaunchHostFunc cudaStreamAddCallback cuLaunchHostFunc cuStreamAddCallback cuStreamCreate
    cuStreamCreateWithPriority cudaGetDriverEntryPoint cudaGetDriverEntryPointByVersion cuGetProcAddress
    cuGetProcAddress_v2 cudaGetExportTable)
# Judged as each call is made, by its arguments (harness/cuda/src/checked_calls.cpp):
# a stream of the file's own is fine unless it is non-blocking (it would not
# wait for the legacy stream, where the runner queues a call's inputs and
# times it); loading a library or looking a function up is refused when
# called, so code that only refers to them passes (NVTX, which Thrust
# includes, loads its tools' library only when the environment names one);
# and device memory is allocated only within what a runner may hold
# (GRADING_ALLOCATION_CALLS, every day's).
set(GRADING_ALLOCATION_CALLS
    cudaMalloc cudaMallocManaged cudaMallocAsync cudaMallocFromPoolAsync cudaMallocPitch cudaMalloc3D cudaFree
    cudaFreeAsync)
set(GRADING_CHECKED_CALLS
    cudaStreamCreateWithFlags cudaStreamCreateWithPriority dlopen dlmopen dlsym dlvsym ${GRADING_ALLOCATION_CALLS})

# grading_seal_unit(<unit> <day> <source> EXPORTS <names...> [KERNELS <names...>]
#                   [FORBIDS <functions...>] [CHECKS <functions...>] [RECORD <file>])
# Seals a student's compiled unit before any runner links it
# (harness/seal/include/seal/seal.h, cmake/symbol_check.cmake): it exports
# EXPORTS alone, its KERNELS are device code, it calls none of FORBIDS, and
# its calls of CHECKS go to the harness's checked versions. Runners link the
# sealed archive (grading_add_runner); target <unit>_sealed makes it. RECORD
# (a graded submission's) is where a refusal is recorded.
function(grading_seal_unit unit day path)
  cmake_parse_arguments(S "" "RECORD" "EXPORTS;KERNELS;FORBIDS;CHECKS" ${ARGN})
  set(sealed "${CMAKE_CURRENT_BINARY_DIR}/sealed/lib${unit}.a")
  # The seal reads the kernels in the unit's device code, stored uncompressed.
  target_compile_options(${unit} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--no-compress>)
  add_custom_command(OUTPUT "${sealed}"
    COMMAND ${CMAKE_COMMAND} "-DSEAL=$<TARGET_FILE:grading_seal>" "-DOBJCOPY=${CMAKE_OBJCOPY}"
            "-DARCHIVE=$<TARGET_FILE:${unit}>" "-DSEALED=${sealed}" "-DFILE=${path}" "-DDAY=${day}"
            "-DTARGET=${unit}" "-DEXPORTS=${S_EXPORTS}" "-DKERNELS=${S_KERNELS}" "-DFORBIDDEN=${S_FORBIDS}"
            "-DCHECKED=${S_CHECKS}" "-DRECORD=${S_RECORD}" -P "${PROJECT_SOURCE_DIR}/cmake/symbol_check.cmake"
    DEPENDS ${unit} grading_seal "${PROJECT_SOURCE_DIR}/cmake/symbol_check.cmake"
            "${PROJECT_SOURCE_DIR}/cmake/build_record.cmake"
    COMMENT "Sealing ${path}" VERBATIM)
  add_custom_target(${unit}_sealed DEPENDS "${sealed}")
  set_property(TARGET ${unit} PROPERTY GRADING_SEALED_ARCHIVE "${sealed}")
endfunction()

# The target's compiles (STEP compile) or its link (STEP link) run through
# cmake/build_step.cmake, which records a failure in RECORD, ahead of any
# launcher the target already has (ccache). With ALLOWED, a compile's
# includes are checked (include_check.cmake): only the course's headers and
# the toolkit's and compilers' own (wherever the host compiler lives: a GPU
# machine's may be under /opt), never DENIED (the solutions inside the
# course's folder).
function(_grading_record_steps target day step record)
  cmake_parse_arguments(S "" "FILE" "ALLOWED;DENIED" ${ARGN})
  string(REPLACE ";" "|" allowed "${S_ALLOWED}")  # one launcher argument each
  string(REPLACE ";" "|" denied "${S_DENIED}")
  set(sandbox "")
  set(readable "")
  set(cache "")
  if(S_ALLOWED)  # a submission's compile: in the compile sandbox, where this machine has one
    set(sandbox "${GRADING_COMPILE_SANDBOX}")
    string(REPLACE ";" "|" readable "${GRADING_COMPILER_TREES}")
    set(cache "${GRADING_COMPILE_CACHE}")
  endif()
  set(launch "${CMAKE_COMMAND}" "-DRECORD=${record}" "-DDAY=${day}" "-DSTEP=${step}" "-DTARGET=${target}"
             "-DFILE=${S_FILE}" "-DALLOWED=${allowed}" "-DDENIED=${denied}" "-DSANDBOX=${sandbox}"
             "-DREADABLE=${readable}" "-DCACHE=${cache}"
             -P "${PROJECT_SOURCE_DIR}/cmake/build_step.cmake" --)
  set(property COMPILER_LAUNCHER)
  if(step STREQUAL "link")
    set(property LINKER_LAUNCHER)
  endif()
  foreach(lang CXX CUDA)
    get_target_property(launcher ${target} ${lang}_${property})
    # A sandboxed compile takes no other launcher (ccache's cache is not in the sandbox).
    if(NOT launcher OR sandbox)
      set(launcher "")
    endif()
    set_property(TARGET ${target} PROPERTY ${lang}_${property} ${launch} ${launcher})
  endforeach()
endfunction()

# The sandbox a submission's compile runs in (cmake/build_step.cmake): the
# runners' bubblewrap (GRADING_BWRAP, else PATH), where it starts here and
# GRADING_SANDBOX is not off at configure; else the compile runs as it is,
# which the configure says once. GRADING_COMPILE_SANDBOX: the bwrap, or "".
function(_grading_find_compile_sandbox)
  set(bwrap "$ENV{GRADING_BWRAP}")
  if(NOT bwrap)
    find_program(GRADING_BWRAP_PROGRAM bwrap)
    set(bwrap "${GRADING_BWRAP_PROGRAM}")
  endif()
  set(why "")
  if("$ENV{GRADING_SANDBOX}" STREQUAL "off")
    set(why "GRADING_SANDBOX=off")
  elseif(NOT bwrap)
    set(why "no bwrap (Debian's bubblewrap; or GRADING_BWRAP=<path>)")
  else()
    execute_process(COMMAND "${bwrap}" --die-with-parent --unshare-all --ro-bind / / true
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      string(STRIP "${err}" err)
      set(why "${bwrap} cannot start here: ${err}")
    endif()
  endif()
  if(why)
    message(STATUS "Submissions compile without a sandbox: ${why}")
    set(GRADING_COMPILE_SANDBOX "" PARENT_SCOPE)
  else()
    set(GRADING_COMPILE_SANDBOX "${bwrap}" PARENT_SCOPE)
  endif()
endfunction()
_grading_find_compile_sandbox()
# A class's compile cache (cmake/compile_cache.cmake; grade_class.sh sets it):
# a folder whose files an earlier student's compile had is not compiled again.
set(GRADING_COMPILE_CACHE "" CACHE PATH "a folder where sandboxed submission compiles are kept for reuse (a class's)")
# What a sandboxed compile may run besides /usr: the compilers' own trees
# (a GPU machine's may live under /opt).
set(GRADING_COMPILER_TREES "")
foreach(compiler IN ITEMS "${CMAKE_CUDA_COMPILER}" "${CMAKE_CUDA_HOST_COMPILER}" "${CMAKE_CXX_COMPILER}")
  if(compiler)
    file(REAL_PATH "${compiler}" real)
    get_filename_component(bin "${real}" DIRECTORY)
    get_filename_component(tree "${bin}" DIRECTORY)
    list(APPEND GRADING_COMPILER_TREES "${tree}")
  endif()
endforeach()

# grading_plant(<name>
#   EDIT <file under the day> FIND <exact snippet> REPLACE <snippet>   (repeatable)
#   FAILS <gate> EXPECT <regex> [SCORE_BELOW <fraction>] [PASSES <gate>...] [CASES <case>...] [ATTEMPTS <n>]
#   [WHAT <text>] [LARGE_COUNTEREXAMPLE <why>])
# Called from harness/<day>/plants.cmake. LARGE_COUNTEREXAMPLE: the bug needs
# an input larger than the day's bound on shrunk counterexamples (Day::shrinksTo). EDIT names a file of reference/<day>/
# (the course's code, or solution/<file>). Each EDIT's snippet must occur exactly
# once in its file (configure fails otherwise); the edited copy replaces that
# file's unit in a copy of the reference runner, and the planted test holds
# it to its gate: it fails there, or, with SCORE_BELOW, a scored gate (a
# speed gate) scores it below that fraction of its points.
function(grading_plant name)
  set(day "${GRADING_DAY}")
  set(edits "")
  set(n 0)
  set(mode "")
  set(what "")
  set(fails "")
  set(expect "")
  set(passes "")
  set(cases "")
  set(attempts 1)
  set(score_below "")
  set(large_counterexample "")
  set(keywords "^(EDIT|FIND|REPLACE|FAILS|EXPECT|SCORE_BELOW|PASSES|CASES|ATTEMPTS|WHAT|LARGE_COUNTEREXAMPLE)$")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 1 ${last})
    set(arg "${ARGV${i}}")  # ARGV<i>, not ARGN: snippets hold semicolons
    if(mode MATCHES "^(|PASSES|CASES)$" AND arg MATCHES "${keywords}")
      set(mode "${arg}")
      continue()
    endif()
    if(mode STREQUAL "EDIT")
      math(EXPR n "${n} + 1")
      list(APPEND edits ${n})
      set(edit_${n}_file "${arg}")
    elseif(mode STREQUAL "FIND")
      set(edit_${n}_find "${arg}")
    elseif(mode STREQUAL "REPLACE")
      set(edit_${n}_replace "${arg}")
    elseif(mode STREQUAL "FAILS")
      set(fails "${arg}")
    elseif(mode STREQUAL "EXPECT")
      set(expect "${arg}")
    elseif(mode STREQUAL "PASSES")
      string(APPEND passes " ${arg}")
    elseif(mode STREQUAL "CASES")
      string(APPEND cases " ${arg}")
    elseif(mode STREQUAL "ATTEMPTS")
      set(attempts "${arg}")
    elseif(mode STREQUAL "SCORE_BELOW")
      set(score_below "${arg}")
    elseif(mode STREQUAL "WHAT")
      set(what "${arg}")
    elseif(mode STREQUAL "LARGE_COUNTEREXAMPLE")
      set(large_counterexample "${arg}")
    else()
      message(FATAL_ERROR "${day} plant ${name}: unexpected argument \"${arg}\"")
    endif()
    if(NOT mode MATCHES "^(PASSES|CASES)$")
      set(mode "")
    endif()
  endforeach()
  if(NOT edits OR fails STREQUAL "" OR expect STREQUAL "")
    message(FATAL_ERROR "${day} plant ${name}: wants at least one EDIT/FIND/REPLACE, FAILS and EXPECT")
  endif()

  set(units ${GRADING_DAY_REFERENCE_UNITS})
  set(out "${CMAKE_CURRENT_BINARY_DIR}/plants/${name}")
  # Edits apply in order; several may edit one file.
  set(files "")
  foreach(k IN LISTS edits)
    set(file "${edit_${k}_file}")
    set(source "${GRADING_DAY_COURSE}/${file}")
    if(NOT EXISTS "${source}")
      message(FATAL_ERROR "${day} plant ${name}: no file ${file} in ${GRADING_DAY_COURSE}")
    endif()
    string(MAKE_C_IDENTIFIER "${file}" key)
    if(NOT DEFINED text_${key})
      file(READ "${source}" text_${key})
      # The edited copy is written here, at configure time: an edit of the
      # source must configure again, or the plant keeps the old code.
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${source}")
      list(APPEND files "${file}")
    endif()
    string(FIND "${text_${key}}" "${edit_${k}_find}" first)
    string(FIND "${text_${key}}" "${edit_${k}_find}" final REVERSE)
    if(first EQUAL -1 OR NOT first EQUAL final)
      set(count "more than once")
      if(first EQUAL -1)
        set(count "nowhere")
      endif()
      message(FATAL_ERROR "${day} plant ${name}: the FIND snippet must occur exactly once in ${file}, "
                          "and it occurs ${count}:\n${edit_${k}_find}")
    endif()
    string(REPLACE "${edit_${k}_find}" "${edit_${k}_replace}" text_${key} "${text_${key}}")
  endforeach()
  foreach(file IN LISTS files)
    string(MAKE_C_IDENTIFIER "${file}" key)
    set(source "${GRADING_DAY_COURSE}/${file}")
    get_filename_component(base "${file}" NAME)
    get_filename_component(dir "${source}" DIRECTORY)
    # Rewritten only when it changes, so a reconfigure does not rebuild every plant.
    _grading_write_if_changed("${out}/${base}" "${text_${key}}")
    _grading_stem(stem "${file}")
    set(unit ${day}_plant_${name}_${stem})
    grading_add_unit(${unit} "${out}/${base}" INCLUDES "${dir}")
    list(FIND units "${GRADING_UNIT_OF_${day}_${stem}}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${day} plant ${name}: ${file} is not a unit of the reference runner")
    endif()
    list(REMOVE_AT units ${at})
    list(INSERT units ${at} ${unit})
  endforeach()
  grading_add_runner(${day}_runner_planted_${name} ${day} UNITS ${units})
  string(REPLACE "\n" " " what "${what}")
  _grading_write_if_changed("${out}/expectation.txt"
"what: ${what}
fails: ${fails}
expect: ${expect}
passes:${passes}
cases:${cases}
attempts: ${attempts}
score_below: ${score_below}
large_counterexample: ${large_counterexample}
")
  set_property(GLOBAL APPEND_STRING PROPERTY GRADING_${day}_MANIFEST
    "expect\tplanted\t${name}\t$<TARGET_FILE:${day}_runner_planted_${name}>\t${out}/expectation.txt\n")
endfunction()

# The pieces of grading_add_day (below), in its order: macros, run in its
# scope, over its variables (day, here, course, solution, tests, D_*).

# The runner's main (the day's protocol and the course's headers), the
# course's units and, with EXERCISE_ABSENT, the course's runner (no student
# code). Sets course_units.
macro(_grading_day_course_runners)
  add_library(${day}_runner_main OBJECT "${D_RUNNER}")
  target_include_directories(${day}_runner_main PRIVATE "${here}" "${course}")
  target_link_libraries(${day}_runner_main PRIVATE grading_cuda ${D_RUNNER_LINK})

  set(course_units "")
  foreach(file IN LISTS D_COURSE)
    _grading_stem(stem "${file}")
    grading_add_unit(${day}_course_${stem} "${course}/${file}")
    list(APPEND course_units ${day}_course_${stem})
    set(GRADING_UNIT_OF_${day}_${stem} ${day}_course_${stem})
  endforeach()

  # The course's runner: the course's code, no student code.
  if(D_EXERCISE_ABSENT)
    grading_add_unit(${day}_exercise_absent "${here}/${D_EXERCISE_ABSENT}" INCLUDES "${here}")
    target_link_libraries(${day}_exercise_absent PRIVATE grading_cuda)
    grading_add_runner(${day}_runner_course ${day} UNITS ${day}_exercise_absent ${course_units})
  endif()
endmacro()

# The instructor's runner, where the tree holds the solution (the student
# kit does not; a class build does: speed gates time each student against
# it). Sets has_solution and GRADING_DAY_REFERENCE_UNITS.
macro(_grading_day_reference_runner)
  set(has_solution TRUE)
  foreach(file IN LISTS D_STUDENT D_SOLUTION_EXTRAS)
    get_filename_component(name "${file}" NAME)
    if(NOT EXISTS "${solution}/${name}")
      set(has_solution FALSE)
    endif()
  endforeach()
  set(reference_units "")
  if(has_solution)
    foreach(file IN LISTS D_STUDENT D_SOLUTION_EXTRAS)
      get_filename_component(name "${file}" NAME)
      _grading_stem(stem "${file}")
      grading_add_unit(${day}_solution_${stem} "${solution}/${name}")
      list(APPEND reference_units ${day}_solution_${stem})
      set(GRADING_UNIT_OF_${day}_${stem} ${day}_solution_${stem})
    endforeach()
    # The solution is sealed as a submission is (its declared symbols are
    # the exercise's, as written), and the reference runner links it so.
    foreach(file IN LISTS D_STUDENT)
      _grading_stem(stem "${file}")
      grading_seal_unit(${day}_solution_${stem} ${day} "${solution}/${file}" ${seal_rules})
    endforeach()
    list(APPEND reference_units ${course_units})
    grading_add_runner(${day}_runner_reference ${day} UNITS ${reference_units})
  endif()
  set(GRADING_DAY_REFERENCE_UNITS ${reference_units})
endmacro()

# The course's headers a student's file may include: sets course_headers.
macro(_grading_day_course_headers)
  # What a student's file may include of the course: its headers, linked
  # into a folder of their own, which is the only course folder on the
  # student's include path. No include path of a student's compile then
  # leads into reference/<day>/solution/, relative paths included.
  set(course_headers "${CMAKE_CURRENT_BINARY_DIR}/course_headers")
  file(REMOVE_RECURSE "${course_headers}")
  file(MAKE_DIRECTORY "${course_headers}")
  file(GLOB headers CONFIGURE_DEPENDS "${course}/*.h" "${course}/*.cuh" "${course}/*.hpp")
  foreach(header IN LISTS headers)
    get_filename_component(name "${header}" NAME)
    file(CREATE_LINK "${header}" "${course_headers}/${name}" SYMBOLIC)
  endforeach()
endmacro()

# One build of a student's file (kind, root: "exercise" and exercises/,
# "submission" and GRADING_SUBMISSION_DIR, or a class's student): its units,
# compiled (a graded one in the compile sandbox, its failures recorded) and
# sealed, and its runner, or one that names the missing file.
macro(_grading_day_student_runner)
  # A submission's (or a student's) build steps record their failures
  # here; a record from an earlier configure is of files that may be gone.
  set(graded TRUE)
  if(kind STREQUAL "exercise")
    set(graded FALSE)
  endif()
  set(records "${GRADING_BUILD_RECORDS}/${kind}/${day}")
  if(graded)
    file(REMOVE_RECURSE "${records}")
    file(MAKE_DIRECTORY "${records}")
  endif()
  set(units "")
  set(missing "")
  foreach(file IN LISTS D_STUDENT)
    get_filename_component(name "${file}" NAME)
    set(path "${root}/${day}/${name}")
    if(NOT EXISTS "${path}")
      set(missing "${path}")
      break()
    endif()
    _grading_stem(stem "${file}")
    set(unit ${day}_${kind}_${stem})
    set(GRADING_DAY_UNIT_INCLUDES "${course_headers}")
    grading_add_unit(${unit} "${path}")
    set(GRADING_DAY_UNIT_INCLUDES "${course}")
    list(APPEND units ${unit})
    set(symbols_record "")  # the stub is checked too, but no report reads its failures
    if(graded)
      set(symbols_record "${records}/${unit}.symbols.tsv")
      get_filename_component(own "${path}" DIRECTORY)
      set(allowed "${course_headers}" "${course}" ${GRADING_COURSE_INCLUDES} "${own}" ${CUDAToolkit_INCLUDE_DIRS}
                  "${CUDAToolkit_LIBRARY_ROOT}" ${CMAKE_CUDA_IMPLICIT_INCLUDE_DIRECTORIES}
                  ${CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES} /usr/include /usr/lib/gcc /usr/local/include)
      list(REMOVE_DUPLICATES allowed)
      _grading_record_steps(${unit} ${day} compile "${records}/${unit}.compile.tsv" FILE "${path}"
                            ALLOWED ${allowed} DENIED "${solution}")
    endif()
    grading_seal_unit(${unit} ${day} "${path}" ${seal_rules} RECORD "${symbols_record}")
  endforeach()
  set(runner ${day}_runner_${kind})
  if(missing)
    message(WARNING "${day}: the submission file ${missing} is missing; ${day}.builds fails naming it")
    if(graded)
      grading_write_build_record("${records}/${runner}.missing.tsv" ${day} missing ${runner} "${missing}" "" "")
    endif()
    grading_add_missing_runner(${runner} "${missing}")
    set_property(GLOBAL APPEND PROPERTY GRADING_${day}_RUNNERS ${runner})
  else()
    grading_add_runner(${runner} ${day} UNITS ${units} ${course_units})
    if(graded)
      _grading_record_steps(${runner} ${day} link "${records}/${runner}.link.tsv")
    endif()
  endif()
endmacro()

# The student's file: the untouched stub and the submission under test; or,
# grading a class (GRADING_CLASS_DIR), every student's, as runners of one
# build.
macro(_grading_day_student_runners)
  set(sources exercise "${PROJECT_SOURCE_DIR}/exercises" submission "${GRADING_SUBMISSION_DIR}")
  if(GRADING_CLASS_DIR)
    set(sources "")
    foreach(student IN LISTS GRADING_CLASS_STUDENTS)
      list(APPEND sources ${student} "${GRADING_CLASS_DIR}/${student}")
      set_property(GLOBAL APPEND_STRING PROPERTY GRADING_${day}_MANIFEST
        "student\t${student}\t$<TARGET_FILE:${day}_runner_${student}>\n")
    endforeach()
  endif()
  while(sources)
    list(POP_FRONT sources kind root)
    _grading_day_student_runner()
  endwhile()
endmacro()

# The grader's host side, its driver and the day's host tests.
macro(_grading_day_grader)
  list(TRANSFORM D_GRADER_COURSE PREPEND "${course}/")
  add_library(${day}_grader STATIC ${D_GRADER} ${D_GRADER_COURSE})
  target_include_directories(${day}_grader PUBLIC "${here}" "${course}")
  target_link_libraries(${day}_grader PUBLIC grading_gtest grading_core)
  target_compile_definitions(${day}_grader PRIVATE GRADING_DAY_DIR="${here}" GRADING_COURSE_DIR="${course}")
  add_executable(${day}_tests $<TARGET_OBJECTS:grading_driver_main>)
  target_link_libraries(${day}_tests PRIVATE ${day}_grader grading_gtest)

  if(D_HOST_TESTS AND GRADING_BUILD_TESTS)
    set(present "")
    foreach(file IN LISTS D_HOST_TESTS)
      if(EXISTS "${tests}/${file}")
        list(APPEND present "${tests}/${file}")
      endif()
    endforeach()
    if(present)
      add_executable(${day}_host_tests ${present})
      target_link_libraries(${day}_host_tests PRIVATE ${day}_grader GTest::gmock GTest::gtest_main)
      target_compile_definitions(${day}_host_tests PRIVATE GRADING_DAY_DIR="${here}" GRADING_COURSE_DIR="${course}"
                                 GRADING_DAY_TESTS_DIR="${tests}" GRADING_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
      # The stand-in runner, for a test that runs the day's cases and report on the host.
      if(TARGET fake_runner)
        target_compile_definitions(${day}_host_tests PRIVATE FAKE_RUNNER="$<TARGET_FILE:fake_runner>")
        target_include_directories(${day}_host_tests PRIVATE "${PROJECT_SOURCE_DIR}/tests/harness")
        add_dependencies(${day}_host_tests fake_runner)
      endif()
      gtest_discover_tests(${day}_host_tests TEST_PREFIX "harness.${day}." PROPERTIES LABELS harness TIMEOUT 120)
    endif()
  endif()
endmacro()

# Planted bugs, hostile submissions and correct variants, the runners'
# stand-ins for instructor-only extras, and the day's benchmark.
macro(_grading_day_fixtures)
  # Planted bugs (instructor-only: they quote the solution) and hostile
  # submissions (each replaces the one student file).
  if(has_solution AND GRADING_BUILD_PLANTED AND NOT GRADING_CLASS_DIR AND EXISTS "${here}/plants.cmake")
    include("${here}/plants.cmake")
  endif()
  list(LENGTH D_STUDENT student_files)
  if(GRADING_BUILD_PLANTED AND NOT GRADING_CLASS_DIR AND student_files EQUAL 1 AND IS_DIRECTORY "${tests}/hostile")
    file(GLOB hostile_files CONFIGURE_DEPENDS "${tests}/hostile/*.cu")
    foreach(file IN LISTS hostile_files)
      _grading_stem(name "${file}")
      # One the seal or the compile must stop never gets a runner: the class
      # build's test builds it (tests/project/build_verdicts.sh).
      file(STRINGS "${file}" stops_the_build LIMIT_COUNT 1 REGEX "^// fails: ${day}\\.builds$")
      if(stops_the_build)
        continue()
      endif()
      grading_add_unit(${day}_hostile_${name} "${file}")
      grading_seal_unit(${day}_hostile_${name} ${day} "${file}" ${seal_rules})
      grading_add_runner(${day}_runner_hostile_${name} ${day} UNITS ${day}_hostile_${name} ${course_units})
      set_property(GLOBAL APPEND_STRING PROPERTY GRADING_${day}_MANIFEST
        "expect\thostile\t${name}\t$<TARGET_FILE:${day}_runner_hostile_${name}>\t${file}\n")
    endforeach()
  endif()

  if(D_EXTRAS_ABSENT)
    add_library(${day}_extras_absent STATIC "${here}/${D_EXTRAS_ABSENT}")
    target_include_directories(${day}_extras_absent PRIVATE "${here}" "${course}")
    target_link_libraries(${day}_extras_absent PRIVATE grading_cuda)
    get_property(runners GLOBAL PROPERTY GRADING_${day}_RUNNERS)
    foreach(runner IN LISTS runners)
      target_link_libraries(${runner} PRIVATE ${day}_extras_absent)
    endforeach()
  endif()
  if(D_BENCH AND GRADING_BUILD_BENCH AND has_solution AND NOT GRADING_CLASS_DIR)
    find_package(benchmark QUIET)
    if(benchmark_FOUND)
      add_subdirectory("${here}/${D_BENCH}")
    else()
      message(STATUS "${day}: Google Benchmark not found (set CMAKE_PREFIX_PATH); no ${day} benchmark")
    endif()
  endif()
endmacro()

# Which suites exist, and their registration with ctest (the driver's
# --emit-ctest), the gates table and the charts table.
macro(_grading_day_registration)
  set(reference_path "")
  if(has_solution)
    set(reference_path "$<TARGET_FILE:${day}_runner_reference>")
  endif()
  get_property(expectations GLOBAL PROPERTY GRADING_${day}_MANIFEST)
  # A class's class_harness builds the runners every student's tests call
  # besides their own (GRADING_CLASS_SHARED_RUNNERS), once.
  if(D_EXERCISE_ABSENT)
    string(PREPEND expectations "course\t$<TARGET_FILE:${day}_runner_course>\n")
    set_property(GLOBAL APPEND PROPERTY GRADING_CLASS_SHARED_RUNNERS ${day}_runner_course)
  endif()
  set(policy_args "")
  if(GRADING_POLICY_FILE)  # the course's policy (cmake/policy.cmake), for every test and the gates table
    string(PREPEND expectations "policy\t${GRADING_POLICY_FILE}\n")
    set(policy_args --policy "${GRADING_POLICY_FILE}")
  endif()
  if(GRADING_CLASS_DIR)
    # The instructor's runner is no suite here, only what speed gates compare with.
    set(suites "${expectations}")
    if(has_solution)
      set(suites "instructor\t${reference_path}\n${suites}")
      set_property(GLOBAL APPEND PROPERTY GRADING_CLASS_SHARED_RUNNERS ${day}_runner_reference)
    endif()
  else()
    set(suites "reference\t${reference_path}
submission\t$<TARGET_FILE:${day}_runner_submission>
stub\t$<TARGET_FILE:${day}_runner_exercise>
${expectations}")
  endif()
  file(GENERATE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/suites.tsv" CONTENT "${suites}")
  get_property(runners GLOBAL PROPERTY GRADING_${day}_RUNNERS)
  set(ctest_file "${CMAKE_CURRENT_BINARY_DIR}/${day}_ctest.cmake")
  set(gates_file "${CMAKE_CURRENT_BINARY_DIR}/gates.tsv")
  set(charts_file "${CMAKE_CURRENT_BINARY_DIR}/charts.tsv")
  add_custom_command(
    OUTPUT "${ctest_file}" "${gates_file}" "${charts_file}"
    COMMAND ${day}_tests --emit-ctest "${ctest_file}" --manifest "${CMAKE_CURRENT_BINARY_DIR}/suites.tsv"
    COMMAND ${day}_tests --gates-tsv ${policy_args} > "${gates_file}"
    COMMAND ${day}_tests --charts-tsv > "${charts_file}"
    DEPENDS ${day}_tests "${CMAKE_CURRENT_BINARY_DIR}/suites.tsv" ${GRADING_POLICY_FILE}
    COMMENT "Registering the ${day} suites with ctest")
  # The registration alone (the grade target needs it without the runners),
  # and everything the suites run.
  add_custom_target(${day}_ctest_file DEPENDS "${ctest_file}" "${gates_file}" "${charts_file}")
  add_custom_target(${day}_suites ALL)
  add_dependencies(${day}_suites ${day}_ctest_file ${runners})
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${day}_include.cmake")
  file(WRITE "${include_file}"
"if(EXISTS \"${ctest_file}\")
  include(\"${ctest_file}\")
else()
  add_test(${day}_NOT_BUILT ${day}_NOT_BUILT)
endif()
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
  set_property(GLOBAL APPEND PROPERTY GRADING_GATE_TABLES "${gates_file}")
  set_property(GLOBAL APPEND PROPERTY GRADING_CHART_TABLES "${charts_file}")
  set_property(GLOBAL APPEND PROPERTY GRADING_CTEST_FILES ${day}_ctest_file)
  foreach(file IN LISTS D_STUDENT)
    get_filename_component(name "${file}" NAME)
    set_property(GLOBAL APPEND PROPERTY GRADING_STUDENT_FILES "${day}/${name}")
  endforeach()
endmacro()

# grading_add_day(<day>
#   STUDENT <files...>        the exercise: exercises/<day>/<file> and reference/<day>/solution/<file>
#   EXERCISE_SYMBOLS <names>  all that the student's files may define with external linkage: the
#                             exercise's functions and kernels, qualified (zdemo::scale)
#   [EXERCISE_KERNELS <names>] those of EXERCISE_SYMBOLS that are kernels: defined, they must be device code
#   [EXERCISE_FORBIDS <names>] C functions the student's files may not call: a day whose work stays
#                             on the legacy default stream passes ${GRADING_OFF_STREAM_CALLS}
#   [EXERCISE_CHECKS <names>] C functions whose calls the runner judges as they are made
#                             (${GRADING_CHECKED_CALLS}: harness/cuda/src/checked_calls.cpp)
#   COURSE <files...>         the course's own runner units (in reference/<day>/)
#   RUNNER <file>             the runner's main (CUDA)
#   GRADER <files...>         the host side: the declaration (gates.cpp), cases, reports
#   [GRADER_COURSE <files>]   course files (reference/<day>/) the host side compiles too
#   [SOLUTION_EXTRAS <files>] instructor-only units (reference/<day>/solution/) linked into the reference runner
#   [EXTRAS_ABSENT <file>]    what every other runner gets in their place: it answers "not in
#                             this runner" (linked after every unit, so a runner whose units
#                             define the functions never takes it)
#   [EXERCISE_ABSENT <file>]  the exercise's functions answering "not in this runner": with
#                             the course's units it makes <day>_runner_course, which links
#                             no student code; a baseline a gate compares the submission
#                             against is timed there (CaseContext::courseRunner)
#   [BENCH <dir>]             a Google Benchmark folder, added where the solution is and
#                             Google Benchmark is found (a benchmark times the instructor's code)
#   [HOST_TESTS <files...>]   host-only tests (in tests/<day>/)
#   [RUNNER_LINK <libs>])     extra libraries every runner unit links (CUDA::nvtx3)
function(grading_add_day day)
  cmake_parse_arguments(D "" "RUNNER;EXTRAS_ABSENT;EXERCISE_ABSENT;BENCH" "STUDENT;EXERCISE_SYMBOLS;EXERCISE_KERNELS;EXERCISE_FORBIDS;EXERCISE_CHECKS;COURSE;GRADER;GRADER_COURSE;SOLUTION_EXTRAS;HOST_TESTS;RUNNER_LINK"
                        ${ARGN})
  set(here "${CMAKE_CURRENT_SOURCE_DIR}")
  set(course "${PROJECT_SOURCE_DIR}/reference/${day}")
  set(solution "${course}/solution")
  set(tests "${PROJECT_SOURCE_DIR}/tests/${day}")
  set(GRADING_DAY "${day}")
  set(GRADING_DAY_COURSE "${course}")
  if(NOT D_EXERCISE_SYMBOLS)
    message(FATAL_ERROR "${day}: grading_add_day wants EXERCISE_SYMBOLS, the functions and kernels a student's file may define")
  endif()
  foreach(kernel IN LISTS D_EXERCISE_KERNELS)
    if(NOT kernel IN_LIST D_EXERCISE_SYMBOLS)
      message(FATAL_ERROR "${day}: EXERCISE_KERNELS names ${kernel}, which EXERCISE_SYMBOLS does not")
    endif()
  endforeach()
  # How every unit of a student's file is sealed (grading_seal_unit).
  set(seal_rules EXPORTS ${D_EXERCISE_SYMBOLS} KERNELS ${D_EXERCISE_KERNELS} FORBIDS ${D_EXERCISE_FORBIDS}
                 CHECKS ${D_EXERCISE_CHECKS})
  set(GRADING_DAY_RUNNER_LINK ${D_RUNNER_LINK})
  set(GRADING_DAY_UNIT_INCLUDES "${course}")
  set_property(DIRECTORY APPEND PROPERTY LABELS ${day})

  _grading_day_course_runners()
  _grading_day_reference_runner()
  _grading_day_course_headers()
  _grading_day_student_runners()
  _grading_day_grader()
  _grading_day_fixtures()
  _grading_day_registration()
endfunction()
