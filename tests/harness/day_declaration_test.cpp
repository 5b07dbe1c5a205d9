// What a day's declaration refuses: a gate declared twice, a gate graded
// after one that is not a student gate declared before it, and a chart the
// HTML page could not draw from its figures; and what its requirements mean
// for a gate whose case failed (cannotPass).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "harness/day.h"

namespace {

grading::GateSpec spec(const std::string& id, grading::Grades grades = grading::Grades::Student,
                       std::vector<std::string> after = {}) {
    return grading::GateSpec(id).title("a gate").points(1).grades(grades).after(std::move(after));
}

TEST(DayDeclaration, AGateTwiceIsRefused) {
    grading::Day day("d");
    day.gate(spec("d.a"), {});
    EXPECT_THROW(day.gate(spec("d.a"), {}), std::logic_error);
}

TEST(DayDeclaration, AfterNamesAStudentGateDeclaredBefore) {
    grading::Day day("d");
    day.gate(spec("d.course", grading::Grades::Course), {});
    day.gate(spec("d.first"), {});
    EXPECT_NO_THROW(day.gate(spec("d.second", grading::Grades::Student, {"d.first"}), {}));
    EXPECT_EQ(day.find("d.second")->spec.after(), std::vector<std::string>{"d.first"});
    EXPECT_THROW(day.gate(spec("d.early", grading::Grades::Student, {"d.later"}), {}), std::logic_error)
        << "a gate declared after it";
    day.gate(spec("d.later"), {});
    EXPECT_THROW(day.gate(spec("d.on_course", grading::Grades::Student, {"d.course"}), {}), std::logic_error)
        << "the course's gate runs no student code, so a class has no test of it to wait for";
    EXPECT_THROW(day.gate(spec("d.course_after", grading::Grades::Course, {"d.first"}), {}), std::logic_error)
        << "a class has no test of a course gate to make wait";
}

// A class's day test skips the exclusive cases of a gate that can no
// longer pass: its own case failed, or one of a gate it requires, however deep.
TEST(DayDeclaration, CannotPassFollowsTheRequirements) {
    grading::Day day("d");
    day.gate(spec("d.values"), {});
    day.gate(spec("d.layout"), {});
    day.gate(grading::GateSpec("d.order").title("a gate").points(1).prerequisites({"d.values"}), {});
    day.gate(grading::GateSpec("d.speed").title("a gate").points(1).prerequisites({"d.layout", "d.order"}), {});
    EXPECT_EQ(grading::cannotPass(day, "d.speed", {}), "");
    EXPECT_EQ(grading::cannotPass(day, "d.speed", {"d.speed"}), "d.speed failed");
    EXPECT_EQ(grading::cannotPass(day, "d.speed", {"d.layout"}), "requires d.layout, which failed");
    EXPECT_EQ(grading::cannotPass(day, "d.speed", {"d.values"}),
              "requires d.order, which requires d.values, which failed");
    EXPECT_EQ(grading::cannotPass(day, "d.order", {"d.layout"}), "") << "a gate it does not require";
    EXPECT_EQ(grading::cannotPass(day, "d.unknown", {"d.values"}), "");
}

TEST(DayDeclaration, CannotPassEndsOnRequirementsInACircle) {
    grading::Day day("d");
    day.gate(grading::GateSpec("d.a").title("a gate").points(1).prerequisites({"d.b"}), {});
    day.gate(grading::GateSpec("d.b").title("a gate").points(1).prerequisites({"d.a"}), {});
    EXPECT_EQ(grading::cannotPass(day, "d.a", {"d.c"}), "");
    EXPECT_EQ(grading::cannotPass(day, "d.a", {"d.b"}), "requires d.b, which failed");
}

grading::ChartSpec chart(const std::string& id, const std::string& figures, std::vector<std::string> fields,
                         const std::string& spec = "{\"mark\": \"bar\"}") {
    return grading::ChartSpec(id)
        .title("A chart")
        .caption("a caption")
        .missing("nothing recorded")
        .figures(figures, std::move(fields), "ms")
        .vegaLite(spec);
}

TEST(DayDeclaration, AChartMatchesItsFiguresToItsFields) {
    grading::Day day("d");
    day.heading("Day D: a heading");
    day.chart(chart("d-times", "ms_([a-z]+)_n([0-9]+)", {"impl", "n"}));
    EXPECT_EQ(day.heading(), "Day D: a heading");
    ASSERT_EQ(day.charts().size(), 1u);
    EXPECT_EQ(day.charts()[0].fields(), (std::vector<std::string>{"impl", "n"}));
    EXPECT_THROW(day.chart(chart("d-times", "(a)", {"x"})), std::logic_error) << "the same id twice";
    EXPECT_THROW(day.chart(chart("D_Times", "(a)", {"x"})), std::logic_error) << "an id that is no [a-z0-9-]";
    EXPECT_THROW(day.chart(chart("d-a", "ms_(a", {"x"})), std::logic_error) << "no regular expression";
    EXPECT_THROW(day.chart(chart("d-b", "ms_(a)_(b)", {"x"})), std::logic_error) << "a capture group without a field";
    EXPECT_THROW(day.chart(chart("d-c", "(a)", {"x"}, "{\"title\": \"</script>\"}")), std::logic_error)
        << "a '<' in the spec";
    EXPECT_EQ(day.charts().size(), 1u);
}

// The files an instructor adds to a day (grading_instructor_files' list):
// each path once, in order, under a case name a test name allows.
TEST(InstructorFiles, EachPathIsACaseNamedByItsIndexAndBaseName) {
    const std::string list = (std::filesystem::temp_directory_path() / "instructor_files_test.txt").string();
    std::ofstream(list) << "/data/a graph.mtx\n\n/x/y/grid-2.txt\n";
    const std::vector<grading::InstructorFile> files = grading::instructorFiles(list);
    ASSERT_EQ(files.size(), 2u);
    EXPECT_EQ(files[0].path, "/data/a graph.mtx");
    EXPECT_EQ(files[0].caseName, "file0_a_graph_mtx");
    EXPECT_EQ(files[1].path, "/x/y/grid-2.txt");
    EXPECT_EQ(files[1].caseName, "file1_grid_2_txt");
    std::filesystem::remove(list);
    EXPECT_TRUE(grading::instructorFiles(list).empty());  // no list: no files
}

}  // namespace
