#pragma once
// How a submission's build failed, as its build steps recorded it
// (cmake/build_record.cmake writes them: the compile and link launcher, the
// include check, the grade target for a missing file): TSV files, a header
// line naming the columns, then rows of day, step, target, file, status and
// the step's first error line.
#include <map>
#include <string>
#include <vector>

namespace grading::report {

struct BuildRecord {
    std::string day;
    std::string step;    // compile, link, includes (the include check), missing, build (outside the submission's steps)
    std::string target;  // the CMake target the step belongs to
    std::string file;    // the file compiled or checked, or the one missing; "" for a link or a build
    std::string status;  // the step's exit status; "" for a missing file
    std::string error;   // the step's first error line; "" when it printed none
};

// The rows of one record file. Throws InputError naming `source` and the line
// of a malformed row (a missing column, an unknown step, no day).
std::vector<BuildRecord> parseBuildRecords(const std::string& text, const std::string& source);

// The records of every *.tsv file under `dir`, at any depth, in path order.
// Throws InputError when `dir` is not a folder: the build makes one for each
// submission it builds, failed or not.
std::vector<BuildRecord> loadBuildRecords(const std::string& dir);

struct BuildFailure {
    // For the day's other gates: "does not compile", "does not link", "the submission file is missing", "not built".
    std::string summary;
    std::string reason;   // for <day>.builds: the first error line first, then which step failed
};

// Per day, how its build failed: missing files first, then include checks,
// compiles, links and other builds, each record's lines in that order.
std::map<std::string, BuildFailure> buildFailures(const std::vector<BuildRecord>& records);

}  // namespace grading::report
