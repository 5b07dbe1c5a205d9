// The day's declarations as the tables the report (gates.tsv) and the HTML
// page (charts.tsv) read.
#include <iostream>

#include "driver.h"
#include "harness/text.h"

namespace grading::driver {

void printGatesTsv(const grading::Day& day) {
    std::cout << "id\tday\tpoints\tvisibility\tgrades\trequires\ttimed\tscored\ttests\tclass_test\ttitle\n";
    for (const DayGate& g : day.gates()) {
        const grading::GateSpec& spec = g.spec;
        std::string prerequisites;
        for (const std::string& r : spec.prerequisites()) prerequisites += (prerequisites.empty() ? "" : ",") + r;
        std::cout << spec.id() << "\t" << day.name() << "\t" << spec.points() << "\t" << spec.visibility() << "\t"
                  << (spec.grades() == grading::Grades::Student ? "student" : "course") << "\t"
                  << (prerequisites.empty() ? "-" : prerequisites) << "\t" << (spec.timed() ? "yes" : "no") << "\t"
                  << (spec.scored() ? "yes" : "no") << "\t" << spec.id() << "\t"
                  << (spec.grades() == grading::Grades::Student ? classTests(day, g) : "-") << "\t"
                  << grading::tsvField(spec.title())
                  << "\n";
    }
}

// A row without a chart id carries the day's heading in its title.
void printChartsTsv(const grading::Day& day) {
    using grading::tsvField;
    // A spec's line breaks and their indentation as one space: JSON strings hold no raw line break.
    const auto oneLine = [](const std::string& json) {
        std::string out;
        for (size_t i = 0; i < json.size(); ++i) {
            if (json[i] != '\n') {
                out += json[i];
                continue;
            }
            out += ' ';
            while (i + 1 < json.size() && json[i + 1] == ' ') ++i;
        }
        return out;
    };
    std::cout << "day\tchart\ttitle\tcaption\tmissing\tfigures\tfields\tvalue\tspec\n";
    if (!day.heading().empty()) std::cout << day.name() << "\t\t" << tsvField(day.heading()) << "\t\t\t\t\t\t\n";
    for (const grading::ChartSpec& c : day.charts()) {
        std::string fields;
        for (const std::string& f : c.fields()) fields += (fields.empty() ? "" : ",") + f;
        std::cout << day.name() << "\t" << c.id() << "\t" << tsvField(c.title()) << "\t" << tsvField(c.caption()) << "\t"
                  << tsvField(c.missing()) << "\t" << tsvField(c.figures()) << "\t" << tsvField(fields) << "\t"
                  << tsvField(c.value()) << "\t" << tsvField(oneLine(c.vegaLite())) << "\n";
    }
}

}  // namespace grading::driver
