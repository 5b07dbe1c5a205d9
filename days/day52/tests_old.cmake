set_property(DIRECTORY APPEND PROPERTY LABELS day52)

add_library(day52_cases STATIC day52_cases.cpp)
target_include_directories(day52_cases PUBLIC .)
target_link_libraries(day52_cases PUBLIC grading_day52 grading_core)

# Host-only: the fmaf reference, the gates on planted discrepancies, the report.
add_executable(day52_host_tests day52_host_test.cpp)
target_link_libraries(day52_host_tests PRIVATE grading_day52 GTest::gtest_main)
gtest_discover_tests(day52_host_tests TEST_PREFIX "harness." DISCOVERY_MODE PRE_TEST
  PROPERTIES LABELS harness TIMEOUT 60)

# 52.diamond, 52.serial, 52.stress, 52.no_timing against a runner; registered
# once per runner.
add_executable(day52_tests day52_gates_test.cpp)
target_link_libraries(day52_tests PRIVATE day52_cases grading_gtest)
add_dependencies(day52_tests day52_runner_reference day52_runner_submission)
grading_register_suite(day52_tests RUNNER day52_runner_reference AS reference)
grading_register_suite(day52_tests RUNNER day52_runner_submission AS submission)

# 52.overlap, the Day52Report observations and the planted bug that must fail
# 52.overlap run alone (SERIAL): other processes' kernels would skew them.
add_executable(day52_timing_tests day52_timing_test.cpp)
target_link_libraries(day52_timing_tests PRIVATE day52_cases grading_gtest GTest::gmock)
add_dependencies(day52_timing_tests day52_runner_reference day52_runner_submission)
grading_register_suite(day52_timing_tests RUNNER day52_runner_reference AS reference FILTER "-Day52PlantedTiming.*" SERIAL)
grading_register_suite(day52_timing_tests RUNNER day52_runner_submission AS submission FILTER "-Day52PlantedTiming.*" SERIAL)

# Each planted bug trips its own gate; the untouched stub fails cleanly.
if(GRADING_BUILD_PLANTED)
  add_executable(day52_planted_tests day52_planted_test.cpp)
  target_link_libraries(day52_planted_tests PRIVATE day52_cases grading_gtest GTest::gmock)
  add_dependencies(day52_planted_tests day52_runner_exercise day52_runner_planted_record_before_upstream
    day52_runner_planted_join_forgets_branch day52_runner_planted_all_on_stream0
    day52_runner_planted_timing_events)
  grading_register_suite(day52_planted_tests AS planted)
  add_dependencies(day52_timing_tests day52_runner_planted_all_on_stream0)
  grading_register_suite(day52_timing_tests AS planted FILTER "Day52PlantedTiming.*" SERIAL)
endif()
