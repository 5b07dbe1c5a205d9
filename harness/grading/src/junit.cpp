#include "grading/junit.h"

#include <pugixml.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace grading::report {
namespace {

// Every text and CDATA piece directly inside, in order (ctest may split a
// test's output into several CDATA sections).
std::string textOf(const pugi::xml_node& element) {
    std::string text;
    for (const pugi::xml_node& part : element.children()) {
        if (part.type() == pugi::node_pcdata || part.type() == pugi::node_cdata) text += part.value();
    }
    return text;
}

JunitCase readCase(const pugi::xml_node& e) {
    JunitCase t;
    t.name = e.attribute("name").value();
    t.status = e.attribute("status").value();
    try {
        t.seconds = std::stod(e.attribute("time").value());
    } catch (const std::exception&) {
        t.seconds = 0;
    }
    if (const pugi::xml_node f = e.child("failure")) {
        t.hasFailure = true;
        t.failureMessage = f.attribute("message").value();
    }
    if (const pugi::xml_node s = e.child("skipped")) {
        t.hasSkipped = true;
        t.skippedMessage = s.attribute("message").value();
    }
    t.output = textOf(e.child("system-out"));
    // Other writers leave out status; infer it from the children.
    if (t.status.empty()) t.status = t.hasFailure ? "fail" : t.hasSkipped ? "notrun" : "run";
    return t;
}

}  // namespace

std::string plainTestName(std::string_view ctestName) {
    const size_t space = ctestName.find_first_of(" \t");
    return std::string(ctestName.substr(0, space));
}

std::vector<JunitCase> parseJunit(std::string_view xml, const std::string& source) {
    pugi::xml_document doc;
    // parse_ws_pcdata: output that is only blanks, or blanks between CDATA sections, is output too.
    const pugi::xml_parse_result parsed =
        doc.load_buffer(xml.data(), xml.size(), pugi::parse_default | pugi::parse_ws_pcdata, pugi::encoding_utf8);
    if (!parsed) {
        const size_t at = std::min(static_cast<size_t>(std::max<ptrdiff_t>(parsed.offset, 0)), xml.size());
        const long line = 1 + std::count(xml.begin(), xml.begin() + at, '\n');
        throw InputError(source + ":" + std::to_string(line) + ": " + parsed.description());
    }
    const pugi::xml_node root = doc.document_element();
    const std::string rootName = root.name();
    if (rootName != "testsuite" && rootName != "testsuites") {
        throw InputError(source + ": not a JUnit file (root element <" + rootName + ">)");
    }
    std::vector<JunitCase> cases;
    for (const pugi::xpath_node& t : root.select_nodes("//testcase")) cases.push_back(readCase(t.node()));
    return cases;
}

std::vector<JunitCase> loadJunit(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot open the JUnit file");
    std::ostringstream text;
    text << in.rdbuf();
    return parseJunit(text.str(), path);
}

}  // namespace grading::report
