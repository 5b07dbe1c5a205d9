#pragma once
// What the JUnit file cannot say: which day failed to compile (the build
// log) and which test ctest killed or saw crash (ctest's console log).
#include <map>
#include <string>
#include <vector>

namespace grading::report {

// For each of `days` that did not build, the reason: the first compiler error
// lines after ninja's "FAILED: <output>" for an output under that day (a path
// component that is the day or starts with "<day>_", as CMake names the
// day's targets), or the CMake note that the day's submission file is
// missing, or the first CMake error when configuring failed (every day).
// Under the key "": the first failure under none of `days` (a shared
// library, a host test): a hint for a day that has no tests at all.
// `student` (a class build's staged name, e.g. "s0007"): only that student's
// targets and files count; "" for a build of one submission.
std::map<std::string, std::string> buildFailures(const std::string& log, const std::vector<std::string>& days,
                                                 const std::string& student = "");

// ctest test name (see plainTestName) -> how the test ended when ctest reports an
// abnormal end: "Timeout" or "Exception: SegFault" and the like. Reads the
// progress lines of ctest's console output (ctest --output-log FILE).
std::map<std::string, std::string> abnormalEnds(const std::string& ctestLog);

}  // namespace grading::report
