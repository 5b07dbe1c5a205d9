// Writes the course's word graph from the CUDA Toolkit's header comments:
//   make_word_graph [--include-dir DIR] [--out FILE]
#include <fstream>
#include <iostream>
#include <string>

#include "word_graph_builder.h"

int main(int argc, char** argv) {
    grading::WordGraphInput input;
    input.includeDir = "/usr/local/cuda/include";
    input.headers = {"cuda_runtime_api.h", "driver_types.h", "cuda.h"};
    std::string outPath;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if ((arg == "--include-dir" || arg == "--out") && i + 1 < argc) {
            (arg == "--out" ? outPath : input.includeDir) = argv[++i];
        } else {
            std::cerr << "usage: make_word_graph [--include-dir DIR] [--out FILE]\n";
            return 1;
        }
    }

    const grading::Expected<std::string> text = grading::buildWordGraphText(input);
    if (!text) {
        std::cerr << "make_word_graph: " << text.error() << "\n";
        return 1;
    }
    if (outPath.empty()) {
        std::cout << *text;
        return std::cout.flush() ? 0 : 1;
    }
    std::ofstream out(outPath, std::ios::binary);
    if (!(out << *text) || !out.flush()) {
        std::cerr << "make_word_graph: cannot write " << outPath << "\n";
        return 1;
    }
    return 0;
}
