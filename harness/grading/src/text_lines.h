#pragma once
// Line and field splitting, trimming and UTF-8 checking shared by the log and
// report readers and writers.
#include <sstream>
#include <string>
#include <vector>

namespace grading::text {

inline std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        out.push_back(line);
    }
    return out;
}

// The length of the well-formed UTF-8 sequence starting at s[i] (RFC 3629: no
// overlong forms, no UTF-16 surrogates, nothing past U+10FFFF), or 0.
inline size_t utf8Length(const std::string& s, size_t i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) return 1;
    const size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return 0;
    for (size_t k = 1; k < len; ++k) {
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
    }
    const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xF0 && c1 < 0x90)) return 0;  // overlong
    if (c == 0xED && c1 > 0x9F) return 0;                                 // surrogates D800..DFFF
    if (c == 0xF4 && c1 > 0x8F) return 0;                                 // past U+10FFFF
    return len;
}

// A JSON string literal of `s`. Bytes that are not well-formed UTF-8 become
// U+FFFD (Gradescope rejects a file that holds them, and a runner's stderr
// can hold anything). inScript: safe inside an HTML <script> as well: <, >,
// & and DEL as \u escapes, and U+2028 / U+2029, which end a line in older
// JavaScript.
inline std::string jsonString(const std::string& s, bool inScript = false) {
    static const char hex[] = "0123456789abcdef";
    const auto u = [](std::string& out, unsigned cp) {
        out += "\\u";
        for (int shift = 12; shift >= 0; shift -= 4) out += hex[cp >> shift & 15];
    };
    std::string out = "\"";
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const size_t len = utf8Length(s, i);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c < 0x20 || (inScript && (c == '<' || c == '>' || c == '&' || c == 0x7F))) {
            u(out, c);
        } else if (len == 0) {
            out += "\xEF\xBF\xBD";  // U+FFFD
        } else if (inScript && len == 3 && c == 0xE2 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
                   (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xA8) {
            u(out, 0x2028 + (static_cast<unsigned char>(s[i + 2]) - 0xA8));
        } else {
            out.append(s, i, len);
        }
        i += len == 0 ? 1 : len;
    }
    return out + "\"";
}

// The fields of a tab-separated line, empty ones included.
inline std::vector<std::string> splitTabs(const std::string& line) {
    std::vector<std::string> fields;
    size_t start = 0;
    for (;;) {
        const size_t tab = line.find('\t', start);
        fields.push_back(line.substr(start, tab - start));
        if (tab == std::string::npos) return fields;
        start = tab + 1;
    }
}

// The non-empty items of a comma list (a list of days, a gate's requires).
inline std::vector<std::string> splitCommas(const std::string& list) {
    std::vector<std::string> out;
    std::istringstream in(list);
    for (std::string item; std::getline(in, item, ',');) {
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

inline std::string trim(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace grading::text
