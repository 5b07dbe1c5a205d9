// grade_report: the gate table of one submission from ctest's JUnit output;
// grade_report summarize: the class table from the students' summary rows.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli.h"
#include "grading/precheck.h"
#include "grading/report.h"
#include "text_lines.h"

namespace {

using namespace grading::report;
using grading::cli::option;
using grading::cli::readFile;
using grading::cli::UsageError;
using grading::cli::writeFile;

const char* const kUsage =
    "usage: grade_report --junit FILE [--junit FILE...] --gates gates.tsv [--prefix submission.]\n"
    "                    [--days DAY,DAY...] [--build-records DIR] [--ctest-log FILE...] [--student NAME]\n"
    "                    [--results-json OUT] [--summary-row OUT.tsv] [--show-reports] [--header KEY=VALUE...]\n"
    "                    [--flags FINDINGS.tsv] [--shrunk FILE...]\n"
    "                    (--shrunk: a JUnit file of the failed tests run again with shrinking on: a test\n"
    "                    that fails there too shows that run's message and smallest input; no verdict changes)\n"
    "       grade_report summarize [--csv OUT.csv] [--markdown OUT.md] ROW.tsv...\n"
    "       grade_report precheck [--allow HEADER]... [--allow-list FILE] [--tsv OUT] FILE...\n"
    "                    (findings for review; exit 0; --allow-list: allowed includes, one a line)\n"
    "Exit status: 0 when every gate of the selected days passed, 1 when not, 2 on a usage or input\n"
    "error, 3 when none failed but some could not run on this machine (no GPU, no sandbox): not graded.\n";

// grading.md documents it; grade.cmake and grade_class.sh read it.
constexpr int kCouldNotGradeHere = 3;

int summarize(int argc, char** argv) {
    std::string csv, markdown, value;
    std::vector<std::pair<std::string, std::string>> rows;
    for (int i = 2; i < argc; ++i) {
        if (option(argc, argv, i, "--csv", &value)) csv = value;
        else if (option(argc, argv, i, "--markdown", &value)) markdown = value;
        else if (argv[i][0] == '-') throw UsageError(std::string("unknown option ") + argv[i]);
        else rows.emplace_back(argv[i], readFile(argv[i], "summary row"));
    }
    const ClassTable table = mergeSummaryRows(rows);
    if (!csv.empty()) writeFile(csv, toCsv(table));
    if (!markdown.empty()) writeFile(markdown, toMarkdown(table));
    std::cout << toMarkdown(table);
    return 0;
}

// Submitted files read for code worth a look (precheck.h); never a verdict.
int precheckFiles(int argc, char** argv) {
    std::vector<std::string> allowed, files;
    std::string tsv, value;
    for (int i = 2; i < argc; ++i) {
        if (option(argc, argv, i, "--allow", &value)) allowed.push_back(value);
        else if (option(argc, argv, i, "--allow-list", &value)) {
            for (const std::string& name : grading::text::splitLines(readFile(value, "list of allowed includes"))) {
                if (!name.empty()) allowed.push_back(name);
            }
        }
        else if (option(argc, argv, i, "--tsv", &value)) tsv = value;
        else if (argv[i][0] == '-') throw UsageError(std::string("unknown option ") + argv[i]);
        else files.push_back(argv[i]);
    }
    std::vector<Finding> all;
    for (const std::string& f : files) {
        std::ifstream in(f, std::ios::binary);
        if (!in) {
            std::cerr << "grade_report precheck: " << f << ": cannot open (missing files are the build gate's to report)\n";
            continue;
        }
        std::ostringstream text;
        text << in.rdbuf();
        const std::vector<Finding> found = precheck(f, text.str(), allowed);
        all.insert(all.end(), found.begin(), found.end());
    }
    std::cout << formatFindings(all);
    if (!tsv.empty()) writeFile(tsv, findingsTsv(all));
    return 0;
}

int gradeOne(int argc, char** argv) {
    GradeInput input;
    std::vector<std::string> junits, shrunkJunits;
    std::string gatesPath, resultsPath, rowPath, student = "submission", value;
    bool showReports = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (option(argc, argv, i, "--junit", &value)) junits.push_back(value);
        else if (option(argc, argv, i, "--shrunk", &value)) shrunkJunits.push_back(value);
        else if (option(argc, argv, i, "--gates", &value)) gatesPath = value;
        else if (option(argc, argv, i, "--prefix", &value)) input.prefix = value;
        else if (option(argc, argv, i, "--days", &value)) input.days = grading::text::splitCommas(value);
        else if (option(argc, argv, i, "--build-records", &value)) input.buildRecords = loadBuildRecords(value);
        else if (option(argc, argv, i, "--ctest-log", &value)) {
            // One per ctest run of the student (a class runs the timed gates apart).
            input.ctestLog = (input.ctestLog ? *input.ctestLog + "\n" : std::string()) + readFile(value, "ctest log");
        }
        else if (option(argc, argv, i, "--student", &value)) student = value;
        else if (option(argc, argv, i, "--flags", &value)) input.flags = parseFindingsTsv(readFile(value, "precheck findings"));
        else if (option(argc, argv, i, "--header", &value)) {
            const size_t eq = value.find('=');
            if (eq == std::string::npos || eq == 0) throw UsageError("--header wants KEY=VALUE, got '" + value + "'");
            input.header.emplace_back(value.substr(0, eq), value.substr(eq + 1));
        }
        else if (option(argc, argv, i, "--results-json", &value)) resultsPath = value;
        else if (option(argc, argv, i, "--summary-row", &value)) rowPath = value;
        else if (arg == "--show-reports") showReports = true;
        else if (arg == "--help" || arg == "-h") {
            std::cout << kUsage;
            return 0;
        } else {
            throw UsageError("unknown argument " + arg);
        }
    }
    if (gatesPath.empty()) throw UsageError("--gates is required");
    // No --junit is allowed: every gate then reads NOT RUN (nothing was tested).
    input.gates = loadGates(gatesPath);
    for (const std::string& path : junits) {
        std::vector<JunitCase> cases = loadJunit(path);
        input.tests.insert(input.tests.end(), cases.begin(), cases.end());
    }
    for (const std::string& path : shrunkJunits) takeShrunkFailures(input.tests, loadJunit(path));
    const Report report = grade(input);
    const std::string table = formatTable(report);
    std::cout << table;
    const std::string observations = showReports ? formatObservations(report) : "";
    if (!observations.empty()) std::cout << "\n" << observations;
    if (!resultsPath.empty()) {
        writeFile(resultsPath, resultsJson(report, table + (observations.empty() ? "" : "\n" + observations)));
    }
    if (!rowPath.empty()) writeFile(rowPath, summaryRow(report, student));
    return report.allPassed() ? 0 : report.couldNotGradeHere() ? kCouldNotGradeHere : 1;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (argc > 1 && std::string(argv[1]) == "summarize") return summarize(argc, argv);
        if (argc > 1 && std::string(argv[1]) == "precheck") return precheckFiles(argc, argv);
        return gradeOne(argc, argv);
    } catch (const UsageError& e) {
        std::cerr << "grade_report: " << e.what() << "\n" << kUsage;
        return 2;
    } catch (const InputError& e) {
        std::cerr << "grade_report: " << e.what() << "\n";
        return 2;
    }
}
