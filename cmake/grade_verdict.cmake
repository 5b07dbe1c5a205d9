# The grade workflow's last step: fails, saying so, when the grade target
# could not grade on this machine (cmake/grade.cmake wrote the verdict).
if(NOT EXISTS "${VERDICT}")
  message(FATAL_ERROR "no verdict at ${VERDICT}: build the grade target first")
endif()
file(READ "${VERDICT}" verdict)
if(verdict MATCHES "^not graded")
  message(FATAL_ERROR "could not grade on this machine: no gate failed, none ran; the report's first lines say why")
endif()
