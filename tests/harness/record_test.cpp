// The runner protocol's file format: every type round-trips bit for bit, each
// malformed file gets its own exact message, typed reads name what is wrong,
// a session's frames split and join as sent, and TempDir cleans up after
// itself.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "harness/record.h"
#include "harness/runner_client.h"

namespace grading {
namespace {

using ::testing::ElementsAre;
using ::testing::StartsWith;

const std::string kMagic = "gpu-grading-record 1\n";
// Binary-safe text: newlines, a NUL and a fake "end" line inside.
const std::string kAwkwardText("line one\nend\n\0tail", 18);

std::string parseError(const std::string& bytes) {
    const Expected<Record> r = Record::parse(bytes);
    return r ? "(parsed without error)" : r.error();
}

template <typename T>
std::string bitsOf(const std::vector<T>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

Record everyType() {
    Record r;
    r.putInts("ints", {0, -1, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()});
    r.putUints("uints", {0u, 0xffffffffu, 10u});
    r.putInt64s("int64s", {std::numeric_limits<int64_t>::min(), 1, std::numeric_limits<int64_t>::max()});
    r.putUint64s("uint64s", {0, std::numeric_limits<uint64_t>::max()});
    r.putFloats("floats", {1.5f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
                           std::numeric_limits<float>::infinity()});
    const float raw[] = {3.25f, -7.0f};
    r.putFloats("floats_from_pointer", raw, 2);
    r.putDoubles("doubles", {0.1, -1e300, std::numeric_limits<double>::denorm_min()});
    r.putText("text", kAwkwardText);
    r.putText("empty_text", "");
    r.putInts("empty_ints", {});
    r.putInt("count", -42);
    r.putDouble("ms", 2.5);
    return r;
}

void expectSameFields(const Record& a, const Record& b) {
    ASSERT_EQ(a.fields().size(), b.fields().size());
    for (const auto& [name, field] : a.fields()) {
        SCOPED_TRACE(name);
        ASSERT_TRUE(b.has(name));
        const Field& other = b.fields().at(name);
        EXPECT_EQ(other.type, field.type);
        EXPECT_EQ(other.count, field.count);
        EXPECT_EQ(other.bytes, field.bytes);
    }
}

// ---------------------------------------------------------------- round trip

TEST(Record, EveryTypeRoundTripsBitForBit) {
    const Record original = everyType();
    const Expected<Record> back = Record::parse(original.serialize());
    ASSERT_TRUE(back.ok()) << back.error();
    expectSameFields(original, *back);

    const Record& r = *back;
    EXPECT_THAT(r.ints("ints").value(), ElementsAre(0, -1, std::numeric_limits<int32_t>::min(),
                                                    std::numeric_limits<int32_t>::max()));
    EXPECT_THAT(r.uints("uints").value(), ElementsAre(0u, 0xffffffffu, 10u));
    EXPECT_THAT(r.int64s("int64s").value(),
                ElementsAre(std::numeric_limits<int64_t>::min(), 1, std::numeric_limits<int64_t>::max()));
    const std::vector<float> floats = r.floats("floats").value();
    EXPECT_EQ(bitsOf(floats), bitsOf(std::vector<float>{1.5f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
                                                       std::numeric_limits<float>::infinity()}));
    EXPECT_TRUE(std::signbit(floats[1]));
    EXPECT_TRUE(std::isnan(floats[2]));
    EXPECT_THAT(r.floats("floats_from_pointer").value(), ElementsAre(3.25f, -7.0f));
    EXPECT_THAT(r.doubles("doubles").value(),
                ElementsAre(0.1, -1e300, std::numeric_limits<double>::denorm_min()));
    EXPECT_EQ(r.text("text").value(), kAwkwardText);
    EXPECT_EQ(r.text("empty_text").value(), "");
    EXPECT_TRUE(r.ints("empty_ints").value().empty());
    EXPECT_EQ(r.integer("count").value(), -42);
    EXPECT_EQ(r.real("ms").value(), 2.5);
}

TEST(RecordParse, ParseNextReadsRecordsBackToBack) {
    Record a;
    a.putInt("n", 1);
    Record b;
    b.putText("t", "end\n");
    const std::string bytes = a.serialize() + b.serialize();
    size_t pos = 0;
    const Expected<Record> first = Record::parseNext(bytes, &pos);
    ASSERT_TRUE(first.ok()) << first.error();
    EXPECT_EQ(first->integer("n").value(), 1);
    const Expected<Record> second = Record::parseNext(bytes, &pos);
    ASSERT_TRUE(second.ok()) << second.error();
    EXPECT_EQ(second->text("t").value(), "end\n");
    EXPECT_EQ(pos, bytes.size());
}

TEST(Record, SerializesTheDocumentedLayout) {
    Record r;
    r.putText("msg", "hi");
    r.putInts("n", {1, 258});
    const std::string ints("\x01\x00\x00\x00\x02\x01\x00\x00", 8);  // little-endian
    EXPECT_EQ(r.serialize(), kMagic + "msg str 2\nhi\nn i32 2\n" + ints + "\nend\n");
}

TEST(Record, EmptyRecordIsMagicAndEnd) {
    EXPECT_EQ(Record().serialize(), kMagic + "end\n");
    const Expected<Record> back = Record::parse(kMagic + "end\n");
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_TRUE(back->fields().empty());
}

TEST(Record, PutReplacesAFieldOfTheSameName) {
    Record r;
    r.putInts("x", {1, 2, 3});
    r.putText("x", "now text");
    EXPECT_EQ(r.fields().size(), 1u);
    EXPECT_EQ(r.text("x").value(), "now text");
}

// ---------------------------------------------------------------- parse errors

TEST(RecordParse, WrongMagicIsNotAResultFile) {
    const std::string want = "not a result file (it does not start with \"gpu-grading-record 1\")";
    EXPECT_EQ(parseError("hello world\nend\n"), want);
    EXPECT_EQ(parseError(""), want);
    EXPECT_EQ(parseError("gpu-grading-record 2\nend\n"), want);
    EXPECT_EQ(parseError("gpu-grading-record 1"), want);  // magic without its newline
}

TEST(RecordParse, MissingEndLineIsTruncated) {
    const std::string want =
        "the result file is truncated: no closing \"end\" line (the runner stopped before it finished writing)";
    EXPECT_EQ(parseError(kMagic), want);
    EXPECT_EQ(parseError(kMagic + "msg str 2\nhi\n"), want);
    EXPECT_EQ(parseError(kMagic + "end"), want);  // "end" without its newline
    std::string whole = everyType().serialize();
    whole.resize(whole.size() - 4);
    EXPECT_EQ(parseError(whole), want);
}

TEST(RecordParse, TruncatedInsideAFieldNamesIt) {
    EXPECT_EQ(parseError(kMagic + "x i32 2\n" + std::string("\x01\x00\x00\x00", 4)),
              "the result file is truncated inside field \"x\"");
    EXPECT_EQ(parseError(kMagic + "msg str 10\nshort\nend\n"),
              "the result file is truncated inside field \"msg\"");
    // Right length but no newline after the data: the count lies.
    EXPECT_EQ(parseError(kMagic + "msg str 2\nhiX\nend\n"),
              "the result file is truncated inside field \"msg\"");
}

TEST(RecordParse, HugeCountIsTruncatedNotWrappedAround) {
    // 2^61 doubles is 2^64 bytes: a size computed in size_t wraps to 0.
    EXPECT_EQ(parseError(kMagic + "x f64 2305843009213693952\n\nend\n"),
              "the result file is truncated inside field \"x\"");
    EXPECT_EQ(parseError(kMagic + "y i32 4611686018427387904\n\nend\n"),
              "the result file is truncated inside field \"y\"");
}

TEST(RecordParse, MalformedFieldHeaderIsQuoted) {
    EXPECT_EQ(parseError(kMagic + "x q32 1\n1234\nend\n"),
              "the result file has a malformed field header \"x q32 1\"");
    EXPECT_EQ(parseError(kMagic + "x i32 -1\n\nend\n"),
              "the result file has a malformed field header \"x i32 -1\"");
    EXPECT_EQ(parseError(kMagic + "x i32\nend\n"), "the result file has a malformed field header \"x i32\"");
    EXPECT_EQ(parseError(kMagic + "\nend\n"), "the result file has a malformed field header \"\"");
    const std::string longName(200, 'n');
    EXPECT_EQ(parseError(kMagic + longName + " i32 zz\nend\n"),
              "the result file has a malformed field header \"" + longName.substr(0, 80) + "\"");
}

TEST(RecordParse, DataAfterEndIsRejected) {
    EXPECT_EQ(parseError(everyType().serialize() + "x"), "the result file has data after its \"end\" line");
    EXPECT_EQ(parseError(kMagic + "end\n\n"), "the result file has data after its \"end\" line");
}

// ---------------------------------------------------------------- typed reads

// ---- frames: a session's requests and answers

TEST(Frames, AFrameArrivingInPiecesIsTakenWhole) {
    std::string buffer = "frame 5\nab";
    std::string payload;
    EXPECT_EQ(takeFrame(buffer, &payload), FrameStatus::Incomplete);
    buffer += "cde";
    EXPECT_EQ(takeFrame(buffer, &payload), FrameStatus::Complete);
    EXPECT_EQ(payload, "abcde");
    EXPECT_TRUE(buffer.empty());
}

TEST(Frames, FramesBackToBackAreTakenOneAtATime) {
    std::string buffer = toFrame("one") + toFrame(kAwkwardText) + "fra";
    std::string payload;
    ASSERT_EQ(takeFrame(buffer, &payload), FrameStatus::Complete);
    EXPECT_EQ(payload, "one");
    ASSERT_EQ(takeFrame(buffer, &payload), FrameStatus::Complete);
    EXPECT_EQ(payload, kAwkwardText);
    EXPECT_EQ(takeFrame(buffer, &payload), FrameStatus::Incomplete);
    EXPECT_EQ(buffer, "fra");
}

TEST(Frames, WhatIsNotAFrameIsMalformed) {
    for (const std::string& bad : {std::string("hello\n"), std::string("frame 12x\n"), std::string("frame \n"),
                                   std::string(40, 'x')}) {
        std::string buffer = bad;
        std::string payload;
        EXPECT_EQ(takeFrame(buffer, &payload), FrameStatus::Malformed) << bad;
    }
}

// A header may claim any size; room is made only for what a frame can be.
TEST(Frames, AClaimPastTheLargestFrameGetsNoRoomMade) {
    std::string buffer = "frame 99999999999999999\n";
    std::string payload;
    EXPECT_EQ(takeFrame(buffer, &payload), FrameStatus::Incomplete);
    EXPECT_LT(buffer.capacity(), size_t{1} << 20);
    buffer = "frame 4096\n";
    EXPECT_EQ(takeFrame(buffer, &payload), FrameStatus::Incomplete);
    EXPECT_GE(buffer.capacity(), 4096 + buffer.size());
}

// A record's frame, written in one pass, is toFrame of its bytes, and reads
// back as it was.
TEST(Frames, ARecordsFrameIsItsBytesFramed) {
    Record r = everyType();
    r.putFloats("grid", std::vector<float>(1 << 16, 0.5f));
    std::string framed = r.frame();
    EXPECT_EQ(framed, toFrame(r.serialize()));
    EXPECT_EQ(framed.capacity(), framed.size()) << "sized before it was written";
    std::string payload;
    ASSERT_EQ(takeFrame(framed, &payload), FrameStatus::Complete);
    const Expected<Record> back = Record::parse(payload);
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(back->floats("grid").value(), std::vector<float>(1 << 16, 0.5f));
    EXPECT_EQ(back->text("text").value(), kAwkwardText);
    EXPECT_EQ(Record().frame(), toFrame(Record().serialize()));
}

// A read appends what the descriptor has, straight onto the buffer.
TEST(Frames, AReadAppendsOntoTheBuffer) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    ASSERT_EQ(write(fds[1], "frame 3\nabc", 11), 11);
    close(fds[1]);
    std::string buffer = "x";
    EXPECT_EQ(readOnto(fds[0], buffer), 11);
    EXPECT_EQ(buffer, "xframe 3\nabc");
    EXPECT_EQ(readOnto(fds[0], buffer), 0);
    EXPECT_EQ(buffer, "xframe 3\nabc");
    close(fds[0]);
}

TEST(RecordRead, AbsentFieldIsNamed) {
    const Record r = everyType();
    EXPECT_EQ(r.ints("nope").error(), "the result has no field \"nope\"");
    EXPECT_EQ(r.text("nope").error(), "the result has no field \"nope\"");
    EXPECT_EQ(r.integer("nope").error(), "the result has no field \"nope\"");
    EXPECT_EQ(r.real("nope").error(), "the result has no field \"nope\"");
    EXPECT_FALSE(r.has("nope"));
    EXPECT_TRUE(r.has("ints"));
}

TEST(RecordRead, WrongTypeNamesBothTypes) {
    const Record r = everyType();
    EXPECT_EQ(r.ints("uints").error(), "field \"uints\" is u32, want i32");
    EXPECT_EQ(r.uints("ints").error(), "field \"ints\" is i32, want u32");
    EXPECT_EQ(r.int64s("doubles").error(), "field \"doubles\" is f64, want i64");
    EXPECT_EQ(r.floats("doubles").error(), "field \"doubles\" is f64, want f32");
    EXPECT_EQ(r.doubles("floats").error(), "field \"floats\" is f32, want f64");
    EXPECT_EQ(r.ints("text").error(), "field \"text\" is str, want i32");
    EXPECT_EQ(r.integer("ints").error(), "field \"ints\" is i32, want i64");
    EXPECT_EQ(r.real("floats").error(), "field \"floats\" is f32, want f64");
    EXPECT_EQ(r.text("ints").error(), "field \"ints\" is i32, want str");
}

TEST(RecordRead, ScalarReadOfAMultiValueFieldSaysHowMany) {
    Record r;
    r.putInt64s("many", {1, 2});
    r.putInt64s("none", {});
    r.putDoubles("pair", {1.0, 2.0});
    EXPECT_EQ(r.integer("many").error(), "field \"many\" holds 2 values, want 1");
    EXPECT_EQ(r.integer("none").error(), "field \"none\" holds 0 values, want 1");
    EXPECT_EQ(r.real("pair").error(), "field \"pair\" holds 2 values, want 1");
}

TEST(RecordRead, FieldTypeNames) {
    EXPECT_STREQ(fieldTypeName(FieldType::I32), "i32");
    EXPECT_STREQ(fieldTypeName(FieldType::U32), "u32");
    EXPECT_STREQ(fieldTypeName(FieldType::I64), "i64");
    EXPECT_STREQ(fieldTypeName(FieldType::U64), "u64");
    EXPECT_STREQ(fieldTypeName(FieldType::F32), "f32");
    EXPECT_STREQ(fieldTypeName(FieldType::F64), "f64");
    EXPECT_STREQ(fieldTypeName(FieldType::Str), "str");
}

// ---------------------------------------------------------------- files

TEST(RecordFile, SaveAndLoadThroughATempDir) {
    TempDir dir;
    const Record original = everyType();
    ASSERT_TRUE(original.save(dir.file("r.rec")));
    const Expected<Record> back = Record::load(dir.file("r.rec"));
    ASSERT_TRUE(back.ok()) << back.error();
    expectSameFields(original, *back);

    // Saving again replaces the file rather than appending to it.
    Record smaller;
    smaller.putInt("only", 1);
    ASSERT_TRUE(smaller.save(dir.file("r.rec")));
    const Expected<Record> again = Record::load(dir.file("r.rec"));
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again->fields().size(), 1u);
}

TEST(RecordFile, LoadOfAMissingFileNamesThePath) {
    TempDir dir;
    EXPECT_EQ(Record::load(dir.file("absent.rec")).error(), "no result file at " + dir.file("absent.rec"));
}

TEST(RecordFile, LoadOfAFileWithoutEndIsTruncated) {
    TempDir dir;
    std::string bytes = everyType().serialize();
    bytes.resize(bytes.size() - 4);
    std::ofstream(dir.file("cut.rec"), std::ios::binary) << bytes;
    EXPECT_THAT(Record::load(dir.file("cut.rec")).error(), StartsWith("the result file is truncated: no closing"));
}

TEST(RecordFile, SaveIntoAMissingDirectoryFails) {
    EXPECT_FALSE(everyType().save("/nonexistent/dir/r.rec"));
}

TEST(RecordTempDir, IsRemovedWithEverythingInIt) {
    std::string path;
    {
        TempDir dir;
        path = dir.path();
        ASSERT_TRUE(std::filesystem::is_directory(path));
        EXPECT_EQ(dir.file("a.rec"), path + "/a.rec");
        std::filesystem::create_directories(path + "/nested/deeper");
        std::ofstream(path + "/nested/deeper/f.txt") << "x";
        std::ofstream(dir.file("a.rec")) << "y";
    }
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(RecordTempDir, EachIsDistinctAndUnderTmpdir) {
    TempDir outer;
    const char* saved = std::getenv("TMPDIR");
    const std::string previous = saved != nullptr ? saved : "";
    setenv("TMPDIR", outer.path().c_str(), 1);
    std::string first;
    std::string second;
    {
        TempDir a;
        TempDir b;
        first = a.path();
        second = b.path();
    }
    if (saved != nullptr) {
        setenv("TMPDIR", previous.c_str(), 1);
    } else {
        unsetenv("TMPDIR");
    }
    EXPECT_NE(first, second);
    EXPECT_THAT(first, StartsWith(outer.path() + "/grading-"));
    EXPECT_FALSE(std::filesystem::exists(first));
    EXPECT_FALSE(std::filesystem::exists(second));
}

}  // namespace
}  // namespace grading
