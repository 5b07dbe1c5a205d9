// The exercise's launchers for the course runner (day38_runner_course),
// which links the course's code and no student code: the report times the
// course's thread and warp mappings there, once for a whole class, never
// beside submitted code.
#include <string>

#include "bfs_mappings.h"
#include "harness/runner_main.h"

namespace day38 {

namespace {
[[noreturn]] void absent(const char* launcher) {
    throw grading::InputError(std::string(launcher) + " is not in this runner: the course runner holds the course's "
                                                      "thread and warp mappings only");
}
}  // namespace

void expandEdgePerThread(const DeviceCsr&, const int*, int, int, const LevelOutput&, const EdgeScratch&) {
    absent("expandEdgePerThread");
}

void launchWalkEdgePerThread(const DeviceCsr&, const int*, int, int, unsigned int*, const EdgeScratch&) {
    absent("launchWalkEdgePerThread");
}

}  // namespace day38
