#include "report/reportcontent.h"

#include "charts/chartformat.h"
#include "cost/costfigures.h"
#include "results/calibrationtext.h"
#include "results/goodputtext.h"
#include "studio/layoutrules.h"

#include "gapstudio/model/trainingtime.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/units.h"

#include <nlohmann/json.hpp>

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <utility>

namespace gapstudio::views::report {

namespace {

using Json = nlohmann::ordered_json;
using Pairs = QList<std::pair<QString, QString>>;

using units::kBytesPerGiB;
using units::kSecondsPerDay;

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

/// A JSON value as one line: numbers in their shortest form, efficiency tables as
/// "≥128: 0.99, ≥16: 0.9, ...", other arrays as "[1, 0]".
QString jsonValueText(const Json &value)
{
    if (value.is_string())
        return qs(value.get<std::string>());
    if (value.is_array()) {
        const bool table = !value.empty() && value.front().is_array() && value.front().size() == 2;
        QStringList parts;
        for (const Json &item : value)
            parts << (table
                          ? QStringLiteral("\u2265%1: %2").arg(jsonValueText(item[0]), jsonValueText(item[1]))
                          : jsonValueText(item));
        return table ? parts.join(QStringLiteral(", "))
                     : QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
    }
    return qs(value.dump());
}

/// Objects become dotted keys ("hbm.capacity_GiB"); the file header is left out (it is in the
/// blocks table).
void flatten(const Json &json, const QString &prefix, Pairs &out)
{
    static const QStringList header { QStringLiteral("fileType"), QStringLiteral("version"),
                                      QStringLiteral("id"), QStringLiteral("name"),
                                      QStringLiteral("source") };
    for (const auto &[key, value] : json.items()) {
        const QString name = prefix.isEmpty() ? qs(key) : prefix + QLatin1Char('.') + qs(key);
        if (prefix.isEmpty() && header.contains(name))
            continue;
        if (value.is_object())
            flatten(value, name, out);
        else
            out.push_back({ name, jsonValueText(value) });
    }
}

/// Parameter/value pairs in two side-by-side column pairs, filled top to bottom.
Table pairsTable(const QString &title, const Pairs &pairs)
{
    Table table;
    table.title = title;
    table.headers = QStringList { QStringLiteral("Parameter"), QStringLiteral("Value"),
                                  QStringLiteral("Parameter"), QStringLiteral("Value") };
    table.weights = { 0.27, 0.23, 0.27, 0.23 };
    const qsizetype half = (pairs.size() + 1) / 2;
    for (qsizetype i = 0; i < half; ++i) {
        QStringList row { pairs[i].first, pairs[i].second, QString(), QString() };
        if (i + half < pairs.size()) {
            row[2] = pairs[i + half].first;
            row[3] = pairs[i + half].second;
        }
        table.rows << row;
    }
    return table;
}

template <typename Block> QString presetText(const scenario::BlockRef<Block> &ref)
{
    return ref.presetId.empty() ? QStringLiteral("(inline)") : qs(ref.presetId);
}

template <typename Block>
QStringList blockRow(const QString &kind, const scenario::BlockRef<Block> &ref, const Block *resolved)
{
    const scenario::BlockInfo *info
        = resolved ? &resolved->info : (ref.inlineBlock ? &ref.inlineBlock->info : nullptr);
    return { kind, presetText(ref), info ? qs(info->name) : QStringLiteral("\u2014"),
             info ? qs(info->source) : QStringLiteral("\u2014") };
}

QString metricText(const Metric &m)
{
    if (!m.available)
        return QStringLiteral("\u2014");
    return m.unit.isEmpty() ? chartformat::significant(m.value)
                            : chartformat::significant(m.value) + QLatin1Char(' ') + m.unit;
}

} // namespace

Table blocksTable(const ScenarioResults &results)
{
    const scenario::Scenario &s = results.scenario;
    const scenario::ResolvedScenario *r = results.compiled ? &results.compiled->resolved : nullptr;
    Table table;
    table.title = QStringLiteral("Blocks");
    table.headers = QStringList { QStringLiteral("Block"), QStringLiteral("Preset"), QStringLiteral("Name"),
                                  QStringLiteral("Source") };
    table.weights = { 0.12, 0.2, 0.22, 0.46 };
    table.rows << blockRow(QStringLiteral("GPU"), s.gpu, r ? &r->gpu : nullptr)
               << blockRow(QStringLiteral("Scale-up"), s.scaleUp, r ? &r->scaleUp : nullptr)
               << blockRow(QStringLiteral("Scale-out"), s.scaleOut, r ? &r->scaleOut : nullptr)
               << blockRow(QStringLiteral("Topology"), s.topology, r ? &r->topology : nullptr)
               << blockRow(QStringLiteral("LLM"), s.llm, r ? &r->llm : nullptr)
               << blockRow(QStringLiteral("Layout"), s.layout, r ? &r->layout : nullptr);
    return table;
}

QList<Table> parameterTables(const ScenarioResults &results)
{
    QList<Table> tables;
    if (!results.compiled)
        return tables;
    const scenario::ResolvedScenario &r = results.compiled->resolved;
    const auto add = [&](const QString &title, const Json &json, Pairs pairs = {}) {
        flatten(json, QString(), pairs);
        tables << pairsTable(title, pairs);
    };
    add(QStringLiteral("GPU: %1").arg(qs(r.gpu.info.name)), io::toJson(r.gpu));
    add(QStringLiteral("Scale-up interconnect (tier 0): %1").arg(qs(r.scaleUp.info.name)),
        io::toJson(r.scaleUp));
    add(QStringLiteral("Scale-out interconnect (tier 1): %1").arg(qs(r.scaleOut.info.name)),
        io::toJson(r.scaleOut));
    add(QStringLiteral("Topology: %1").arg(qs(r.topology.info.name)), io::toJson(r.topology));
    add(QStringLiteral("LLM: %1").arg(qs(r.llm.info.name)), io::toJson(r.llm));
    add(QStringLiteral("Layout: %1").arg(qs(r.layout.info.name)), io::toJson(r.layout),
        Pairs { { QStringLiteral("gpu_count"), QString::number(r.gpuCount) } });
    if (!results.scenario.overrides.empty()) {
        Pairs overrides;
        for (const auto &[key, value] : results.scenario.overrides)
            overrides.push_back({ qs(key), jsonValueText(Json(value)) });
        tables << pairsTable(QStringLiteral("Overrides (applied to the blocks above)"), overrides);
    }
    return tables;
}

QList<Metric> keyMetrics(const ScenarioResults &results, double tokenBudget)
{
    // Performance only for a design that runs (Ok); the memory it needs also over capacity.
    const bool ok = results.ok() && results.compiled.has_value();
    const bool memory = results.hasStats() && results.compiled.has_value();
    const model::Stats &st = results.evaluation.stats;
    const model::Analysis *a = memory ? &*results.analysis : nullptr;
    const std::int64_t gpus = results.compiled ? results.compiled->execution.numProcs : 0;
    const model::TrainingTime train
        = ok ? model::trainingTime(tokenBudget, st.total_time, results.compiled->execution.batchSize,
                            results.compiled->application.seqSize, gpus)
             : model::TrainingTime {};
    const QString budget = chartformat::significant(tokenBudget / 1e9) + QStringLiteral("B tokens");
    QList<Metric> m {
        { QStringLiteral("GPUs"), QString(), double(gpus), results.compiled.has_value() },
        { QStringLiteral("Step time"), QStringLiteral("s"), st.total_time, ok },
        { QStringLiteral("Token throughput"), QStringLiteral("tokens/s"), a ? a->tokensPerSecond : 0, ok },
        { QStringLiteral("Sample throughput"), QStringLiteral("samples/s"), st.sample_rate, ok },
        { QStringLiteral("MFU"), QStringLiteral("%"), a ? a->gap.mfu * 100 : 0, ok },
        { QStringLiteral("Compute efficiency"), QStringLiteral("%"), st.compute_efficiency * 100, ok },
        { QStringLiteral("System efficiency"), QStringLiteral("%"), st.system_efficiency * 100, ok },
        { QStringLiteral("HBM per GPU (needed)"), QStringLiteral("GiB"),
          a ? a->memory.tier1Need_B / kBytesPerGiB : 0, memory },
        { QStringLiteral("HBM per GPU (capacity)"), QStringLiteral("GiB"),
          a ? a->memory.tier1Capacity_B / kBytesPerGiB : 0, memory },
        { QStringLiteral("HBM use"), QStringLiteral("% of capacity"),
          a && a->memory.tier1Capacity_B > 0 ? 100 * a->memory.tier1Need_B / a->memory.tier1Capacity_B : 0,
          memory && a->memory.tier1Capacity_B > 0 },
        { QStringLiteral("Tier-2 memory per GPU (needed)"), QStringLiteral("GiB"),
          a ? a->memory.tier2Need_B / kBytesPerGiB : 0, memory },
        { QStringLiteral("Tier-2 memory per GPU (capacity)"), QStringLiteral("GiB"),
          a ? a->memory.tier2Capacity_B / kBytesPerGiB : 0, memory },
        { QStringLiteral("Time to train %1").arg(budget), QStringLiteral("days"),
          train.seconds / kSecondsPerDay, ok && train.seconds > 0 },
        { QStringLiteral("GPU-hours to train %1").arg(budget), QStringLiteral("GPU-hours"), train.gpuHours,
          ok && train.gpuHours > 0 },
    };
    return m;
}

Table keyResultsTable(const ScenarioResults &results, double tokenBudget)
{
    Table table;
    table.headers = QStringList { QStringLiteral("Result"), QStringLiteral("Value") };
    table.weights = { 0.6, 0.4 };
    table.rightAligned = { false, true };
    table.widthFraction = 0.65;
    table.rows << QStringList { QStringLiteral("Status"), qs(results.statusText) };
    if (results.compiled)
        table.rows << QStringList { QStringLiteral("Software stack"),
                                    qs(results.compiled->resolved.software.info.name) };
    if (const QString calibration = calibrationText(results); !calibration.isEmpty())
        table.rows << QStringList { QStringLiteral("Calibration"), calibration };
    if (const QString accuracy = accuracyText(results); !accuracy.isEmpty())
        table.rows << QStringList { QStringLiteral("Typical error"), accuracy };
    for (const Metric &m : keyMetrics(results, tokenBudget))
        if (m.available) // a design that cannot run has no time, throughput or MFU to list
            table.rows << QStringList { m.name, metricText(m) };
    if (results.interval && results.analysis) { // one standard deviation (prediction_interval.h)
        const auto range = [&](double value, const QString &unit) {
            const auto [low, high] = results.interval->range(value);
            return chartformat::significant(low) + QStringLiteral(" \u2013 ") + chartformat::significant(high)
                   + QLatin1Char(' ') + unit;
        };
        table.rows << QStringList { QStringLiteral("Step time, likely range"),
                                    range(results.analysis->step.total_s, QStringLiteral("s")) };
        table.rows << QStringList { QStringLiteral("MFU, likely range"),
                                    range(results.analysis->gap.mfu * 100, QStringLiteral("%")) };
    }
    if (const QString goodput = goodputText(results); !goodput.isEmpty()) {
        table.rows << QStringList { QStringLiteral("Goodput under failures"), goodput };
        if (const QString rate = effectiveTokenRateText(results); !rate.isEmpty())
            table.rows << QStringList { QStringLiteral("Effective token rate"), rate };
    }
    return table;
}

QList<Table> costTables(const ScenarioResults &results)
{
    const QList<CostFigure> figures = costFigures(results);
    if (figures.isEmpty())
        return {};
    Table summary;
    summary.title = QObject::tr("Cost and power of this design (prices and power from the presets' cost blocks; "
                                "most are estimates, each naming its source).");
    summary.headers = QStringList { QStringLiteral("Figure"), QStringLiteral("Value") };
    summary.weights = { 0.6, 0.4 };
    summary.rightAligned = { false, true };
    summary.widthFraction = 0.65;
    for (const CostFigure &figure : figures)
        summary.rows << QStringList { figure.name, figure.text };

    Table bom;
    bom.title = QObject::tr("Bill of materials.");
    bom.headers = QStringList { QStringLiteral("Part"), QStringLiteral("Count"), QStringLiteral("Unit price"),
                                QStringLiteral("Unit power"), QStringLiteral("Price") };
    bom.weights = { 2.2, 0.8, 0.9, 0.8, 1.0 };
    bom.rightAligned = { false, true, true, true, true };
    for (const model::BomLine &line : results.cost->bom.lines)
        bom.rows << QStringList { qs(line.label), chartformat::significant(line.count),
                                  money(line.unitPrice_USD),
                                  chartformat::significant(line.unitPower_W) + QStringLiteral(" W"),
                                  money(line.price_USD()) };
    return { summary, bom };
}

Table comparisonTable(const ScenarioResults &baseline, const ScenarioResults &current, double tokenBudget)
{
    Table table;
    table.headers
        = QStringList { QStringLiteral("Result"), QStringLiteral("Baseline"), QStringLiteral("Current"),
                        QStringLiteral("Change"), QStringLiteral("Change %") };
    table.weights = { 0.32, 0.19, 0.19, 0.16, 0.14 };
    table.rightAligned = { false, true, true, true, true };
    const QList<Metric> before = keyMetrics(baseline, tokenBudget);
    const QList<Metric> after = keyMetrics(current, tokenBudget);
    for (qsizetype i = 0; i < after.size(); ++i) {
        const Metric &b = before[i];
        const Metric &c = after[i];
        QString change = QStringLiteral("\u2014"), percent = QStringLiteral("\u2014");
        if (b.available && c.available) {
            const double d = c.value - b.value;
            change = (d > 0 ? QStringLiteral("+") : QString()) + chartformat::significant(d);
            if (b.value != 0)
                percent = (d > 0 ? QStringLiteral("+") : QString())
                          + QLocale::c().toString(100 * d / b.value, 'f', 1) + QStringLiteral(" %");
        }
        const QString name = c.unit.isEmpty() ? c.name : QStringLiteral("%1 (%2)").arg(c.name, c.unit);
        table.rows << QStringList {
            name, b.available ? chartformat::significant(b.value) : QStringLiteral("\u2014"),
            c.available ? chartformat::significant(c.value) : QStringLiteral("\u2014"), change, percent
        };
    }
    return table;
}

Table comparisonTable(const std::vector<const ScenarioResults *> &pinned, const ScenarioResults &current,
                      double tokenBudget)
{
    Table table;
    table.headers << QStringLiteral("Result");
    QList<QList<Metric>> columns;
    for (std::size_t i = 0; i < pinned.size(); ++i) {
        table.headers << QStringLiteral("Pinned %1").arg(i + 1);
        columns << keyMetrics(*pinned[i], tokenBudget);
    }
    table.headers << QStringLiteral("Current");
    columns << keyMetrics(current, tokenBudget);
    const double valueWeight = 0.68 / static_cast<double>(columns.size());
    table.weights << 0.32;
    table.rightAligned << false;
    for (qsizetype c = 0; c < columns.size(); ++c) {
        table.weights << valueWeight;
        table.rightAligned << true;
    }
    for (qsizetype i = 0; i < columns.back().size(); ++i) {
        const Metric &c = columns.back()[i];
        QStringList row { c.unit.isEmpty() ? c.name : QStringLiteral("%1 (%2)").arg(c.name, c.unit) };
        for (const QList<Metric> &column : std::as_const(columns))
            row << (column[i].available ? chartformat::significant(column[i].value)
                                        : QStringLiteral("\u2014"));
        table.rows << row;
    }
    return table;
}

QStringList diagnosticLines(const ScenarioResults &results)
{
    QStringList lines;
    const model::Execution *execution = results.compiled ? &results.compiled->execution : nullptr;
    for (const model::Diagnostic &d : results.diagnostics)
        lines << diagnosticInWords(d, execution); // in words, naming the field to change
    return lines;
}

} // namespace gapstudio::views::report
