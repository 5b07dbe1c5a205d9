// The typed protocol: every field type round-trips through a Record, an
// optional field may be absent, and a missing or mistyped field is named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <set>

#include "harness/protocol.h"

namespace grading::protocol {
namespace {

using ::testing::ElementsAre;

struct Everything {
    int32_t i32 = 0;
    uint32_t u32 = 0;
    int64_t i64 = 0;
    uint64_t u64 = 0;
    float f32 = 0;
    double f64 = 0;
    bool flag = false;
    std::string text;
    std::vector<int32_t> ints;
    std::vector<uint64_t> words;
    std::vector<float> floats;
    std::optional<int32_t> maybe;
    std::optional<std::vector<double>> maybeMany;

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("i32", s.i32);
        field("u32", s.u32);
        field("i64", s.i64);
        field("u64", s.u64);
        field("f32", s.f32);
        field("f64", s.f64);
        field("flag", s.flag);
        field("text", s.text);
        field("ints", s.ints);
        field("words", s.words);
        field("floats", s.floats);
        field("maybe", s.maybe);
        field("maybe_many", s.maybeMany);
    }
};

TEST(Protocol, EveryFieldTypeRoundTrips) {
    Everything e;
    e.i32 = -7;
    e.u32 = 0xdeadbeefu;
    e.i64 = std::numeric_limits<int64_t>::min();
    e.u64 = std::numeric_limits<uint64_t>::max();
    e.f32 = -0.5f;
    e.f64 = 1e-300;
    e.flag = true;
    e.text = "two\nlines";
    e.ints = {1, 2, 3};
    e.words = {0, 1ull << 63};
    e.floats = {};
    e.maybe = 4;
    const Expected<Record> wire = Record::parse(encode(e).serialize());
    ASSERT_TRUE(wire.ok()) << wire.error();
    const Expected<Everything> back = decode<Everything>(*wire);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->i32, -7);
    EXPECT_EQ(back->u32, 0xdeadbeefu);
    EXPECT_EQ(back->i64, std::numeric_limits<int64_t>::min());
    EXPECT_EQ(back->u64, std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(back->f32, -0.5f);
    EXPECT_EQ(back->f64, 1e-300);
    EXPECT_TRUE(back->flag);
    EXPECT_EQ(back->text, "two\nlines");
    EXPECT_THAT(back->ints, ElementsAre(1, 2, 3));
    EXPECT_THAT(back->words, ElementsAre(0u, 1ull << 63));
    EXPECT_TRUE(back->floats.empty());
    EXPECT_EQ(back->maybe, 4);
    EXPECT_FALSE(back->maybeMany.has_value());
}

TEST(Protocol, TheRecordUsesTheDeclaredNamesAndTypes) {
    Everything e;
    const Record r = encode(e);
    EXPECT_EQ(r.fields().at("i32").type, FieldType::I32);
    EXPECT_EQ(r.fields().at("u64").type, FieldType::U64);
    EXPECT_EQ(r.fields().at("flag").type, FieldType::I32);
    EXPECT_EQ(r.fields().at("text").type, FieldType::Str);
    EXPECT_FALSE(r.has("maybe"));  // an empty optional is not sent
}

TEST(Protocol, AMissingFieldIsNamed) {
    Record stripped;
    stripped.putInts("i32", {1});
    const Expected<Everything> got = decode<Everything>(stripped);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error(), "the result has no field \"u32\"");
}

TEST(Protocol, AMistypedFieldNamesBothTypes) {
    Record r = encode(Everything{});
    r.putFloats("i64", {1.0f});
    const Expected<Everything> got = decode<Everything>(r);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error(), "field \"i64\" is f32, want i64");
}

TEST(Protocol, AScalarWithSeveralValuesIsRefused) {
    Record r = encode(Everything{});
    r.putInts("i32", {1, 2});
    const Expected<Everything> got = decode<Everything>(r);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error(), "field \"i32\" holds 2 values, want 1");
}

TEST(Protocol, FailureReportsAndDeviceInfoShareOneRecordFormat) {
    const Record r = encode(Failure{"guard-violation", "after k: buffer b was written past its end"});
    EXPECT_EQ(r.text("failure_kind").value(), "guard-violation");
    EXPECT_FALSE(decode<DeviceInfo>(r).ok());
    EXPECT_TRUE(decode<Failure>(r).ok());
}

// The grader tells the kinds apart by their exit statuses, and none may
// read as a result's.
TEST(Protocol, EachFailureKindHasItsOwnExitStatus) {
    std::set<std::string> names;
    std::set<int> statuses;
    for (const FailureKind* k : kFailureKinds) {
        EXPECT_NE(k->exitCode, kResultExitCode) << k->name;
        EXPECT_TRUE(names.insert(k->name).second) << k->name;
        EXPECT_TRUE(statuses.insert(k->exitCode).second) << k->name;
        EXPECT_EQ(failureKindNamed(k->name), k);
    }
    EXPECT_EQ(failureKindNamed("no-such-kind"), nullptr);
}

}  // namespace
}  // namespace grading::protocol
