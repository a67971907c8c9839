#include "roadmap/roadmapdata.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/input_error.h"
#include "gapstudio/io/preset_locations.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>

#include <exception>

namespace gapstudio::views {

namespace {

const QString kRoadmapsFolder = QStringLiteral("roadmaps");
const QString kRoadmapPattern = QStringLiteral("*.gapstudio-roadmap.json");

} // namespace

QString metricKey(RoadmapMetric metric)
{
    switch (metric) {
    case RoadmapMetric::Throughput:
        return QStringLiteral("samples_per_second");
    case RoadmapMetric::Mfu:
        return QStringLiteral("mfu");
    case RoadmapMetric::UsdPerMillionTokens:
        return QStringLiteral("usd_per_million_tokens");
    case RoadmapMetric::JoulesPerToken:
        return QStringLiteral("joules_per_token");
    }
    return {};
}

QString metricTitle(RoadmapMetric metric)
{
    switch (metric) {
    case RoadmapMetric::Throughput:
        return QObject::tr("Throughput (samples/s)");
    case RoadmapMetric::Mfu:
        return QObject::tr("MFU (%)");
    case RoadmapMetric::UsdPerMillionTokens:
        return QObject::tr("Cost ($ per million tokens)");
    case RoadmapMetric::JoulesPerToken:
        return QObject::tr("Energy (J per token)");
    }
    return {};
}

std::optional<double> RoadmapData::value(std::size_t index, RoadmapMetric metric) const
{
    if (index >= steps.size() || !steps[index].result.ok())
        return std::nullopt; // only a design that runs has performance and cost numbers
    const scenario::PipelineResult &r = steps[index].result;
    switch (metric) {
    case RoadmapMetric::Throughput:
        return r.evaluation.stats.sample_rate;
    case RoadmapMetric::Mfu:
        return r.evaluation.stats.total_efficiency;
    case RoadmapMetric::UsdPerMillionTokens:
        return r.cost ? std::optional(r.cost->usdPerMillionTokens) : std::nullopt;
    case RoadmapMetric::JoulesPerToken:
        return r.cost ? std::optional(r.cost->joulesPerToken) : std::nullopt;
    }
    return std::nullopt;
}

std::optional<double> RoadmapData::gain(std::size_t index, RoadmapMetric metric) const
{
    if (index >= steps.size())
        return std::nullopt;
    const scenario::RoadmapStepResult &s = steps[index];
    const double g = metric == RoadmapMetric::Throughput            ? s.speedup
                     : metric == RoadmapMetric::UsdPerMillionTokens ? s.costRatio
                     : metric == RoadmapMetric::JoulesPerToken      ? s.energyRatio
                                                                    : 0.0;
    return g > 0 ? std::optional(g) : std::nullopt; // 0: not comparable (scenario/roadmap.h)
}

QString RoadmapData::stepName(std::size_t index) const
{
    const QString name
        = index < roadmap.steps.size() ? QString::fromStdString(roadmap.steps[index].name) : QString();
    return QObject::tr("Step %1: %2").arg(index + 1).arg(name);
}

RoadmapPtr evaluateRoadmapFile(io::Roadmap roadmap, const QString &file,
                               const scenario::PresetLibrary &library)
{
    auto data = std::make_shared<RoadmapData>();
    data->file = file;
    data->roadmap = std::move(roadmap);
    std::vector<scenario::Scenario> designs;
    for (const io::RoadmapStep &step : data->roadmap.steps)
        designs.push_back(step.scenario);
    data->steps
        = scenario::evaluateRoadmap(designs, library, scenario::PipelineOptions {}); // the studio's options
    for (std::size_t i = 0; i < data->steps.size(); ++i)
        if (data->steps[i].result.status == scenario::EvaluationStatus::Malformed)
            data->problems << QStringLiteral("%1: /steps/%2: %3")
                                  .arg(file)
                                  .arg(i)
                                  .arg(QString::fromStdString(data->steps[i].result.statusText));
    return data;
}

RoadmapPtr loadRoadmapFile(const QString &path, const scenario::PresetLibrary &library, QString *error)
{
    try {
        return evaluateRoadmapFile(io::loadRoadmap(path.toStdString()), path, library);
    } catch (const std::exception &e) { // io::InputError: "file: /json/pointer: message"
        if (error)
            *error = QString::fromUtf8(e.what());
        return nullptr;
    }
}

QStringList shippedRoadmaps()
{
    QStringList names;
    for (const io::PresetFolder &folder : io::presetSearchOrder()) {
        if (folder.source == io::PresetSource::Embedded) {
            for (const io::EmbeddedPresetFile &file : io::embeddedPresetFiles()) {
                const QString path = QString::fromUtf8(file.path.data(), qsizetype(file.path.size()));
                if (path.startsWith(kRoadmapsFolder + QLatin1Char('/'))
                    && path.endsWith(QStringLiteral(".gapstudio-roadmap.json")) && !names.contains(path))
                    names << path;
            }
            continue;
        }
        const QDir dir(QDir(QString::fromStdString(folder.path)).filePath(kRoadmapsFolder));
        for (const QString &name : dir.entryList({ kRoadmapPattern }, QDir::Files, QDir::Name))
            if (!names.contains(kRoadmapsFolder + QLatin1Char('/') + name))
                names << kRoadmapsFolder + QLatin1Char('/') + name;
    }
    return names;
}

RoadmapPtr loadShippedRoadmap(const QString &relativePath, const scenario::PresetLibrary &library,
                              QString *error)
{
    // The first folder of the search order that has the file, as io::loadShippedScenario.
    for (const io::PresetFolder &folder : io::presetSearchOrder()) {
        if (folder.source != io::PresetSource::Embedded) {
            const QString path = QDir(QString::fromStdString(folder.path)).filePath(relativePath);
            if (QFileInfo(path).isFile())
                return loadRoadmapFile(path, library, error);
            continue;
        }
        for (const io::EmbeddedPresetFile &file : io::embeddedPresetFiles())
            if (file.path == relativePath.toStdString()) {
                const std::string origin = "<embedded>/" + std::string(file.path);
                try {
                    return evaluateRoadmapFile(
                        io::parseRoadmap(io::parseJsonText(std::string(file.text), origin), origin),
                        QString::fromStdString(origin), library);
                } catch (const std::exception &e) {
                    if (error)
                        *error = QString::fromUtf8(e.what());
                    return nullptr;
                }
            }
    }
    if (error)
        *error = QObject::tr("%1: no preset folder has this roadmap").arg(relativePath);
    return nullptr;
}

} // namespace gapstudio::views
