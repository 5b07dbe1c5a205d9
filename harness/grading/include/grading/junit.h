#pragma once
// The test cases of ctest's JUnit file (ctest --output-junit), read with pugixml.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace grading::report {

// A malformed input (JUnit file, gates table, option). The message names the
// file and, where there is one, the line.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct JunitCase {
    std::string name;    // as ctest wrote it, e.g. "submission.Suite/Test.X/case  # GetParam() = ..."
    std::string status;  // run | fail | notrun | disabled
    double seconds = 0;
    bool hasFailure = false;
    std::string failureMessage;
    bool hasSkipped = false;
    std::string skippedMessage;  // "SKIP_REGULAR_EXPRESSION_MATCHED" for a gtest skip
    std::string output;          // <system-out>, unescaped; "" when absent
    std::string rerunOutput;     // a failure's rerun with shrinking on (takeShrunkFailures); "" when none
};

std::vector<JunitCase> parseJunit(std::string_view xml, const std::string& source);
std::vector<JunitCase> loadJunit(const std::string& path);

// The gtest name ctest registered, without the "  # GetParam() = ..." that
// gtest_discover_tests appends to value-parameterized tests (gtest names
// never contain spaces).
std::string plainTestName(std::string_view ctestName);

}  // namespace grading::report
