#pragma once
// A rule-based read of submitted source before it is graded. Nothing here
// fails a submission: a finding is "flagged for review" with its file and
// line, for the instructor to look at. The verdict stays with the gates; the
// sandbox and the runner's channel are what stop the code these rules name.
// The rules are one table (precheck.cpp), each with a test.
#include <string>
#include <vector>

namespace grading::report {

struct PrecheckRule {
    std::string id;    // "process-control"
    std::string what;  // why it is worth a look
};
const std::vector<PrecheckRule>& precheckRules();

struct Finding {
    std::string file;
    int line = 0;
    std::string rule;  // a PrecheckRule id
    std::string text;  // the line, trimmed and shortened
};

// `allowedIncludes`: quoted includes the course provides (basenames, e.g.
// "bfs_mappings.h", "harness/cuda_check.h"). Angle includes are checked
// against the C++ standard library and the CUDA Toolkit's headers.
std::vector<Finding> precheck(const std::string& file, const std::string& source,
                              const std::vector<std::string>& allowedIncludes);

// "file:line: [rule] text" lines, and the TSV form grade_report reads
// (file, line, rule, text).
std::string formatFindings(const std::vector<Finding>& findings);
std::string findingsTsv(const std::vector<Finding>& findings);
std::vector<Finding> parseFindingsTsv(const std::string& tsv);

}  // namespace grading::report
