#pragma once
// Shrinking a failing generated input, as property-based testing does
// (QuickCheck, Hypothesis): when a submission fails a gate on a large
// generated input, look for a smaller one on which it still fails the same
// way, and show that. "The same way" is the same gate and the same message
// apart from its numbers, signs included (failureShape). Each candidate is
// one runner call, in the case's own session and sandbox; the search is
// greedy (the first smaller candidate that still fails becomes the input,
// and its own candidates come next) and stops on its budget, the best input
// found so far winning. grading.md, "Shrinking", says when it runs.
#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "harness/gate.h"
#include "harness/runner_client.h"

namespace grading {

// How far one failed case may search: runner calls and seconds, each day's
// own. The seconds are the search's own: time its calls wait for a GPU slot
// (other tests' timed calls, a class's neighbours) does not count, so a
// submission shrinks to the same input graded alone and graded in a crowd.
// A crowd may stretch the search's wall time to kWallFactor x seconds
// (within the +60 s a test's ctest TIMEOUT allows beyond its cases).
struct ShrinkBudget {
    int calls = 40;
    double seconds = 10.0;
    static constexpr double kWallFactor = 2.0;
};

// `message` with every number (a run of digits, with its sign; a hex
// number's digits) as "#": two failures of the same kind, on different
// inputs, have the same shape.
std::string failureShape(const std::string& message);

// Whether `failure` (a gate's, on this case) is shrunk: where its details reach
// the student (`showsDetails`: a shrunk input is drawn from the case, which
// the gate's visibility may hide), its gate's first failing case in this
// process, and no other (each would cost the budget again to show much the
// same); never a runner ended for the device memory it held (no input
// explains that, and each try would take the memory from its neighbours again).
// Nothing is shrunk where GRADING_SHRINK=off (shrinkingTurnedOff): a planted
// bug's test that only asserts its gate fails.
bool shrinksFailure(const GateResult& failure, bool showsDetails);
bool shrinkingTurnedOff();

// Writes a shrunk input where the student can load it: under
// GRADING_COUNTEREXAMPLE_DIR, else counterexamples/ in the working folder,
// named after `call` ("zdemo.values/seeded_n10" -> zdemo.values_seeded_n10.<ext>).
// Returns the file's absolute path, or "" when it could not be written.
std::string writeCounterexample(const std::string& call, const std::string& ext, const std::string& text);

// A gate's verdict on one input, with what the runner gave back on it
// (`Output`: what the message or picture shows beside the verdict, from the
// very call that failed, never from a second run that might not).
template <class Output = std::monostate>
struct Judged {
    Judged(GateResult verdict, Output output = {}) : verdict(std::move(verdict)), output(std::move(output)) {}
    GateResult verdict;
    Output output;
};

// A candidate input, made when called: a large input's candidates are
// copies of it, and a search round usually stops long before its last.
template <class Input>
using MakeCandidate = std::function<Input()>;

// Candidates of an input cheap to copy, all made at once by `f` (from ->
// std::vector<Input>).
template <class Input, class F>
std::function<std::vector<MakeCandidate<Input>>(const Input&)> madeAtOnce(F f) {
    return [f](const Input& from) {
        std::vector<MakeCandidate<Input>> out;
        for (Input& c : f(from)) out.push_back([c = std::move(c)] { return c; });
        return out;
    };
}

template <class Input, class Output = std::monostate>
struct Shrinker {
    using Judgement = Judged<Output>;
    // Smaller inputs than `from`, the most promising (the smallest) first.
    std::function<std::vector<MakeCandidate<Input>>(const Input& from)> candidates;
    // The gate on one input: one runner call, within `secondsLeft` of the
    // budget, at least 1 s (a candidate that hangs costs no more than that).
    std::function<Judgement(const Input&, double secondsLeft)> judge;
};

// How a search went, whatever it searched.
struct ShrinkStats {
    bool smaller = false;   // false: no candidate failed the same way, and the input is the one given
    int calls = 0;          // runner calls the search made
    double seconds = 0;     // wall time
    double waitedSeconds = 0;  // of which waiting for GPU slots
    int otherFailures = 0;  // calls that failed another way (a fault, another message): each may cost a runner's restart
};

template <class Input, class Output = std::monostate>
struct Shrunk : ShrinkStats {
    Shrunk(Input input, GateResult failure, Output output)
        : input(std::move(input)), failure(std::move(failure)), output(std::move(output)) {}
    Input input;
    GateResult failure;  // what the gate said on it
    Output output;       // what the runner gave back on it, in the call that failed
};

// The smallest input the search reached from `failing`, which failed with `failure`.
template <class Input, class Output>
Shrunk<Input, Output> shrinkFailure(const Input& failing, const typename Shrinker<Input, Output>::Judgement& failure,
                                    const Shrinker<Input, Output>& s, const ShrinkBudget& budget) {
    const auto start = std::chrono::steady_clock::now();
    const double waitedBefore = runnerCallTotals().slotWaitSeconds;
    const auto wall = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    const auto waited = [&] { return runnerCallTotals().slotWaitSeconds - waitedBefore; };
    const auto elapsed = [&] { return wall() - waited(); };
    const std::string shape = failureShape(failure.verdict.message);
    Shrunk<Input, Output> best(failing, failure.verdict, failure.output);
    // Candidates come coarse to fine. After a success the next round starts
    // where it succeeded, as delta debugging keeps its granularity, and
    // wraps round to the coarse ones: a round ends on a success or when
    // every candidate failed to fail.
    size_t resumeAt = 0;
    for (bool progress = true; progress;) {
        progress = false;
        const std::vector<MakeCandidate<Input>> next = s.candidates(best.input);
        for (size_t k = 0; k < next.size(); ++k) {
            if (best.calls >= budget.calls || elapsed() >= budget.seconds ||
                wall() >= budget.seconds * ShrinkBudget::kWallFactor) {
                break;  // progress is false: the search ends
            }
            const size_t at = (resumeAt + k) % next.size();
            ++best.calls;
            // However little of the budget is left, a call gets a second to start.
            Input candidate = next[at]();
            Judged<Output> r = s.judge(candidate, std::max(1.0, budget.seconds - elapsed()));
            if (r.verdict.passed) continue;
            if (failureShape(r.verdict.message) != shape) {
                ++best.otherFailures;
                continue;
            }
            best.input = std::move(candidate);
            best.failure = std::move(r.verdict);
            best.output = std::move(r.output);
            best.smaller = progress = true;
            resumeAt = at;
            break;
        }
    }
    best.seconds = wall();
    best.waitedSeconds = waited();
    return best;
}

// What a report draws of a shrunk input: a Vega-Lite spec with its data
// inline, drawn by the day that knows its input (harness/<day>/picture.h),
// and a caption. recordPicture prints it as one "counterexample <json>" line
// of the gate's test output ({"call", "caption", "spec"}), which grade_report
// carries into results.json (the test's extra_data) and the report's page
// embeds as it is.
struct Picture {
    std::string caption;
    std::string spec;  // JSON
};
void recordPicture(const std::string& call, const Picture& picture);
// The colour every picture gives what is wrong.
inline constexpr const char* kWrongColour = "#d62728";

// `failure` with what the search found, as every day shows it: "; smallest
// failing input found (<n> tries): <input>: <the failure on it, or "this
// one">; <details>; written to <file>" (no file part when `file` is empty).
// Records the search's seconds (figures shrink_seconds, and
// shrink_wait_seconds: the part spent waiting for GPU slots) and
// shrink_other_failures.
std::string smallestInputText(const ShrinkStats& search, const std::string& input, const std::string& failureOnIt,
                              const std::string& details, const std::string& file);

template <class Input, class Output>
GateResult withSmallestInput(const GateResult& failure, const Shrunk<Input, Output>& found, const std::string& input,
                             const std::string& details, const std::string& file) {
    GateResult r = failure;
    r.message += smallestInputText(found, input, found.failure.message, details, file);
    return r;
}

}  // namespace grading
