#include "grading/build_records.h"

#include <algorithm>
#include <filesystem>

#include "cli.h"
#include "grading/junit.h"
#include "text_lines.h"

namespace grading::report {
namespace {

namespace fs = std::filesystem;

const char* const kColumns[] = {"day", "step", "target", "file", "status", "error"};
// In the order a day's failures are listed: the first explains the rest (no
// file compiles no runner; a refused include stops its compile; a symbol
// the exercise does not declare stops the link).
const char* const kSteps[] = {"missing", "includes", "compile", "symbols", "link", "build"};

size_t rankOf(const std::string& step) {
    return std::find(std::begin(kSteps), std::end(kSteps), step) - std::begin(kSteps);
}

// "missing, includes, ... or build": the steps a record may name.
std::string stepNames() {
    std::string names;
    for (size_t i = 0; i < std::size(kSteps); ++i) {
        names += (i == 0 ? "" : i + 1 == std::size(kSteps) ? " or " : ", ") + std::string(kSteps[i]);
    }
    return names;
}

std::string exitStatus(const BuildRecord& r) { return r.status.empty() ? "" : ": exit status " + r.status; }

// The lines a record adds to its day's reason, the error first.
std::string reasonOf(const BuildRecord& r) {
    if (r.step == "missing") return "the submission file " + r.file + " is missing";
    std::string what;
    if (r.step == "includes") what = "the include check of " + r.file;
    else if (r.step == "compile") what = "compiling " + r.file;
    else if (r.step == "symbols") what = "the symbol check of " + r.file;
    else if (r.step == "link") what = "linking " + r.target;
    else what = "building " + r.target + " (outside the submission's own steps)";
    const std::string failed = what + " failed" + exitStatus(r);
    return (r.error.empty() ? failed : r.error) + "\n(" + failed + ")";
}

std::string summaryOf(const BuildRecord& r) {
    if (r.step == "missing") return "the submission file is missing";
    if (r.step == "link") return "does not link";
    if (r.step == "build") return "not built";
    return "does not compile";
}

}  // namespace

std::vector<BuildRecord> parseBuildRecords(const std::string& text, const std::string& source) {
    std::vector<BuildRecord> records;
    std::vector<std::string> header;
    const std::vector<std::string> lines = text::splitLines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].empty()) continue;
        const std::string where = source + ":" + std::to_string(i + 1) + ": ";
        const std::vector<std::string> fields = text::splitTabs(lines[i]);
        if (header.empty()) {
            header = fields;
            for (const char* name : kColumns) {
                if (std::find(header.begin(), header.end(), name) == header.end()) {
                    throw InputError(where + "the header lacks the column '" + name +
                                     "' (want tab-separated: day step target file status error)");
                }
            }
            continue;
        }
        if (fields.size() != header.size()) {
            throw InputError(where + "expected " + std::to_string(header.size()) + " tab-separated fields, got " +
                             std::to_string(fields.size()));
        }
        const auto field = [&](const char* name) {
            return fields[std::find(header.begin(), header.end(), name) - header.begin()];
        };
        BuildRecord r{field("day"), field("step"), field("target"), field("file"), field("status"), field("error")};
        if (r.day.empty()) throw InputError(where + "the record names no day");
        if (rankOf(r.step) == std::size(kSteps)) {
            throw InputError(where + "unknown step '" + r.step + "' (want " + stepNames() + ")");
        }
        records.push_back(r);
    }
    if (header.empty()) throw InputError(source + ": an empty build record (no header line)");
    return records;
}

std::vector<BuildRecord> loadBuildRecords(const std::string& dir) {
    std::error_code error;
    if (!fs::is_directory(dir, error)) {
        throw InputError(dir + ": no build records folder (the build makes one for every submission it builds)");
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (entry.is_regular_file() && entry.path().extension() == ".tsv") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<BuildRecord> records;
    for (const fs::path& file : files) {
        for (BuildRecord& r : parseBuildRecords(cli::readFile(file.string(), "build record"), file.string())) {
            records.push_back(std::move(r));
        }
    }
    return records;
}

std::map<std::string, BuildFailure> buildFailures(const std::vector<BuildRecord>& records) {
    std::vector<const BuildRecord*> ordered;
    for (const BuildRecord& r : records) ordered.push_back(&r);
    std::stable_sort(ordered.begin(), ordered.end(), [](const BuildRecord* a, const BuildRecord* b) {
        return rankOf(a->step) < rankOf(b->step);
    });
    std::map<std::string, BuildFailure> failures;
    for (const BuildRecord* r : ordered) {
        BuildFailure& f = failures[r->day];
        if (f.summary.empty()) f.summary = summaryOf(*r);
        f.reason += (f.reason.empty() ? "" : "\n") + reasonOf(*r);
    }
    return failures;
}

}  // namespace grading::report
