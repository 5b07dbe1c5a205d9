# cmake -DSOURCE=<repo> -DDEST=<folder> -P student_kit.cmake
# Writes the tree a student clones: the exercises, the course's code, the
# harness, the data, README.md and grading.md; no instructor solution, no
# planted bug, no hostile submission, none of the harness's own tests. In it
# `cmake --workflow --preset grade` works and the reference suites skip
# ("no instructor solutions in this tree").
if(NOT SOURCE OR NOT DEST)
  message(FATAL_ERROR "usage: cmake -DSOURCE=<repo> -DDEST=<folder> -P student_kit.cmake")
endif()
file(REMOVE_RECURSE "${DEST}")
file(MAKE_DIRECTORY "${DEST}")
foreach(top CMakeLists.txt CMakePresets.json README.md grading.md .gitignore)
  if(EXISTS "${SOURCE}/${top}")
    file(COPY "${SOURCE}/${top}" DESTINATION "${DEST}")
  endif()
endforeach()
file(COPY "${SOURCE}/cmake" "${SOURCE}/harness" "${SOURCE}/exercises" DESTINATION "${DEST}")
# The instructor's side of each day: what the kit leaves out.
file(COPY "${SOURCE}/days" DESTINATION "${DEST}"
     PATTERN "solution" EXCLUDE
     PATTERN "plants.cmake" EXCLUDE
     PATTERN "hostile" EXCLUDE
     PATTERN "tests" EXCLUDE
     PATTERN "bench" EXCLUDE)
file(GLOB_RECURSE kept RELATIVE "${DEST}" "${DEST}/*")
list(LENGTH kept count)
message(STATUS "student kit: ${count} files in ${DEST}")
