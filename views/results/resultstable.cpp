#include "results/resultstable.h"

#include "explore/layoutformat.h"
#include "results/calibrationtext.h"

#include "gapstudio/scenario/best_layout.h"

#include <QFont>
#include <QHeaderView>
#include <QLocale>

namespace gapstudio::views {

namespace {

constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;

// Display conversions only; every number is a model output.
QString seconds(double value)
{
    return QStringLiteral("%1 s").arg(QLocale().toString(value, 'f', 4));
}
QString milliseconds(double value)
{
    return QStringLiteral("%1 ms").arg(QLocale().toString(value * 1e3, 'f', 1));
}
QString percent(double fraction)
{
    return QStringLiteral("%1 %").arg(QLocale().toString(fraction * 100.0, 'f', 2));
}
QString gib(double bytes)
{
    return QStringLiteral("%1 GiB").arg(QLocale().toString(bytes / kBytesPerGiB, 'f', 3));
}

} // namespace

ResultsTable::ResultsTable(QWidget *parent)
    : QTableWidget(0, 2, parent)
{
    setObjectName(QStringLiteral("resultsTable"));
    setHorizontalHeaderLabels({ tr("Quantity"), tr("Value") });
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setWordWrap(true);
    verticalHeader()->hide();
    // Rows follow their (wrapped) text as the value column is resized.
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
}

void ResultsTable::showResults(const ScenarioResults &results)
{
    setRowCount(0);
    const QString status = QString::fromStdString(results.statusText);
    if (results.status == scenario::EvaluationStatus::OverCapacity && results.analysis) {
        // It cannot run: no time or efficiency is a result; the memory it would need is.
        addSection(tr("Does not fit in GPU memory"));
        addRow(tr("Status"), status, status);
        const model::MemoryUse &m = results.analysis->memory;
        addRow(tr("HBM per GPU (needed)"), gib(m.tier1Need_B), {}, Qt::AlignRight);
        addRow(tr("HBM per GPU (capacity)"), gib(m.tier1Capacity_B), {}, Qt::AlignRight);
        if (m.tier2Need_B > 0 || m.tier2Capacity_B > 0) {
            addRow(tr("Tier-2 memory per GPU (needed)"), gib(m.tier2Need_B), {}, Qt::AlignRight);
            addRow(tr("Tier-2 memory per GPU (capacity)"), gib(m.tier2Capacity_B), {}, Qt::AlignRight);
        }
        return;
    }
    if (!results.ok() || !results.analysis) {
        addSection(tr("The design cannot be evaluated"));
        addRow(tr("Status"), status, status);
        for (const model::Diagnostic &diagnostic : results.diagnostics) {
            const QString message = QString::fromStdString(diagnostic.message);
            const QString field
                = diagnostic.field.empty() ? tr("Configuration") : QString::fromStdString(diagnostic.field);
            addRow(field, message, message);
        }
        return;
    }

    const model::Stats &s = results.evaluation.stats;
    const model::Analysis &a = *results.analysis;
    const QLocale locale;
    addSection(tr("Summary"));
    addRow(tr("Step time"), seconds(a.step.total_s), {}, Qt::AlignRight);
    addRow(tr("Sample rate"), tr("%1 samples/s").arg(locale.toString(s.sample_rate, 'f', 2)), {},
           Qt::AlignRight);
    addRow(tr("Token rate"), tr("%1 tokens/s").arg(locale.toString(a.tokensPerSecond, 'f', 0)), {},
           Qt::AlignRight);
    addRow(tr("Total efficiency (MFU)"), percent(a.gap.mfu), {}, Qt::AlignRight);
    addRow(tr("Compute efficiency"), percent(s.compute_efficiency), {}, Qt::AlignRight);
    addRow(tr("System efficiency"), percent(s.system_efficiency), {}, Qt::AlignRight);
    addRow(tr("HBM per GPU (needed)"), gib(a.memory.tier1Need_B), {}, Qt::AlignRight);
    addRow(tr("HBM per GPU (capacity)"), gib(a.memory.tier1Capacity_B), {}, Qt::AlignRight);
    const QString calibration = calibrationText(results);
    addRow(tr("Calibration"), calibration, calibration);

    // Every part of the step (model::Analysis::step), in the model's order; they sum to the step.
    addSection(tr("Step time breakdown"));
    for (const model::TimeComponent &c : a.step.exposed) {
        if (c.seconds == 0)
            continue; // a part this design does not have (EP in a dense model, offload off, ...)
        QTableWidgetItem *value
            = addRow(QString::fromStdString(c.label), milliseconds(c.seconds),
                     tr("%1 % of the step").arg(locale.toString(100 * c.seconds / a.step.total_s, 'f', 1)),
                     Qt::AlignRight);
        value->setData(kSecondsRole, c.seconds);
    }
}

void ResultsTable::addBestLayout(const ScenarioResults &own, const ScenarioResults &best)
{
    if (!best.ok() || !best.compiled)
        return;
    const QLocale locale;
    const model::Stats &b = best.evaluation.stats;
    addSection(tr("Best layout (your layout in brackets)"));
    const QString layout = layoutformat::summary(best.compiled->execution);
    addRow(tr("Layout"), layout,
           own.compiled ? tr("Your layout: %1").arg(layoutformat::summary(own.compiled->execution))
                        : QString());
    const bool ownOk = own.ok() && own.analysis;
    const auto both = [&](const QString &bestValue, const QString &ownValue) {
        return ownOk ? QStringLiteral("%1  (%2)").arg(bestValue, ownValue) : bestValue;
    };
    addRow(tr("Step time"), both(seconds(b.total_time), seconds(own.evaluation.stats.total_time)), {},
           Qt::AlignRight);
    addRow(tr("Sample rate"),
           both(tr("%1 samples/s").arg(locale.toString(b.sample_rate, 'f', 2)),
                tr("%1 samples/s").arg(locale.toString(own.evaluation.stats.sample_rate, 'f', 2))),
           {}, Qt::AlignRight);
    addRow(tr("Total efficiency (MFU)"),
           both(percent(best.analysis->gap.mfu), ownOk ? percent(own.analysis->gap.mfu) : QString()), {},
           Qt::AlignRight);
    if (const std::optional<double> loss = scenario::layoutChoiceLoss(own, best))
        addRow(tr("Layout choice loss"), percent(*loss),
               tr("Share of peak your layout gives up against the best layout"), Qt::AlignRight);
}

void ResultsTable::showError(const QString &message)
{
    setRowCount(0);
    addSection(tr("Error"));
    addRow(tr("Input"), message, message);
}

void ResultsTable::addSection(const QString &title)
{
    const int row = rowCount();
    insertRow(row);
    auto *item = new QTableWidgetItem(title);
    QFont font = item->font();
    font.setBold(true);
    item->setFont(font);
    item->setFlags(Qt::ItemIsEnabled);
    setItem(row, 0, item);
    setSpan(row, 0, 1, columnCount());
}

QTableWidgetItem *ResultsTable::addRow(const QString &quantity, const QString &value, const QString &toolTip,
                                       Qt::Alignment valueAlignment)
{
    const int row = rowCount();
    insertRow(row);
    auto *quantityItem = new QTableWidgetItem(quantity);
    auto *valueItem = new QTableWidgetItem(value);
    valueItem->setTextAlignment(valueAlignment | Qt::AlignVCenter);
    quantityItem->setToolTip(toolTip);
    valueItem->setToolTip(toolTip);
    setItem(row, 0, quantityItem);
    setItem(row, 1, valueItem);
    return valueItem;
}

} // namespace gapstudio::views
