// fails: 52.diamond
// expect: left 1 host thread running once it had answered \(thread [0-9]+, "[^"]*"\): a submission's threads must end
// Hostile submission: queues a right diamond, but first starts a host
// thread of its own and leaves it running (detached), free to work between
// calls or beside someone's measurement. The grader reads the runner's
// threads from /proc after every answer and fails the call that left one.
#include <chrono>
#include <thread>

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
    std::thread([] { std::this_thread::sleep_for(std::chrono::minutes(1)); }).detach();
    referenceEnqueueDiamond(d);
}

}  // namespace day52
