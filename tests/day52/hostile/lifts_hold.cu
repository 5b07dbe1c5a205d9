// fails: 52.stress
// expect: enqueueDiamond \(stress run 0, branch 0 held\) changed the grading hold table \(grading_hooks\.h\)
// Hostile submission: the grading hooks are linked into every runner, so it
// clears the stress gate's hold table before queuing its diamond; unheld, a
// missing dependency could win its race. The runner reads the table back
// after every stress run and ends the case naming the run.
#include "grading_hooks.h"

// The solution's functions kept under other names, private to this file as a
// helper must be (a submission may define only the exercise).
#include "forkjoin.h"
namespace day52 {
static void referenceEnqueueDiamond(const Diamond& d);
}  // namespace day52
#define enqueueDiamond referenceEnqueueDiamond
#include "../../../reference/day52/solution/diamond.cu"  // instructor-only fixture: it may use the solution
#undef enqueueDiamond

namespace day52 {

void enqueueDiamond(const Diamond& d) {
    clearGrindHold();
    referenceEnqueueDiamond(d);
}

}  // namespace day52
