#pragma once
#include <fstream>
#include <sstream>
#include <string>

namespace fixtures {

inline std::string path(const std::string& name) { return std::string(GRADING_FIXTURES_DIR) + "/" + name; }

inline std::string read(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline std::string text(const std::string& name) { return read(path(name)); }

}  // namespace fixtures
