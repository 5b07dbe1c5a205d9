#include "grading/logs.h"

#include <algorithm>
#include <regex>
#include <sstream>

#include "grading/junit.h"
#include "text_lines.h"

namespace grading::report {
namespace {

constexpr int kErrorLines = 3;

using text::splitLines;
using text::trim;

bool underDay(const std::string& output, const std::string& day) {
    std::istringstream parts(output);
    for (std::string part; std::getline(parts, part, '/');) {
        if (part == day || part.rfind(day + "_", 0) == 0) return true;
    }
    return false;
}

bool isErrorLine(const std::string& line) {
    return line.find("error") != std::string::npos || line.find("undefined reference") != std::string::npos;
}

bool isEndOfStep(const std::string& line) {
    return line.rfind("FAILED: ", 0) == 0 || line.rfind("ninja: ", 0) == 0 || line.rfind("[", 0) == 0;
}

// CMake wraps a warning's text over indented lines; join each message back.
std::vector<std::string> cmakeMessages(const std::vector<std::string>& log) {
    std::vector<std::string> messages;
    for (size_t i = 0; i < log.size(); ++i) {
        if (log[i].rfind("CMake Warning", 0) != 0 && log[i].rfind("CMake Error", 0) != 0) continue;
        std::string text = log[i];
        for (size_t j = i + 1; j < log.size() && (log[j].empty() || log[j][0] == ' '); ++j) {
            if (log[j].empty()) {
                if (j + 1 < log.size() && !log[j + 1].empty() && log[j + 1][0] == ' ') continue;
                break;
            }
            text += " " + trim(log[j]);
        }
        messages.push_back(text);
    }
    return messages;
}

}  // namespace

std::map<std::string, std::string> buildFailures(const std::string& log, const std::vector<std::string>& days,
                                                 const std::string& student) {
    const std::vector<std::string> text = splitLines(log);
    // In a class build every student's targets are named <day>_<student>_...
    // or <day>_runner_<student>, and their files sit under .../<student>/.
    const auto theirs = [&](const std::string& s) {
        return student.empty() || s.find("_" + student + "_") != std::string::npos ||
               s.find("_runner_" + student) != std::string::npos || s.find("/" + student + "/") != std::string::npos;
    };
    std::map<std::string, std::string> failures;
    const std::vector<std::string> messages = cmakeMessages(text);

    if (log.find("Configuring incomplete, errors occurred!") != std::string::npos) {
        std::string first = "configuring the build failed";
        for (const std::string& m : messages) {
            if (m.rfind("CMake Error", 0) == 0) {
                first += ": " + m;
                break;
            }
        }
        for (const std::string& day : days) failures[day] = first;
        return failures;
    }
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i].rfind("FAILED: ", 0) != 0) continue;
        const std::string output = trim(text[i].substr(8));
        if (!theirs(output)) continue;
        const bool shared =
            std::none_of(days.begin(), days.end(), [&](const std::string& d) { return underDay(output, d); });
        for (const std::string& day : shared ? std::vector<std::string>{""} : days) {
            if (failures.count(day) || (!shared && !underDay(output, day))) continue;
            // The line after FAILED: is the command (its flags may say "error"); skip it.
            std::vector<std::string> errors;
            std::string firstOther;
            for (size_t j = i + 2; j < text.size() && !isEndOfStep(text[j]); ++j) {
                if (isErrorLine(text[j])) {
                    if (errors.size() < kErrorLines) errors.push_back(trim(text[j]));
                } else if (firstOther.empty() && !trim(text[j]).empty()) {
                    firstOther = trim(text[j]);
                }
            }
            // The first error leads: the report's table shows the first line.
            std::string reason;
            for (const std::string& e : errors) reason += e + "\n";
            if (errors.empty() && !firstOther.empty()) reason = firstOther + "\n";
            reason += "(building " + output + " failed)";
            failures[day] = reason;
        }
    }
    for (const std::string& m : messages) {
        if (!theirs(m)) continue;
        for (const std::string& day : days) {
            const size_t at = m.find(day + ": the submission file ");
            if (at == std::string::npos || m.find(" is missing", at) == std::string::npos) continue;
            std::string what = m.substr(at + day.size() + 2);
            what = what.substr(0, what.find(" is missing") + 11);
            failures.emplace(day, what);
        }
    }
    return failures;
}

std::map<std::string, std::string> abnormalEnds(const std::string& ctestLog) {
    static const std::regex progress(
        R"(^\s*\d+/\d+\s+Test\s+#\d+:\s+(.*?)\s*\.*\s*\*\*\*(Timeout|Exception:.*?)\s+([0-9.]+)\s+sec\s*$)");
    std::map<std::string, std::string> ends;
    for (const std::string& line : splitLines(ctestLog)) {
        std::smatch m;
        if (std::regex_match(line, m, progress)) {
            ends[plainTestName(m[1].str())] = trim(m[2].str()) + " after " + m[3].str() + " s";
        }
    }
    return ends;
}

}  // namespace grading::report
