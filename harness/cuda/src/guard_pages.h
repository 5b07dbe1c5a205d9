#pragma once
// The unmapped page after a GuardedBytes with GuardPages::After: the
// driver's virtual memory calls, reached through the runtime so a runner
// links no libcuda and still starts (and answers "no device") without one.
#include <cstddef>
#include <string>

namespace grading::guard_pages {

// The mapping granule, or 0 where the device or driver offers no virtual
// memory management (said once on stderr: reads past a buffer go uncaught).
size_t granule();
// `reservedBytes` of address space, its first `mappedBytes` mapped
// read-write on the current device and the rest never mapped.
unsigned char* map(size_t mappedBytes, size_t reservedBytes, const std::string& forWhat);
void unmap(unsigned char* base, size_t mappedBytes, size_t reservedBytes);

}  // namespace grading::guard_pages
