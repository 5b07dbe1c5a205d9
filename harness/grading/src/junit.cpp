#include "grading/junit.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace grading::report {
namespace {

void appendUtf8(std::string& out, unsigned long cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

struct Element {
    std::string name;
    std::map<std::string, std::string> attributes;
    std::string text;  // character data directly inside, unescaped
    std::vector<Element> children;

    const Element* child(const std::string& n) const {
        for (const Element& c : children) {
            if (c.name == n) return &c;
        }
        return nullptr;
    }
    std::string attribute(const std::string& n) const {
        const auto it = attributes.find(n);
        return it == attributes.end() ? std::string() : it->second;
    }
};

// Recursive descent over the subset of XML that ctest writes.
class Reader {
public:
    Reader(std::string_view xml, const std::string& source) : xml_(xml), source_(source) {}

    Element document() {
        skipMisc();
        if (!at("<")) fail("expected the root element");
        Element root = element();
        skipMisc();
        if (pos_ < xml_.size()) fail("unexpected text after the root element");
        return root;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        const long line = 1 + std::count(xml_.begin(), xml_.begin() + std::min(pos_, xml_.size()), '\n');
        throw InputError(source_ + ":" + std::to_string(line) + ": " + what);
    }
    bool at(std::string_view s) const { return xml_.compare(pos_, s.size(), s) == 0; }
    void skipSpace() {
        while (pos_ < xml_.size() && std::isspace(static_cast<unsigned char>(xml_[pos_]))) ++pos_;
    }
    void skipPast(std::string_view end) {
        const size_t at = xml_.find(end, pos_);
        if (at == std::string_view::npos) fail("unterminated markup, expected '" + std::string(end) + "'");
        pos_ = at + end.size();
    }
    // Prolog, comments, doctype and whitespace between elements.
    void skipMisc() {
        for (;;) {
            skipSpace();
            if (at("<?")) skipPast("?>");
            else if (at("<!--")) skipPast("-->");
            else if (at("<!") && !at("<![CDATA[")) skipPast(">");
            else return;
        }
    }
    std::string name() {
        const size_t start = pos_;
        while (pos_ < xml_.size() && !std::isspace(static_cast<unsigned char>(xml_[pos_])) &&
               xml_[pos_] != '>' && xml_[pos_] != '/' && xml_[pos_] != '=') {
            ++pos_;
        }
        if (pos_ == start) fail("expected a name");
        return std::string(xml_.substr(start, pos_ - start));
    }
    // ctest nests three deep; anything far deeper is not a JUnit file, and
    // would otherwise exhaust the stack of this recursive reader.
    static constexpr int kMaxDepth = 64;

    Element element() {
        if (++depth_ > kMaxDepth) fail("elements nested more than " + std::to_string(kMaxDepth) + " deep: not a JUnit file");
        ++pos_;  // '<'
        Element e;
        e.name = name();
        for (;;) {
            skipSpace();
            if (at("/>")) {
                pos_ += 2;
                --depth_;
                return e;
            }
            if (at(">")) {
                ++pos_;
                break;
            }
            const std::string key = name();
            skipSpace();
            if (!at("=")) fail("expected '=' after attribute " + key);
            ++pos_;
            skipSpace();
            if (!at("\"") && !at("'")) fail("expected a quoted value for attribute " + key);
            const char quote = xml_[pos_++];
            const size_t end = xml_.find(quote, pos_);
            if (end == std::string_view::npos) fail("unterminated value of attribute " + key);
            e.attributes[key] = unescapeXml(xml_.substr(pos_, end - pos_));
            pos_ = end + 1;
        }
        for (;;) {
            if (pos_ >= xml_.size()) fail("element <" + e.name + "> is not closed");
            if (at("</")) {
                pos_ += 2;
                const std::string closing = name();
                if (closing != e.name) fail("</" + closing + "> closes <" + e.name + ">");
                skipSpace();
                if (!at(">")) fail("expected '>' after </" + closing);
                ++pos_;
                --depth_;
                return e;
            }
            if (at("<![CDATA[")) {
                pos_ += 9;
                const size_t end = xml_.find("]]>", pos_);
                if (end == std::string_view::npos) fail("unterminated CDATA section");
                e.text.append(xml_.substr(pos_, end - pos_));
                pos_ = end + 3;
            } else if (at("<!--") || at("<?")) {
                skipPast(at("<!--") ? "-->" : "?>");
            } else if (at("<")) {
                e.children.push_back(element());
            } else {
                const size_t end = std::min(xml_.find('<', pos_), xml_.size());
                e.text += unescapeXml(xml_.substr(pos_, end - pos_));
                pos_ = end;
            }
        }
    }

    std::string_view xml_;
    std::string source_;
    size_t pos_ = 0;
    int depth_ = 0;
};

void collectCases(const Element& e, std::vector<JunitCase>& out) {
    if (e.name != "testcase") {
        for (const Element& c : e.children) collectCases(c, out);
        return;
    }
    JunitCase t;
    t.name = e.attribute("name");
    t.status = e.attribute("status");
    try {
        t.seconds = std::stod(e.attribute("time"));
    } catch (const std::exception&) {
        t.seconds = 0;
    }
    if (const Element* f = e.child("failure")) {
        t.hasFailure = true;
        t.failureMessage = f->attribute("message");
    }
    if (const Element* s = e.child("skipped")) {
        t.hasSkipped = true;
        t.skippedMessage = s->attribute("message");
    }
    if (const Element* o = e.child("system-out")) t.output = o->text;
    // Other writers leave out status; infer it from the children.
    if (t.status.empty()) t.status = t.hasFailure ? "fail" : t.hasSkipped ? "notrun" : "run";
    out.push_back(std::move(t));
}

}  // namespace

std::string unescapeXml(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '&') {
            out += text[i];
            continue;
        }
        const size_t semi = text.find(';', i);
        if (semi == std::string_view::npos || semi - i > 12) {
            out += '&';
            continue;
        }
        const std::string_view entity = text.substr(i + 1, semi - i - 1);
        static const std::map<std::string_view, char> named = {
            {"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}};
        if (const auto it = named.find(entity); it != named.end()) {
            out += it->second;
        } else if (entity.size() > 1 && entity[0] == '#') {
            const bool hex = entity[1] == 'x' || entity[1] == 'X';
            const std::string digits(entity.substr(hex ? 2 : 1));
            char* end = nullptr;
            const unsigned long cp = std::strtoul(digits.c_str(), &end, hex ? 16 : 10);
            if (digits.empty() || *end != '\0' || cp > 0x10FFFF) {
                out += '&';
                continue;
            }
            appendUtf8(out, cp);
        } else {
            out += '&';
            continue;
        }
        i = semi;
    }
    return out;
}

std::string plainTestName(std::string_view ctestName) {
    const size_t space = ctestName.find_first_of(" \t");
    return std::string(ctestName.substr(0, space));
}

std::vector<JunitCase> parseJunit(std::string_view xml, const std::string& source) {
    const Element root = Reader(xml, source).document();
    if (root.name != "testsuite" && root.name != "testsuites") {
        throw InputError(source + ": not a JUnit file (root element <" + root.name + ">)");
    }
    std::vector<JunitCase> cases;
    collectCases(root, cases);
    return cases;
}

std::vector<JunitCase> loadJunit(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot open the JUnit file");
    std::ostringstream text;
    text << in.rdbuf();
    return parseJunit(text.str(), path);
}

}  // namespace grading::report
