# Runs the submission's tests and prints the gate report (cmake -P; see the
# grade target). The exit status is the report's: 0 only when every gate passed.
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
set(junit "${BUILD_DIR}/junit-submission.xml")
execute_process(
  COMMAND "${CTEST}" --test-dir "${BUILD_DIR}" -L submission -j ${cores}
          --test-output-size-passed 65536 --output-junit "${junit}" --progress
          --output-log "${BUILD_DIR}/ctest-submission.log"
  RESULT_VARIABLE tests_rc)
string(REPLACE ";" "," days "${DAYS}")
execute_process(
  COMMAND "${REPORT}" --junit "${junit}" --gates "${GATES}" --prefix submission. --days "${days}"
          --show-reports --results-json "${BUILD_DIR}/results.json" --ctest-log "${BUILD_DIR}/ctest-submission.log"
  RESULT_VARIABLE report_rc)
if(NOT report_rc EQUAL 0)
  message(FATAL_ERROR "not every gate passed (the report above says which); results.json: ${BUILD_DIR}/results.json")
endif()
