#pragma once
// Where a guarded buffer's data and guard words lie in its allocation, and
// what the first changed guard byte is called in a message. Host arithmetic
// only (harness/cuda's GuardedBytes allocates and scans), so the CPU tests
// check the index a message names.
//
//   plain:  [256 guard bytes][data][256 guard bytes]
//   paged:  [poison ...][256 guard bytes][data][256..511 guard bytes] | an unmapped granule
//           (the data as late in the mapping as 256-byte alignment allows,
//           so a read more than the trailing guard words past it faults)
#include <cstddef>
#include <optional>
#include <string>

namespace grading {

struct GuardLayout {
    static constexpr size_t kGuardBytes = 256;  // keeps the data 256-byte aligned

    struct Span {
        size_t offset;  // from the allocation's start
        size_t bytes;
    };

    size_t count = 0;
    size_t elementSize = 1;
    size_t dataOffset = kGuardBytes;
    size_t trailingBytes = kGuardBytes;
    size_t mappedBytes = 2 * kGuardBytes;  // everything a fresh buffer poisons

    static GuardLayout plain(size_t count, size_t elementSize);
    // For a mapping rounded up to `granule` bytes with one more granule
    // reserved after it and never mapped.
    static GuardLayout beforeUnmappedPage(size_t count, size_t elementSize, size_t granule);

    size_t dataBytes() const { return count * elementSize; }
    Span leadingGuard() const { return {dataOffset - kGuardBytes, kGuardBytes}; }
    Span trailingGuard() const { return {dataOffset + dataBytes(), trailingBytes}; }
    // The window of `window` elements past the first `live` (none when live
    // reaches the end), where an off-by-one append lands first.
    std::optional<Span> pastLive(size_t live, size_t window) const;

    // The message for a changed byte at `offset`, found in one of the spans
    // above: "buffer <name> was written before its start, at index -1", "...
    // past its end, at index 1024 (it holds 1024)", "... past its live end,
    // at index 12 (12 entries are live)".
    std::string describeWrite(const std::string& name, size_t offset, std::optional<size_t> live) const;
};

}  // namespace grading
