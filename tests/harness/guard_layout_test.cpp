// Where a guarded buffer's guard words lie, and the index a message names
// for a changed byte (harness/cuda's GuardedBytes scans the device; the
// arithmetic is here, on the host).
#include "harness/guard_layout.h"

#include <gtest/gtest.h>

namespace grading {
namespace {

constexpr size_t kGuard = GuardLayout::kGuardBytes;

TEST(GuardLayout, PlainPutsOneGuardZoneEachSideOfTheData) {
    const GuardLayout l = GuardLayout::plain(1000, sizeof(int));
    EXPECT_EQ(l.dataOffset, kGuard);
    EXPECT_EQ(l.leadingGuard().offset, 0u);
    EXPECT_EQ(l.leadingGuard().bytes, kGuard);
    EXPECT_EQ(l.trailingGuard().offset, kGuard + 4000);
    EXPECT_EQ(l.trailingGuard().bytes, kGuard);
    EXPECT_EQ(l.mappedBytes, 4000 + 2 * kGuard);
}

TEST(GuardLayout, NamesTheElementAByteBelongsTo) {
    const GuardLayout l = GuardLayout::plain(1156, sizeof(float));
    EXPECT_EQ(l.describeWrite("gridB", l.trailingGuard().offset, std::nullopt),
              "buffer gridB was written past its end, at index 1156 (it holds 1156)");
    EXPECT_EQ(l.describeWrite("gridB", l.trailingGuard().offset + 5, std::nullopt),
              "buffer gridB was written past its end, at index 1157 (it holds 1156)");
    // The last byte before the data is element -1's; the first byte of the
    // leading guard is element -(256 / 4).
    EXPECT_EQ(l.describeWrite("gridB", kGuard - 1, std::nullopt),
              "buffer gridB was written before its start, at index -1");
    EXPECT_EQ(l.describeWrite("gridB", 0, std::nullopt), "buffer gridB was written before its start, at index -64");
}

TEST(GuardLayout, ElementsLargerThanTheGuardStillNameIndexMinusOne) {
    const GuardLayout l = GuardLayout::plain(4, 1024);
    EXPECT_EQ(l.describeWrite("blocks", 0, std::nullopt), "buffer blocks was written before its start, at index -1");
}

TEST(GuardLayout, TheLiveWindowStartsAtTheLiveEndAndStopsAtTheBuffersEnd) {
    const GuardLayout l = GuardLayout::plain(100, sizeof(int));
    const auto window = l.pastLive(12, 64);
    ASSERT_TRUE(window.has_value());
    EXPECT_EQ(window->offset, kGuard + 12 * 4);
    EXPECT_EQ(window->bytes, 64u * 4);
    EXPECT_EQ(l.describeWrite("frontier", window->offset, 12),
              "buffer frontier was written past its live end, at index 12 (12 entries are live)");
    ASSERT_TRUE(l.pastLive(90, 64).has_value());
    EXPECT_EQ(l.pastLive(90, 64)->bytes, 10u * 4);
    EXPECT_FALSE(l.pastLive(100, 64).has_value()) << "no window when every element is live";
}

// The paged layout: the data as late in its mapping as 256-byte alignment
// allows, so the unmapped granule after the mapping lies at most 511 bytes
// past the data's end.
TEST(GuardLayout, PagedPutsTheDataJustBeforeTheUnmappedGranule) {
    constexpr size_t kGranule = size_t{2} << 20;
    for (const size_t elementSize : {size_t{1}, size_t{4}, size_t{8}}) {
        for (const size_t count : {size_t{0}, size_t{1}, size_t{63}, size_t{1156}, size_t{517 * 517},
                                   kGranule / 4 - 128, kGranule / 4, size_t{8192} * 8192}) {
            SCOPED_TRACE("count " + std::to_string(count) + " x " + std::to_string(elementSize) + " bytes");
            const GuardLayout l = GuardLayout::beforeUnmappedPage(count, elementSize, kGranule);
            EXPECT_EQ(l.mappedBytes % kGranule, 0u);
            EXPECT_EQ(l.dataOffset % kGuard, 0u);
            EXPECT_GE(l.dataOffset, kGuard) << "room for the leading guard";
            EXPECT_GE(l.trailingBytes, kGuard);
            EXPECT_LT(l.trailingBytes, 2 * kGuard);
            EXPECT_EQ(l.dataOffset + l.dataBytes() + l.trailingBytes, l.mappedBytes);
            EXPECT_EQ(l.trailingGuard().offset + l.trailingGuard().bytes, l.mappedBytes);
            EXPECT_EQ(l.leadingGuard().offset + kGuard, l.dataOffset);
        }
    }
}

TEST(GuardLayout, PagedNamesIndicesAsThePlainLayoutDoes) {
    const GuardLayout paged = GuardLayout::beforeUnmappedPage(1156, sizeof(float), size_t{2} << 20);
    EXPECT_EQ(paged.describeWrite("gridB", paged.trailingGuard().offset, std::nullopt),
              "buffer gridB was written past its end, at index 1156 (it holds 1156)");
    EXPECT_EQ(paged.describeWrite("gridB", paged.dataOffset - 1, std::nullopt),
              "buffer gridB was written before its start, at index -1");
}

}  // namespace
}  // namespace grading
