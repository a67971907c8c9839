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

std::optional<std::pair<double, double>> RoadmapData::likelyRange(std::size_t index,
                                                                  RoadmapMetric metric) const
{
    const std::optional<double> v = value(index, metric);
    if (!v || !steps[index].result.interval)
        return std::nullopt;
    return steps[index].result.interval->range(*v);
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

std::optional<double> RoadmapData::goodput(std::size_t index) const
{
    const model::GoodputResult *g = index < steps.size() ? steps[index].result.shownGoodput() : nullptr;
    return g ? std::optional(g->goodput) : std::nullopt;
}

std::optional<double> RoadmapData::effectiveUsdPerMillionTokens(std::size_t index) const
{
    const model::GoodputResult *g = index < steps.size() ? steps[index].result.shownGoodput() : nullptr;
    return g && g->effectiveUsdPerMillionTokens > 0 ? std::optional(g->effectiveUsdPerMillionTokens)
                                                    : std::nullopt;
}

std::optional<double> RoadmapData::effectiveCostRatio(std::size_t index) const
{
    if (index >= steps.size() || !(steps[index].effectiveCostRatio > 0))
        return std::nullopt; // 0: not comparable (scenario/roadmap.h)
    return steps[index].effectiveCostRatio;
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
    for (std::size_t i = 0; i < data->steps.size(); ++i)
        if (const auto &cost = data->steps[i].result.cost)
            if (const std::string warning = model::unpricedWarning(cost->bom); !warning.empty())
                data->costWarnings << QStringLiteral("%1: \u26a0 %2")
                                          .arg(data->stepName(i), QString::fromStdString(warning));
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

namespace {

/// Where shipped roadmap `relativePath` is, as io::loadShippedScenario looks: a file of the first
/// preset folder of the search order that has it, else the embedded copy. Neither: both empty.
struct ShippedRoadmap {
    QString path;                                     ///< a file on disk
    const io::EmbeddedPresetFile *embedded = nullptr; ///< or the embedded copy
};

ShippedRoadmap locateShippedRoadmap(const QString &relativePath)
{
    for (const io::PresetFolder &folder : io::presetSearchOrder()) {
        if (folder.source != io::PresetSource::Embedded) {
            const QString path = QDir(QString::fromStdString(folder.path)).filePath(relativePath);
            if (QFileInfo(path).isFile())
                return { path, nullptr };
            continue;
        }
        for (const io::EmbeddedPresetFile &file : io::embeddedPresetFiles())
            if (file.path == relativePath.toStdString())
                return { QString(), &file };
    }
    return {};
}

/// The embedded roadmap parsed (io::InputError naming "<embedded>/..." if it is broken).
io::Roadmap parseEmbeddedRoadmap(const io::EmbeddedPresetFile &file)
{
    const std::string origin = "<embedded>/" + std::string(file.path);
    return io::parseRoadmap(io::parseJsonText(std::string(file.text), origin), origin);
}

} // namespace

RoadmapPtr loadShippedRoadmap(const QString &relativePath, const scenario::PresetLibrary &library,
                              QString *error)
{
    const ShippedRoadmap found = locateShippedRoadmap(relativePath);
    if (!found.path.isEmpty())
        return loadRoadmapFile(found.path, library, error);
    if (found.embedded) {
        try {
            return evaluateRoadmapFile(parseEmbeddedRoadmap(*found.embedded),
                                       QStringLiteral("<embedded>/") + relativePath, library);
        } catch (const std::exception &e) {
            if (error)
                *error = QString::fromUtf8(e.what());
            return nullptr;
        }
    }
    if (error)
        *error = QObject::tr("%1: no preset folder has this roadmap").arg(relativePath);
    return nullptr;
}

QString shippedRoadmapName(const QString &relativePath)
{
    const ShippedRoadmap found = locateShippedRoadmap(relativePath);
    try {
        const io::Roadmap roadmap = !found.path.isEmpty() ? io::loadRoadmap(found.path.toStdString())
                                    : found.embedded      ? parseEmbeddedRoadmap(*found.embedded)
                                                          : io::Roadmap {};
        if (!roadmap.name.empty())
            return QString::fromStdString(roadmap.name);
    } catch (const std::exception &) { // a broken file keeps its file name; opening it says why
    }
    return QFileInfo(relativePath).fileName();
}

} // namespace gapstudio::views
