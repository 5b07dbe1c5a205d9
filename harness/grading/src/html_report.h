#pragma once
// The pictures: one self-contained HTML page per graded submission (its gates
// and the days' figures as Vega-Lite charts) and a class dashboard. Inputs are
// the recorded results only (results.json, the report tests' "figure k = v"
// lines, a class folder), so a page is drawn anywhere, without a GPU. The
// chart libraries are inlined from html/vendor/, so a page needs no network.
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "grading/junit.h"

namespace grading::html {

// day -> figure key -> value, as the day's report test recorded it.
using Figures = std::map<std::string, std::map<std::string, double>>;

// The "figure <key> = <value>" lines of every "== <prefix><day>.report ==" section
// of a report's observations (grade_report --show-reports, results.json's output).
Figures figuresFromText(const std::string& observations);
// The same lines in the output of every "<prefix><day>.report" test of a JUnit file.
Figures figuresFromJunit(const std::vector<report::JunitCase>& tests, const std::string& prefix);
void merge(Figures& into, const Figures& from);

// What a results.json (report.h's resultsJson) holds.
struct GateRow {
    std::string id, title, status, output;  // id: the name's first word; status: passed | failed
    double score = 0, maxScore = 0;
    std::string counterexample;  // extra_data's "counterexample" (harness/shrink.h's Picture) as JSON; "" when none
};
struct Results {
    double score = 0, maxScore = 0;
    std::vector<std::pair<std::string, std::string>> extra;  // extra_data: submission, seed, gpu, student, ...
    std::vector<GateRow> gates;
    std::string output;  // the text report
    std::string extraValue(const std::string& key) const;
};
// Throws report::InputError naming `source` on anything but a JSON object of that shape.
Results parseResults(const std::string& json, const std::string& source);

// What the days declare for their sections of the page (harness/gtest's
// Day::heading and Day::chart, where the fields are explained), as the
// build's charts.tsv lists them: the day, then the chart's id (none on the
// row that carries the day's heading in its title), title, caption,
// missing, figures, fields (a comma list), value and spec.
struct ChartDeclaration {
    std::string id, title, caption, missing;
    std::regex figures;
    std::vector<std::string> fields;
    std::string value;
    std::string spec;  // Vega-Lite without its "data"
};
struct DaySection {
    std::string heading;  // "": the day's name
    std::vector<ChartDeclaration> charts;
};
using Sections = std::map<std::string, DaySection>;  // by day
// Throws report::InputError naming `source` and the line on anything else,
// a spec that holds '<' included.
Sections parseCharts(const std::string& tsv, const std::string& source);

// One chart: a Vega-Lite spec with its data inlined, or, when the figures it
// needs were not recorded, the reason in `missing` (the page says "not measured").
struct Chart {
    std::string id;  // unique in a page, [a-z0-9-]
    std::string title, caption;
    std::string spec;  // JSON; "" when missing
    std::string missing;
};
// A gate's shrunk counterexample (GateRow::counterexample) as a chart: the
// Vega-Lite spec and caption the day drew (harness/shrink.h's Picture),
// embedded as they are; `missing` says why when the JSON holds none.
Chart counterexampleChart(const std::string& id, const std::string& gate, const std::string& json);

// The section's charts over one day's figures, each drawn or missing.
std::vector<Chart> dayCharts(const DaySection& section, const std::map<std::string, double>& figures);

// The inlined parts: html/page.css, html/charts.js and html/vendor/ (VERSIONS
// names the libraries in load order). Throws report::InputError when one is absent.
struct Assets {
    std::string css, script;
    std::vector<std::string> libraries;  // each "/*! licence */" + code, ready to inline
};
Assets loadAssets(const std::string& dir);

// A section per graded day (its .builds gate) and per day with figures,
// headed and charted as `sections` declares it.
std::string submissionPage(const Results& results, const Figures& figures, const Sections& sections,
                           const Assets& assets);

struct StudentRow {
    std::string id, name;  // staged id (s0001) and the real name, which is data only
    Results results;
    bool hasResults = false;  // <id>/results.json was read (else the row says so, the charts leave it out)
    bool hasReport = false;   // <id>/report.html exists: the row links to it
};
std::string classPage(const std::vector<StudentRow>& students, const Assets& assets);

// Text for HTML element content and quoted attributes.
std::string escapeHtml(const std::string& s);
// A JSON string that is also safe inside <script>: no '<', '>' or '&' survives
// (so never "</script" or "<!--"), invalid UTF-8 becomes U+FFFD.
std::string jsonString(const std::string& s);

}  // namespace grading::html
