#pragma once
// printf-style formatting into a std::string, for the report tables.
#include <string>

namespace grading {

std::string formatText(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace grading
