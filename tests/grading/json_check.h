#pragma once
// A tiny JSON reader for the tests: enough to check results.json's schema
// without trusting the writer that produced it.
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace json_check {

struct Value {
    enum class Type { Null, Bool, Number, String, Array, Object } type = Type::Null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<Value> array;
    std::map<std::string, Value> object;

    bool has(const std::string& key) const { return type == Type::Object && object.count(key) > 0; }
    const Value& operator[](const std::string& key) const { return object.at(key); }
};

class Parser {
public:
    explicit Parser(const std::string& text) : s_(text) {}
    Value document() {
        Value v = value();
        space();
        if (i_ != s_.size()) fail("text after the value");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) { throw std::runtime_error("json at " + std::to_string(i_) + ": " + what); }
    void space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
    }
    void expect(char c) {
        space();
        if (i_ >= s_.size() || s_[i_] != c) fail(std::string("expected '") + c + "'");
        ++i_;
    }
    bool literal(const char* word) {
        const std::string w(word);
        if (s_.compare(i_, w.size(), w) != 0) return false;
        i_ += w.size();
        return true;
    }
    std::string string() {
        expect('"');
        std::string out;
        while (i_ < s_.size() && s_[i_] != '"') {
            const unsigned char c = static_cast<unsigned char>(s_[i_++]);
            if (c < 0x20) fail("raw control character in a string");
            if (c != '\\') {
                out += static_cast<char>(c);
                continue;
            }
            if (i_ >= s_.size()) fail("escape at the end");
            const char e = s_[i_++];
            switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case '"': case '\\': case '/': out += e; break;
                case 'u': {
                    if (i_ + 4 > s_.size()) fail("short \\u escape");
                    const unsigned long cp = std::stoul(s_.substr(i_, 4), nullptr, 16);
                    i_ += 4;
                    if (cp >= 0x80) fail("the tests only expect \\u escapes of control characters");
                    out += static_cast<char>(cp);
                    break;
                }
                default: fail("bad escape");
            }
        }
        expect('"');
        return out;
    }
    Value value() {
        space();
        if (i_ >= s_.size()) fail("expected a value");
        Value v;
        const char c = s_[i_];
        if (c == '{') {
            v.type = Value::Type::Object;
            ++i_;
            space();
            if (s_[i_] == '}') return ++i_, v;
            for (;;) {
                const std::string key = string();
                expect(':');
                if (!v.object.emplace(key, value()).second) fail("duplicate key " + key);
                space();
                if (s_[i_] == '}') return ++i_, v;
                expect(',');
            }
        }
        if (c == '[') {
            v.type = Value::Type::Array;
            ++i_;
            space();
            if (s_[i_] == ']') return ++i_, v;
            for (;;) {
                v.array.push_back(value());
                space();
                if (s_[i_] == ']') return ++i_, v;
                expect(',');
            }
        }
        if (c == '"') {
            v.type = Value::Type::String;
            v.string = string();
            return v;
        }
        if (literal("true") || literal("false")) {
            v.type = Value::Type::Bool;
            v.boolean = s_[i_ - 1] == 'e' && s_[i_ - 2] == 'u';
            return v;
        }
        if (literal("null")) return v;
        size_t used = 0;
        try {
            v.number = std::stod(s_.substr(i_, 32), &used);
        } catch (const std::exception&) {
            fail("expected a value");
        }
        v.type = Value::Type::Number;
        i_ += used;
        return v;
    }

    const std::string& s_;
    size_t i_ = 0;
};

inline Value parse(const std::string& text) { return Parser(text).document(); }

}  // namespace json_check
