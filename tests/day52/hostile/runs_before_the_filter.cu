// fails: day52.builds
// expect: error: it puts a function in \.preinit_array, which would run before the runner installs its system-call filter
// Hostile submission: the solution, and a function in .preinit_array that
// forks a helper process before the runner's first line: one that could
// outlive the call or rewrite its answers. The runner's system-call filter,
// which refuses fork, goes in from .preinit_array too, and an entry of the
// file's own could come first; the seal stops the build and names the section.
#include <unistd.h>

#include "../../../reference/day52/solution/diamond.cu"  // instructor-only fixture: it may use the solution

#pragma nv_diag_suppress 177  // `early` is used by the loader, not by name
namespace {
void forkEarly(int, char**, char**) {
    if (fork() == 0) pause();
}
__attribute__((section(".preinit_array"), used)) void (*const early)(int, char**, char**) = &forkEarly;
}  // namespace
