#pragma once
// SHA-256 (OpenSSL's), so generated data can record exactly which inputs it
// was made from.
#include <string>

namespace grading {

// Lower-case hex digest of the bytes.
std::string sha256Hex(const std::string& bytes);

// Digest of the file's bytes, or "" if it cannot be read.
std::string sha256File(const std::string& path);

}  // namespace grading
