// fails: msw.builds
// expect: error: it defines .*as an IFUNC, whose resolver would run while the loader relocates the runner
// Hostile submission: the solution, and an IFUNC whose resolver the dynamic
// loader calls while it relocates the runner, before the runner installs its
// system-call filter: the resolver forks a helper that outlives the filter.
// The seal stops the build and names the function.
#include <unistd.h>

#include "../../../reference/msw/solution/msw_kernels.cu"  // instructor-only fixture: it may use the solution

static void noop() {}
extern "C" {
static void (*resolveEarly())() {
    if (fork() == 0) pause();
    return &noop;
}
static void helperBeforeMain() __attribute__((ifunc("resolveEarly")));
__attribute__((used)) static void (*const keep)() = &helperBeforeMain;
}
