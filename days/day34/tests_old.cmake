set_property(DIRECTORY APPEND PROPERTY LABELS day34)

add_library(day34_cases STATIC day34_cases.cpp)
target_include_directories(day34_cases PUBLIC .)
target_link_libraries(day34_cases PUBLIC grading_day34 grading_core)

# Host-only: the gates on planted discrepancies, the double reference by hand,
# the report arithmetic.
add_executable(day34_host_tests day34_host_test.cpp)
target_link_libraries(day34_host_tests PRIVATE grading_day34 GTest::gmock GTest::gtest_main)
gtest_discover_tests(day34_host_tests TEST_PREFIX "harness." DISCOVERY_MODE PRE_TEST
  PROPERTIES LABELS harness TIMEOUT 60)

# Every 34.* gate against a runner; registered once per runner.
add_executable(day34_tests day34_gates_test.cpp)
target_link_libraries(day34_tests PRIVATE day34_cases grading_gtest)
add_dependencies(day34_tests day34_runner_reference day34_runner_submission)
# The timing gate and the report run alone, as other tests' kernels would skew them.
set(timed "Day34/Timing.*:Day34Report.*")
foreach(as reference submission)
  grading_register_suite(day34_tests RUNNER day34_runner_${as} AS ${as} FILTER "-${timed}")
  grading_register_suite(day34_tests RUNNER day34_runner_${as} AS ${as} FILTER "${timed}" SERIAL)
endforeach()

# Each planted bug trips its own gate; the untouched stub fails cleanly.
if(GRADING_BUILD_PLANTED)
  add_executable(day34_planted_tests day34_planted_test.cpp)
  target_link_libraries(day34_planted_tests PRIVATE day34_cases grading_gtest GTest::gmock)
  add_dependencies(day34_planted_tests day34_runner_exercise day34_runner_planted_one_buffer
    day34_runner_planted_apron_row_short day34_runner_planted_no_sync day34_runner_planted_no_sync_exposed
    day34_runner_planted_copy_back_writes day34_runner_planted_clamp)
  grading_register_suite(day34_planted_tests AS planted)
endif()
