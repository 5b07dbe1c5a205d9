// fails: day38.builds
// expect: error: it defines grading::breadcrumb\(.*which the exercise does not declare
// Hostile submission: the solution, and a definition of the runner's own
// breadcrumb, meant to stand in for the harness's at link time. Sealed, it
// could replace nothing (the file's definitions are renamed to its own), but
// the contract lets a file define the exercise alone: the seal stops the
// build and names the definition.
#include <string>

#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution

namespace grading {
void breadcrumb(const std::string&) {}
}  // namespace grading
