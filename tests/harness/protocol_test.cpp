// The typed protocol: every field type round-trips through a Record, an
// optional field may be absent, and a missing or mistyped field is named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <set>

#include "harness/protocol.h"
#include "harness/runner_main.h"

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

// A request whose fields carry limits, as a runner's requests do.
struct Limited {
    int32_t repeats = 1;
    double holdMs = 0;
    std::vector<uint64_t> keys{1};
    std::vector<int32_t> branches;
    float rate = 0.25f;
    std::vector<double> rates;
    std::string kernel = "tiled";

    template <class Self, class Visit>
    static void fields(Self& s, Visit&& field) {
        field("repeats", s.repeats, Within<int32_t>{1, 1024});
        field("hold_ms", s.holdMs, Within<double>{0.0, 1000.0});
        field("keys", s.keys, Entries{1, 64});
        field("branches", s.branches, Within<int32_t>{0, 3});
        field("rate", s.rate, Finite{});
        field("rates", s.rates, Entries{0, 4}, Finite{});
        field("kernel", s.kernel, OneOf{{"global", "tiled"}});
    }
};

Expected<Limited> throughTheWire(const Limited& l) {
    const Expected<Record> wire = Record::parse(encode(l).serialize());
    if (!wire.ok()) return Error{wire.error()};
    return decode<Limited>(*wire);
}

TEST(ProtocolLimits, ValuesInsideTheLimitsDecode) {
    Limited l;
    l.repeats = 1024;
    l.holdMs = 1000.0;
    l.keys.assign(64, 7);
    l.branches = {0, 3};
    const Expected<Limited> back = throughTheWire(l);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->repeats, 1024);
    EXPECT_EQ(back->keys.size(), 64u);
}

TEST(ProtocolLimits, ANumberOutsideItsLimitsIsRefusedNamingTheField) {
    Limited l;
    l.repeats = 0;
    EXPECT_EQ(throughTheWire(l).error(), "field \"repeats\" holds 0, want 1..1024");
    l.repeats = 1025;
    EXPECT_EQ(throughTheWire(l).error(), "field \"repeats\" holds 1025, want 1..1024");
}

TEST(ProtocolLimits, NotANumberIsOutsideEveryLimit) {
    Limited l;
    l.holdMs = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(throughTheWire(l).error(), "field \"hold_ms\" holds nan, want 0..1000");
}

TEST(ProtocolLimits, AListEntryOutsideItsLimitsIsNamedWithItsIndex) {
    Limited l;
    l.branches = {0, 1, 4, -1};
    EXPECT_EQ(throughTheWire(l).error(), "field \"branches\" holds 4 at index 2, want 0..3");
}

TEST(ProtocolLimits, AListOfTooFewOrTooManyEntriesIsRefused) {
    Limited l;
    l.keys.clear();
    EXPECT_EQ(throughTheWire(l).error(), "field \"keys\" holds 0 entries, want 1..64");
    l.keys.assign(65, 1);
    EXPECT_EQ(throughTheWire(l).error(), "field \"keys\" holds 65 entries, want 1..64");
}

TEST(ProtocolLimits, AFloatThatMustBeFiniteRefusesInfinityAndNotANumber) {
    Limited l;
    l.rate = std::numeric_limits<float>::infinity();
    EXPECT_EQ(throughTheWire(l).error(), "field \"rate\" holds inf, want a finite number");
    l.rate = -3e38f;
    l.rates = {1.0, std::numeric_limits<double>::quiet_NaN()};
    EXPECT_EQ(throughTheWire(l).error(), "field \"rates\" holds nan at index 1, want a finite number");
    l.rates = {1.0, -1e300};
    EXPECT_TRUE(throughTheWire(l).ok());
}

TEST(ProtocolLimits, AFieldsLimitsAreCheckedInTurnTheFirstBrokenNamed) {
    Limited l;
    l.rates = {1.0, 2.0, 3.0, 4.0, std::numeric_limits<double>::infinity()};
    EXPECT_EQ(throughTheWire(l).error(), "field \"rates\" holds 5 entries, want 0..4");
    l.rates.pop_back();
    l.rates[3] = -std::numeric_limits<double>::infinity();
    EXPECT_EQ(throughTheWire(l).error(), "field \"rates\" holds -inf at index 3, want a finite number");
}

TEST(ProtocolLimits, AWordOutsideItsListIsRefusedNamingTheWords) {
    Limited l;
    l.kernel = "global";
    EXPECT_TRUE(throughTheWire(l).ok());
    l.kernel = "Tiled";
    EXPECT_EQ(throughTheWire(l).error(), "field \"kernel\" holds \"Tiled\", want one of global, tiled");
}

TEST(ProtocolLimits, TheWriterSendsWhatItIsGivenLimitsOrNot) {
    Limited l;
    l.repeats = 0;  // the grader's own bug: sent as is, refused where it is decoded
    const Record r = encode(l);
    EXPECT_EQ(r.ints("repeats").value(), std::vector<int32_t>{0});
}

struct LimitedCall {
    static constexpr const char* kName = "limited";
    using Request = Limited;
    using Result = Limited;
};

TEST(ProtocolLimits, ARunnerRefusesARequestOutOfItsLimitsAsBadInputBeforeAnyWork) {
    bool served = false;
    const Subcommand limited = serve<LimitedCall>([&](const Limited& l) {
        served = true;
        return l;
    });
    Limited l;
    l.repeats = 0;
    try {
        limited.handle(encode(l));
        ADD_FAILURE() << "a request out of its limits was served";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "the limited request: field \"repeats\" holds 0, want 1..1024");
    }
    EXPECT_FALSE(served);
    l.repeats = 1;
    limited.handle(encode(l));
    EXPECT_TRUE(served);
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
