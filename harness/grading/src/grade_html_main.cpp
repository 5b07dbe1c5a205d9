// grade_html report: one graded submission as a self-contained HTML page;
// grade_html class: the class dashboard of a grade_class.sh output folder.
#include <filesystem>
#include <iostream>

#include "cli.h"
#include "html_report.h"
#include "text_lines.h"

namespace {

namespace fs = std::filesystem;
using grading::cli::option;
using grading::cli::readFile;
using grading::cli::UsageError;
using grading::cli::writeFile;
using grading::report::InputError;

const char* const kUsage =
    "usage: grade_html report --results results.json [--junit FILE... --prefix submission.] [--charts charts.tsv]\n"
    "                         --out report.html\n"
    "       grade_html class OUT_DIR [--out OUT_DIR/dashboard.html]\n"
    "  either: [--assets DIR]  the page's stylesheet, script and vendor/ (default: the source tree's html/)\n"
    "Figures come from results.json's report text (grade_report --show-reports) and from the\n"
    "<prefix><day>.report tests of the JUnit files. The days' headings and charts come from\n"
    "--charts, the build's charts.tsv (without it, a day's figures are a table only).\n"
    "Exit status 0, or 2 on a usage or input error.\n";

int reportPage(int argc, char** argv) {
    std::string results, out, prefix, charts, assets = GRADING_HTML_DIR, value;
    std::vector<std::string> junits;
    for (int i = 2; i < argc; ++i) {
        if (option(argc, argv, i, "--results", &value)) results = value;
        else if (option(argc, argv, i, "--junit", &value)) junits.push_back(value);
        else if (option(argc, argv, i, "--prefix", &value)) prefix = value;
        else if (option(argc, argv, i, "--charts", &value)) charts = value;
        else if (option(argc, argv, i, "--out", &value)) out = value;
        else if (option(argc, argv, i, "--assets", &value)) assets = value;
        else throw UsageError(std::string("unknown argument ") + argv[i]);
    }
    if (results.empty() || out.empty()) throw UsageError("report needs --results and --out");
    if (!junits.empty() && prefix.empty()) throw UsageError("--junit needs --prefix (whose report tests to read)");
    const grading::html::Results r = grading::html::parseResults(readFile(results, "results"), results);
    grading::html::Figures figures = grading::html::figuresFromText(r.output);
    for (const std::string& j : junits) {
        grading::html::merge(figures, grading::html::figuresFromJunit(grading::report::loadJunit(j), prefix));
    }
    const grading::html::Sections sections =
        charts.empty() ? grading::html::Sections{} : grading::html::parseCharts(readFile(charts, "charts"), charts);
    writeFile(out, grading::html::submissionPage(r, figures, sections, grading::html::loadAssets(assets)));
    return 0;
}

int classDashboard(int argc, char** argv) {
    std::string dir, out, assets = GRADING_HTML_DIR, value;
    for (int i = 2; i < argc; ++i) {
        if (option(argc, argv, i, "--out", &value)) out = value;
        else if (option(argc, argv, i, "--assets", &value)) assets = value;
        else if (argv[i][0] == '-' || !dir.empty()) throw UsageError(std::string("unexpected argument ") + argv[i]);
        else dir = argv[i];
    }
    if (dir.empty()) throw UsageError("class needs the class's output folder");
    if (out.empty()) out = dir + "/dashboard.html";
    // names.tsv: staged id, the folder's real name (grade_class.sh escapes it to one line).
    std::vector<grading::html::StudentRow> students;
    for (const std::string& line : grading::text::splitLines(readFile(dir + "/names.tsv", "class's names"))) {
        const size_t tab = line.find('\t');
        if (tab == std::string::npos) continue;
        grading::html::StudentRow s;
        s.id = line.substr(0, tab);
        s.name = line.substr(tab + 1);
        const fs::path folder = fs::path(dir) / s.id;
        if (fs::exists(folder / "results.json")) {
            s.results = grading::html::parseResults(readFile((folder / "results.json").string(), "results"), (folder / "results.json").string());
            s.hasResults = true;
        }
        s.hasReport = fs::exists(folder / "report.html");
        students.push_back(s);
    }
    writeFile(out, grading::html::classPage(students, grading::html::loadAssets(assets)));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const std::string command = argc > 1 ? argv[1] : "";
        if (command == "report") return reportPage(argc, argv);
        if (command == "class") return classDashboard(argc, argv);
        if (command == "--help" || command == "-h") {
            std::cout << kUsage;
            return 0;
        }
        throw UsageError(command.empty() ? "no command" : "unknown command " + command);
    } catch (const UsageError& e) {
        std::cerr << "grade_html: " << e.what() << "\n" << kUsage;
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "grade_html: " << e.what() << "\n";
        return 2;
    }
}
