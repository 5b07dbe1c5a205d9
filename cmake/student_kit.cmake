# cmake -DSOURCE=<repo> -DDEST=<folder> -P student_kit.cmake
# Writes the tree a student clones: the exercises, the course's code, the
# harness, README.md and grading.md; no instructor solution, no planted bug,
# none of the tests or hostile submissions, no benchmark, lab or performance
# notes. In it `cmake --workflow --preset grade` works and the reference
# suites skip ("no instructor solutions in this tree").
if(NOT SOURCE OR NOT DEST)
  message(FATAL_ERROR "usage: cmake -DSOURCE=<repo> -DDEST=<folder> -P student_kit.cmake")
endif()
file(REMOVE_RECURSE "${DEST}")
file(MAKE_DIRECTORY "${DEST}")
foreach(top CMakeLists.txt CMakePresets.json README.md grading.md grading.json .gitignore)
  if(EXISTS "${SOURCE}/${top}")
    file(COPY "${SOURCE}/${top}" DESTINATION "${DEST}")
  endif()
endforeach()
file(COPY "${SOURCE}/cmake" "${SOURCE}/exercises" DESTINATION "${DEST}")
# The instructor's side of each day: what the kit leaves out.
file(COPY "${SOURCE}/reference" DESTINATION "${DEST}" PATTERN "solution" EXCLUDE)
file(COPY "${SOURCE}/harness" DESTINATION "${DEST}"
     PATTERN "plants.cmake" EXCLUDE
     PATTERN "bench" EXCLUDE)
file(GLOB_RECURSE kept RELATIVE "${DEST}" "${DEST}/*")
list(LENGTH kept count)
message(STATUS "student kit: ${count} files in ${DEST}")
