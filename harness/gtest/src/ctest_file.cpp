// ctest's registration of a day's suites: the CMake file that
// `<day>_tests --emit-ctest OUT --manifest FILE` writes at build time, from
// the manifest CMake wrote (which runners exist, the planted and hostile
// expectations, a class's students). One add_test a gate (or a shard of
// one) and suite, or a class's student and day; its TIMEOUT from the
// cases' own limits, scaled with the runners' when GRADING_SANITIZER is set
// as ctest starts.
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "driver.h"
#include "harness/runner_client.h"

namespace grading::driver {
namespace {

std::string selfPath() {
    char buf[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// CMake bracket argument: nothing inside needs escaping.
std::string bracket(const std::string& s) { return "[==[" + s + "]==]"; }

// ctest's labels for a test's GPU calls: "timed" where it times them;
// "exclusive" where any of them holds the GPU exclusively (every timed one
// does), so waits for every call beside it to end (ctest -LE exclusive: a
// quick run of the rest).
std::string gpuLabels(bool timed, bool exclusiveGpu = false) {
    return std::string(";gpu") + (timed ? ";timed" : "") + (timed || exclusiveGpu ? ";exclusive" : "");
}

// Whether a suite of `g` (the student's cases alone, or all) has cases of `part`.
bool hasCasesIn(const DayGate& g, ClassPart part, bool studentOnly) {
    return std::any_of(g.cases.begin(), g.cases.end(),
                       [&](const GateCase& c) { return selected(c, studentOnly, {}) && classPart(g, c) == part; });
}

std::string gpuLabels(const DayGate& g, bool studentOnly) {
    return gpuLabels(g.spec.timed(), hasCasesIn(g, ClassPart::Exclusive, studentOnly));
}

}  // namespace

ClassPart classPart(const DayGate& g, const GateCase& c) {
    return g.spec.timed() || c.exclusiveGpu ? ClassPart::Exclusive : ClassPart::Shared;
}

std::string classTestName(const Day& day) { return day.name(); }

std::string classTests(const Day& day, const DayGate& g) {
    const bool any = std::any_of(g.cases.begin(), g.cases.end(), [](const GateCase& c) { return selected(c, true, {}); });
    return any ? classTestName(day) : "";
}

namespace {

double caseSeconds(const DayGate& g, bool studentOnly, const std::vector<std::string>& only) {
    double total = 0;
    for (const GateCase& c : g.cases) {
        if (selected(c, studentOnly, only)) total += c.limitSeconds;
    }
    return total;
}

// Gates with many cases run as several ctest tests, gtest shards of the
// gate (case k of runOrder in shard k mod N), each with its own runner
// session: one after another, a gate of many cases alone was the GPU
// suite's critical path. The grade report takes a gate's shards together
// (all must pass, and all must have run). A class's tests stay one per
// gate: its students already fill the machine, and splitting a gate per
// student made a class no faster (docs/performance.md).
constexpr int kCasesPerShard = 20;

int gateShards(const DayGate& g, bool studentOnly) {
    const auto cases = std::count_if(g.cases.begin(), g.cases.end(),
                                     [&](const GateCase& c) { return selected(c, studentOnly, {}); });
    return std::max(1, static_cast<int>((cases + kCasesPerShard - 1) / kCasesPerShard));
}

// The time limits of the cases gtest gives shard `k` of `shards`: every
// `shards`-th of the gate's selected cases in run order, from the `k`-th.
double shardSeconds(const DayGate& g, bool studentOnly, int shards, int k) {
    double total = 0;
    int index = 0;
    for (const GateCase* c : runOrder(g)) {
        if (!selected(*c, studentOnly, {})) continue;
        if (index++ % shards == k) total += c->limitSeconds;
    }
    return total;
}

}  // namespace

// Tab-separated, empty fields kept ("reference\t" names no runner).
std::vector<ManifestRow> readManifest(std::istream& in) {
    std::vector<ManifestRow> rows;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        ManifestRow f;
        for (size_t start = 0;;) {
            const size_t tab = line.find('\t', start);
            f.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
            if (tab == std::string::npos) break;
            start = tab + 1;
        }
        rows.push_back(std::move(f));
    }
    return rows;
}

ExpectationParts expectationParts(const Day& day, const Expected<Expectation>& e) {
    ExpectationParts parts;
    const auto count = [&](const DayGate& g, const std::vector<std::string>& where, int times) {
        parts.seconds[g.spec.timed()] += caseSeconds(g, false, where) * times;
        parts.any[g.spec.timed()] = true;
    };
    const DayGate* fails = e ? day.find(e->fails) : nullptr;
    if (fails != nullptr) count(*fails, e->cases, e->attempts);
    for (const std::string& entry : e ? e->passes : std::vector<std::string>{}) {
        const size_t at = entry.find('@');
        if (const DayGate* g = day.find(entry.substr(0, at))) {
            count(*g, at == std::string::npos ? e->cases : words(entry.substr(at + 1)), 1);
        }
    }
    // A file that fails no gate (fails: none) does its tricks before the
    // probe, and one that cannot be read or names no gate says so: 300 s.
    if (fails == nullptr) parts.seconds[parts.any[1] && !parts.any[0]] += 300;
    if (!parts.any[0] && !parts.any[1]) parts.any[0] = true;
    return parts;
}

namespace {

// The file under way: every test runs this driver, told the instructor's
// and the course's runners and the policy the manifest names.
class CtestFile {
public:
    CtestFile(const Day& day, const std::vector<ManifestRow>& rows) : day_(day), self_(selfPath()) {
        for (const ManifestRow& f : rows) {
            if (f.size() < 2 || f[1].empty()) continue;
            if (f[0] == "reference" || f[0] == "instructor") referencePath_ = f[1];
            if (f[0] == "course") coursePath_ = f[1];
            if (f[0] == "policy") policyPath_ = f[1];
        }
        out_ << "# Written by " << self_ << " --emit-ctest; regenerated on every build.\n"
             << "if(\"$ENV{GRADING_SANITIZER}\" STREQUAL \"\")\n  set(grading_scale 1)\nelse()\n  set(grading_scale "
             << static_cast<int>(kSanitizerSlowdown) << ")\nendif()\n";
    }

    void add(const std::string& name, const std::vector<std::string>& args, double seconds, const std::string& labels,
             bool serial, const std::string& environment = "") {
        out_ << "add_test(" << bracket(name) << " " << bracket(self_);
        for (const std::string& a : args) out_ << " " << bracket(a);
        if (!referencePath_.empty()) out_ << " " << bracket("--reference-runner") << " " << bracket(referencePath_);
        if (!coursePath_.empty()) out_ << " " << bracket("--course-runner") << " " << bracket(coursePath_);
        if (!policyPath_.empty()) out_ << " " << bracket("--policy") << " " << bracket(policyPath_);
        // Label serial: the RUN_SERIAL ones, to select (ctest -LE serial) or check.
        const std::string allLabels = day_.name() + ";" + labels + (serial ? ";serial" : "");
        out_ << ")\nmath(EXPR grading_timeout \"" << static_cast<long long>(seconds + 60.5) << " * ${grading_scale}\")\n"
             << "set_tests_properties(" << bracket(name) << " PROPERTIES LABELS " << bracket(allLabels)
             << " TIMEOUT ${grading_timeout} SKIP_RETURN_CODE " << kSkipStatus << " RESOURCE_GROUPS \"gpus:1\""
             << (environment.empty() ? "" : " ENVIRONMENT " + bracket(environment)) << (serial ? " RUN_SERIAL TRUE" : "")
             // The longest first, where ctest has no times of its own yet (a
             // fresh build): the cases' limits stand in for their run time.
             << " COST " << static_cast<long long>(seconds) << ")\n";
    }

    std::string text() const { return out_.str(); }

private:
    const Day& day_;
    const std::string self_;
    std::string referencePath_, coursePath_, policyPath_;
    std::ostringstream out_;
};

// The reference or submission suite: a test per gate (the submission's
// student gates only), in shards where a gate has many cases, and one per
// observation. `runner` "": the tree has no solution, and the tests skip.
void addSuite(CtestFile& file, const Day& day, const std::string& kind, const std::string& runner) {
    const bool submission = kind == "submission";
    const auto withRunner = [&](std::vector<std::string> args) {
        if (runner.empty()) args.push_back("--no-solution");
        else args.insert(args.end(), {"--runner", runner});
        return args;
    };
    for (const DayGate& g : day.gates()) {
        if (submission && g.spec.grades() != Grades::Student) continue;
        const std::vector<std::string> args = withRunner({"--suite", kind, "--gate", g.spec.id()});
        // Timed gates hold the GPU exclusively through its slots, not the
        // whole machine (in a class they never did). The speed gates still
        // run alone here: the reference suite holds the instructor's code to
        // 1.2x of itself, and a compile beside it would time the host as much
        // as the kernel.
        const std::string name = kind + "." + g.spec.id();
        const std::string labels = kind + gpuLabels(g, submission);
        const bool serial = isSpeedGate(g);
        const int shards = runner.empty() ? 1 : gateShards(g, submission);
        if (shards == 1) {
            file.add(name, args, caseSeconds(g, submission, {}), labels, serial);
            continue;
        }
        for (int k = 0; k < shards; ++k) {
            file.add(name + ".shard" + std::to_string(k + 1) + "of" + std::to_string(shards), args,
                     shardSeconds(g, submission, shards, k), labels, serial,
                     "GTEST_TOTAL_SHARDS=" + std::to_string(shards) + ";GTEST_SHARD_INDEX=" + std::to_string(k));
        }
    }
    for (const Observation& ob : day.observations()) {
        file.add(kind + "." + day.name() + "." + ob.name,
                 withRunner({"--suite", "observe", "--observation", ob.name}), ob.limitSeconds,
                 kind + gpuLabels(true), false);
    }
}

// One student of a class build, graded as a submission: a test a day, one
// runner start (driver.h, ClassPart). Its exclusive part's cases hold the
// GPU exclusively through its slots, a few of the class's tests at a time
// (their timed turns); the day's observations join it, their figures the
// student's charts.
void addStudent(CtestFile& file, const Day& day, const std::string& student, const std::string& runner) {
    double seconds = 0;
    bool timed = false, exclusive = false;
    for (const DayGate& g : day.gates()) {
        if (g.spec.grades() != Grades::Student) continue;
        for (const GateCase& c : g.cases) {
            if (!selected(c, true, {})) continue;
            seconds += c.limitSeconds;
            timed = timed || g.spec.timed();
            exclusive = exclusive || classPart(g, c) == ClassPart::Exclusive;
        }
    }
    for (const Observation& ob : day.observations()) seconds += ob.limitSeconds;
    file.add(student + "." + classTestName(day), {"--suite", "submission", "--class-day", "--runner", runner}, seconds,
             "class;" + student + gpuLabels(timed || !day.observations().empty(), exclusive), false);
}

// A class's instructor.<day> (grade_class.sh runs it before any student's
// test): the baselines a class times once (the speed gates' instructor
// rounds, a case's course baseline marked baselineOncePerClass). Serial:
// nothing else may run while they are timed.
void addInstructorRounds(CtestFile& file, const Day& day, const std::string& runner) {
    double seconds = 0;
    for (const DayGate& g : day.gates()) {
        for (const GateCase& c : g.cases) {
            if (selected(c, true, {}) && baselineOncePerClass(g, c)) seconds += c.limitSeconds;
        }
    }
    if (seconds > 0) {
        file.add(instructorRoundsTestName(day), {"--suite", "instructor", "--runner", runner}, seconds,
                 "instructor" + gpuLabels(true), true);
    }
}

void addStub(CtestFile& file, const Day& day, const std::string& runner) {
    double seconds = 0;
    for (const DayGate& g : day.gates()) {
        if (g.spec.grades() == Grades::Student) seconds += caseSeconds(g, true, {});
    }
    file.add("stub." + day.name(), {"--suite", "stub", "--runner", runner}, seconds, "stub;gpu", false);
}

// A planted bug or hostile file (suite "planted" or "hostile"): its limit
// the cases of the gate it must fail (times its attempts) and of those it
// must pass. Its untimed gates run beside the rest of the suite, as
// <suite>.<day>.<name>; its timed gates join the day's one serial test,
// timed.<day> (the `seconds` it adds to it, `suites` the label it adds), where
// they have the machine to themselves and share one start of the instructor's
// runner with every other file's. A planted bug's tests assert the failure
// with shrinking off; its shrink, and the counterexample's bound, is
// <name>.shrink: labelled nightly, but for the day's first planted bug that
// shrinks (`*shrinkChosen`), which every suite runs.
void addExpectation(CtestFile& file, const Day& day, const std::string& suite, const std::string& name,
                    const std::string& runner, const std::string& expectationFile, bool* shrinkChosen,
                    double* timedSeconds, std::set<std::string>* timedSuites) {
    const Expected<Expectation> e = readExpectation(expectationFile);
    const ExpectationParts parts = expectationParts(day, e);
    const std::string test = suite + "." + day.name() + "." + name;
    const std::vector<std::string> args = {"--suite", suite, "--runner", runner, "--expect", expectationFile,
                                           "--name", name};
    const double scale = e && !e->sanitizer.empty() ? kSanitizerSlowdown : 1.0;
    const bool planted = suite == "planted";
    if (parts.any[0]) {
        std::vector<std::string> untimed = args;
        if (parts.any[1]) untimed.insert(untimed.end(), {"--part", "untimed"});
        file.add(test, untimed, parts.seconds[0] * scale, suite + gpuLabels(false), false,
                 planted ? "GRADING_SHRINK=off" : "");
    }
    if (parts.any[1]) {
        *timedSeconds += parts.seconds[1] * scale;
        timedSuites->insert(suite);
    }
    const DayGate* fails = e ? day.find(e->fails) : nullptr;
    if (planted && fails != nullptr && !fails->spec.timed() && !e->scoreBelow) {
        std::vector<std::string> shrink = args;
        shrink.insert(shrink.end(), {"--part", "fails"});
        const bool everySuite = !*shrinkChosen && e->largeCounterexample.empty();
        *shrinkChosen = *shrinkChosen || everySuite;
        file.add(test + ".shrink", shrink, caseSeconds(*fails, false, e->cases) * e->attempts * scale,
                 suite + gpuLabels(false) + ";shrink" + (everySuite ? "" : ";nightly"), false);
    }
}

}  // namespace

int emitCtest(const Day& day, const Options& o) {
    std::ifstream manifest(o.manifest);
    if (!manifest) {
        std::cerr << "cannot open the manifest " << o.manifest << "\n";
        return 2;
    }
    const std::vector<ManifestRow> rows = readManifest(manifest);
    CtestFile file(day, rows);
    bool shrinkChosen = false;
    double timedSeconds = 0;
    std::set<std::string> timedSuites;  // the timed test's labels
    for (const ManifestRow& f : rows) {
        const std::string& kind = f[0];
        if ((kind == "reference" || kind == "submission") && f.size() >= 2) addSuite(file, day, kind, f[1]);
        else if (kind == "student" && f.size() >= 3) addStudent(file, day, f[1], f[2]);  // student <id> <runner>
        else if (kind == "stub" && f.size() >= 2) addStub(file, day, f[1]);
        else if (kind == "instructor" && f.size() >= 2 && !f[1].empty()) addInstructorRounds(file, day, f[1]);
        else if (kind == "expect" && f.size() >= 5) {  // expect <suite> <name> <runner> <file>
            addExpectation(file, day, f[1], f[2], f[3], f[4], &shrinkChosen, &timedSeconds, &timedSuites);
        }
    }
    if (!timedSuites.empty()) {
        std::string labels;
        for (const std::string& suite : timedSuites) labels += (labels.empty() ? "" : ";") + suite;
        file.add(timedPartsTestName(day), {"--suite", "timed", "--manifest", o.manifest}, timedSeconds,
                 labels + gpuLabels(true), true, "GRADING_SHRINK=off");
    }
    std::ofstream out(o.emitCtest, std::ios::trunc);
    out << file.text();
    return out ? 0 : 2;
}

}  // namespace grading::driver
