#include "grading/report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "grading/logs.h"
#include "text_lines.h"

namespace grading::report {
namespace {

constexpr size_t kListedFailures = 20;

enum class Verdict { Passed, Failed, Skipped };

using text::endsWith;
using text::splitLines;
using text::startsWith;
using text::trim;

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string seconds(double s) {
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(1);
    out << s;
    return out.str();
}

bool gtestFinished(const std::string& output) {
    for (const char* marker : {"[       OK ]", "[  FAILED  ]", "[  SKIPPED ]", "[  PASSED  ]"}) {
        if (output.find(marker) != std::string::npos) return true;
    }
    return false;
}

// A skip ctest itself reports (the test's skip return code or regex).
bool ctestSkipped(const JunitCase& t) {
    return t.skippedMessage == "SKIP_REGULAR_EXPRESSION_MATCHED" || startsWith(t.skippedMessage, "SKIP_RETURN_CODE");
}

Verdict verdictOf(const JunitCase& t) {
    if (t.status == "notrun" && ctestSkipped(t)) return Verdict::Skipped;
    if (t.status == "run" && !t.hasFailure) {
        // A gtest skip reads as a pass when the test has no SKIP_REGULAR_EXPRESSION.
        return t.output.find("[  SKIPPED ]") != std::string::npos ? Verdict::Skipped : Verdict::Passed;
    }
    return Verdict::Failed;
}

// gtest prints "<file>:<line>: Skipped" and then the reason.
std::string skipReasonIn(const std::string& output) {
    const std::vector<std::string> lines = splitLines(output);
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
        if (endsWith(lines[i], ": Skipped") && !trim(lines[i + 1]).empty()) return trim(lines[i + 1]);
    }
    return "";
}

std::string skipReason(const JunitCase& t) {
    if (std::string reason = skipReasonIn(t.output); !reason.empty()) return reason;
    return t.hasSkipped && !ctestSkipped(t) ? t.skippedMessage : "skipped without a reason";
}

// The text of the first gtest assertion failure, without the expression dump
// ("Value of:", "Actual:", "Expected:") that says nothing to a student.
std::string gtestFailure(const std::string& output) {
    const std::vector<std::string> lines = splitLines(output);
    for (size_t i = 0; i < lines.size(); ++i) {
        if (!endsWith(lines[i], ": Failure")) continue;
        std::vector<std::string> block, meaningful;
        for (size_t j = i + 1; j < lines.size() && !startsWith(lines[j], "[") && !endsWith(lines[j], ": Failure"); ++j) {
            const std::string line = trim(lines[j]);
            if (line.empty()) continue;
            block.push_back(line);
            const bool dump = startsWith(lines[j], "  ") || startsWith(line, "Value of: ") ||
                              startsWith(line, "Expected: ") || startsWith(line, "Actual: ") ||
                              line == "Expected equality of these values:" || line == "Failed";
            if (!dump) meaningful.push_back(line);
        }
        const std::vector<std::string>& use = meaningful.empty() ? block : meaningful;
        std::string text;
        for (const std::string& l : use) text += (text.empty() ? "" : " ") + l;
        return text;
    }
    return "";
}

// The last line of `output` that says anything, trimmed.
std::string lastLine(const std::string& output) {
    std::string last;
    for (const std::string& line : splitLines(output)) {
        if (!trim(line).empty()) last = trim(line);
    }
    return last;
}

// How ctest's log says the test's process ended, where it did not exit: "" if it did.
std::string abnormalEnd(const JunitCase& t, const std::map<std::string, std::string>& ends) {
    const auto end = ends.find(plainTestName(t.name));
    if (end == ends.end()) return "";
    return startsWith(end->second, "Timeout") ? "killed by ctest at its time limit (" + end->second + ")"
                                              : "the test process crashed (" + end->second + ")";
}

// Why a test failed where no GATE line says: how its process ended (ctest's
// log), what gtest asserted, or its last words.
std::string unexplainedFailure(const JunitCase& t, const std::string& name,
                               const std::map<std::string, std::string>& ends) {
    if (const std::string end = abnormalEnd(t, ends); !end.empty()) return name + ": " + end;
    // ctest could not run it ("Unable to find executable: <path>"); its output says more than the message.
    if (t.hasSkipped) return name + ": " + (t.output.empty() ? t.skippedMessage : firstLine(t.output));
    if (const std::string text = gtestFailure(t.output); !text.empty()) return name + ": " + text;
    if (!trim(t.failureMessage).empty()) return name + ": " + t.failureMessage;
    if (trim(t.output).empty()) {
        return name + ": no output; the test ended after " + seconds(t.seconds) +
               " s (ctest's time limit or a crash; give --ctest-log to know which)";
    }
    if (!gtestFinished(t.output)) {
        return name + ": the test stopped after " + seconds(t.seconds) +
               " s before it finished (ctest's time limit or a crash); its last line: " + lastLine(t.output);
    }
    return name + ": failed (ctest status " + t.status + ", no message)";
}

// What the first "GATE <gateId> FAIL <context>: <message>" line of `output`
// says after FAIL; "" where none. `other`: the first other gate's, with its id.
std::string gateFailure(const std::string& output, const std::string& gateId, std::string* other = nullptr) {
    for (const std::string& line : splitLines(output)) {
        std::istringstream words(line);
        std::string tag, id, verdict;
        words >> tag >> id >> verdict;
        if (tag != "GATE" || verdict != "FAIL") continue;
        std::string rest;
        std::getline(words, rest);
        rest = trim(rest);
        if (id == gateId) return rest;
        if (other != nullptr && other->empty()) *other = id + " " + rest;
    }
    return "";
}

std::string failureReason(const JunitCase& t, const std::string& name, const std::string& gateId,
                          const std::map<std::string, std::string>& ends) {
    std::string otherGate;
    if (std::string own = gateFailure(t.output, gateId, &otherGate); !own.empty()) return own;
    if (!otherGate.empty()) return otherGate;
    return unexplainedFailure(t, name, ends);
}

// gtest's own chatter around a test's output.
bool isGtestChatter(const std::string& line) {
    static const char* const prefixes[] = {"[==========]", "[----------]", "[ RUN      ]", "[       OK ]",
                                           "[  PASSED  ]", "[  FAILED  ]", "[  SKIPPED ]", "Running main() from",
                                           "Note: Google Test filter"};
    for (const char* p : prefixes) {
        if (startsWith(line, p)) return true;
    }
    const std::string t = trim(line);
    return endsWith(t, " FAILED TEST") || endsWith(t, " FAILED TESTS");
}

// A test's output for the report's observations: no gtest chatter, and
// one blank line where the chatter left several.
std::string withoutChatter(const std::string& output) {
    std::string text;
    bool blank = true;
    for (const std::string& line : splitLines(output)) {
        if (isGtestChatter(line) || (blank && trim(line).empty())) continue;
        blank = trim(line).empty();
        text += blank ? "\n" : line + "\n";
    }
    if (blank && !text.empty()) text.pop_back();
    return text;
}

struct Named {
    std::string name;  // without the prefix
    const JunitCase* test;
    // A class's day test (Gate::classTests): its day, and its cases and its
    // rerun's, read once (classTestCases). classDay "": not one.
    std::string classDay;
    std::vector<CaseBlock> cases, rerunCases;
};

// A large gate's cases may run as ctest tests "<gate>.shard<k>of<n>", one
// gtest shard each (the test driver's emitCtest); together they are the gate.
struct Shard {
    std::string gateTests;
    int index = 0;  // 1-based
    int count = 0;
};

std::optional<Shard> shardOf(const std::string& name) {
    const size_t at = name.rfind(".shard");
    if (at == std::string::npos) return std::nullopt;
    const std::string tail = name.substr(at + 6);
    const size_t of = tail.find("of");
    const auto digits = [](const std::string& d) {
        return !d.empty() && d.size() < 6 && std::all_of(d.begin(), d.end(), [](unsigned char c) { return std::isdigit(c); });
    };
    if (of == std::string::npos || !digits(tail.substr(0, of)) || !digits(tail.substr(of + 2))) return std::nullopt;
    Shard s{name.substr(0, at), std::stoi(tail.substr(0, of)), std::stoi(tail.substr(of + 2))};
    if (s.index < 1 || s.index > s.count) return std::nullopt;
    return s;
}

bool testOfGate(const Gate& gate, const std::string& name) {
    if (globMatch(gate.tests, name) || gate.inClassTest(name)) return true;
    const std::optional<Shard> s = shardOf(name);
    return s && globMatch(gate.tests, s->gateTests);
}

// Which shards of each split ran: shard count -> the 1-based shards seen.
using ShardsRan = std::map<int, std::set<int>>;

// "" when every shard the gate's tests name ran; else which did not (their
// cases were never graded).
std::string missingShards(const ShardsRan& ran) {
    if (ran.size() > 1) {
        return "its tests were split into shards two ways (of " + std::to_string(ran.begin()->first) + " and of " +
               std::to_string(ran.rbegin()->first) + "): results of two builds mixed";
    }
    if (ran.empty()) return "";
    const auto& [count, indices] = *ran.begin();
    std::string missing;
    for (int k = 1; k <= count; ++k) {
        if (indices.count(k) == 0) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
    }
    return missing.empty() ? "" : "shard " + missing + " of " + std::to_string(count) + " did not run";
}

// The JSON of a test's first "counterexample " line that holds a JSON object.
// The grader prints it; what else the test's output holds (a runner's text
// quoted in a message) is no line of its own, and a page only draws it.
std::string counterexampleOf(const std::string& output) {
    static const std::string tag = "counterexample {";
    for (const std::string& line : splitLines(output)) {
        if (line.compare(0, tag.size(), tag) != 0) continue;
        const nlohmann::json j = nlohmann::json::parse(line.substr(tag.size() - 1), nullptr, false);
        if (j.is_object()) return j.dump();
    }
    return "";
}

}  // namespace

std::vector<CaseBlock> classTestCases(const std::string& output) {
    static const std::string tokenLine = "verdict token: ";
    const std::vector<std::string> lines = splitLines(output);
    // The token is the first line's that says one: any later one is a runner's word.
    const auto first = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return startsWith(l, tokenLine); });
    if (first == lines.end() || trim(first->substr(tokenLine.size())).empty()) return {};
    const std::string token = trim(first->substr(tokenLine.size())) + " ";
    static const std::pair<const char*, CaseBlock::End> ends[] = {
        {"OK ", CaseBlock::End::Ok}, {"FAILED ", CaseBlock::End::Failed}, {"SKIPPED ", CaseBlock::End::Skipped}};
    std::vector<CaseBlock> blocks;
    bool open = false;
    for (auto line = std::next(first); line != lines.end(); ++line) {
        if (!startsWith(*line, token)) {
            if (open) blocks.back().text += *line + "\n";
            continue;
        }
        const std::string said = line->substr(token.size());
        if (startsWith(said, "RUN ")) {
            blocks.push_back({said.substr(4), CaseBlock::End::Unfinished, ""});
            open = true;
            continue;
        }
        for (const auto& [word, end] : ends) {
            if (open && said == word + blocks.back().name) {
                blocks.back().end = end;
                open = false;
            }
        }
    }
    return blocks;
}

void takeShrunkFailures(std::vector<JunitCase>& tests, const std::vector<JunitCase>& shrunk) {
    std::map<std::string, const JunitCase*> rerun;
    for (const JunitCase& t : shrunk) {
        if (verdictOf(t) == Verdict::Failed) rerun[t.name] = &t;
    }
    for (JunitCase& t : tests) {
        const auto again = rerun.find(t.name);
        if (again == rerun.end() || verdictOf(t) != Verdict::Failed) continue;
        t.failureMessage = again->second->failureMessage;
        t.rerunOutput = again->second->output;
    }
}

namespace {

// A test's verdict on one gate; why, where it failed or was skipped; the
// counterexample its failure drew.
struct GateVerdict {
    Verdict verdict = Verdict::Passed;
    std::string why;
    std::string counterexample;
};

GateVerdict verdictOfTest(const JunitCase& t, const std::string& name, const std::string& gateId,
                          const std::map<std::string, std::string>& ends) {
    switch (verdictOf(t)) {
        case Verdict::Passed: return {};
        case Verdict::Skipped: return {Verdict::Skipped, skipReason(t), ""};
        case Verdict::Failed: break;
    }
    if (t.rerunOutput.empty()) return {Verdict::Failed, failureReason(t, name, gateId, ends), counterexampleOf(t.output)};
    JunitCase rerun = t;
    rerun.output = t.rerunOutput;
    return {Verdict::Failed, failureReason(rerun, name, gateId, ends), counterexampleOf(rerun.output)};
}

// Why a case block failed: its GATE line for `gateId`, or what gtest asserted.
std::string caseFailure(const CaseBlock& b, const std::string& name, const std::string& gateId) {
    std::string why = gateFailure(b.text, gateId);
    return why.empty() ? name + ": " + b.name + ": " + gtestFailure(b.text) : why;
}

// A class's day test holds several gates: a gate's verdict there is its own
// cases' (classTestCases), unless the process failed in a way no case
// explains (a runner that wrote after its last answer, a crash between
// cases), which fails every gate it holds. The case the process died in
// fails its gate, and a gate none of whose cases ran fails: the test ended
// first. A failure's message and counterexample come from the test's rerun
// with shrinking on where the gate failed there too.
GateVerdict verdictInClassTest(const Named& test, const std::string& gateId,
                               const std::map<std::string, std::string>& ends) {
    const JunitCase& t = *test.test;
    const std::string& name = test.name;
    const Verdict whole = verdictOf(t);
    if (whole == Verdict::Skipped) return {Verdict::Skipped, skipReason(t), ""};
    const auto ofGate = [&](const CaseBlock& b) { return startsWith(b.name, gateId + "."); };
    bool explained = false, own = false;
    std::optional<GateVerdict> skipped, unfinished;
    for (const CaseBlock& b : test.cases) {
        // A failing case, or one the process died in, is why the test failed.
        explained = explained || b.end == CaseBlock::End::Failed || b.end == CaseBlock::End::Unfinished;
        if (!ofGate(b)) continue;
        own = true;
        if (b.end == CaseBlock::End::Failed) {
            const auto again = std::find_if(test.rerunCases.begin(), test.rerunCases.end(), [&](const CaseBlock& r) {
                return ofGate(r) && r.end == CaseBlock::End::Failed;
            });
            const CaseBlock& said = again != test.rerunCases.end() ? *again : b;
            return {Verdict::Failed, caseFailure(said, name, gateId), counterexampleOf(said.text)};
        }
        if (b.end == CaseBlock::End::Unfinished && !unfinished) {
            // The process ended inside this case: how, and the last thing it said.
            const std::string end = abnormalEnd(t, ends), last = lastLine(b.text);
            unfinished = GateVerdict{Verdict::Failed,
                                     name + ": " + (end.empty() ? "the test stopped after " + seconds(t.seconds) +
                                                                      " s (ctest's time limit or a crash)"
                                                                : end) +
                                         " before " + b.name + " finished" +
                                         (last.empty() ? "" : "; its last line: " + last),
                                     ""};
        }
        if (b.end == CaseBlock::End::Skipped && !skipped) {
            const std::string reason = skipReasonIn(b.text);
            skipped = GateVerdict{Verdict::Skipped, reason.empty() ? "skipped without a reason" : reason, ""};
        }
    }
    if (unfinished) return *unfinished;
    if (own && whole == Verdict::Failed && !explained) return {Verdict::Failed, unexplainedFailure(t, name, ends), ""};
    if (!own) {
        const std::string end = abnormalEnd(t, ends);
        return {Verdict::Failed, name + ": none of " + gateId + "'s cases ran" +
                                     (!end.empty() ? " (" + end + ")"
                                      : whole == Verdict::Failed
                                          ? " (the test stopped after " + seconds(t.seconds) + " s, before them)"
                                          : ""),
                ""};
    }
    return skipped ? *skipped : GateVerdict{};
}

GateOutcome gradeGate(const Gate& gate, const std::vector<Named>& tests, const std::string& prefix,
                      const std::map<std::string, std::string>& ends, const BuildFailure* buildFailure) {
    GateOutcome o;
    o.gate = gate;
    std::string firstSkip;
    ShardsRan shardsRan;
    for (const Named& t : tests) {
        if (!testOfGate(gate, t.name)) continue;
        ++o.tests;
        if (const std::optional<Shard> s = shardOf(t.name); s && globMatch(gate.tests, s->gateTests)) {
            shardsRan[s->count].insert(s->index);
        }
        const GateVerdict v = gate.inClassTest(t.name) ? verdictInClassTest(t, gate.id, ends)
                                                       : verdictOfTest(*t.test, t.name, gate.id, ends);
        switch (v.verdict) {
            case Verdict::Passed: ++o.passed; break;
            case Verdict::Skipped:
                ++o.skipped;
                if (firstSkip.empty()) firstSkip = v.why;
                break;
            case Verdict::Failed:
                ++o.failed;
                o.failures.push_back(v.why);
                if (o.counterexample.empty()) o.counterexample = v.counterexample;
                break;
        }
    }
    if (buildFailure != nullptr) {
        o.result = Result::Fail;
        // Tests may still have run (against a stale runner, or the stand-in for a
        // missing file); none of them counts.
        o.message = buildFailure->summary + ": see " + gate.day + ".builds" +
                    (o.tests ? " (" + std::to_string(o.tests) + " test results not counted)" : "");
    } else if (o.tests == 0) {
        o.result = Result::NotRun;
        o.message = "no test matches " + prefix + gate.tests + ": did the " + gate.day + " suite build and run?";
    } else if (o.failed > 0) {
        o.result = Result::Fail;
        o.message = firstLine(o.failures.front());
        const int more = o.failed - 1;
        if (more > 0) o.message += " (+" + std::to_string(more) + " more failing test" + (more > 1 ? "s)" : ")");
    } else if (const std::string missing = missingShards(shardsRan); !missing.empty()) {
        o.result = Result::NotRun;  // part of its cases never graded: no pass
        o.message = missing + ": " + std::to_string(o.tests) + " of its tests ran";
    } else if (o.skipped > 0) {
        o.result = Result::NotRunHere;
        o.notRunHere = firstLine(firstSkip);
        o.message = firstSkip;
        if (o.passed > 0) {
            o.message += " (" + std::to_string(o.skipped) + " of " + std::to_string(o.tests) + " tests skipped)";
        }
    } else {
        o.result = Result::Pass;
    }
    o.earned = o.result == Result::Pass ? gate.points : 0;
    if (o.result == Result::Pass && gate.scored) {
        // The lowest score any of its tests printed; none at all earns nothing.
        std::optional<std::pair<double, std::string>> lowest;
        for (const Named& t : tests) {
            if (!testOfGate(gate, t.name)) continue;
            for (const std::string& line : splitLines(t.test->output)) {
                const std::string tag = "SCORE " + gate.id + " ";
                if (line.compare(0, tag.size(), tag) != 0) continue;
                char* end = nullptr;
                const double score = std::strtod(line.c_str() + tag.size(), &end);
                if (end == line.c_str() + tag.size() || !(score >= 0.0 && score <= 1.0)) continue;
                if (!lowest || score < lowest->first) lowest = {{score, trim(std::string(end))}};
            }
        }
        o.earned = lowest ? static_cast<int>(std::lround(gate.points * lowest->first)) : 0;
        o.message = lowest ? lowest->second : "no score: its tests printed no SCORE line";
    }
    return o;
}

std::string padded(const std::string& s, size_t width) {
    return s + std::string(width > s.size() ? width - s.size() : 0, ' ');
}

std::string fraction(int a, int b) { return std::to_string(a) + "/" + std::to_string(b); }

std::string cell(const GateOutcome& o) {
    if (o.buildsGate) return o.result == Result::Pass ? "ok" : o.result == Result::Fail ? "FAIL" : "-";
    switch (o.result) {
        case Result::Pass:
        case Result::Fail: return std::to_string(o.earned);
        case Result::NotRunHere: return "not run";
        case Result::NotRun: return "-";
        case Result::NotGraded: return "0";
    }
    return "-";
}

std::string oneField(std::string s) {
    std::replace_if(s.begin(), s.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
    return s;
}

}  // namespace

const char* resultName(Result r) {
    switch (r) {
        case Result::Pass: return "PASS";
        case Result::Fail: return "FAIL";
        case Result::NotRunHere: return "NOT RUN";
        case Result::NotRun: return "NOT RUN";
        case Result::NotGraded: return "NOT GRADED";
    }
    return "?";
}

bool Report::allPassed() const {
    return std::all_of(gates.begin(), gates.end(), [](const GateOutcome& g) { return g.result == Result::Pass; });
}

bool Report::couldNotGradeHere() const {
    const auto is = [this](Result r) {
        return std::any_of(gates.begin(), gates.end(), [r](const GateOutcome& g) { return g.result == r; });
    };
    return is(Result::NotRunHere) && !is(Result::Fail) && !is(Result::NotGraded) && !is(Result::NotRun);
}

std::vector<std::string> notRunHereReasons(const Report& report) {
    std::vector<std::string> reasons;
    for (const GateOutcome& o : report.gates) {
        if (o.result != Result::NotRunHere) continue;
        if (std::find(reasons.begin(), reasons.end(), o.notRunHere) == reasons.end()) reasons.push_back(o.notRunHere);
    }
    return reasons;
}

Report grade(const GradeInput& input) {
    const std::vector<std::string> known = daysOf(input.gates);
    const std::vector<std::string> days = input.days.empty() ? known : input.days;
    for (const std::string& day : days) {
        if (std::find(known.begin(), known.end(), day) == known.end()) {
            std::string list;
            for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
            throw InputError("unknown day '" + day + "' (the gates table has " + list + ")");
        }
    }
    const auto buildFailed = buildFailures(input.buildRecords);
    const auto ends = input.ctestLog ? abnormalEnds(*input.ctestLog) : std::map<std::string, std::string>{};

    // The prefix's tests; a later JUnit file's result replaces an earlier one's.
    std::vector<Named> tests;
    std::map<std::string, size_t> index;
    for (const JunitCase& t : input.tests) {
        const std::string name = plainTestName(t.name);
        if (!startsWith(name, input.prefix)) continue;
        const std::string bare = name.substr(input.prefix.size());
        if (const auto it = index.find(bare); it != index.end()) {
            tests[it->second].test = &t;
        } else {
            index[bare] = tests.size();
            tests.push_back({bare, &t, "", {}, {}});
        }
    }
    for (Named& t : tests) {
        const auto holder = std::find_if(input.gates.begin(), input.gates.end(),
                                         [&](const Gate& g) { return g.inClassTest(t.name); });
        if (holder == input.gates.end()) continue;
        t.classDay = holder->day;
        t.cases = classTestCases(t.test->output);
        t.rerunCases = classTestCases(t.test->rerunOutput);
    }

    Report report;
    report.prefix = input.prefix;
    for (const std::string& day : days) {
        GateOutcome builds;
        builds.buildsGate = true;
        builds.gate = {day + ".builds", day, 0, "visible", "", "the " + day + " submission compiles"};
        const auto failed = buildFailed.find(day);
        const bool anyTest = std::any_of(tests.begin(), tests.end(), [&](const Named& t) {
            return std::any_of(input.gates.begin(), input.gates.end(),
                               [&](const Gate& g) { return g.day == day && testOfGate(g, t.name); });
        });
        if (failed != buildFailed.end()) {
            builds.result = Result::Fail;
            builds.message = failed->second.reason;
        } else if (anyTest) {
            builds.result = Result::Pass;
        } else {
            builds.message = "no " + input.prefix + " test of " + day + " in the JUnit files: not built, or not run";
        }
        report.gates.push_back(builds);
        for (const Gate& g : input.gates) {
            if (g.day != day || (g.grades == "course" && input.prefix != "reference.")) continue;
            report.gates.push_back(
                gradeGate(g, tests, input.prefix, ends, failed != buildFailed.end() ? &failed->second : nullptr));
        }
    }

    // A gate whose requirement did not pass earns nothing: its own pass may
    // only mean the code under it computes nothing. One that did not run here
    // is not graded either where its requirement failed: a class's day test
    // skips the exclusive cases of a gate that can no longer pass.
    for (GateOutcome& o : report.gates) {
        for (const std::string& r : o.gate.prerequisites) {
            const auto req = std::find_if(report.gates.begin(), report.gates.end(),
                                          [&](const GateOutcome& x) { return x.gate.id == r; });
            if (req == report.gates.end() || req->result == Result::Pass) continue;
            const bool reqFailed = req->result == Result::Fail || req->result == Result::NotGraded;
            if (o.result == Result::Pass || o.result == Result::Fail || (o.result == Result::NotRunHere && reqFailed)) {
                o.message = "not graded: requires " + r + " (" + resultName(req->result) + ")" +
                            (o.result == Result::Fail ? "; its own first failure: " + o.message : "");
                o.result = Result::NotGraded;
                o.notRunHere.clear();
                o.earned = 0;
            }
            break;
        }
    }
    // The sums, once every gate's verdict is final.
    for (const std::string& day : days) {
        DayTotal& total = report.days.emplace_back();
        total.day = day;
        for (const GateOutcome& o : report.gates) {
            if (o.gate.day != total.day || o.buildsGate) continue;
            total.earned += o.earned;
            total.max += o.gate.points;
            total.gates += 1;
            total.gatesPassed += o.result == Result::Pass;
        }
        report.earned += total.earned;
        report.max += total.max;
    }
    report.header = input.header;
    report.flags = input.flags;
    // The GPU the tests saw, as the driver prints it ("device: <name> at <bus>").
    if (std::none_of(report.header.begin(), report.header.end(), [](const auto& h) { return h.first == "gpu"; })) {
        for (const Named& t : tests) {
            for (const std::string& line : splitLines(t.test->output)) {
                if (startsWith(line, "device: ")) {
                    report.header.emplace_back("gpu", line.substr(8));
                    break;
                }
            }
            if (!report.header.empty() && report.header.back().first == "gpu") break;
        }
    }

    // The observations: a class's day test's cases of no gate, and every
    // other test of a selected day that belongs to no gate.
    const auto observe = [&report](const std::string& name, const std::string& notPassed, const std::string& output) {
        report.observations.emplace_back(name + (notPassed.empty() ? "" : " (" + notPassed + ")"), output);
    };
    const auto selected = [&days](const std::string& day) {
        return std::find(days.begin(), days.end(), day) != days.end();
    };
    for (const Named& t : tests) {
        if (!t.classDay.empty()) {
            if (!selected(t.classDay)) continue;
            for (const CaseBlock& b : t.cases) {
                const bool ofGate = std::any_of(input.gates.begin(), input.gates.end(), [&](const Gate& g) {
                    return g.day == t.classDay && startsWith(b.name, g.id + ".");
                });
                if (ofGate) continue;
                switch (b.end) {
                    case CaseBlock::End::Ok: observe(b.name, "", withoutChatter(b.text)); break;
                    case CaseBlock::End::Failed: observe(b.name, "failed", withoutChatter(b.text)); break;
                    case CaseBlock::End::Skipped: observe(b.name, "not run here: " + skipReasonIn(b.text), ""); break;
                    case CaseBlock::End::Unfinished: observe(b.name, "did not finish", withoutChatter(b.text)); break;
                }
            }
            continue;
        }
        const bool isGate = std::any_of(input.gates.begin(), input.gates.end(),
                                        [&](const Gate& g) { return testOfGate(g, t.name); });
        if (isGate || !selected(t.name.substr(0, t.name.find('.')))) continue;
        switch (verdictOf(*t.test)) {
            case Verdict::Passed: observe(t.name, "", withoutChatter(t.test->output)); break;
            case Verdict::Failed: observe(t.name, "failed", withoutChatter(t.test->output)); break;
            case Verdict::Skipped: observe(t.name, "not run here: " + skipReason(*t.test), ""); break;
        }
    }
    return report;
}

std::string formatTable(const Report& report) {
    const std::vector<std::string> header = {"gate", "result", "points", "first failure"};
    size_t idWidth = header[0].size(), resultWidth = header[1].size(), pointsWidth = header[2].size();
    for (const GateOutcome& o : report.gates) {
        idWidth = std::max(idWidth, o.gate.id.size());
        resultWidth = std::max(resultWidth, std::string(resultName(o.result)).size());
        pointsWidth = std::max(pointsWidth, fraction(o.earned, o.gate.points).size());
    }
    std::ostringstream out;
    for (const auto& [key, value] : report.header) out << key << ": " << value << "\n";
    if (!report.header.empty()) out << "\n";
    // Why this machine ran none of some gates, said once: the fix is the
    // machine's, not the code's.
    const std::vector<std::string> reasons = notRunHereReasons(report);
    if (!reasons.empty()) {
        out << "could not grade on this machine (the gates below that read NOT RUN):\n";
        for (const std::string& reason : reasons) out << "  " << reason << "\n";
        out << "\n";
    }
    auto row = [&](const std::string& a, const std::string& b, const std::string& c, const std::string& d) {
        std::string line = padded(a, idWidth) + "  " + padded(b, resultWidth) + "  " + padded(c, pointsWidth) + "  " + d;
        out << line.substr(0, line.find_last_not_of(' ') + 1) << "\n";
    };
    row(header[0], header[1], header[2], header[3]);
    for (const GateOutcome& o : report.gates) {
        const std::string message = o.result == Result::NotRunHere ? "not run on this machine (above)" : firstLine(o.message);
        row(o.gate.id, resultName(o.result), fraction(o.earned, o.gate.points), message);
    }

    out << "\n";
    size_t dayWidth = std::string("total").size();
    for (const DayTotal& d : report.days) dayWidth = std::max(dayWidth, d.day.size());
    for (const DayTotal& d : report.days) {
        out << padded(d.day, dayWidth) << "  " << padded(fraction(d.earned, d.max), pointsWidth) << "  "
            << d.gatesPassed << " of " << d.gates << " gates passed\n";
    }
    out << padded("total", dayWidth) << "  " << fraction(report.earned, report.max) << "\n\n";

    int failed = 0, notRunHere = 0, notRun = 0;
    for (const GateOutcome& o : report.gates) {
        failed += o.result == Result::Fail;
        notRun += o.result == Result::NotRun;
        notRunHere += o.result == Result::NotRunHere;
    }
    if (report.allPassed()) {
        out << "verdict: PASS, every gate passed\n";
    } else if (report.couldNotGradeHere()) {
        out << "verdict: NOT GRADED: " << notRunHere << " gates could not run on this machine (above), none failed\n";
    } else {
        out << "verdict: NOT PASSED: " << failed << " failed, " << notRunHere << " not run on this machine, " << notRun
            << " not run\n";
    }
    out << scoreLine(report) << "\n";
    if (!report.flags.empty()) {
        out << "\nflagged for review (" << report.flags.size()
            << " lines; not scored: the gates above decide, the sandbox contains):\n";
        for (const std::string& line : text::splitLines(formatFindings(report.flags))) out << "  " << line << "\n";
    }
    return out.str();
}

std::string scoreLine(const Report& report) {
    std::string line = "score: " + fraction(report.earned, report.max) + " points (";
    for (size_t i = 0; i < report.days.size(); ++i) {
        line += (i ? ", " : "") + report.days[i].day + " " + fraction(report.days[i].earned, report.days[i].max);
    }
    return line + ")";
}

std::string formatObservations(const Report& report) {
    std::string out;
    for (const auto& [name, text] : report.observations) {
        out += "== " + report.prefix + name + " ==\n" + text + "\n";
    }
    return out;
}

std::string resultsJson(const Report& report, const std::string& output) {
    // ordered_json: Gradescope's fields in the order its documentation lists them.
    nlohmann::ordered_json extra = nlohmann::ordered_json::object();
    for (const auto& [key, value] : report.header) extra[key] = value;
    if (!report.flags.empty()) extra["flagged_for_review"] = formatFindings(report.flags);
    nlohmann::ordered_json tests = nlohmann::ordered_json::array();
    for (const GateOutcome& o : report.gates) {
        std::string text = resultName(o.result);
        if (!o.message.empty()) text += ": " + o.message;
        if (o.failures.size() > 1) {
            text += "\nfailing tests (" + std::to_string(o.failed) + " of " + std::to_string(o.tests) + "):";
            for (size_t k = 0; k < o.failures.size() && k < kListedFailures; ++k) text += "\n- " + o.failures[k];
            if (o.failures.size() > kListedFailures) text += "\n- ...";
        }
        nlohmann::ordered_json test = {{"name", o.gate.id + " " + o.gate.title},
                                       {"score", o.earned},
                                       {"max_score", o.gate.points}};
        // Gradescope's status is passed or failed; a gate that never ran is
        // neither, so it has none and says so in its own extra_data.
        const bool ran = o.result != Result::NotRunHere && o.result != Result::NotRun;
        if (ran) test["status"] = o.result == Result::Pass ? "passed" : "failed";
        test["output"] = text;
        test["visibility"] = o.gate.visibility;
        if (!ran) test["extra_data"] = {{"result", o.result == Result::NotRunHere ? "not run on this machine" : "not run"}};
        if (o.result == Result::Fail && !o.counterexample.empty()) {
            test["extra_data"]["counterexample"] = nlohmann::ordered_json::parse(o.counterexample);
        }
        tests.push_back(test);
    }
    const nlohmann::ordered_json doc = {{"score", report.earned}, {"max_score", report.max}, {"output", output},
                                        {"extra_data", extra}, {"tests", tests}};
    // A runner's output can hold any bytes; Gradescope rejects a file that is not UTF-8, so
    // those that are not become U+FFFD.
    return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string summaryRow(const Report& report, const std::string& student) {
    std::string header = "student", row = oneField(student);
    for (const GateOutcome& o : report.gates) {
        header += "\t" + o.gate.id;
        row += "\t" + cell(o);
    }
    // Lines the pre-check flagged for review: a count for the class table, never points.
    return header + "\ttotal\tmax\tflagged\n" + row + "\t" + std::to_string(report.earned) + "\t" +
           std::to_string(report.max) + "\t" + std::to_string(report.flags.size()) + "\n";
}

ClassTable mergeSummaryRows(const std::vector<std::pair<std::string, std::string>>& sourcesAndTexts) {
    ClassTable table;
    table.columns = {"student"};
    std::vector<std::map<std::string, std::string>> rows;
    for (const auto& [source, text] : sourcesAndTexts) {
        std::vector<std::string> lines = splitLines(text);
        lines.erase(std::remove(lines.begin(), lines.end(), std::string()), lines.end());
        if (lines.empty() || !startsWith(lines[0], "student\t")) {
            throw InputError(source + ":1: expected the header line 'student<TAB>...' of a summary row");
        }
        std::vector<std::string> columns;
        std::istringstream head(lines[0]);
        for (std::string c; std::getline(head, c, '\t');) columns.push_back(c);
        for (const std::string& c : columns) {
            if (std::find(table.columns.begin(), table.columns.end(), c) == table.columns.end()) table.columns.push_back(c);
        }
        for (size_t r = 1; r < lines.size(); ++r) {
            std::map<std::string, std::string> row;
            std::istringstream cells(lines[r]);
            size_t k = 0;
            for (std::string c; std::getline(cells, c, '\t') && k < columns.size(); ++k) row[columns[k]] = c;
            rows.push_back(row);
        }
    }
    // total and max last, whatever order the files brought the gates in.
    for (const char* last : {"total", "max"}) {
        const auto it = std::find(table.columns.begin(), table.columns.end(), last);
        if (it != table.columns.end()) {
            table.columns.erase(it);
            table.columns.push_back(last);
        }
    }
    for (const auto& row : rows) {
        std::vector<std::string> cells;
        for (const std::string& c : table.columns) {
            const auto it = row.find(c);
            cells.push_back(it == row.end() ? "" : it->second);
        }
        table.rows.push_back(cells);
    }
    return table;
}

std::string toCsv(const ClassTable& table) {
    auto field = [](const std::string& s) {
        if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
        std::string q = "\"";
        for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    };
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + field(cells[i]);
        out += "\n";
    };
    line(table.columns);
    for (const auto& r : table.rows) line(r);
    return out;
}

std::string toMarkdown(const ClassTable& table) {
    auto escape = [](const std::string& s) {
        std::string e;
        for (char c : s) e += c == '|' ? std::string("\\|") : std::string(1, c);
        return e;
    };
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        out += "|";
        for (const std::string& c : cells) out += " " + escape(c) + " |";
        out += "\n";
    };
    line(table.columns);
    out += "|";
    for (size_t i = 0; i < table.columns.size(); ++i) out += i == 0 ? " --- |" : " ---: |";
    out += "\n";
    for (const auto& r : table.rows) line(r);
    return out;
}

}  // namespace grading::report
