#include "results/resultstable.h"

#include <QFont>
#include <QHeaderView>
#include <QLocale>

namespace gapstudio::views {

namespace {

using model::Stats;

enum class Unit { Seconds, Milliseconds, SamplesPerSecond, Percent, GiB };

struct Row {
    const char *quantity;
    double Stats::*stat;
    const char *statName; ///< the reference's name, shown as the tool tip
    Unit unit;
};

// Display conversions only; every number is a model output.
QString formatValue(double value, Unit unit)
{
    const QLocale locale;
    switch (unit) {
    case Unit::Seconds:
        return QStringLiteral("%1 s").arg(locale.toString(value, 'f', 4));
    case Unit::Milliseconds:
        return QStringLiteral("%1 ms").arg(locale.toString(value * 1e3, 'f', 1));
    case Unit::SamplesPerSecond:
        return QStringLiteral("%1 samples/s").arg(locale.toString(value, 'f', 2));
    case Unit::Percent:
        return QStringLiteral("%1 %").arg(locale.toString(value * 100.0, 'f', 2));
    case Unit::GiB:
        return QStringLiteral("%1 GiB").arg(locale.toString(value / (1024.0 * 1024.0 * 1024.0), 'f', 3));
    }
    return {};
}

// clang-format off
#define STAT(name) &Stats::name, #name
const Row kSummaryRows[] = {
    {"Step time",                STAT(total_time),              Unit::Seconds},
    {"Sample rate",              STAT(sample_rate),             Unit::SamplesPerSecond},
    {"Total efficiency (MFU)",   STAT(total_efficiency),        Unit::Percent},
    {"Compute efficiency",       STAT(compute_efficiency),      Unit::Percent},
    {"System efficiency",        STAT(system_efficiency),       Unit::Percent},
    {"Tier-1 memory (HBM)",      STAT(proc_mem_tier1_cap_req),  Unit::GiB},
};

// The terms that add up to the step time (reference total_time).
const Row kBreakdownRows[] = {
    {"Forward",                  STAT(fw_time),                 Unit::Milliseconds},
    {"Backward",                 STAT(bw_time),                 Unit::Milliseconds},
    {"Optimizer",                STAT(optim_step_time),         Unit::Milliseconds},
    {"Recompute",                STAT(recompute_time),          Unit::Milliseconds},
    {"Recompute comm (exposed)", STAT(recomm_exposed_time),     Unit::Milliseconds},
    {"Pipeline bubble",          STAT(bubble_time),             Unit::Milliseconds},
    {"TP comm (exposed)",        STAT(tp_comm_exposed_time),    Unit::Milliseconds},
    {"PP comm (exposed)",        STAT(pp_comm_exposed_time),    Unit::Milliseconds},
    {"DP comm (exposed)",        STAT(dp_comm_exposed_time),    Unit::Milliseconds},
    {"FW offload (exposed)",     STAT(fw_offload_exposed_time), Unit::Milliseconds},
    {"BW offload (exposed)",     STAT(bw_offload_exposed_time), Unit::Milliseconds},
};
#undef STAT
// clang-format on

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

void ResultsTable::showEvaluation(const model::Evaluation &evaluation)
{
    setRowCount(0);
    if (!evaluation.ok) {
        addSection(tr("Configuration cannot be evaluated"));
        if (evaluation.diagnostics.empty())
            addRow(tr("Model"), tr("No results and no diagnostics were returned."));
        for (const model::Diagnostic &diagnostic : evaluation.diagnostics) {
            const QString message = QString::fromStdString(diagnostic.message);
            const QString field
                = diagnostic.field.empty() ? tr("Configuration") : QString::fromStdString(diagnostic.field);
            addRow(field, message, message);
        }
        return;
    }

    const auto addStatRows = [&](const QString &title, const auto &rows) {
        addSection(title);
        for (const Row &row : rows)
            addRow(tr(row.quantity), formatValue(evaluation.stats.*row.stat, row.unit),
                   QString::fromUtf8(row.statName), Qt::AlignRight);
    };
    addStatRows(tr("Summary"), kSummaryRows);
    addStatRows(tr("Step time breakdown"), kBreakdownRows);
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

void ResultsTable::addRow(const QString &quantity, const QString &value, const QString &toolTip,
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
}

} // namespace gapstudio::views
