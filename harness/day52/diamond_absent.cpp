// enqueueDiamond for the course runner (day52_runner_course), which links
// the course's code and no student code: the serial diamond that 52.overlap
// compares a submission against is timed there, never beside submitted code.
#include "forkjoin.h"
#include "harness/runner_main.h"

namespace day52 {

void enqueueDiamond(const Diamond&) {
    throw grading::InputError("enqueueDiamond is not in this runner: the course runner times the course's serial "
                              "version only");
}

}  // namespace day52
