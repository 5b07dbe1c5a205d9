// deviceDrivenBfs for runners without the instructor's device-driven search.
// CMakeLists.txt links this archive after every other unit, so the linker
// only takes it when no unit defined the function (the solution's archive
// comes first in the reference runner); weak as well, so a strong definition
// wins even if both were pulled in.
#include <string>

#include "device_search.h"
#include "harness/runner_main.h"

namespace day38 {

__attribute__((weak)) DeviceSearchOutcome deviceDrivenBfs(const DeviceCsr&, size_t, int, const DeviceSearchBuffers&,
                                                          const DeviceSearchOptions&) {
    throw grading::InputError(std::string(kDeviceSearchAbsent) + " (it is instructor-only: solution/device_bfs.cu)");
}

}  // namespace day38
