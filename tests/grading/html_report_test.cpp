// The HTML pages (html_report.h) without a browser: figures read from the
// report text and JUnit, charts drawn or "not measured", hostile text kept
// text, and the data block that no string can break out of.
// html_pages.sh checks the same pages in headless Chromium.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fixtures.h"
#include "html_report.h"
#include "json_check.h"
#include "text_lines.h"

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

// A class's day test holds the day's report among its gates' cases.
TEST(HtmlFigures, ReadFromTheReportInAClassDayTest) {
    grading::report::JunitCase t;
    t.name = "s0003.day52.timed";
    t.status = "run";
    t.output = "verdict token: 7e57\n7e57 RUN 52.overlap.ratio\nfigure overlap_ratio = 9\n7e57 OK 52.overlap.ratio\n"
               "7e57 RUN day52.report\nfigure overlap_ratio = 2.5\n7e57 OK day52.report\n";
    const Figures f = figuresFromJunit({t}, "s0003.");
    ASSERT_EQ(f.size(), 1u);
    ASSERT_EQ(f.at("day52").size(), 1u) << "only the report's figures";
    EXPECT_DOUBLE_EQ(f.at("day52").at("overlap_ratio"), 2.5);
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

// The charts the days declare, as the build lists them (harness/<day>/day.cpp).
Sections fixtureSections() {
    const std::string path = fixtures::path("html/charts.tsv");
    return parseCharts(fixtures::read(path), path);
}

const std::map<std::string, double>& dayFigures(const Figures& f, const std::string& day) {
    static const std::map<std::string, double> none;
    const auto it = f.find(day);
    return it == f.end() ? none : it->second;
}

std::string chartsTable(const std::string& rows) {
    return "day\tchart\ttitle\tcaption\tmissing\tfigures\tfields\tvalue\tspec\n" + rows;
}

// One declared chart's row: day d, id c, the given figures, fields and spec.
std::string chartRow(const std::string& figures, const std::string& fields,
                     const std::string& spec = "{\"mark\": \"bar\"}", const std::string& caption = "a caption",
                     const std::string& id = "c") {
    return "d\t" + id + "\tA chart\t" + caption + "\tnothing recorded\t" + figures + "\t" + fields + "\tms\t" + spec +
           "\n";
}

TEST(HtmlCharts, TheRecordedRunDrawsWhatItMeasured) {
    const Results r = fixtureResults();
    const Figures f = figuresFromText(r.output);
    const Sections sections = fixtureSections();
    ASSERT_EQ(sections.size(), 4u);
    const auto drawnFor = [&](const std::string& day) {
        return drawn(dayCharts(sections.at(day), dayFigures(f, day)));
    };
    EXPECT_EQ(drawnFor("day34"), (std::vector<std::string>{"day34-bandwidth", "day34-copy-policy"}));
    EXPECT_EQ(drawnFor("day38"), (std::vector<std::string>{"day38-bfs", "day38-levels", "day38-frontier"}));
    EXPECT_EQ(drawnFor("day52"), (std::vector<std::string>{"day52-shapes", "day52-timeline"}));
    EXPECT_EQ(drawnFor("msw"), (std::vector<std::string>{"msw-times", "msw-bandwidth"}));
    EXPECT_EQ(sections.at("day38").heading, "Day 38: BFS frontier mappings");
    // The timeline: a begin and an end for each of the diamond's six kernels and the serial run's.
    const std::vector<Chart> day52 = dayCharts(sections.at("day52"), dayFigures(f, "day52"));
    const json_check::Value events = json_check::Parser(day52[1].spec).document()["data"]["values"];
    ASSERT_EQ(events.array.size(), 24u);
    EXPECT_EQ(events.array[0]["kernel"].string, "branch0");
    EXPECT_EQ(events.array[0]["edge"].string, "begin");
    EXPECT_NE(day52[0].caption.find("(figures serial_ms, diamond_ms); serial / diamond = 5.015x."), std::string::npos)
        << day52[0].caption;
    // The frontier profile from all 22 levels, each level a number.
    const std::vector<Chart> day38 = dayCharts(sections.at("day38"), dayFigures(f, "day38"));
    const json_check::Value profile = json_check::Parser(day38[2].spec).document()["data"]["values"];
    ASSERT_EQ(profile.array.size(), 44u);
    EXPECT_EQ(profile.array[2]["level"].number, 10);
}

TEST(HtmlCharts, MissingFiguresSayNotMeasured) {
    const Sections sections = fixtureSections();
    for (const auto& [day, section] : sections) {
        const std::vector<Chart> charts = dayCharts(section, {});
        ASSERT_FALSE(charts.empty()) << day;
        for (const Chart& c : charts) {
            EXPECT_TRUE(c.spec.empty()) << c.id;
            EXPECT_FALSE(c.missing.empty()) << c.id;
        }
    }
    // One figure draws its chart; the others of the day still say why not.
    EXPECT_EQ(drawn(dayCharts(sections.at("day38"), {{"bfs_ms_warp", 0.5}})), std::vector<std::string>{"day38-bfs"});
    Results none;
    none.gates = {{"day38.builds", "the day38 submission compiles", "passed", "PASS", 0, 0},
                  {"undeclared.builds", "a day that declares no section", "passed", "PASS", 0, 0}};
    const std::string page = submissionPage(none, {}, sections, fakeAssets());
    EXPECT_EQ(count(page, "not measured: "), 3u);
    EXPECT_EQ(count(page, "no figures recorded"), 2u);
    EXPECT_NE(page.find("<h2>Day 38: BFS frontier mappings</h2>"), std::string::npos);
    EXPECT_NE(page.find("<h2>undeclared</h2>"), std::string::npos);
    EXPECT_TRUE(dataBlock(page).object.empty());
}

TEST(HtmlCharts, FiguresMatchingTheDeclarationAreItsRows) {
    const Sections s = parseCharts(chartsTable(chartRow("walk_([a-z]+)_level([0-9]+)", "mapping,level",
                                                        "{\"mark\": \"line\", \"width\": 460}")),
                                   "t.tsv");
    const std::vector<Chart> charts = dayCharts(s.at("d"), {{"walk_warp_level12", 0.25},
                                                             {"walk_edge_level007", 1.5},
                                                             {"walk_warp", 9},
                                                             {"bfs_edge_level1", 9}});
    ASSERT_EQ(charts.size(), 1u);
    ASSERT_FALSE(charts[0].spec.empty()) << charts[0].missing;
    const json_check::Value spec = json_check::Parser(charts[0].spec).document();
    EXPECT_EQ(spec["mark"].string, "line");
    EXPECT_EQ(spec["width"].number, 460);
    const json_check::Value& rows = spec["data"]["values"];
    ASSERT_EQ(rows.array.size(), 2u);  // in the figures' name order
    EXPECT_EQ(rows.array[0]["mapping"].string, "edge");
    EXPECT_EQ(rows.array[0]["level"].number, 7);  // digits only: a number
    EXPECT_DOUBLE_EQ(rows.array[0]["ms"].number, 1.5);
    EXPECT_EQ(rows.array[1]["mapping"].string, "warp");
    EXPECT_EQ(charts[0].title, "A chart");
    // No figure matches: not measured, saying what the declaration says.
    const std::vector<Chart> none = dayCharts(s.at("d"), {{"walk_warp", 9}});
    EXPECT_TRUE(none[0].spec.empty());
    EXPECT_EQ(none[0].missing, "nothing recorded");
}

TEST(HtmlCharts, ACaptionPartShowsItsFigureOrDropsOut) {
    const Sections s =
        parseCharts(chartsTable(chartRow("(a)_ms", "name", "{}", "Times[; ratio {ratio}x][, {sms} SMs].")), "t.tsv");
    EXPECT_EQ(dayCharts(s.at("d"), {{"a_ms", 1}, {"ratio", 2.5}})[0].caption, "Times; ratio 2.5x.");
    EXPECT_EQ(dayCharts(s.at("d"), {{"a_ms", 1}, {"sms", 132}})[0].caption, "Times, 132 SMs.");
    EXPECT_EQ(dayCharts(s.at("d"), {})[0].caption, "Times.");
}

TEST(HtmlCharts, ABadDeclarationIsRefusedNamingItsLine) {
    const auto refused = [](const std::string& tsv, const std::string& why) {
        try {
            parseCharts(tsv, "charts.tsv");
            ADD_FAILURE() << "taken: " << tsv;
        } catch (const grading::report::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("charts.tsv:"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
        }
    };
    refused("", "no header");
    refused("day\tchart\n", "the header");
    refused(chartsTable("d\tc\ttitle\n"), "3 fields, want 9");
    refused(chartsTable(chartRow("(a", "x")), "no regular expression");
    refused(chartsTable(chartRow("(a)_(b)", "x")), "2 capture groups for 1 fields");
    refused(chartsTable(chartRow("(a)", "x", "{\"title\": \"</script>\"}")), "without '<'");
    refused(chartsTable(chartRow("(a)", "x", "[1]")), "no JSON object");
    refused(chartsTable(chartRow("(a)", "x", "{}", "ratio [{r}x")), "without its ']'");
    refused(chartsTable(chartRow("(a)", "x", "{}", "ratio [{r} of {s}]")), "no single {figure}");
    refused(chartsTable(chartRow("(a)", "x", "{}", "ratio {r}")), "outside a [...{figure}...] part");
    refused(chartsTable(chartRow("(a)", "x") + chartRow("(b)", "y")), "declared twice");
    refused(chartsTable(chartRow("(a)", "x", "{}", "c", "Bad_Id")), "is not [a-z0-9-]");
    // A line's number counts the lines before it, comments included.
    refused("# generated\n" + chartsTable(chartRow("(a", "x")), "charts.tsv:3:");
    // The days' heading rows and a day of headings only are fine.
    const Sections s = parseCharts(chartsTable("d\t\tDay D: a heading\t\t\t\t\t\t\n"), "t.tsv");
    EXPECT_EQ(s.at("d").heading, "Day D: a heading");
    EXPECT_TRUE(s.at("d").charts.empty());
}

#ifdef GRADING_CHARTS_TSV
// The fixture is what the days built here declare (copy the build's
// charts.tsv to fixtures/html/charts.tsv where a day's charts changed).
TEST(HtmlCharts, TheFixtureIsWhatTheDaysDeclare) {
    const std::string fixture = fixtures::text("html/charts.tsv");
    const std::vector<std::string> rows = grading::text::splitLines(fixtures::read(GRADING_CHARTS_TSV));
    ASSERT_GT(rows.size(), 2u) << GRADING_CHARTS_TSV;
    for (const std::string& row : rows) {
        EXPECT_NE(fixture.find(row + "\n"), std::string::npos)
            << "fixtures/html/charts.tsv lacks " << row.substr(0, 80);
    }
}
#endif

TEST(HtmlPage, HostileTextStaysText) {
    Results r = fixtureResults();
    r.extra.emplace_back("student", kHostile);
    r.gates[1].output = "FAIL: got </script><script>alert(2)</script>";
    r.output += "\n</script><script>alert(3)</script>\n";
    const std::string page = submissionPage(r, figuresFromText(r.output), fixtureSections(), fakeAssets());
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

// The speed chart reads each student's ratio from scoreSpeed's message,
// timed in turn or against the instructor's rounds a class timed once.
TEST(HtmlPage, ClassSpeedChartReadsTheRatioHoweverTheInstructorWasTimed) {
    std::vector<StudentRow> students(2);
    students[0] = {"s0001", "Ada", fixtureResults(), true, false};
    students[1] = {"s0002", "Bo", fixtureResults(), true, false};
    const std::string tail = " ms (IQR 0.1, 8 runs) against the instructor's 20.0 ms (IQR 0.1, 8 runs), ";
    GateRow speed{"38.speed", "speed", "passed", "walks: 21.0" + tail + "timed interleaved: 1.05x, 100% of the points"};
    students[0].results.gates.push_back(speed);
    speed.output = "walks: 50.0" + tail + "the instructor timed once for the class: 2.50x, 61% of the points";
    students[1].results.gates.push_back(speed);
    const json_check::Value data = dataBlock(classPage(students, fakeAssets()));
    const json_check::Value& ratios = data["chart-class-speed"]["data"]["values"];
    ASSERT_EQ(ratios.array.size(), 2u);
    EXPECT_DOUBLE_EQ(ratios.array[0]["ratio"].number, 1.05);
    EXPECT_DOUBLE_EQ(ratios.array[1]["ratio"].number, 2.5);
}

class HtmlAssets : public ::testing::Test {
protected:
    void SetUp() override {
        // One folder per test and process: ctest -j runs them at once, and two suites may share a machine.
        dir = fs::path(::testing::TempDir()) /
              (std::string("grading_html_") + ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
               std::to_string(getpid()));
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

// A shrunk counterexample (harness/shrink.h's recordPicture, carried in
// results.json's extra_data): the day's drawing, embedded as it is.
namespace {

const std::string kPicture =
    R"({"call":"38.distances/edge_components","caption":"Each vertex shows its number; red: wrong (1).",)"
    R"("spec":{"width":200,"layer":[{"data":{"values":[{"x":0,"y":0,"label":"</script><b>"}]},"mark":"circle"}]}})";

}  // namespace

TEST(HtmlCounterexample, TheDaysDrawingIsEmbeddedWithItsCaption) {
    const Chart c = counterexampleChart("counterexample-1", "38.distances", kPicture);
    ASSERT_EQ(c.missing, "");
    EXPECT_EQ(c.title, "38.distances/edge_components: the smallest failing input found");
    EXPECT_EQ(c.caption, "Each vertex shows its number; red: wrong (1).");
    const json_check::Value spec = json_check::parse(c.spec);
    EXPECT_EQ(spec["width"].number, 200);
    EXPECT_EQ(spec["layer"].array.at(0)["data"]["values"].array.at(0)["label"].string, "</script><b>");
}

TEST(HtmlCounterexample, WhatHoldsNoPictureSaysWhyInsteadOfDrawing) {
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"[1]", "not a JSON object"},
        {"{not json", "not a JSON object"},
        {R"({"kind":"graph","labels":["a"]})", "no \"spec\" object"},
        {R"({"caption":"x","spec":[1,2]})", "no \"spec\" object"},
    };
    for (const auto& [json, why] : bad) {
        const Chart c = counterexampleChart("c", "38.distances", json);
        EXPECT_EQ(c.spec, "") << json;
        EXPECT_NE(c.missing.find(why), std::string::npos) << json << ": " << c.missing;
    }
}

TEST(HtmlPage, AFailedGatesCounterexampleIsDrawnUnderTheGates) {
    Results r = fixtureResults();
    r.gates[1].counterexample = kPicture;
    r.gates[2].counterexample = R"({"kind":"graph","labels":"<script>"})";
    const std::string page = submissionPage(r, figuresFromText(r.output), fixtureSections(), fakeAssets());
    const json_check::Value data = dataBlock(page);
    EXPECT_TRUE(data.has("chart-counterexample-1"));
    EXPECT_FALSE(data.has("chart-counterexample-2"));  // not drawable: the page says why
    EXPECT_NE(page.find("<h2>Smallest failing inputs</h2>"), std::string::npos);
    EXPECT_NE(page.find("not measured: the counterexample holds no picture"), std::string::npos);
    EXPECT_EQ(page.find("</script><b>"), std::string::npos) << "a label closed the page's script";
    EXPECT_LT(page.find("<table class=\"gates\">"), page.find("id=\"chart-counterexample-1\""));
}

TEST(HtmlResults, ATestsCounterexampleIsRead) {
    const std::string json = R"({"score":0,"max_score":4,"tests":[{"name":"38.distances d","score":0,"max_score":4,)"
                             R"("status":"failed","extra_data":{"counterexample":)" + kPicture + "}}]}";
    const Results r = parseResults(json, "r.json");
    ASSERT_EQ(r.gates.size(), 1u);
    EXPECT_NE(r.gates[0].counterexample.find("38.distances/edge_components"), std::string::npos);
}
