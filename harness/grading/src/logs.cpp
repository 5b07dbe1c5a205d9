#include "grading/logs.h"

#include <regex>

#include "grading/junit.h"
#include "text_lines.h"

namespace grading::report {

std::map<std::string, std::string> abnormalEnds(const std::string& ctestLog) {
    static const std::regex progress(
        R"(^\s*\d+/\d+\s+Test\s+#\d+:\s+(.*?)\s*\.*\s*\*\*\*(Timeout|Exception:.*?)\s+([0-9.]+)\s+sec\s*$)");
    std::map<std::string, std::string> ends;
    for (const std::string& line : text::splitLines(ctestLog)) {
        std::smatch m;
        if (std::regex_match(line, m, progress)) {
            ends[plainTestName(m[1].str())] = text::trim(m[2].str()) + " after " + m[3].str() + " s";
        }
    }
    return ends;
}

}  // namespace grading::report
