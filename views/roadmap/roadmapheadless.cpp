#include "roadmap/roadmapheadless.h"

#include "charts/chartexport.h"
#include "common/safewrite.h"
#include "report/headless.h"
#include "report/provenance.h"
#include "roadmap/roadmapchart.h"

#include <algorithm>
#include <cstdio>

namespace gapstudio::views {

RoadmapPtr loadRoadmapHeadless(const QString &file, const scenario::PresetLibrary &library)
{
    QString error;
    RoadmapPtr roadmap = loadRoadmapFile(file, library, &error);
    if (!roadmap) {
        std::fprintf(stderr, "gapstudio: %s\n", qPrintable(error));
        return nullptr;
    }
    if (!roadmap->problems
             .isEmpty()) { // as `gapstudio-cli roadmap`: a step that is no design is the file's error
        std::fprintf(stderr, "gapstudio: %s\n", qPrintable(roadmap->problems.first()));
        return nullptr;
    }
    return roadmap;
}

int exportRoadmapHeadless(const RoadmapData &roadmap, const QString &out, const QStringList &inputs)
{
    QString error;
    if (!isNotAnInput(out, inputs, &error)) {
        std::fprintf(stderr, "gapstudio: %s\n", qPrintable(error));
        return kHeadlessBadInput;
    }
    RoadmapChart chart;
    chart.setRoadmap(std::make_shared<const RoadmapData>(roadmap));
    const QString provenance = roadmap.roadmap.steps.empty()
                                   ? QString()
                                   : scenarioProvenance(roadmap.roadmap.steps.front().scenario);
    if (!exportPlot(chart.exportSource(), out, provenance, 1.0, &error)) {
        std::fprintf(stderr, "gapstudio: %s: %s\n", qPrintable(out), qPrintable(error));
        return kHeadlessWriteFailed;
    }
    std::printf("gapstudio: wrote %s\n", qPrintable(out));
    const bool allRun = std::all_of(roadmap.steps.begin(), roadmap.steps.end(),
                                    [](const scenario::RoadmapStepResult &s) { return s.result.ok(); });
    return allRun ? kHeadlessOk : kHeadlessInfeasible;
}

} // namespace gapstudio::views
