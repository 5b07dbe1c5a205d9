# cmake -DSOURCE=<repo> -DDEST=<folder> -P student_kit.cmake
# Writes the tree a student clones: the exercises, the course's code, the
# harness and the student's README (exercises/README.md, as the kit's
# README.md); no instructor solution, no planted bug, none of the tests or
# hostile submissions, no benchmark, lab, performance notes, or the
# instructor's pages (the root README.md, grading.md). In it
# `cmake --workflow --preset grade` works and the reference suites skip
# ("no instructor solutions in this tree").
if(NOT SOURCE OR NOT DEST)
  message(FATAL_ERROR "usage: cmake -DSOURCE=<repo> -DDEST=<folder> -P student_kit.cmake")
endif()
file(REMOVE_RECURSE "${DEST}")
file(MAKE_DIRECTORY "${DEST}")
foreach(top CMakeLists.txt CMakePresets.json grading.json)
  if(EXISTS "${SOURCE}/${top}")
    file(COPY "${SOURCE}/${top}" DESTINATION "${DEST}")
  endif()
endforeach()
file(WRITE "${DEST}/.gitignore" "build/\n/Testing/\n/counterexamples/\n")
file(COPY_FILE "${SOURCE}/exercises/README.md" "${DEST}/README.md")
file(COPY "${SOURCE}/cmake" DESTINATION "${DEST}")
file(COPY "${SOURCE}/exercises" DESTINATION "${DEST}" PATTERN "README.md" EXCLUDE)
# The instructor's side of each day: what the kit leaves out.
file(COPY "${SOURCE}/reference" DESTINATION "${DEST}" PATTERN "solution" EXCLUDE)
file(COPY "${SOURCE}/harness" DESTINATION "${DEST}"
     PATTERN "plants.cmake" EXCLUDE
     PATTERN "bench" EXCLUDE
     REGEX "/harness/tools(/.*)?$" EXCLUDE  # new-day: an instructor's
     PATTERN "grade_class.sh" EXCLUDE)      # grading a class: an instructor's
file(GLOB_RECURSE kept RELATIVE "${DEST}" "${DEST}/*")
list(LENGTH kept count)
message(STATUS "student kit: ${count} files in ${DEST}")
