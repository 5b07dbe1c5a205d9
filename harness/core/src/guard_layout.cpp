#include "harness/guard_layout.h"

#include <algorithm>

namespace grading {

GuardLayout GuardLayout::plain(size_t count, size_t elementSize) {
    GuardLayout l;
    l.count = count;
    l.elementSize = elementSize;
    l.mappedBytes = l.dataBytes() + 2 * kGuardBytes;  // dataOffset and trailingBytes: one guard each, the defaults
    return l;
}

GuardLayout GuardLayout::beforeUnmappedPage(size_t count, size_t elementSize, size_t granule) {
    GuardLayout l;
    l.count = count;
    l.elementSize = elementSize;
    const size_t unit = std::max<size_t>(granule, 1);
    // Room for the leading guard, the data and up to two guard units after
    // it: the data's start rounds down to 256 bytes, which moves the slack
    // behind it.
    l.mappedBytes = (l.dataBytes() + 3 * kGuardBytes + unit - 1) / unit * unit;
    l.dataOffset = (l.mappedBytes - kGuardBytes - l.dataBytes()) / kGuardBytes * kGuardBytes;
    l.trailingBytes = l.mappedBytes - l.dataOffset - l.dataBytes();
    return l;
}

std::optional<GuardLayout::Span> GuardLayout::pastLive(size_t live, size_t window) const {
    const size_t begin = std::min(live, count);
    const size_t end = std::min(count, begin + window);
    if (end == begin) return std::nullopt;
    return Span{dataOffset + begin * elementSize, (end - begin) * elementSize};
}

std::string GuardLayout::describeWrite(const std::string& name, size_t offset, std::optional<size_t> live) const {
    if (offset < dataOffset) {
        // The element the byte belongs to, counting back from the data: -1 is the one just before it.
        const size_t back = (dataOffset - offset + elementSize - 1) / elementSize;
        return "buffer " + name + " was written before its start, at index -" + std::to_string(back);
    }
    const size_t index = (offset - dataOffset) / elementSize;
    if (index >= count) {
        return "buffer " + name + " was written past its end, at index " + std::to_string(index) + " (it holds " +
               std::to_string(count) + ")";
    }
    return "buffer " + name + " was written past its live end, at index " + std::to_string(index) + " (" +
           std::to_string(live.value_or(index)) + " entries are live)";
}

}  // namespace grading
