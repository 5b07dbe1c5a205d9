// What a day's declaration refuses: a gate declared twice, and a gate graded
// after one that is not a student gate declared before it.
#include <gtest/gtest.h>

#include <stdexcept>

#include "harness/day.h"

namespace {

grading::GateSpec spec(const std::string& id, grading::Grades grades = grading::Grades::Student,
                       std::vector<std::string> after = {}) {
    grading::GateSpec s{id, "a gate", 1, grades};
    s.after = std::move(after);
    return s;
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
    EXPECT_EQ(day.find("d.second")->spec.after, std::vector<std::string>{"d.first"});
    EXPECT_THROW(day.gate(spec("d.early", grading::Grades::Student, {"d.later"}), {}), std::logic_error)
        << "a gate declared after it";
    day.gate(spec("d.later"), {});
    EXPECT_THROW(day.gate(spec("d.on_course", grading::Grades::Student, {"d.course"}), {}), std::logic_error)
        << "the course's gate runs no student code, so a class has no test of it to wait for";
    EXPECT_THROW(day.gate(spec("d.course_after", grading::Grades::Course, {"d.first"}), {}), std::logic_error)
        << "a class has no test of a course gate to make wait";
}

}  // namespace
