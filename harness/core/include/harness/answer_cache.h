#pragma once
// Answers that depend on the seed and the case but never on the submission
// (a host reference over a large input) are computed once for a whole class:
// kept as files under GRADING_ANSWER_CACHE, so each student's test processes
// read what the first one computed. grade_class.sh and .ci/gpu-suite.sh set
// it to a folder emptied as each run starts, so no run reads what another
// harness computed; without it every call computes. A runner's answer to a
// call marked answerShared (runner_client.h) is kept here too, keyed by that
// runner, for that runner's later calls alike. Only the
// grader writes there: runners of submitted code run in the sandbox, which
// never shows them the grader's output folder.
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace grading {

// Reads the bytes kept for `key`, if a process of this class kept them, into
// what `storage(count)` returns (nullptr: that count will not do). True once
// all of them are there.
bool loadAnswer(const std::string& key, const std::function<void*(size_t count)>& storage);

// Keeps `count` bytes at `data` for `key`, whole or not at all (written
// beside, then renamed). Without GRADING_ANSWER_CACHE, or where it cannot be
// written, it keeps nothing.
void keepAnswer(const std::string& key, const void* data, size_t count);

// A short name for the contents of `data` (64 bits, hex), to key an answer
// by its input. Not a defence against a chosen collision, which nobody can
// choose here: the inputs are the grader's own.
std::string contentKey(const void* data, size_t bytes);

template <class T>
std::string contentKey(const std::vector<T>& values) {
    return contentKey(values.data(), values.size() * sizeof(T));
}

// The values kept for `key` into `values`; false, and `values` empty, when
// none were (or not whole ones).
template <class T>
bool loadValues(const std::string& key, std::vector<T>& values) {
    static_assert(std::is_trivially_copyable<T>::value, "answers are kept as their bytes");
    const bool kept = loadAnswer(key, [&values](size_t count) -> void* {
        if (count % sizeof(T) != 0) return nullptr;
        values.resize(count / sizeof(T));
        return values.data();
    });
    if (!kept) values.clear();
    return kept;
}

template <class T>
void keepValues(const std::string& key, const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable<T>::value, "answers are kept as their bytes");
    keepAnswer(key, values.data(), values.size() * sizeof(T));
}

// `compute()`, or what it returned for `key` in an earlier process of this
// class. The key names everything the answer depends on.
template <class T>
std::vector<T> answerOnce(const std::string& key, const std::function<std::vector<T>()>& compute) {
    std::vector<T> values;
    if (loadValues(key, values)) return values;
    values = compute();
    keepValues(key, values);
    return values;
}

}  // namespace grading
