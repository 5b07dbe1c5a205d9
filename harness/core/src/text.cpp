#include "harness/text.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <vector>

namespace grading {

std::string formatText(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    va_list again;
    va_copy(again, args);
    const int size = std::vsnprintf(nullptr, 0, fmt, args);
    va_end(args);
    std::vector<char> buffer(size > 0 ? static_cast<size_t>(size) + 1 : 1);
    std::vsnprintf(buffer.data(), buffer.size(), fmt, again);
    va_end(again);
    return buffer.data();
}

std::string tsvField(std::string s) {
    std::replace_if(s.begin(), s.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
    return s;
}

}  // namespace grading
