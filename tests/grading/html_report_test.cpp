// The HTML pages (html_report.h) without a browser: figures read from the
// report text and JUnit, charts drawn or "not measured", hostile text kept
// text, and the data block that no string can break out of.
// html_pages.sh checks the same pages in headless Chromium.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fixtures.h"
#include "html_report.h"
#include "json_check.h"

namespace {

namespace fs = std::filesystem;
using namespace grading::html;

const std::string kHostile = "<script>alert(1)</script>\"'&";

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// Stand-ins for the stylesheet, the script and the libraries: the page's shape, not Vega's.
Assets fakeAssets() { return {"body {}\n", "/* charts */\n", {"/*! lib */ var lib = 1;"}}; }

// The page's data block, read back with a JSON parser of the tests' own.
json_check::Value dataBlock(const std::string& page) {
    const std::string open = "<script type=\"application/json\" id=\"grading-charts\">";
    const size_t begin = page.find(open);
    EXPECT_NE(begin, std::string::npos);
    const size_t from = begin + open.size();
    return json_check::Parser(page.substr(from, page.find("</script>", from) - from)).document();
}

Results fixtureResults() {
    const std::string path = fixtures::path("html/submission/results.json");
    return parseResults(fixtures::read(path), path);
}

std::vector<std::string> drawn(const std::vector<Chart>& charts) {
    std::vector<std::string> ids;
    for (const Chart& c : charts) {
        if (!c.spec.empty()) ids.push_back(c.id);
    }
    return ids;
}

TEST(HtmlEscape, HostileTextBecomesEntities) {
    EXPECT_EQ(escapeHtml(kHostile), "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;");
    EXPECT_EQ(escapeHtml("plain text"), "plain text");
}

TEST(HtmlEscape, JsonStringsCannotEndTheScript) {
    const std::string s = jsonString("</script><!-- & \"quoted\" \\ \n\x01");
    EXPECT_EQ(s, "\"\\u003c/script\\u003e\\u003c!-- \\u0026 \\\"quoted\\\" \\\\ \\n\\u0001\"");
    EXPECT_EQ(json_check::Parser(s).document().string, "</script><!-- & \"quoted\" \\ \n\x01");
    // Invalid UTF-8 becomes U+FFFD; U+2028 (a line end to old JavaScript) is escaped; the rest is kept.
    EXPECT_EQ(jsonString("a\xff" "b"), "\"a\xEF\xBF\xBD" "b\"");  // U+FFFD
    EXPECT_EQ(jsonString("\xe2\x80\xa8"), "\"\\u2028\"");
    EXPECT_EQ(jsonString("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
}

TEST(HtmlFigures, ReadFromReportSectionsOnly) {
    const Figures f = figuresFromText(
        "== submission.38.timing ==\nfigure bfs_ms_edge = 9\n"           // a gate's output: not a report
        "== submission.day38.report (failed) ==\nfigure bfs_ms_edge = 0.0258\n"
        "figure walk_ms_level12_warp = 0.0236\nfigure stress_run_ms = 1.2 1.3\n"  // a list: not charted
        "figure nan_one = nan\nfigure bad<key = 1\nnot a figure = 3\n"
        "== s0007.msw.report ==\nfigure ms_two_phase_none = 2.4754\n");
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f.at("day38").size(), 2u);
    EXPECT_DOUBLE_EQ(f.at("day38").at("bfs_ms_edge"), 0.0258);
    EXPECT_DOUBLE_EQ(f.at("msw").at("ms_two_phase_none"), 2.4754);
}

TEST(HtmlFigures, ReadFromTheJunitOfOnePrefix) {
    const auto tests = grading::report::loadJunit(fixtures::path("html/class/s0002/junit.xml"));
    const Figures f = figuresFromJunit(tests, "s0002.");
    EXPECT_EQ(f.size(), 4u);
    EXPECT_DOUBLE_EQ(f.at("day52").at("overlap_ratio"), 2.45);
    EXPECT_DOUBLE_EQ(f.at("msw").at("ms_fast_none"), 0.0811);
    EXPECT_TRUE(figuresFromJunit(tests, "s0001.").empty());
}

TEST(HtmlResults, ReadsTheRecordedResults) {
    const Results r = fixtureResults();
    EXPECT_EQ(r.score, 0);
    EXPECT_EQ(r.maxScore, 39);
    ASSERT_EQ(r.gates.size(), 19u);
    EXPECT_EQ(r.gates[1].id, "34.stencil");
    EXPECT_EQ(r.gates[1].status, "failed");
    EXPECT_EQ(r.gates[1].maxScore, 4);
    EXPECT_EQ(r.extraValue("gpu"), "NVIDIA H200 at 0000:00:06.0");
}

TEST(HtmlResults, RejectsWhatIsNotAResultsFile) {
    EXPECT_THROW(parseResults("{\"score\": 1, \"max_score\": 2}", "a.json"), grading::report::InputError);
    EXPECT_THROW(parseResults("{\"score\": 1,", "b.json"), grading::report::InputError);
    try {
        parseResults("[1, 2]", "c.json");
        FAIL() << "an array was taken for results";
    } catch (const grading::report::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("c.json"), std::string::npos) << e.what();
    }
}

TEST(HtmlCharts, TheRecordedRunDrawsWhatItMeasured) {
    const Results r = fixtureResults();
    const Figures f = figuresFromText(r.output);
    EXPECT_EQ(drawn(dayCharts("day34", f)), (std::vector<std::string>{"day34-bandwidth", "day34-copy-policy"}));
    EXPECT_EQ(drawn(dayCharts("day38", f)), (std::vector<std::string>{"day38-bfs", "day38-levels", "day38-frontier"}));
    EXPECT_EQ(drawn(dayCharts("day52", f)), (std::vector<std::string>{"day52-shapes", "day52-timeline"}));
    EXPECT_EQ(drawn(dayCharts("msw", f)), (std::vector<std::string>{"msw-times", "msw-bandwidth"}));
    // The timeline: the diamond's six kernels, then the serial run's.
    const json_check::Value events = json_check::Parser(dayCharts("day52", f)[1].spec).document()["data"]["values"];
    ASSERT_EQ(events.array.size(), 12u);
    EXPECT_EQ(events.array[0]["kernel"].string, "upstream");
    EXPECT_EQ(events.array[6]["kernel"].string, "serial_upstream");
    EXPECT_EQ(events.array[11]["kernel"].string, "serial_join");
    const std::vector<Chart> day38 = dayCharts("day38", f);
    // Mappings in the course's order, the frontier profile from all 22 levels.
    const json_check::Value bfs = json_check::Parser(day38[0].spec).document()["data"]["values"];
    ASSERT_EQ(bfs.array.size(), 3u);
    EXPECT_EQ(bfs.array[0]["name"].string, "thread");
    EXPECT_EQ(bfs.array[2]["name"].string, "edge");
    EXPECT_EQ(json_check::Parser(day38[2].spec).document()["data"]["values"].array.size(), 44u);
}

TEST(HtmlCharts, MissingFiguresSayNotMeasured) {
    for (const char* day : {"day34", "day38", "day52", "msw"}) {
        const std::vector<Chart> charts = dayCharts(day, {});
        ASSERT_FALSE(charts.empty()) << day;
        for (const Chart& c : charts) {
            EXPECT_TRUE(c.spec.empty()) << c.id;
            EXPECT_FALSE(c.missing.empty()) << c.id;
        }
    }
    // One figure draws its chart; the others of the day still say why not.
    const std::vector<Chart> some = dayCharts("day38", {{"day38", {{"bfs_ms_warp", 0.5}}}});
    EXPECT_EQ(drawn(some), std::vector<std::string>{"day38-bfs"});
    Results none;
    none.gates = {{"day38.builds", "the day38 submission compiles", "passed", "PASS", 0, 0}};
    const std::string page = submissionPage(none, {}, fakeAssets());
    EXPECT_EQ(count(page, "not measured: "), 3u);
    EXPECT_NE(page.find("no figures recorded"), std::string::npos);
    EXPECT_TRUE(dataBlock(page).object.empty());
}

TEST(HtmlCharts, TheTimelineHookDrawsRecordedEvents) {
    const Figures f = {{"day52",
                        {{"event_b_begin_ms", 0.3}, {"event_b_end_ms", 0.9}, {"event_a_begin_ms", 0.0},
                         {"event_a_end_ms", 0.3}, {"event_orphan_begin_ms", 1.0}}}};
    const std::vector<Chart> charts = dayCharts("day52", f);
    ASSERT_EQ(charts.size(), 2u);
    ASSERT_FALSE(charts[1].spec.empty()) << charts[1].missing;
    const json_check::Value events = json_check::Parser(charts[1].spec).document()["data"]["values"];
    ASSERT_EQ(events.array.size(), 2u);  // a begin without an end is left out
    EXPECT_EQ(events.array[0]["kernel"].string, "a");
    EXPECT_DOUBLE_EQ(events.array[1]["end"].number, 0.9);
}

TEST(HtmlPage, HostileTextStaysText) {
    Results r = fixtureResults();
    r.extra.emplace_back("student", kHostile);
    r.gates[1].output = "FAIL: got </script><script>alert(2)</script>";
    r.output += "\n</script><script>alert(3)</script>\n";
    const std::string page = submissionPage(r, figuresFromText(r.output), fakeAssets());
    EXPECT_EQ(page.find("alert(1)</script>"), std::string::npos);
    EXPECT_EQ(page.find("<script>alert"), std::string::npos);
    EXPECT_NE(page.find(escapeHtml(kHostile)), std::string::npos);
    // The data block, the one library and charts.js: no other script.
    EXPECT_EQ(count(page, "<script"), 3u);
    // The block is JSON naming every drawn chart, each with a container.
    const json_check::Value data = dataBlock(page);
    EXPECT_EQ(data.object.size(), 9u);
    for (const auto& [id, spec] : data.object) EXPECT_EQ(count(page, "<div class=\"vega\" id=\"" + id + "\">"), 1u) << id;
}

TEST(HtmlPage, ClassDashboardEscapesNamesAndLinksStagedIds) {
    std::vector<StudentRow> students(3);
    students[0] = {"s0001", kHostile, fixtureResults(), true, true};
    students[1] = {"s0002", "Ada", fixtureResults(), true, false};
    students[2] = {"../x", "<b>no results</b>", {}, false, true};
    const std::string page = classPage(students, fakeAssets());
    EXPECT_NE(page.find("<td class=\"name\">" + escapeHtml(kHostile) + "</td>"), std::string::npos);
    EXPECT_EQ(page.find("<b>"), std::string::npos);
    EXPECT_EQ(count(page, "<a href="), 1u);  // s0002 has no page; "../x" is no staged id
    EXPECT_NE(page.find("<a href=\"s0001/report.html\">"), std::string::npos);
    EXPECT_NE(page.find("no results.json: not graded"), std::string::npos);
    const json_check::Value data = dataBlock(page);
    ASSERT_TRUE(data.has("chart-class-gates"));
    const json_check::Value& gates = data["chart-class-gates"]["data"]["values"];
    ASSERT_EQ(gates.array.size(), 19u);
    EXPECT_DOUBLE_EQ(gates.array[0]["rate"].number, 1.0);  // day34.builds passed for both
    EXPECT_DOUBLE_EQ(gates.array[1]["rate"].number, 0.0);  // 34.stencil for neither
    EXPECT_EQ(data["chart-class-scores"]["data"]["values"].array.size(), 2u);
}

class HtmlAssets : public ::testing::Test {
protected:
    void SetUp() override {
        // One folder per test: ctest -j runs them at once.
        dir = fs::path(::testing::TempDir()) /
              (std::string("grading_html_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir / "vendor");
        for (const char* f : {"page.css", "charts.js"}) fs::copy_file(fs::path(GRADING_HTML_DIR) / f, dir / f);
        std::ofstream(dir / "vendor" / "VERSIONS") << "# comment\nlib 1.0 lib.min.js sha512-x 00\n";
        std::ofstream(dir / "vendor" / "LICENSE.lib") << "BSD\n";
    }
    void TearDown() override { fs::remove_all(dir); }
    fs::path dir;
};

TEST_F(HtmlAssets, TheVendoredLibrariesLoadWithTheirLicences) {
    const Assets a = loadAssets(GRADING_HTML_DIR);
    ASSERT_EQ(a.libraries.size(), 3u);  // vega, vega-lite, vega-embed, in load order
    EXPECT_EQ(a.libraries[0].rfind("/*! vega 6.", 0), 0u) << a.libraries[0].substr(0, 40);
    EXPECT_NE(a.libraries[2].find("Copyright"), std::string::npos);
}

TEST_F(HtmlAssets, ALibraryThatWouldEndTheScriptIsRefused) {
    std::ofstream(dir / "vendor" / "lib.min.js") << "var s = '</SCRIPT>';";
    EXPECT_THROW(loadAssets(dir.string()), grading::report::InputError);
    std::ofstream(dir / "vendor" / "lib.min.js") << "var s = 1;";
    EXPECT_EQ(loadAssets(dir.string()).libraries.size(), 1u);
}

TEST(HtmlCli, UsageErrorsExitTwo) {
    const auto status = [](const std::string& args) {
        const int raw = std::system((std::string(GRADE_HTML) + " " + args + " >/dev/null 2>&1").c_str());
        return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    };
    EXPECT_EQ(status(""), 2);
    EXPECT_EQ(status("report --results x.json"), 2);  // no --out
    EXPECT_EQ(status("report --results " + fixtures::path("html/submission/results.json") + " --junit j.xml --out /dev/null"), 2);
    EXPECT_EQ(status("report --results /nonexistent.json --out /dev/null"), 2);
    EXPECT_EQ(status("--help"), 0);
}

}  // namespace
