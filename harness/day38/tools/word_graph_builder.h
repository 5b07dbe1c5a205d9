#pragma once
// Builds the course's BFS input, a "word graph", from the comments of CUDA
// Toolkit headers, so the data is made here and can be regenerated exactly.
#include <string>
#include <vector>

#include "harness/expected.h"

namespace grading {

struct WordGraphInput {
    std::string includeDir;
    std::vector<std::string> headers;  // relative to includeDir, read in this order
    int minCount = 3;
};

// The whole graph file in the course format, provenance '#' lines first.
// Comment words are maximal [A-Za-z] runs, lower-cased; two distinct words
// are joined when they are consecutive within one comment at least minCount
// times in total. A missing header is an Error naming its path.
Expected<std::string> buildWordGraphText(const WordGraphInput& input);

}  // namespace grading
