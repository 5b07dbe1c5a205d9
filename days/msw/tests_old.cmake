set_property(DIRECTORY APPEND PROPERTY LABELS msw)

add_library(msw_cases STATIC msw_cases.cpp)
target_include_directories(msw_cases PUBLIC .)
target_link_libraries(msw_cases PUBLIC grading_msw msw_host_reference grading_core)

# Host-only: seq_find_mismatch, the block arithmetic, the generator, the case
# lists, and each gate's exact message on planted discrepancies.
add_executable(msw_host_tests msw_host_test.cpp)
target_link_libraries(msw_host_tests PRIVATE msw_cases GTest::gmock GTest::gtest_main)
gtest_discover_tests(msw_host_tests TEST_PREFIX "harness." DISCOVERY_MODE PRE_TEST
  PROPERTIES LABELS harness TIMEOUT 60)

# Every msw.* gate against a runner; registered once per runner.
add_executable(msw_tests msw_gates_test.cpp)
target_link_libraries(msw_tests PRIVATE msw_cases grading_gtest)
add_dependencies(msw_tests msw_runner_reference msw_runner_submission)
# A correct test takes 2 to 12 s on a shared GPU; the runner calls' own limits
# (msw_cases.cpp) stop a hang well before this backstop.
# The report's timings run alone, as other tests' kernels would skew them.
foreach(as reference submission)
  grading_register_suite(msw_tests RUNNER msw_runner_${as} AS ${as} TIMEOUT 120 FILTER "-MswReport.*")
  grading_register_suite(msw_tests RUNNER msw_runner_${as} AS ${as} TIMEOUT 120 FILTER "MswReport.*" SERIAL)
endforeach()

# Each planted bug trips its own gate; the untouched stub fails cleanly.
if(GRADING_BUILD_PLANTED)
  add_executable(msw_planted_tests msw_planted_test.cpp)
  target_link_libraries(msw_planted_tests PRIVATE msw_cases grading_gtest GTest::gmock)
  add_dependencies(msw_planted_tests msw_runner_exercise msw_runner_planted_last_mismatch
    msw_runner_planted_chunk_floor_sqrt msw_runner_planted_precondition_block
    msw_runner_planted_empty_underflow)
  grading_register_suite(msw_planted_tests AS planted TIMEOUT 120)
endif()
