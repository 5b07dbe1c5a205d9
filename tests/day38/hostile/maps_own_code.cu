// fails: 38.distances
// expect: ran code it made itself: /memfd:helper is mapped executable
// Hostile submission: the solution, and a constructor that writes machine
// code into a memfd and maps it executable, as a loader maps a library (the
// system-call filter refuses anonymous executable memory, not a file mapped
// so). Code made at run time could be mapped over the runner's own; the
// grader reads the runner's memory map after each answer and fails the call.
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../../reference/day38/solution/edge_mapping.cu"  // instructor-only fixture: it may use the solution

namespace {
[[maybe_unused]] void* const helper = [] {
    const int fd = static_cast<int>(syscall(SYS_memfd_create, "helper", 0));
    static const unsigned char ret[4096] = {0xc3};
    if (fd < 0 || write(fd, ret, sizeof ret) != static_cast<ssize_t>(sizeof ret)) return static_cast<void*>(nullptr);
    return mmap(nullptr, sizeof ret, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
}();
}  // namespace
