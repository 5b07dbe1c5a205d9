#pragma once
// A value or the reason there is none. Loaders and parsers return this so a
// malformed input becomes a message, never an exception across a test or a
// crash of the grader.
#include <optional>
#include <string>
#include <utility>

namespace grading {

struct Error {
    std::string message;
};

template <typename T>
class Expected {
public:
    Expected(T value) : value_(std::move(value)) {}
    Expected(Error error) : error_(std::move(error.message)) {}

    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return *value_; }
    T& value() & { return *value_; }
    T&& value() && { return std::move(*value_); }
    const T* operator->() const { return &*value_; }
    const T& operator*() const { return *value_; }
    const std::string& error() const { return error_; }

private:
    std::optional<T> value_;
    std::string error_;
};

}  // namespace grading
