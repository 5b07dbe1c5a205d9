#pragma once
// printf-style formatting into a std::string, for the report tables, and
// text made safe as one field of a tab-separated line.
#include <string>

namespace grading {

std::string formatText(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// `s` with its tabs and line breaks turned into spaces.
std::string tsvField(std::string s);

}  // namespace grading
