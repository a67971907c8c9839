#include "report/roadmapheadless.h"

#include "charts/chartexport.h"
#include "common/safewrite.h"
#include "report/headless.h"
#include "report/headlessstatus.h"
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
        printHeadlessError(error);
        return nullptr;
    }
    if (!roadmap->problems
             .isEmpty()) { // as `gapstudio-cli roadmap`: a step that is no design is the file's error
        printHeadlessError(roadmap->problems.first());
        return nullptr;
    }
    return roadmap;
}

int exportRoadmapHeadless(const RoadmapData &roadmap, const QString &out, const QStringList &inputs)
{
    QString error;
    if (!isNotAnInput(out, inputs, &error)) {
        printHeadlessError(error);
        return kHeadlessBadInput;
    }
    RoadmapChart chart;
    chart.setRoadmap(std::make_shared<const RoadmapData>(roadmap));
    const QString provenance = roadmap.roadmap.steps.empty()
                                   ? QString()
                                   : scenarioProvenance(roadmap.roadmap.steps.front().scenario);
    if (!exportPlot(chart.exportSource(), out, provenance, 1.0, &error)) {
        printHeadlessError(out + QStringLiteral(": ") + error);
        return kHeadlessWriteFailed;
    }
    std::printf("gapstudio: wrote %s\n", qPrintable(out));
    const bool allRun = std::all_of(roadmap.steps.begin(), roadmap.steps.end(),
                                    [](const scenario::RoadmapStepResult &s) { return s.result.ok(); });
    return allRun ? kHeadlessOk : kHeadlessInfeasible;
}

} // namespace gapstudio::views
