#include "html_report.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "grading/report.h"
#include "text_lines.h"

namespace grading::html {
namespace {

using report::InputError;
using text::endsWith;
using text::splitLines;
using text::startsWith;
using text::trim;

// ---- writing: numbers for the page's text, JSON for its data block.

std::string number(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// ordered_json: a spec's fields stay in the order the day wrote them.
using Json = nlohmann::ordered_json;

// Invalid UTF-8 (a figure's name is anyone's text) becomes U+FFFD.
std::string dump(const Json& json) { return json.dump(-1, ' ', false, Json::error_handler_t::replace); }

// Characters JSON leaves as they are that could end the <script> ("</script", "<!--") or, U+2028 and U+2029,
// a line of older JavaScript. JSON holds them only inside strings, where an escape means the same.
std::string scriptSafe(std::string json) {
    static const std::pair<std::string, std::string> kEscapes[] = {
        {"<", "\\u003c"}, {">", "\\u003e"}, {"&", "\\u0026"}, {"\x7F", "\\u007f"},
        {"\xE2\x80\xA8", "\\u2028"}, {"\xE2\x80\xA9", "\\u2029"}};
    for (const auto& [raw, escaped] : kEscapes) {
        for (size_t at = json.find(raw); at != std::string::npos; at = json.find(raw, at + escaped.size())) {
            json.replace(at, raw.size(), escaped);
        }
    }
    return json;
}

// A Vega-Lite spec with no data given the rows (objects: field -> value) as its data.
Chart chart(std::string id, std::string title, std::string caption, const std::string& withoutData,
            const Json& rows, std::string missing) {
    Chart c{std::move(id), std::move(title), std::move(caption), "", ""};
    if (rows.empty()) {
        c.missing = std::move(missing);
    } else {
        Json spec = {{"data", {{"values", rows}}}};
        const Json fields = Json::parse(withoutData);
        for (const auto& [key, value] : fields.items()) spec[key] = value;
        c.spec = dump(spec);
    }
    return c;
}

// ---- the charts the days declare, drawn from the figures their report tests record.

// "[text {figure} text]" in a caption: the figure's name, or "" where the
// part holds no single {name}.
std::string captionFigure(const std::string& part) {
    const size_t open = part.find('{'), close = part.find('}');
    const bool one = open != std::string::npos && close != std::string::npos && close > open &&
                     part.find('{', open + 1) == std::string::npos && part.find('}', close + 1) == std::string::npos;
    if (!one) return "";
    return part.substr(open + 1, close - open - 1);
}

// Why a caption's optional parts are malformed, or "".
std::string captionProblem(const std::string& caption) {
    for (size_t at = 0;;) {
        const size_t open = caption.find_first_of("[]{}", at);
        if (open == std::string::npos) return "";
        if (caption[open] != '[') return std::string("'") + caption[open] + "' outside a [...{figure}...] part";
        const size_t close = caption.find(']', open);
        if (close == std::string::npos) return "a '[' without its ']'";
        const std::string part = caption.substr(open + 1, close - open - 1);
        if (captionFigure(part).empty() || part.find('[') != std::string::npos) {
            return "the part [" + part + "] names no single {figure}";
        }
        at = close + 1;
    }
}

std::string captionText(const std::string& caption, const std::map<std::string, double>& figures) {
    std::string out;
    for (size_t at = 0;;) {
        const size_t open = caption.find('[', at);
        out += caption.substr(at, open - at);
        if (open == std::string::npos) return out;
        const size_t close = caption.find(']', open);
        const std::string part = caption.substr(open + 1, close - open - 1);
        const std::string figure = captionFigure(part);
        if (const auto it = figures.find(figure); it != figures.end()) {
            out += part.substr(0, part.find('{')) + number(it->second) + part.substr(part.find('}') + 1);
        }
        at = close + 1;
    }
}

// A capture of digits only is a number in the chart's data (a level, a size).
Json fieldValue(const std::string& captured) {
    const bool digits =
        !captured.empty() && captured.size() <= 15 && captured.find_first_not_of("0123456789") == std::string::npos;
    return digits ? Json(std::stoll(captured)) : Json(captured);
}

// ---- the page.

std::string head(const std::string& title, const Assets& assets) {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
           escapeHtml(title) + "</title>\n<style>\n" + assets.css + "</style>\n</head>\n<body>\n";
}

// The charts' specs in one inert data block, then the libraries and the loop that draws them.
std::string tail(const std::vector<Chart>& charts, const Assets& assets) {
    Json data = Json::object();
    for (const Chart& c : charts) {
        if (!c.spec.empty()) data["chart-" + c.id] = Json::parse(c.spec);
    }
    std::string out = "<script type=\"application/json\" id=\"grading-charts\">" + scriptSafe(dump(data)) + "</script>\n";
    for (const std::string& lib : assets.libraries) out += "<script>" + lib + "</script>\n";
    return out + "<script>" + assets.script + "</script>\n</body>\n</html>\n";
}

std::string figureHtml(const Chart& c) {
    std::string out = "<figure class=\"chart\">\n<figcaption>" + escapeHtml(c.title) + "</figcaption>\n";
    if (c.spec.empty()) {
        out += "<p class=\"not-measured\" id=\"chart-" + c.id + "\">not measured: " + escapeHtml(c.missing) + "</p>\n";
    } else {
        out += "<div class=\"vega\" id=\"chart-" + c.id + "\"></div>\n<p class=\"caption\">" + escapeHtml(c.caption) + "</p>\n";
    }
    return out + "</figure>\n";
}

// A gate's first failure; a shrunk input's part (harness/shrink.h's form,
// often longer than the rest) folded away under its own summary.
std::string failureCell(const std::string& message) {
    static const std::string shrunk = "; smallest failing input found";
    const size_t at = message.find(shrunk);
    if (at == std::string::npos) return escapeHtml(message);
    return escapeHtml(message.substr(0, at)) + "<details class=\"shrunk\"><summary>" + escapeHtml(shrunk.substr(2)) +
           "</summary>" + escapeHtml(message.substr(at + shrunk.size())) + "</details>";
}

std::string points(double v) {
    std::string s = number(v);
    return s == "null" ? "?" : s;
}

}  // namespace

std::string Results::extraValue(const std::string& key) const {
    for (const auto& [k, v] : extra) {
        if (k == key) return v;
    }
    return "";
}

std::string escapeHtml(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string jsonString(const std::string& s) { return scriptSafe(dump(Json(s))); }

Figures figuresFromText(const std::string& observations) {
    Figures out;
    std::string day;  // "" outside a report section
    for (const std::string& line : splitLines(observations)) {
        if (startsWith(line, "== ") && endsWith(line, " ==") && line.size() > 6) {
            // "== submission.<day>.report ==", maybe with " (failed)" after the name.
            const std::string name = trim(line.substr(3, line.size() - 6));
            const std::string test = name.substr(0, name.find(' '));
            day.clear();
            if (endsWith(test, ".report")) {
                const std::string stem = test.substr(0, test.size() - 7);
                day = stem.substr(stem.rfind('.') + 1);
            }
            continue;
        }
        if (day.empty() || !startsWith(line, "figure ")) continue;
        const size_t eq = line.find(" = ");
        if (eq == std::string::npos) continue;
        const std::string key = line.substr(7, eq - 7);
        static const char* const kKeyChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
        if (key.empty() || key.find_first_not_of(kKeyChars) != std::string::npos) {
            continue;
        }
        const std::string value = trim(line.substr(eq + 3));
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !std::isfinite(v)) continue;  // text figures ("1.2 1.3") are not charted
        out[day][key] = v;
    }
    return out;
}

Figures figuresFromJunit(const std::vector<report::JunitCase>& tests, const std::string& prefix) {
    std::string text;
    for (const report::JunitCase& t : tests) {
        const std::string name = report::plainTestName(t.name);
        if (!startsWith(name, prefix)) continue;
        if (endsWith(name, ".report")) {
            text += "== " + name + " ==\n" + t.output + "\n";
            continue;
        }
        // A class's day test holds the day's report as its case "<day>.report".
        for (const report::CaseBlock& b : report::classTestCases(t.output)) {
            if (endsWith(b.name, ".report") && std::count(b.name.begin(), b.name.end(), '.') == 1) {
                text += "== " + prefix + b.name + " ==\n" + b.text + "\n";
            }
        }
    }
    return figuresFromText(text);
}

void merge(Figures& into, const Figures& from) {
    for (const auto& [day, figures] : from) {
        for (const auto& [key, v] : figures) into[day][key] = v;
    }
}

Results parseResults(const std::string& json, const std::string& source) {
    const auto bad = [&](const std::string& what) { return InputError(source + ": not a results.json: " + what); };
    nlohmann::ordered_json doc;  // ordered: extra_data's rows keep the writer's order
    try {
        doc = nlohmann::ordered_json::parse(json);
    } catch (const nlohmann::ordered_json::parse_error& e) {
        throw InputError(source + ": not JSON: " + e.what());
    }
    if (!doc.is_object()) throw bad("not an object");
    const auto num = [&](const nlohmann::ordered_json& o, const char* key) {
        const auto v = o.find(key);
        if (v == o.end() || !v->is_number()) throw bad(std::string("no number \"") + key + "\"");
        return v->get<double>();
    };
    const auto str = [](const nlohmann::ordered_json& o, const char* key) {
        const auto v = o.find(key);
        return v != o.end() && v->is_string() ? v->get<std::string>() : std::string();
    };
    Results r;
    r.score = num(doc, "score");
    r.maxScore = num(doc, "max_score");
    r.output = str(doc, "output");
    if (const auto extra = doc.find("extra_data"); extra != doc.end() && extra->is_object()) {
        for (const auto& [k, v] : extra->items()) {
            if (v.is_string()) r.extra.emplace_back(k, v.get<std::string>());
        }
    }
    const auto tests = doc.find("tests");
    if (tests == doc.end() || !tests->is_array()) throw bad("no \"tests\" array");
    for (const nlohmann::ordered_json& t : *tests) {
        if (!t.is_object()) throw bad("a test that is not an object");
        GateRow g;
        const std::string name = str(t, "name");
        g.id = name.substr(0, name.find(' '));
        g.title = name.find(' ') == std::string::npos ? "" : name.substr(name.find(' ') + 1);
        // A gate that never ran has no status (results.json, report.cpp).
        g.status = t.contains("status") ? str(t, "status") : "not run";
        g.output = str(t, "output");
        g.score = num(t, "score");
        g.maxScore = num(t, "max_score");
        if (const auto extra = t.find("extra_data"); extra != t.end() && extra->is_object()) {
            if (const auto c = extra->find("counterexample"); c != extra->end()) g.counterexample = dump(*c);
        }
        r.gates.push_back(g);
    }
    return r;
}

Sections parseCharts(const std::string& tsv, const std::string& source) {
    static const char* const kHeader = "day\tchart\ttitle\tcaption\tmissing\tfigures\tfields\tvalue\tspec";
    Sections sections;
    std::set<std::string> ids;
    bool header = false;
    int number = 0;
    for (const std::string& line : splitLines(tsv)) {
        ++number;
        const auto bad = [&](const std::string& what) {
            return InputError(source + ":" + std::to_string(number) + ": not a charts table: " + what);
        };
        if (line.empty() || line[0] == '#') continue;
        if (!header) {
            if (line != kHeader) throw bad("the header is not \"" + std::string(kHeader) + "\"");
            header = true;
            continue;
        }
        const std::vector<std::string> f = text::splitTabs(line);
        if (f.size() != 9) throw bad(std::to_string(f.size()) + " fields, want 9");
        if (f[0].empty()) throw bad("no day");
        DaySection& section = sections[f[0]];
        if (f[1].empty()) {  // the day's heading
            section.heading = f[2];
            continue;
        }
        ChartDeclaration c{f[1], f[2], f[3], f[4], {}, text::splitCommas(f[6]), f[7], trim(f[8])};
        if (c.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) {
            throw bad("chart id \"" + c.id + "\" is not [a-z0-9-]");
        }
        if (!ids.insert(c.id).second) throw bad("chart " + c.id + " declared twice");
        try {
            c.figures.assign(f[5]);
        } catch (const std::regex_error& e) {
            throw bad("chart " + c.id + ": figures \"" + f[5] + "\" is no regular expression: " + e.what());
        }
        if (c.figures.mark_count() != c.fields.size()) {
            throw bad("chart " + c.id + ": " + std::to_string(c.figures.mark_count()) + " capture groups for " +
                      std::to_string(c.fields.size()) + " fields");
        }
        if (c.value.empty()) throw bad("chart " + c.id + ": no field for the figures' values");
        if (const std::string why = captionProblem(c.caption); !why.empty()) {
            throw bad("chart " + c.id + "'s caption: " + why);
        }
        // The spec is inlined in a <script>: a '<' could end it.
        if (!Json::accept(c.spec) || !Json::parse(c.spec).is_object() || c.spec.find('<') != std::string::npos) {
            throw bad("chart " + c.id + ": its spec is no JSON object without '<'");
        }
        section.charts.push_back(std::move(c));
    }
    if (!header) throw InputError(source + ": not a charts table: no header");
    return sections;
}

// ---- a shrunk counterexample's picture: the day drew it (harness/<day>/picture.h).

Chart counterexampleChart(const std::string& id, const std::string& gate, const std::string& json) {
    Chart c{id, gate + ": the smallest failing input found", "", "", ""};
    const Json doc = Json::parse(json, nullptr, false);
    if (!doc.is_object()) {
        c.missing = "the counterexample is not a JSON object";
    } else if (const auto spec = doc.find("spec"); spec == doc.end() || !spec->is_object()) {
        c.missing = "the counterexample holds no picture (no \"spec\" object)";
    } else {
        if (const std::string call = doc.value("call", std::string()); !call.empty()) {
            c.title = call + ": the smallest failing input found";
        }
        c.caption = doc.value("caption", std::string());
        c.spec = dump(*spec);
    }
    return c;
}

std::vector<Chart> dayCharts(const DaySection& section, const std::map<std::string, double>& figures) {
    std::vector<Chart> charts;
    for (const ChartDeclaration& d : section.charts) {
        Json rows = Json::array();
        for (const auto& [key, v] : figures) {
            std::smatch m;
            if (!std::regex_match(key, m, d.figures)) continue;
            Json row;
            for (size_t k = 0; k < d.fields.size(); ++k) row[d.fields[k]] = fieldValue(m[k + 1]);
            row[d.value] = v;
            rows.push_back(std::move(row));
        }
        charts.push_back(chart(d.id, d.title, captionText(d.caption, figures), d.spec, rows, d.missing));
    }
    return charts;
}

Assets loadAssets(const std::string& dir) {
    Assets a;
    a.css = cli::readFile(dir + "/page.css", "page style");
    a.script = cli::readFile(dir + "/charts.js", "chart script");
    // VERSIONS: "name version file integrity sha256", in load order.
    for (const std::string& line : splitLines(cli::readFile(dir + "/vendor/VERSIONS", "vendor list"))) {
        std::istringstream words(line);
        std::string name, version, file;
        if (line.empty() || line[0] == '#' || !(words >> name >> version >> file)) continue;
        std::string licence = cli::readFile(dir + "/vendor/LICENSE." + name, "licence");
        const std::string code = cli::readFile(dir + "/vendor/" + file, "vendored script");
        if (licence.find("*/") != std::string::npos) throw InputError(dir + "/vendor/LICENSE." + name + ": holds '*/'");
        std::string lower = code;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (lower.find("</script") != std::string::npos || lower.find("<!--") != std::string::npos) {
            throw InputError(dir + "/vendor/" + file + ": holds </script or <!--, which would break the inline script");
        }
        a.libraries.push_back("/*! " + name + " " + version + "\n" + licence + "*/\n" + code);
    }
    if (a.libraries.empty()) throw InputError(dir + "/vendor/VERSIONS: names no library");
    return a;
}

std::string submissionPage(const Results& results, const Figures& figures, const Sections& sections,
                           const Assets& assets) {
    const std::string who = !results.extraValue("student").empty() ? results.extraValue("student")
                                                                   : results.extraValue("submission");
    std::string out = head("Grading report" + (who.empty() ? "" : ": " + who), assets);
    out += "<h1>Grading report" + (who.empty() ? "" : ": <span class=\"who\">" + escapeHtml(who) + "</span>") + "</h1>\n";
    out += "<p class=\"score\">score: " + points(results.score) + " / " + points(results.maxScore) + " points</p>\n";
    out += "<dl class=\"header\">\n";
    for (const auto& [k, v] : results.extra) {
        if (k == "flagged_for_review") continue;
        out += "<dt>" + escapeHtml(k) + "</dt><dd>" + escapeHtml(v) + "</dd>\n";
    }
    out += "</dl>\n";
    if (const std::string flags = results.extraValue("flagged_for_review"); !flags.empty()) {
        out += "<details class=\"flags\"><summary>flagged for review (not scored)</summary><pre>" + escapeHtml(flags) +
               "</pre></details>\n";
    }

    out += "<h2>Gates</h2>\n<table class=\"gates\">\n<tr><th>gate</th><th>what</th><th>result</th><th>points</th><th>first "
           "failure</th></tr>\n";
    std::vector<std::string> days;
    for (const GateRow& g : results.gates) {
        if (endsWith(g.id, ".builds")) days.push_back(g.id.substr(0, g.id.size() - 7));
        const std::string verdict = g.output.substr(0, g.output.find(':'));  // "PASS", "FAIL", "NOT GRADED", ...
        const std::string message = g.output.find(": ") == std::string::npos ? "" : g.output.substr(g.output.find(": ") + 2);
        out += "<tr class=\"" + std::string(g.status == "passed" ? "pass" : "fail") + "\"><td>" + escapeHtml(g.id) +
               "</td><td>" + escapeHtml(g.title) + "</td><td>" + escapeHtml(verdict) + "</td><td>" + points(g.score) + "/" +
               points(g.maxScore) + "</td><td>" + failureCell(message.substr(0, message.find('\n'))) + "</td></tr>\n";
    }
    out += "</table>\n";

    std::vector<Chart> charts;
    std::string pictures;
    for (const GateRow& g : results.gates) {
        if (g.counterexample.empty()) continue;
        const Chart c = counterexampleChart("counterexample-" + std::to_string(charts.size() + 1), g.id, g.counterexample);
        pictures += figureHtml(c);
        charts.push_back(c);
    }
    if (!pictures.empty()) {
        out += "<section class=\"counterexamples\">\n<h2>Smallest failing inputs</h2>\n<p>Each failed gate's input, shrunk "
               "until it is small enough to follow by hand (its message says how to grade on it).</p>\n" +
               pictures + "</section>\n";
    }

    // A section for each graded day (its .builds gate), then any other day that recorded figures.
    for (const auto& [day, _] : figures) {
        if (std::find(days.begin(), days.end(), day) == days.end()) days.push_back(day);
    }
    static const std::map<std::string, double> noFigures;
    for (const std::string& day : days) {
        const auto s = sections.find(day);
        const auto f = figures.find(day);
        const std::string title = s == sections.end() || s->second.heading.empty() ? day : s->second.heading;
        out += "<section class=\"day\" id=\"" + escapeHtml(day) + "\">\n<h2>" + escapeHtml(title) + "</h2>\n";
        if (s != sections.end()) {
            for (const Chart& c : dayCharts(s->second, f == figures.end() ? noFigures : f->second)) {
                out += figureHtml(c);
                charts.push_back(c);
            }
        }
        if (f == figures.end()) {
            out += "<p class=\"not-measured\">no figures recorded (the report test did not run: no GPU, or the day was not built)</p>\n";
        } else {
            out += "<details><summary>all " + std::to_string(f->second.size()) + " figures</summary>\n<table class=\"figures\">\n";
            for (const auto& [k, v] : f->second) out += "<tr><td>" + escapeHtml(k) + "</td><td>" + number(v) + "</td></tr>\n";
            out += "</table></details>\n";
        }
        out += "</section>\n";
    }
    out += "<details class=\"text-report\"><summary>the text report</summary>\n<pre>" + escapeHtml(results.output) +
           "</pre></details>\n";
    return out + tail(charts, assets);
}

std::string classPage(const std::vector<StudentRow>& students, const Assets& assets) {
    Json scores = Json::array();
    struct Rate {
        std::string gate;
        int passed = 0, graded = 0;
    };
    std::vector<Rate> rates;  // in the order gates first appear
    for (const StudentRow& s : students) {
        if (!s.hasResults) continue;
        if (s.results.maxScore > 0) scores.push_back({{"percent", 100.0 * s.results.score / s.results.maxScore}});
        for (const GateRow& g : s.results.gates) {
            auto it = std::find_if(rates.begin(), rates.end(), [&](const Rate& r) { return r.gate == g.id; });
            if (it == rates.end()) it = rates.insert(rates.end(), Rate{g.id});
            it->graded += 1;
            it->passed += g.status == "passed";
        }
    }
    // Each student's speed gates: the ratio of their time to the instructor's,
    // as scoreSpeed's message gives it ("timed interleaved: 1.07x, 100% of the points").
    Json ratios = Json::array();
    static const std::regex ratio(": ([0-9.]+)x, [0-9]+% of the points");
    for (const StudentRow& s : students) {
        if (!s.hasResults) continue;
        for (const GateRow& g : s.results.gates) {
            std::smatch m;
            if (std::regex_search(g.output, m, ratio)) {
                ratios.push_back({{"gate", g.id}, {"student", s.name}, {"ratio", std::stod(m[1].str())}});
            }
        }
    }
    Json passRows = Json::array();
    for (const Rate& r : rates) {
        passRows.push_back({{"gate", r.gate},
                            {"rate", static_cast<double>(r.passed) / r.graded},
                            {"passed", r.passed},
                            {"students", r.graded}});
    }
    const std::string histogram = R"vl({"width": 460, "height": 200,
 "mark": {"type": "bar", "tooltip": true},
 "encoding": {"x": {"field": "percent", "type": "quantitative", "bin": {"extent": [0, 100], "step": 10}, "title": "score, % of the points"},
              "y": {"aggregate": "count", "type": "quantitative", "title": "students", "axis": {"tickMinStep": 1}}}})vl";
    const std::string passTempl = R"vl({"width": 460, "height": {"step": 18},
 "mark": {"type": "bar", "tooltip": true},
 "encoding": {"y": {"field": "gate", "type": "nominal", "sort": null, "title": null},
              "x": {"field": "rate", "type": "quantitative", "scale": {"domain": [0, 1]}, "axis": {"format": "%"},
                    "title": "students who passed"},
              "color": {"field": "rate", "type": "quantitative", "scale": {"scheme": "redyellowgreen", "domain": [0, 1]},
                        "legend": null}}})vl";
    const std::string ratioTempl = R"vl({"width": 460, "height": {"step": 28},
 "mark": {"type": "tick", "thickness": 2, "tooltip": true},
 "encoding": {"y": {"field": "gate", "type": "nominal", "title": null},
              "x": {"field": "ratio", "type": "quantitative", "scale": {"type": "log"},
                    "title": "student's time / instructor's (log scale)"},
              "color": {"field": "ratio", "type": "quantitative", "scale": {"scheme": "redyellowgreen", "reverse": true},
                        "legend": null},
              "detail": {"field": "student"}}})vl";
    const std::vector<Chart> charts = {
        chart("class-scores", "Score distribution", "Each student's points as a share of the points graded.", histogram,
              scores, "no student has a results.json"),
        chart("class-gates", "Pass rate of each gate", "Students whose gate passed (a gate not run or not graded is not a pass).",
              passTempl, passRows, "no student has a results.json"),
        chart("class-speed", "Speed against the instructor's",
              "Each student's time over the instructor solution's, per speed gate (full points at 1.2x or "
              "less by default; 1 is as fast).",
              ratioTempl, ratios, "no speed gate was measured (no GPU, or no instructor solution in this build)")};

    std::string out = head("Class dashboard", assets);
    out += "<h1>Class dashboard</h1>\n<p class=\"score\">" + std::to_string(students.size()) + " students</p>\n";
    for (const Chart& c : charts) out += figureHtml(c);
    out += "<h2>Students</h2>\n<table class=\"students\">\n<tr><th>staged</th><th>student</th><th>points</th><th>gates "
           "passed</th><th>flagged for review</th><th>report</th></tr>\n";
    for (const StudentRow& s : students) {
        int passed = 0;
        for (const GateRow& g : s.results.gates) passed += g.status == "passed";
        // The pre-check's lines (never points): how many, the student's page lists them.
        const std::string flags = s.results.extraValue("flagged_for_review");
        const long flagged = std::count(flags.begin(), flags.end(), '\n') + (!flags.empty() && flags.back() != '\n');
        // The id is grade_class.sh's "s0001"; only such a name becomes part of a link.
        const bool plain = !s.id.empty() && s.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos;
        out += "<tr><td>" + escapeHtml(s.id) + "</td><td class=\"name\">" + escapeHtml(s.name) + "</td>" +
               (s.hasResults ? "<td>" + points(s.results.score) + " / " + points(s.results.maxScore) + "</td><td>" +
                                   std::to_string(passed) + " of " + std::to_string(s.results.gates.size()) +
                                   "</td><td>" + (flagged ? std::to_string(flagged) + " lines" : "-") + "</td>"
                             : std::string("<td colspan=\"3\">no results.json: not graded</td>")) +
               "<td>" +
               (s.hasReport && plain ? "<a href=\"" + s.id + "/report.html\">report</a>" : "-") + "</td></tr>\n";
    }
    out += "</table>\n";
    return out + tail(charts, assets);
}

}  // namespace grading::html
