// What grade_report hands out, read back by real parsers (Python's json and
// csv modules, strict UTF-8), on the inputs that used to break it: invalid
// UTF-8 of every kind in a runner's output, names with commas, quotes and
// newlines; and a JUnit file nested 200,000 deep is read, or an error, never a crash.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <string>

#include "grading/report.h"

namespace {

using namespace grading::report;

bool havePython() { return std::system("python3 -c 'import json, csv' > /dev/null 2>&1") == 0; }

// Runs a Python check over `path`; "" when it passed, else what it printed.
std::string python(const std::string& code, const std::string& path) {
    const std::string cmd = "python3 -c '" + code + "' '" + path + "' 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[512];
    while (p != nullptr && fgets(buf, sizeof buf, p) != nullptr) out += buf;
    const int rc = p == nullptr ? -1 : pclose(p);
    return rc == 0 ? "" : "python: " + out;
}

std::string tempFile(const std::string& name, const std::string& text) {
    const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/grading-parsers-" +
                             std::to_string(::getpid()) + "-" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

Report reportWithOutput(const std::string& failure) {
    std::istringstream table("id\tday\tpoints\tvisibility\ttests\ttitle\n38.walk\tday38\t2\tvisible\t38.walk\twalk\n");
    GradeInput in;
    in.gates = parseGates(table, "t.tsv");
    JunitCase t;
    t.name = "submission.38.walk";
    t.status = "fail";
    t.hasFailure = true;
    t.output = "GATE 38.walk FAIL edge: " + failure + "\n";
    in.tests = {t};
    in.header = {{"submission", "/subs/a\"b\\c\n" + failure}};
    return grade(in);
}

TEST(RealParsers, ResultsJsonIsStrictJsonAndUtf8WhateverTheRunnerPrinted) {
    if (!havePython()) GTEST_SKIP() << "python3 is not installed";
    const std::string invalid[] = {
        "\xED\xA0\x80",          // a lone UTF-16 surrogate (U+D800) in UTF-8
        "\xC0\xAF",              // overlong '/'
        "\xE0\x80\xAF",          // overlong '/' in three bytes
        "\xF4\x90\x80\x80",      // past U+10FFFF
        "\xFF\xFE",              // never UTF-8
        "\xE2\x82",              // cut short
        std::string("nul\0byte", 8),
        "\x1b[31mred\x1b[0m",    // control characters
    };
    std::string all;
    for (const std::string& s : invalid) all += s + " | ";
    all += "ok: \xC3\xA9t\xC3\xA9 \xF0\x9F\x98\x80";  // valid two- and four-byte forms survive
    const Report r = reportWithOutput(all);
    const std::string path = tempFile("results.json", resultsJson(r, formatTable(r)));
    EXPECT_EQ(python("import json,sys; d=json.loads(open(sys.argv[1],\"rb\").read().decode(\"utf-8\",\"strict\")); "
                     "t=d[\"tests\"][1][\"output\"]; assert \"\\u00e9t\\u00e9 \\U0001F600\" in t, t; "
                     "assert \"\\ufffd\" in t",
                     path),
              "");
    std::remove(path.c_str());
}

TEST(RealParsers, TheClassCsvReadsBackCellForCell) {
    if (!havePython()) GTEST_SKIP() << "python3 is not installed";
    const ClassTable t = mergeSummaryRows(
        {{"a.tsv", "student\t38.walk\ttotal\tmax\nsmith, \"jo\"\t2\t2\t2\n"}, {"b.tsv", "student\t38.walk\ttotal\tmax\n$(rm -rf)\t0\t0\t2\n"}});
    const std::string path = tempFile("summary.csv", toCsv(t));
    EXPECT_EQ(python("import csv,sys; rows=list(csv.reader(open(sys.argv[1],newline=\"\"))); "
                     "assert rows[0]==[\"student\",\"38.walk\",\"total\",\"max\"], rows; "
                     "assert rows[1]==[\"smith, \\\"jo\\\"\",\"2\",\"2\",\"2\"], rows; "
                     "assert rows[2][0]==\"$(rm -rf)\", rows",
                     path),
              "");
    std::remove(path.c_str());
}

TEST(RealParsers, ADeeplyNestedJunitFileIsReadOrAnErrorNotACrash) {
    const int depth = 200000;
    std::string open, close;
    for (int i = 0; i < depth; ++i) open += "<a>";
    for (int i = 0; i < depth; ++i) close += "</a>";
    try {
        parseJunit(open, "deep.xml");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("deep.xml:1: ", 0), 0u) << e.what();
    }
    const auto cases = parseJunit("<testsuite>" + open + "<testcase name=\"bottom\"/>" + close + "</testsuite>", "deep.xml");
    ASSERT_EQ(cases.size(), 1u);
    EXPECT_EQ(cases[0].name, "bottom");
}

}  // namespace
