// grade_report's command line and exit status, and grade_class.sh with
// stand-ins for cmake and ctest (fixtures/fake_tools), so the class flow
// (parallel grading, the seed, re-runs that skip unchanged students, the class
// table) runs here without CUDA or a GPU.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "fixtures.h"
#include "grading/gates.h"
#include "json_check.h"

namespace {

namespace fs = std::filesystem;

struct Outcome {
    int status = -1;
    std::string out, err;
};

// Runs `command` under sh with stdout and stderr captured in `dir`.
Outcome run(const std::string& command, const fs::path& dir) {
    const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
    const int raw = std::system((command + " >" + out.string() + " 2>" + err.string()).c_str());
    Outcome r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = fixtures::read(out.string());
    r.err = fixtures::read(err.string());
    return r;
}

class TempDir : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        // The process id too: two suites on one machine (a check beside CI) must not share it.
        dir = fs::path(::testing::TempDir()) / (std::string("grading_") + info->test_suite_name() + "_" + info->name() +
                                                "_" + std::to_string(getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override {
        if (!HasFailure()) fs::remove_all(dir);
    }
    void write(const fs::path& file, const std::string& text) {
        fs::create_directories(file.parent_path());
        std::ofstream(file) << text;
    }
    fs::path dir;
};

const std::string kTool = GRADE_REPORT;

std::string passingJunit(const std::vector<std::string>& names) {
    std::string xml = "<testsuite>";
    for (const std::string& n : names) {
        xml += "<testcase name=\"submission." + n + "\" status=\"run\" time=\"0.1\"><system-out>ok</system-out></testcase>";
    }
    return xml + "</testsuite>";
}

using GradeReportCli = TempDir;

TEST_F(GradeReportCli, FailingGateExitsOneAndWritesEveryOutput) {
    const Outcome r = run(kTool + " --junit " + fixtures::path("day38_mixed.xml") + " --gates " +
                          fixtures::path("gates_small.tsv") + " --ctest-log=" + fixtures::path("ctest_timeout.log") +
                          " --results-json " + (dir / "results.json").string() + " --summary-row " +
                          (dir / "row.tsv").string() + " --student alice --show-reports",
                      dir);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(r.out.rfind("could not grade on this machine (the gates below that read NOT RUN):\n", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("\ngate          result   points  first failure\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("score: 1/14 points (day38 1/8, msw 0/6)\n"), std::string::npos);
    EXPECT_NE(r.out.find("== submission.day38.report ==\nlevel  frontier  edges\n"), std::string::npos);
    const json_check::Value doc = json_check::parse(fixtures::read((dir / "results.json").string()));
    EXPECT_EQ(doc["score"].number, 1);
    EXPECT_EQ(fixtures::read((dir / "row.tsv").string()).substr(0, 8), "student\t");
}

TEST_F(GradeReportCli, EveryGatePassingExitsZero) {
    write(dir / "junit.xml", passingJunit({"Day38/Distances.A/x", "Day38/Levels.A/x", "Day38/Walk.A/x", "Day38/Timing.A/0"}));
    const Outcome r = run(kTool + " --junit " + (dir / "junit.xml").string() + " --gates " +
                          fixtures::path("gates_small.tsv") + " --days day38",
                      dir);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("verdict: PASS, every gate passed\n"), std::string::npos);
}

TEST_F(GradeReportCli, NotRunHereIsNotAPass) {
    write(dir / "junit.xml",
          "<testsuite><testcase name=\"submission.Day38/Levels.A/x\" status=\"notrun\"><skipped "
          "message=\"SKIP_REGULAR_EXPRESSION_MATCHED\"/><system-out>t.cpp:1: Skipped\nno usable CUDA device: "
          "none</system-out></testcase></testsuite>");
    const Outcome r = run(kTool + " --junit " + (dir / "junit.xml").string() + " --gates " +
                          fixtures::path("gates_small.tsv") + " --days day38",
                      dir);
    EXPECT_EQ(r.status, 1) << "the other gates did not run at all: not a machine's lack";
    EXPECT_NE(r.out.find("38.levels     NOT RUN  0/1     not run on this machine (above)\n"), std::string::npos) << r.out;
}

// A machine without the sandbox (or a GPU) grades nothing: every gate NOT
// RUN, none FAIL, the reason once at the top, and exit status 3, not 1.
TEST_F(GradeReportCli, NoSandboxIsNotGradedNotFailed) {
    const std::string reason =
        "the runner for `probe` was not started: the sandbox cannot start (bwrap (bubblewrap) is not on PATH; install "
        "Debian's bubblewrap package), and submitted code is not run without it";
    std::string xml = "<testsuite><testcase name=\"submission.day38.builds\" status=\"run\"/>";
    for (const char* name : {"Day38/Distances.A/x", "Day38/Levels.A/x", "Day38/Walk.A/x", "Day38/Timing.A/0"}) {
        xml += std::string("<testcase name=\"submission.") + name + "\" status=\"run\"><system-out>t.cpp:1: Skipped\n" +
               reason + "\n[  SKIPPED ] x (0 ms)</system-out></testcase>";
    }
    write(dir / "junit.xml", xml + "</testsuite>");
    const Outcome r = run(kTool + " --junit " + (dir / "junit.xml").string() + " --gates " +
                          fixtures::path("gates_small.tsv") + " --days day38 --results-json " +
                          (dir / "results.json").string(),
                      dir);
    EXPECT_EQ(r.status, 3) << r.out << r.err;
    EXPECT_EQ(r.out.find(reason), r.out.rfind(reason)) << "the reason more than once:\n" << r.out;
    EXPECT_EQ(r.out.rfind("could not grade on this machine", 0), 0u) << r.out;
    EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
    const json_check::Value doc = json_check::parse(fixtures::read((dir / "results.json").string()));
    for (const json_check::Value& t : doc["tests"].array) {
        if (t["name"].string.rfind("day38.builds", 0) == 0) continue;
        EXPECT_FALSE(t.has("status")) << t["name"].string;
        EXPECT_EQ(t["extra_data"]["result"].string, "not run on this machine") << t["name"].string;
    }
}

TEST_F(GradeReportCli, NoJunitMeansNothingRan) {
    const Outcome r = run(kTool + " --gates " + fixtures::path("gates_small.tsv"), dir);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("verdict: NOT PASSED: 0 failed, 0 not run on this machine, 7 not run\n"), std::string::npos)
        << r.out;
}

TEST_F(GradeReportCli, MalformedGatesExitTwoNamingTheLine) {
    const Outcome r = run(kTool + " --junit " + fixtures::path("day38_mixed.xml") + " --gates " +
                          fixtures::path("gates_malformed.tsv"),
                      dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "grade_report: " + fixtures::path("gates_malformed.tsv") +
                         ":4: points of 38.levels is 'one', not a whole number\n");
    EXPECT_EQ(r.out, "");
}

TEST_F(GradeReportCli, UnknownOptionExitsTwoWithUsage) {
    const Outcome r = run(kTool + " --gates " + fixtures::path("gates_small.tsv") + " --frobnicate", dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown argument --frobnicate\nusage: grade_report"), std::string::npos) << r.err;
}

TEST_F(GradeReportCli, Summarize) {
    write(dir / "a.tsv", "student\t38.levels\ttotal\tmax\nalice\t1\t1\t1\n");
    write(dir / "b.tsv", "student\t38.levels\ttotal\tmax\nbob\t0\t0\t1\n");
    const Outcome r = run(kTool + " summarize --csv " + (dir / "s.csv").string() + " --markdown " +
                          (dir / "s.md").string() + " " + (dir / "a.tsv").string() + " " + (dir / "b.tsv").string(),
                      dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(fixtures::read((dir / "s.csv").string()), "student,38.levels,total,max\nalice,1,1,1\nbob,0,0,1\n");
    EXPECT_EQ(fixtures::read((dir / "s.md").string()), r.out);
}

// grade_class.sh against the stand-ins: alice passes day38, bob's day38 does
// not compile.
class GradeClass : public TempDir {
protected:
    void SetUp() override {
        TempDir::SetUp();
        fs::create_directories(dir / "bin");
        for (const char* tool : {"cmake", "ctest"}) {
            fs::copy_file(fixtures::path(std::string("fake_tools/") + tool), dir / "bin" / tool);
            fs::permissions(dir / "bin" / tool, fs::perms::owner_all);
        }
        write(dir / "subs/alice/day38/edge_mapping.cu", "// alice\n");
        write(dir / "subs/bob/day38/edge_mapping.cu", "// bob\n");
        write(dir / "subs/bob/day38/BROKEN", "");
        gates = grading::report::loadGates(gatesPath);
        for (const auto& g : gates) {
            if (g.grades != "student") continue;
            total += g.points;
            if (g.day == "day38") day38 += g.points;
        }
    }

    Outcome gradeClass(const std::string& args, const std::string& out = "out") {
        return run("env PATH=" + (dir / "bin").string() + ":\"$PATH\" GRADE_REPORT=" + kTool +
                       " FAKE_CALLS=" + (dir / "calls.txt").string() + " FAKE_GATES=" + gatesPath +
                       " GRADING_SEED= bash " + std::string(GRADING_SOURCE_DIR) + "/harness/grading/grade_class.sh " +
                       (dir / "subs").string() + " " + (dir / out).string() + " " + args,
                   dir);
    }

    std::string calls() { return fixtures::read((dir / "calls.txt").string()); }

    const std::string gatesPath = fixtures::path("gates_declared.tsv");
    std::vector<grading::report::Gate> gates;
    int total = 0, day38 = 0;
};

std::string points(int a, int b) { return std::to_string(a) + "/" + std::to_string(b); }

int linesWith(const std::string& text, const std::string& part) {
    std::istringstream in(text);
    int n = 0;
    for (std::string line; std::getline(in, line);) n += line.find(part) != std::string::npos;
    return n;
}

TEST_F(GradeClass, OneBuildForTheClassThenEachStudentThenSkipsUnchangedOnes) {
    const Outcome first = gradeClass("-j 2 --seed 4242 --build-args -DCMAKE_CUDA_ARCHITECTURES=90");
    ASSERT_EQ(first.status, 0) << first.out << first.err;
    EXPECT_NE(first.out.find("seed: 4242\n"), std::string::npos) << first.out;
    EXPECT_NE(first.out.find("building the runners of 2 students"), std::string::npos) << first.out;
    EXPECT_NE(first.out.find("s0001 (alice): " + points(day38, total) + " points ("), std::string::npos) << first.out;
    EXPECT_NE(first.out.find("s0002 (bob): " + points(0, total) + " points ("), std::string::npos) << first.out;
    // One configure and one build tree for everyone: the harness first, then
    // each student's runners once, before that student's tests; per student
    // one ctest, whose day tests take their timed turns.
    const std::string log = calls();
    EXPECT_EQ(linesWith(log, "-DGRADING_CLASS_DIR="), 1) << log;
    EXPECT_EQ(linesWith(log, "--target class_harness"), 1) << log;
    EXPECT_LT(log.find("--target class_harness"), log.find(" class_s0001")) << log;
    for (const char* student : {"s0001", "s0002"}) {
        const std::string target = std::string(" class_") + student;
        EXPECT_EQ(linesWith(log, target), 1) << log;
        EXPECT_LT(log.find(target), log.find(std::string("-L ^") + student + "$")) << "tested before built: " << log;
    }
    EXPECT_EQ(linesWith(log, "-L ^s"), 2) << log;
    EXPECT_EQ(linesWith(log, "GRADING_TIMED_TURNS=8"), linesWith(log, "ctest ")) << "the default turns: " << log;
    // The speed gates' instructor rounds: timed once, before any student's runner is built.
    EXPECT_EQ(linesWith(log, "ctest "), 3) << log;
    EXPECT_EQ(linesWith(log, "-L ^instructor$"), 1) << log;
    EXPECT_LT(log.find("-L ^instructor$"), log.find(" class_s0001")) << log;
    EXPECT_NE(log.find("-L ^instructor$ --output-log " + (dir / "out/instructor.log").string() + " GRADING_SEED=4242 "),
              std::string::npos)
        << log;
    EXPECT_NE(calls().find("-DGRADING_CLASS_DIR=" + (dir / "out/class").string() + " -DGRADING_BUILD_PLANTED=OFF" +
                           " -DGRADING_COMPILE_CACHE=" + (dir / "out/compile-cache").string() +
                           " -DCMAKE_CUDA_ARCHITECTURES=90"),
              std::string::npos)
        << calls();
    EXPECT_NE(calls().find("-- -k 0"), std::string::npos);
    EXPECT_NE(calls().find("-L ^s0001$"), std::string::npos) << calls();
    EXPECT_NE(calls().find("GRADING_SEED=4242"), std::string::npos);
    EXPECT_TRUE(fs::exists(dir / "out/class/s0002/day38/edge_mapping.cu"));

    for (const char* student : {"s0001", "s0002"}) {
        for (const char* file : {"results.json", "junit.xml", "report.txt", "summary.tsv", "stamp", "name"}) {
            EXPECT_TRUE(fs::exists(dir / "out" / student / file)) << student << "/" << file;
        }
    }
    const json_check::Value bob = json_check::parse(fixtures::read((dir / "out/s0002/results.json").string()));
    EXPECT_EQ(bob["extra_data"]["student"].string, "bob");
    bool sawBuilds = false;
    for (const auto& t : bob["tests"].array) {
        if (t["name"].string.rfind("day38.builds", 0) != 0) continue;
        sawBuilds = true;
        EXPECT_EQ(t["status"].string, "failed");
        EXPECT_NE(t["output"].string.find("edge_mapping.cu(3): error: expected a declaration"), std::string::npos);
    }
    EXPECT_TRUE(sawBuilds);
    // Alice's verdict is hers: bob's compile error is not.
    const std::string alice = fixtures::read((dir / "out/s0001/report.txt").string());
    EXPECT_NE(alice.find("day38.builds  PASS"), std::string::npos) << alice;
    // Her day test's gates reach her report: an untimed gate and the timed one.
    EXPECT_TRUE(std::regex_search(alice, std::regex("\n38\\.distances +PASS"))) << alice;
    EXPECT_TRUE(std::regex_search(alice, std::regex("\n38\\.timing +PASS"))) << alice;

    const std::string csv = fixtures::read((dir / "out/summary.csv").string());
    EXPECT_EQ(csv.rfind("student,", 0), 0u);
    EXPECT_NE(csv.find("\nalice,"), std::string::npos);
    EXPECT_NE(csv.find("\nbob,"), std::string::npos);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
    EXPECT_TRUE(fs::exists(dir / "out/summary.md"));
    EXPECT_NE(fixtures::read((dir / "out/progress.log").string()).find("[2/2] "), std::string::npos);
    EXPECT_TRUE(fs::exists(dir / "out/done"));

    // The stored seed replays; nothing changed, so nobody is tested again.
    const Outcome again = gradeClass("-j 1 --build-args -DCMAKE_CUDA_ARCHITECTURES=90");
    ASSERT_EQ(again.status, 0) << again.out << again.err;
    EXPECT_NE(again.out.find("seed: 4242\n"), std::string::npos);
    EXPECT_NE(again.out.find("s0001 (alice): unchanged, "), std::string::npos) << again.out;
    const std::string after = calls().substr(log.size());
    EXPECT_EQ(linesWith(after, "cmake "), 2) << "only one more configure and harness build: " << after;
    EXPECT_EQ(linesWith(after, " class_s"), 0) << "no student's runners built again: " << after;
    EXPECT_EQ(linesWith(after, "ctest "), 0) << after;
}

// --gpus hands the students to the GPUs in turn, and each GPU times the
// instructor's speed rounds once, before any student's runner is built: a
// student's speed gate reads back those of the GPU it runs on.
TEST_F(GradeClass, EachGpuTimesTheInstructorOnceForItsStudents) {
    write(dir / "subs/carol/day38/edge_mapping.cu", "// carol\n");
    const Outcome r = gradeClass("-j 2 --seed 6 --gpus 0,1");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const std::string log = calls();
    EXPECT_EQ(linesWith(log, "-L ^instructor$"), 2) << log;
    for (const char* gpu : {"0", "1"}) {
        const size_t timed = log.find("-L ^instructor$ --output-log " + (dir / "out/instructor-gpu").string() + gpu +
                                      ".log GRADING_SEED=6 ");
        ASSERT_NE(timed, std::string::npos) << log;
        const std::string line = log.substr(timed, log.find('\n', timed) - timed);
        EXPECT_NE(line.find(std::string(" CUDA_VISIBLE_DEVICES=") + gpu), std::string::npos) << line;
        EXPECT_LT(timed, log.find(" class_s0001")) << "timed after a student's runner was built: " << log;
    }
    const auto gpuOf = [&](const std::string& student) {
        const size_t at = log.find("-L ^" + student + "$ ");
        if (at == std::string::npos) return std::string("no ctest");
        const std::string line = log.substr(at, log.find('\n', at) - at);
        return line.substr(line.rfind("CUDA_VISIBLE_DEVICES=") + 21);
    };
    EXPECT_EQ(gpuOf("s0001"), "0");
    EXPECT_EQ(gpuOf("s0002"), "1");
    EXPECT_EQ(gpuOf("s0003"), "0");
}

// Failures are shrunk once every verdict of the class is out: the day tests
// run with shrinking off, then each student with a failed test runs it
// again for its failed gates with shrinking on, and their report shows the
// smallest failing input; nobody's points change.
TEST_F(GradeClass, FailuresAreShrunkOnceEveryVerdictIsOut) {
    write(dir / "subs/alice/day38/FAILS", "38.distances\n");
    write(dir / "subs/carol/day38/edge_mapping.cu", "// carol\n");
    const Outcome r = gradeClass("-j 2 --seed 5");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const std::string log = calls();
    // Her day test runs again for its failed gate alone.
    const size_t rerun = log.find("-R ^(s0001\\.day38)$");
    ASSERT_NE(rerun, std::string::npos) << "alice's failed test was not run again: " << log;
    EXPECT_EQ(linesWith(log, " -R "), 1) << "only alice has a failure to shrink: " << log;
    EXPECT_EQ(log.find("\n", rerun), log.size() - 1) << "the shrinking ran before every verdict was out: " << log;
    EXPECT_NE(log.substr(rerun).find("GRADING_SHRINK=on GRADING_GATES=38.distances "), std::string::npos) << log;
    const std::string verdicts = log.substr(0, log.rfind('\n', rerun) + 1);
    EXPECT_EQ(linesWith(verdicts, "GRADING_SHRINK=off"), linesWith(verdicts, "-L ^s")) << "a verdict's run shrank: " << log;
    EXPECT_EQ(linesWith(verdicts, "-L ^s"), 3) << log;
    const std::string alice = fixtures::read((dir / "out/s0001/report.txt").string());
    EXPECT_TRUE(std::regex_search(alice, std::regex("\n38\\.distances +FAIL +0/4 +fake: vertex 3 got 1, want 0; smallest "
                                                    "failing input found: 2 vertices")))
        << alice;
    EXPECT_NE(r.out.find("s0001 (alice): " + points(day38 - 4 - 1, total) + " points ("), std::string::npos)
        << "alice's points: " << r.out;
    const std::string progress = fixtures::read((dir / "out/progress.log").string());
    EXPECT_NE(progress.find("every verdict is out; shrinking the failures of 1 students"), std::string::npos) << progress;
    EXPECT_FALSE(fs::exists(dir / "out/s0001/.shrink"));
    EXPECT_FALSE(fs::exists(dir / "out/s0003/junit-shrunk.xml")) << "carol, who failed nothing, was run again";
}

// The pre-check runs on each student's files in a class too: what it flags
// is in their report and results.json and counted in the class table, and
// changes no points.
TEST_F(GradeClass, ThePrecheckFlagsEachStudentsCodeForReview) {
    write(dir / "subs/alice/day38/edge_mapping.cu", "// alice\n#include <cstdlib>\nvoid peek() { std::system(\"ls\"); }\n");
    const Outcome r = gradeClass("--seed 7");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("s0001 (alice): " + points(day38, total) + " points ("), std::string::npos) << r.out;
    const std::string report = fixtures::read((dir / "out/s0001/report.txt").string());
    EXPECT_NE(report.find("flagged for review"), std::string::npos) << report;
    EXPECT_NE(report.find("edge_mapping.cu:3:"), std::string::npos) << report;
    const json_check::Value doc = json_check::parse(fixtures::read((dir / "out/s0001/results.json").string()));
    EXPECT_NE(doc["extra_data"]["flagged_for_review"].string.find("std::system"), std::string::npos);
    // The class table's "flagged" column: 1 line of alice's, none of bob's.
    std::map<std::string, std::map<std::string, std::string>> cells;
    std::istringstream csv(fixtures::read((dir / "out/summary.csv").string()));
    std::vector<std::string> columns;
    for (std::string line; std::getline(csv, line);) {
        std::vector<std::string> fields;
        std::istringstream row(line);
        for (std::string f; std::getline(row, f, ',');) fields.push_back(f);
        if (columns.empty()) {
            columns = fields;
            continue;
        }
        for (size_t i = 0; i < fields.size() && i < columns.size(); ++i) cells[fields[0]][columns[i]] = fields[i];
    }
    EXPECT_EQ(cells["alice"]["flagged"], "1");
    EXPECT_EQ(cells["bob"]["flagged"], "0");
}

TEST_F(GradeClass, ANewSeedGradesEveryoneAgain) {
    ASSERT_EQ(gradeClass("--seed 1").status, 0);
    const Outcome r = gradeClass("--seed 2");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("unchanged"), std::string::npos) << r.out;
    EXPECT_NE(calls().find("GRADING_SEED=2"), std::string::npos);
}

// --no-reports leaves out every student's day reports, and
// a run with them again tests everyone again: their figures were missing.
TEST_F(GradeClass, NoReportsLeavesOutTheDayReportsAndARunWithThemGradesAgain) {
    ASSERT_EQ(gradeClass("--seed 3 --no-reports").status, 0);
    const std::string without = calls();
    EXPECT_EQ(linesWith(without, "-L ^s"), 2) << without;
    EXPECT_EQ(linesWith(without, "GRADING_DAY_REPORTS=off"), 2) << without;
    const Outcome r = gradeClass("--seed 3");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("unchanged"), std::string::npos) << r.out;
    const std::string with = calls().substr(without.size());
    EXPECT_EQ(linesWith(with, "-L ^s"), 2) << with;
    EXPECT_EQ(linesWith(with, "GRADING_DAY_REPORTS=off"), 0) << with;
}

// A ctest that writes no results is tried again, then the student counts
// as failed with ctest's words, never as a row of "-" in a run that says
// nobody failed.
TEST_F(GradeClass, AStudentWhoseCtestRanNothingIsAFailureNotARowOfDashes) {
    write(dir / "subs/carol/day38/edge_mapping.cu", "// carol\n");
    write(dir / "subs/carol/day38/CTEST_DIES", "");
    const Outcome r = gradeClass("-j 1 --seed 5");
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("s0003 (carol): ctest ran no test (twice): ctest: could not start (fake)"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("1 failed so far"), std::string::npos) << r.out;
    const std::string log = calls();
    EXPECT_EQ(linesWith(log, "-L ^s"), 1 + 1 + 2) << "alice's and bob's ctest, carol's twice: " << log;
    EXPECT_FALSE(fs::exists(dir / "out/s0003/stamp")) << "a rerun must grade carol again";
    EXPECT_FALSE(fs::exists(dir / "out/done"));
    const std::string csv = fixtures::read((dir / "out/summary.csv").string());
    EXPECT_EQ(csv.find("\ncarol,"), std::string::npos) << csv;
}

// Progress shows each student as they finish, the last batch too: alice,
// started first but slow, comes after bob.
TEST_F(GradeClass, ProgressShowsEachStudentAsTheyFinish) {
    write(dir / "subs/alice/day38/SLOW", "");
    const auto epochUs = [] {
        return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    };
    const long long before = epochUs();
    const Outcome r = gradeClass("-j 4 --seed 3");
    const long long after = epochUs();
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    // When every verdict was out, for lab/scripts/runner-starts.sh --before.
    const long long verdictsOut = std::stoll(fixtures::read((dir / "out/verdicts-out").string()));
    EXPECT_GT(verdictsOut, before);
    EXPECT_LT(verdictsOut, after);
    const size_t bob = r.out.find("[1/2] s0002 (bob): ");
    const size_t alice = r.out.find("[2/2] s0001 (alice): ");
    EXPECT_NE(bob, std::string::npos) << r.out;
    EXPECT_NE(alice, std::string::npos) << r.out;
    EXPECT_LT(bob, alice) << r.out;
    EXPECT_NE(fixtures::read((dir / "out/progress.log").string()).find("[2/2] s0001 (alice): "), std::string::npos);
}

// A second run stages the class afresh, but a file with the same bytes as
// last time keeps last time's stamp: the build compiles what changed only.
TEST_F(GradeClass, AnUnchangedFileKeepsItsStampAcrossRuns) {
    write(dir / "subs/alice/day34/heat_tiled.cu", "// alice's day 34\n");
    ASSERT_EQ(gradeClass("-j 2 --seed 5").status, 0);
    const fs::path kept = dir / "out/class/s0001/day38/edge_mapping.cu";
    const fs::path edited = dir / "out/class/s0001/day34/heat_tiled.cu";
    ASSERT_TRUE(fs::exists(kept));
    ASSERT_TRUE(fs::exists(edited));
    // As if both were staged long ago.
    const auto longAgo = fs::last_write_time(kept) - std::chrono::hours(24);
    fs::last_write_time(kept, longAgo);
    fs::last_write_time(edited, longAgo);
    write(dir / "subs/alice/day34/heat_tiled.cu", "// alice's day 34, edited\n");
    ASSERT_EQ(gradeClass("-j 2 --seed 5").status, 0);
    EXPECT_EQ(fs::last_write_time(kept), longAgo);
    EXPECT_GT(fs::last_write_time(edited), longAgo);
    EXPECT_EQ(fixtures::read(edited.string()), "// alice's day 34, edited\n");
    EXPECT_FALSE(fs::exists(dir / "out/class.last"));
}

TEST_F(GradeClass, BadArguments) {
    EXPECT_EQ(gradeClass("-j zero").status, 2);
    EXPECT_EQ(gradeClass("--bogus").status, 2);
    EXPECT_EQ(gradeClass("--seed 12abc").status, 2);
    EXPECT_EQ(gradeClass("--shard 3/3").status, 2);
    EXPECT_EQ(gradeClass("--timed-turns 0").status, 2);
    // The two passes' option, whose count meant students, is refused by name, not reread as turns.
    const Outcome gone = gradeClass("--timed-jobs 2");
    EXPECT_EQ(gone.status, 2);
    EXPECT_NE(gone.err.find("--timed-turns"), std::string::npos) << gone.err;
}

// Folder names are data: whatever they hold, nothing runs, each is graded,
// and the class table shows them escaped. The output folder inside the
// submissions folder is not a student.
TEST_F(GradeClass, OddNamesAreGradedAndNothingInThemRuns) {
    const std::vector<std::string> odd = {"$(touch PWNED)", "`touch PWNED2`", "a\"quote'", "${HOME}", "new\nline",
                                          "-leading-dash", "with space", "semi;colon|pipe"};
    for (const std::string& name : odd) write(dir / "subs" / name / "day38/edge_mapping.cu", "// odd\n");
    const Outcome r = gradeClass("-j 3 --seed 7", "subs/out");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_FALSE(fs::exists(dir / "PWNED")) << "a folder name was run as a command";
    EXPECT_FALSE(fs::exists(dir / "PWNED2")) << "a folder name was run as a command";
    const std::string names = fixtures::read((dir / "subs/out/names.tsv").string());
    EXPECT_EQ(std::count(names.begin(), names.end(), '\n'), 10) << names;  // alice, bob and the eight
    EXPECT_EQ(names.find("\tout\n"), std::string::npos) << "the output folder was graded as a student";
    EXPECT_NE(names.find("\tnew\\nline\n"), std::string::npos) << names;
    const std::string csv = fixtures::read((dir / "subs/out/summary.csv").string());
    EXPECT_NE(csv.find("\"a\"\"quote'\","), std::string::npos) << csv;
    EXPECT_NE(csv.find("\n$(touch PWNED),"), std::string::npos) << csv;
}

TEST_F(GradeClass, ShardsGradeDisjointStudentsAndMergeIntoOneTable) {
    write(dir / "subs/carol/day38/edge_mapping.cu", "// carol\n");
    ASSERT_EQ(gradeClass("--seed 9 --shard 0/2", "shard0").status, 0);
    ASSERT_EQ(gradeClass("--seed 9 --shard 1/2", "shard1").status, 0);
    EXPECT_TRUE(fs::exists(dir / "shard0/s0001") && fs::exists(dir / "shard0/s0003"));
    EXPECT_TRUE(fs::exists(dir / "shard1/s0002") && !fs::exists(dir / "shard1/s0001"));
    const std::string script = std::string(GRADING_SOURCE_DIR) + "/harness/grading/grade_class.sh";
    const Outcome merged = run("env GRADE_REPORT=" + kTool + " bash " + script + " merge " + (dir / "class").string() +
                                   " " + (dir / "shard0").string() + " " + (dir / "shard1").string(),
                               dir);
    ASSERT_EQ(merged.status, 0) << merged.out << merged.err;
    const std::string csv = fixtures::read((dir / "class/summary.csv").string());
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4) << csv;
    for (const char* name : {"\nalice,", "\nbob,", "\ncarol,"}) EXPECT_NE(csv.find(name), std::string::npos) << csv;

    // A shard that did not finish is reported and fails the merge.
    fs::remove(dir / "shard1/done");
    const Outcome partial = run("env GRADE_REPORT=" + kTool + " bash " + script + " merge " + (dir / "class2").string() +
                                    " " + (dir / "shard0").string() + " " + (dir / "shard1").string(),
                                dir);
    EXPECT_EQ(partial.status, 1);
    EXPECT_NE(partial.err.find("shard " + (dir / "shard1").string() + ": did not finish"), std::string::npos) << partial.err;
}

TEST_F(GradeClass, SlurmScriptsShardTheClassWithOneSeedAndMergeAfterEveryShard) {
    const std::string script = std::string(GRADING_SOURCE_DIR) + "/harness/grading/grade_class.sh";
    const Outcome s = run("bash " + script + " slurm " + (dir / "subs").string() + " " + (dir / "slurm-out").string() +
                              " --shards 3 --gres gpu:1 --print --seed 11 --build-args -DCMAKE_CUDA_ARCHITECTURES=90",
                          dir);
    ASSERT_EQ(s.status, 0) << s.out << s.err;
    const std::string shards = fixtures::read((dir / "slurm-out/slurm/shards.sbatch").string());
    EXPECT_NE(shards.find("#SBATCH --array=0-2\n"), std::string::npos) << shards;
    EXPECT_NE(shards.find("#SBATCH --gres=gpu:1\n"), std::string::npos) << shards;
    EXPECT_NE(shards.find("--shard $SLURM_ARRAY_TASK_ID/3 --seed 11 --build-args -DCMAKE_CUDA_ARCHITECTURES=90"),
              std::string::npos)
        << shards;
    const std::string merge = fixtures::read((dir / "slurm-out/slurm/merge.sbatch").string());
    EXPECT_NE(merge.find(" merge "), std::string::npos) << merge;
    EXPECT_NE(merge.find("/slurm-out/shards/2"), std::string::npos) << merge;
}

}  // namespace
