// The pre-check's rule table, a test per rule: each rule finds what it names
// on the line it is on, and stays quiet in comments, strings and kernels
// where the code is legitimate. A finding is for review, never a verdict.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "grading/precheck.h"

namespace {

using grading::report::Finding;
using grading::report::precheck;

const std::vector<std::string> kCourse = {"bfs_mappings.h", "claim.cuh", "harness/cuda_check.h"};

std::vector<std::string> rulesOf(const std::string& source) {
    std::vector<std::string> out;
    for (const Finding& f : precheck("sub.cu", source, kCourse)) out.push_back(std::to_string(f.line) + " " + f.rule);
    return out;
}

using Rules = std::vector<std::string>;

TEST(Precheck, EveryRuleHasAnIdAndAReason) {
    for (const auto& r : grading::report::precheckRules()) {
        EXPECT_FALSE(r.id.empty());
        EXPECT_FALSE(r.what.empty()) << r.id;
    }
    EXPECT_EQ(grading::report::precheckRules().size(), 8u);
}

TEST(Precheck, FileAndNetworkIo) {
    EXPECT_EQ(rulesOf("void f() {\n  FILE* f = fopen(\"x\", \"w\");\n}\n"), (Rules{"2 file-or-network-io"}));
    EXPECT_EQ(rulesOf("std::ofstream out(path);\n"), (Rules{"1 file-or-network-io"}));
    EXPECT_EQ(rulesOf("int s = socket(AF_INET, SOCK_STREAM, 0);\n"), (Rules{"1 file-or-network-io"}));
    EXPECT_EQ(rulesOf("write(3, buf, n);\n"), (Rules{"1 file-or-network-io"}));
}

TEST(Precheck, ProcessControl) {
    EXPECT_EQ(rulesOf("void g() { std::exit(0); }\n"), (Rules{"1 process-control"}));
    EXPECT_EQ(rulesOf("_Exit(0);\nfork();\nsystem(\"ls\");\nkill(1, 9);\n"),
              (Rules{"1 process-control", "2 process-control", "3 process-control", "4 process-control"}));
}

TEST(Precheck, EnvironmentAndTheMachinesFiles) {
    EXPECT_EQ(rulesOf("const char* s = getenv(\"GRADING_SANITIZER\");\n"), (Rules{"1 environment-or-proc"}));
    EXPECT_EQ(rulesOf("const char* maps = \"/proc/self/maps\";\n"), (Rules{"1 environment-or-proc"}));
}

TEST(Precheck, Threads) {
    EXPECT_EQ(rulesOf("std::thread t([] {});\n"), (Rules{"1 threads"}));
    EXPECT_EQ(rulesOf("pthread_create(&t, nullptr, run, nullptr);\n"), (Rules{"1 threads"}));
}

TEST(Precheck, ExitHandlers) { EXPECT_EQ(rulesOf("atexit(forge);\n"), (Rules{"1 exit-handlers"})); }

TEST(Precheck, CodeThatRunsBeforeOrAfterMain) {
    EXPECT_EQ(rulesOf("struct Forger {\n  ~Forger() { }\n};\n"), (Rules{"2 static-lifetime-code"}));
    EXPECT_EQ(rulesOf("__attribute__((constructor)) void early() {}\n"), (Rules{"1 static-lifetime-code"}));
    EXPECT_EQ(rulesOf("static std::vector<int> cache;\n"), (Rules{"1 static-lifetime-code"}));
}

TEST(Precheck, InlineAssemblyOnlyOutsideKernels) {
    EXPECT_EQ(rulesOf("__global__ void k(int* p) {\n  asm volatile(\"membar.gl;\");\n}\n"), Rules{});
    EXPECT_EQ(rulesOf("__device__ int lane() {\n  int l;\n  asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l));\n  return l;\n}\n"),
              Rules{});
    EXPECT_EQ(rulesOf("void host() {\n  asm volatile(\"syscall\");\n}\n"), (Rules{"2 inline-asm-outside-kernels"}));
}

TEST(Precheck, IncludesOutsideTheCourse) {
    EXPECT_EQ(rulesOf("#include \"bfs_mappings.h\"\n#include <cub/device/device_scan.cuh>\n#include <vector>\n"), Rules{});
    EXPECT_EQ(rulesOf("#include \"../../reference/day38/solution/edge_mapping.cu\"\n"), (Rules{"1 include-outside-course"}));
    EXPECT_EQ(rulesOf("#include <sys/socket.h>\n"), (Rules{"1 include-outside-course"}));
    EXPECT_EQ(rulesOf("#define SOLUTION \"x.cu\"\n#include SOLUTION\n"), (Rules{"2 include-outside-course"}));
}

TEST(Precheck, CommentsAndStringsAreNotCode) {
    EXPECT_EQ(rulesOf("// exit(0) would end the runner\n/* fork(); system(); */\nconst char* s = \"abort()\";\n"),
              Rules{});
}

TEST(Precheck, FindingsNameFileLineRuleAndTheLine) {
    const std::vector<Finding> f = precheck("day38/edge_mapping.cu", "int x;\n    std::exit(0);   \n", kCourse);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(grading::report::formatFindings(f), "day38/edge_mapping.cu:2: [process-control] std::exit(0);\n");
    EXPECT_EQ(grading::report::parseFindingsTsv(grading::report::findingsTsv(f)).front().text, "std::exit(0);");
}

// The course's own code and the untouched stubs are clean: a flag is worth
// an instructor's look only if the course itself raises none.
TEST(Precheck, TheCoursesExercisesAreClean) {
    for (const char* stub : {"day34/heat_tiled.cu", "day38/edge_mapping.cu", "day52/diamond.cu", "msw/msw_kernels.cu"}) {
        std::ifstream in(std::string(GRADING_SOURCE_DIR) + "/exercises/" + stub);
        if (!in) continue;  // a tree without that day
        std::ostringstream text;
        text << in.rdbuf();
        const std::vector<Finding> f = precheck(stub, text.str(),
                                                {"bfs_mappings.h", "claim.cuh", "heat_kernels.h", "forkjoin.h",
                                                 "nvtx_range.h", "msw.cuh", "harness/cuda_check.h"});
        EXPECT_TRUE(f.empty()) << grading::report::formatFindings(f);
    }
}

}  // namespace
