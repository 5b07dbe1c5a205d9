// What a day's declaration refuses: a gate declared twice, a gate graded
// after one that is not a student gate declared before it, and a chart the
// HTML page could not draw from its figures.
#include <gtest/gtest.h>

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

}  // namespace
