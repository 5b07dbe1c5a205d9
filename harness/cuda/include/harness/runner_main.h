#pragma once
// The runner side of the protocol in harness/runner_client.h: argument
// parsing, the no-device exit, breadcrumbs, and turning exceptions into
// "error: ..." lines with the protocol's exit codes.
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

#include "harness/record.h"

namespace grading {

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Submitted code broke the runner's contract without a CUDA error: it wrote
// to an input, or left work running on a stream of its own.
class ContractViolation : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class RunnerArgs {
public:
    RunnerArgs(std::map<std::string, std::string> options, Record input)
        : options_(std::move(options)), input_(std::move(input)) {}

    bool has(const std::string& name) const { return options_.count(name) != 0; }
    const std::string& text(const std::string& name) const;  // InputError if absent
    int integer(const std::string& name) const;
    int integer(const std::string& name, int fallback) const;
    double real(const std::string& name, double fallback) const;
    const Record& input() const { return input_; }  // empty without --in

private:
    std::map<std::string, std::string> options_;
    Record input_;
};

using Subcommand = std::function<void(const RunnerArgs& args, Record& result)>;

// Call from main(). Every subcommand's result also gets device, sm_count and
// compute_capability fields; "probe" (nothing but those) is always there.
int runnerMain(int argc, char** argv, std::map<std::string, Subcommand> subcommands);

// Prints "at: <where>" to stderr, unbuffered, before work that might hang.
void breadcrumb(const std::string& where);

}  // namespace grading
