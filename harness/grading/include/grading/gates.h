#pragma once
// The gates table (<build>/gates.tsv, generated from the days' declarations
// in harness/<day>/day.cpp): what the grade report and results.json follow, and
// what grading.md's check compares the page with.
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace grading::report {

struct Gate {
    std::string id;          // "<prefix>.<gate>", as the day declares it
    std::string day;         // the day's name: its folder under harness/
    int points = 0;
    std::string visibility;  // Gradescope's: visible, hidden, after_due_date, after_published
    std::string tests;       // the ctest names after the prefix (a glob), e.g. the gate's id
    std::string title;
    std::string grades = "student";     // student, or course: a reference check worth nothing to a submission
    std::vector<std::string> prerequisites;  // gates that must pass for this one to be graded
    // A class's tests of the student's day that hold this gate's cases among
    // other gates' (after the prefix: "<day>", the one a class build
    // registers; gates.tsv's class_test, comma-separated). The gate's
    // verdict in each is its own cases' (classTestCases, report.h).
    std::vector<std::string> classTests;
    bool inClassTest(const std::string& name) const;
    // Earns a fraction of its points: the lowest "SCORE <id> <fraction> <why>"
    // line its passing tests printed (a speed gate's ramp), not all or nothing.
    bool scored = false;
};

// '#' lines and blank lines are skipped; the first other line is the header
// naming the columns (any order; extra columns ignored; grades, requires,
// scored and class_test optional, "-" for no requirement or class test).
// Throws InputError naming `source` and the line of the first malformed row.
std::vector<Gate> parseGates(std::istream& in, const std::string& source);
std::vector<Gate> loadGates(const std::string& path);

// The days in order of first appearance.
std::vector<std::string> daysOf(const std::vector<Gate>& gates);

// '*' matches any run of characters ('/' and '.' included), '?' any one.
bool globMatch(std::string_view pattern, std::string_view text);

}  // namespace grading::report
