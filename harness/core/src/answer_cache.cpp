#include "harness/answer_cache.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "harness/sha256.h"
#include "harness/splitmix64.h"

namespace grading {
namespace {

constexpr const char* kHeader = "grading answer 1";

std::string cacheDir() {
    const char* dir = std::getenv("GRADING_ANSWER_CACHE");
    return dir != nullptr ? dir : "";
}

std::string pathFor(const std::string& dir, const std::string& key) { return dir + "/" + sha256Hex(key) + ".answer"; }

}  // namespace

// A file: the header, the key and the byte count on a line each, then the
// bytes. One whose key or length differs is not this answer.
bool loadAnswer(const std::string& key, const std::function<void*(size_t count)>& storage) {
    const std::string dir = cacheDir();
    if (dir.empty()) return false;
    std::ifstream in(pathFor(dir, key), std::ios::binary);
    std::string header, keptKey, count;
    if (!in || !std::getline(in, header) || !std::getline(in, keptKey) || !std::getline(in, count)) return false;
    if (header != kHeader || keptKey != key || count.empty() || count.size() > 18 ||
        count.find_first_not_of("0123456789") != std::string::npos) {
        return false;
    }
    const size_t bytes = std::stoull(count);
    void* into = storage(bytes);
    if (into == nullptr && bytes > 0) return false;
    in.read(static_cast<char*>(into), static_cast<std::streamsize>(bytes));
    // Cut short, or longer than it says: not this answer.
    return static_cast<size_t>(in.gcount()) == bytes && in.peek() == std::ifstream::traits_type::eof();
}

void keepAnswer(const std::string& key, const void* data, size_t count) {
    const std::string dir = cacheDir();
    if (dir.empty() || key.find('\n') != std::string::npos) return;
    static std::atomic<unsigned> written{0};
    const std::string part = dir + "/.part-" + std::to_string(getpid()) + "-" + std::to_string(written++);
    {
        std::ofstream out(part, std::ios::binary | std::ios::trunc);
        out << kHeader << "\n" << key << "\n" << count << "\n";
        out.write(static_cast<const char*>(data), static_cast<std::streamsize>(count));
        if (!out.flush()) {
            out.close();
            std::remove(part.c_str());
            return;
        }
    }
    if (std::rename(part.c_str(), pathFor(dir, key).c_str()) != 0) std::remove(part.c_str());
}

std::string contentKey(const void* data, size_t bytes) {
    // Eight bytes at a time through splitmix64's finaliser: 16 MiB in a few
    // milliseconds, where a host reference over it takes a few hundred.
    const auto* p = static_cast<const unsigned char*>(data);
    uint64_t hash = splitMix64Finalize(bytes);
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t word;
        std::memcpy(&word, p + i, 8);
        hash = splitMix64Finalize(hash ^ word) + kSplitMix64Step;
    }
    uint64_t tail = 0;
    std::memcpy(&tail, p + i, bytes - i);
    hash = splitMix64Finalize(hash ^ tail);
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

}  // namespace grading
