#pragma once
// What the JUnit file cannot say: which test ctest killed or saw crash
// (ctest's console log).
#include <map>
#include <string>

namespace grading::report {

// ctest test name (see plainTestName) -> how the test ended when ctest reports an
// abnormal end: "Timeout" or "Exception: SegFault" and the like. Reads the
// progress lines of ctest's console output (ctest --output-log FILE).
std::map<std::string, std::string> abnormalEnds(const std::string& ctestLog);

}  // namespace grading::report
