// A day for the driver's class mode with no GPU and no runner work (its
// cases are host functions; the fake runner only answers the probe): each
// case prints that it ran, and fails where its name says so. Its gates
// cover what a class's day test decides before a case that holds the GPU
// exclusively (class_day_driver_test.cpp).
#include <iostream>

#include "harness/day.h"

namespace {

grading::GateCase hostCase(const std::string& gate, const std::string& name, bool exclusiveGpu) {
    grading::GateCase c;
    c.name = name;
    c.what = name;
    c.exclusiveGpu = exclusiveGpu;
    const std::string id = "t." + gate;
    c.run = [id, name](const grading::CaseContext&) {
        std::cout << "CASE RAN " << id << "." << name << "\n";
        if (name.rfind("failing", 0) == 0) return grading::GateResult::fail(id, name + " fails by design");
        return grading::GateResult::pass(id);
    };
    return c;
}

grading::GateSpec gate(const std::string& id) {
    return grading::GateSpec("t." + id).title(id).points(1);
}

}  // namespace

grading::Day grading::declareDay() {
    Day day("t");
    // Fails in a shared case: its own exclusive case is skipped.
    day.gate(gate("values"), {hostCase("values", "failing_small", false), hostCase("values", "deep", true)});
    // Passes: its exclusive case runs.
    day.gate(gate("layout"), {hostCase("layout", "small", false), hostCase("layout", "deep", true)});
    // Requires a gate that failed, directly or through another: skipped.
    day.gate(gate("order").prerequisites({"t.values"}), {hostCase("order", "small", false),
                                                          hostCase("order", "deep", true)});
    day.gate(gate("speed").prerequisites({"t.order"}).timed(true), {hostCase("speed", "timed", false)});
    // Requires one that passed: runs.
    day.gate(gate("ring").prerequisites({"t.layout"}).timed(true), {hostCase("ring", "timed", false)});
    return day;
}
