#pragma once
/**
 * @file roadmapdata.h
 * A roadmap file (io/roadmap_json.h) and its steps' results (scenario::evaluateRoadmap), as the
 * Roadmap view, its exports and the report show them. The numbers are the model's: this file
 * only reads the file, runs the pipeline and picks the four per-step metrics out of the results.
 */

#include "gapstudio/io/roadmap_json.h"
#include "gapstudio/scenario/roadmap.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace gapstudio::views {

/// The four metrics of a roadmap step, in chart order.
enum class RoadmapMetric { Throughput, Mfu, UsdPerMillionTokens, JoulesPerToken };
inline constexpr RoadmapMetric kRoadmapMetrics[]
    = { RoadmapMetric::Throughput, RoadmapMetric::Mfu, RoadmapMetric::UsdPerMillionTokens,
        RoadmapMetric::JoulesPerToken };

/// "samples_per_second", "mfu", "usd_per_million_tokens", "joules_per_token" (CSV, object names).
[[nodiscard]] QString metricKey(RoadmapMetric metric);
/// "Throughput (samples/s)", "MFU (%)", ... (chart panels and table headers).
[[nodiscard]] QString metricTitle(RoadmapMetric metric);

struct RoadmapData {
    QString file;
    io::Roadmap roadmap;
    std::vector<scenario::RoadmapStepResult> steps; ///< one per roadmap step, in order
    QStringList problems; ///< steps that are not valid designs: "file: /steps/i: reason"
    /// Steps whose $ figures leave out parts without a price: "Step 2 (name): Incomplete: ...".
    QStringList costWarnings;

    /// The metric of step `index` (0-based), or nullopt when the step has no such result (it does
    /// not evaluate, or runs over capacity, or has no cost).
    [[nodiscard]] std::optional<double> value(std::size_t index, RoadmapMetric metric) const;
    /// The likely range of the step's `metric` (the prediction interval of its result,
    /// prediction_interval.h), the interval's factors applied to the value. Exact for throughput
    /// and MFU (proportional to 1 / step time). For $/M tokens and J/token an approximation:
    /// model/cost.h makes them proportional to the step time at a given power, but the GPUs' power
    /// follows their activity, which a slower step lowers, so the range is slightly wide for them.
    /// nullopt when the step has no value or no interval.
    [[nodiscard]] std::optional<std::pair<double, double>> likelyRange(std::size_t index,
                                                                       RoadmapMetric metric) const;
    /// The step's gain for `metric` over the previous step (speedup, cost ratio, energy ratio;
    /// nullopt for MFU and for steps without one).
    [[nodiscard]] std::optional<double> gain(std::size_t index, RoadmapMetric metric) const;
    /// The step's goodput under failures (model/goodput.h), its $/million tokens with failures, and
    /// that figure over the previous step's (RoadmapStepResult::effectiveCostRatio); nullopt when
    /// the step has none (it does not run, or has no cost or goodput; the first step's ratio).
    [[nodiscard]] std::optional<double> goodput(std::size_t index) const;
    [[nodiscard]] std::optional<double> effectiveUsdPerMillionTokens(std::size_t index) const;
    [[nodiscard]] std::optional<double> effectiveCostRatio(std::size_t index) const;
    /// The step's name ("Step 2: Scale-up domains of 128").
    [[nodiscard]] QString stepName(std::size_t index) const;
};
using RoadmapPtr = std::shared_ptr<const RoadmapData>;

/// Evaluates `roadmap` (read from `file`) with the studio's options.
[[nodiscard]] RoadmapPtr evaluateRoadmapFile(io::Roadmap roadmap, const QString &file,
                                             const scenario::PresetLibrary &library);
/// Reads and evaluates the roadmap at `path`; nullptr with the reason in `error` ("file: /json/
/// pointer: what is wrong") when it cannot be read.
[[nodiscard]] RoadmapPtr loadRoadmapFile(const QString &path, const scenario::PresetLibrary &library,
                                         QString *error);

/// The roadmaps shipped with the presets ("roadmaps/<id>.gapstudio-roadmap.json" relative to a
/// preset folder of the search order, the embedded copy last), by file name.
[[nodiscard]] QStringList shippedRoadmaps();
/// Reads and evaluates shipped roadmap `relativePath` (from shippedRoadmaps()).
[[nodiscard]] RoadmapPtr loadShippedRoadmap(const QString &relativePath,
                                            const scenario::PresetLibrary &library, QString *error);
/// The name shipped roadmap `relativePath` gives itself (its "name"), for menus; its file name if
/// it has none or cannot be read.
[[nodiscard]] QString shippedRoadmapName(const QString &relativePath);

} // namespace gapstudio::views
