#include "results/resultstable.h"

#include "common/whenseen.h"

#include "results/calibrationtext.h"
#include "results/goodputtext.h"
#include "results/layoutformat.h"

#include "gapstudio/scenario/best_layout.h"
#include "gapstudio/model/units.h"

#include <QHash>
#include <algorithm>

#include <QFont>
#include <QHeaderView>
#include <QLocale>

namespace gapstudio::views {

namespace {

using units::kBytesPerGiB;

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
    , mWhenSeen(new WhenSeen(this))
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

void ResultsTable::setDiagnosticWording(DiagnosticWording wording)
{
    mWording = std::move(wording);
}

QList<ResultsTable::Row> ResultsTable::problemRows(const ScenarioResults &results) const
{
    QList<Row> rows;
    const auto section = [&rows](const QString &title) { rows.append({ title, {}, {}, {}, {}, true }); };
    const auto add = [&rows](const QString &quantity, const QString &value, const QString &toolTip = {},
                             Qt::Alignment alignment = Qt::AlignLeft, QVariant seconds = {}) {
        rows.append({ quantity, value, toolTip, alignment, std::move(seconds), false });
    };
    const QString status = QString::fromStdString(results.statusText);
    if (results.status == scenario::EvaluationStatus::OverCapacity && results.analysis) {
        // It cannot run: no time or efficiency is a result; the memory it would need is.
        section(tr("Does not fit in GPU memory"));
        add(tr("Status"), status, status);
        const model::MemoryUse &m = results.analysis->memory;
        add(tr("HBM per GPU (needed)"), gib(m.tier1Need_B), {}, Qt::AlignRight);
        add(tr("HBM per GPU (capacity)"), gib(m.tier1Capacity_B), {}, Qt::AlignRight);
        if (m.tier2Need_B > 0 || m.tier2Capacity_B > 0) {
            add(tr("Tier-2 memory per GPU (needed)"), gib(m.tier2Need_B), {}, Qt::AlignRight);
            add(tr("Tier-2 memory per GPU (capacity)"), gib(m.tier2Capacity_B), {}, Qt::AlignRight);
        }
        return rows;
    }
    if (!results.ok() || !results.analysis) {
        section(tr("The design cannot be evaluated"));
        // The status names the model's first diagnostic in its own notation; the rows below say
        // each one in words.
        const QString brief = results.diagnostics.empty() ? status : tr("Cannot be evaluated");
        add(tr("Status"), brief, status);
        // In the words setDiagnosticWording gives (the Layout panel's), naming the field to change.
        const model::Execution *execution = results.compiled ? &results.compiled->execution : nullptr;
        for (const model::Diagnostic &diagnostic : results.diagnostics) {
            const QString message
                = mWording ? mWording(diagnostic, execution) : QString::fromStdString(diagnostic.message);
            add(tr("Problem"), message, message);
        }
    }
    return rows;
}

QList<ResultsTable::Row> ResultsTable::rowsOf(const ScenarioResults &results) const
{
    if (QList<Row> problems = problemRows(results); !problems.isEmpty())
        return problems;
    QList<Row> rows;
    const auto section = [&rows](const QString &title) { rows.append({ title, {}, {}, {}, {}, true }); };
    const auto add = [&rows](const QString &quantity, const QString &value, const QString &toolTip = {},
                             Qt::Alignment alignment = Qt::AlignLeft, QVariant seconds = {}) {
        rows.append({ quantity, value, toolTip, alignment, std::move(seconds), false });
    };
    const model::Stats &s = results.evaluation.stats;
    const model::Analysis &a = *results.analysis;
    const QLocale locale;
    section(tr("Summary"));
    add(tr("Step time"), seconds(a.step.total_s), {}, Qt::AlignRight);
    add(tr("Sample rate"), tr("%1 samples/s").arg(locale.toString(s.sample_rate, 'f', 2)), {},
        Qt::AlignRight);
    add(tr("Token rate"), tr("%1 tokens/s").arg(locale.toString(a.tokensPerSecond, 'f', 0)), {},
        Qt::AlignRight);
    add(tr("Total efficiency (MFU)"), percent(a.gap.mfu), {}, Qt::AlignRight);
    addIntervalRows(rows, results);
    add(tr("Compute efficiency"), percent(s.compute_efficiency), {}, Qt::AlignRight);
    add(tr("System efficiency"), percent(s.system_efficiency), {}, Qt::AlignRight);
    add(tr("HBM per GPU (needed)"), gib(a.memory.tier1Need_B), {}, Qt::AlignRight);
    add(tr("HBM per GPU (capacity)"), gib(a.memory.tier1Capacity_B), {}, Qt::AlignRight);
    if (const QString goodput = goodputText(results); !goodput.isEmpty()) {
        add(tr("Goodput under failures"), goodput,
            tr("Share of wall-clock time that trains once failures, checkpoints and restarts are "
               "counted (Young's interval, Daly's expected wall time; a failure rate per GPU-hour "
               "from the Llama 3 405B run; gapstudio-cli eval --goodput)"));
        if (const QString rate = effectiveTokenRateText(results); !rate.isEmpty())
            add(tr("Effective token rate"), rate, {}, Qt::AlignRight);
    }
    if (results.compiled) {
        const scenario::Software &software = results.compiled->resolved.software;
        add(tr("Software stack"), QString::fromStdString(software.info.name),
            QString::fromStdString(software.info.source));
    }
    const QString calibration = calibrationText(results);
    add(tr("Calibration"), calibration, calibration);
    if (const QString accuracy = accuracyText(results); !accuracy.isEmpty())
        add(tr("Typical error"), accuracy, accuracy);

    // Every part of the step (model::Analysis::step), in the model's order; they sum to the step.
    section(tr("Step time breakdown"));
    for (const model::TimeComponent &c : a.step.exposed) {
        if (c.seconds == 0)
            continue; // a part this design does not have (EP in a dense model, offload off, ...)
        add(QString::fromStdString(c.label), milliseconds(c.seconds),
            tr("%1 % of the step").arg(locale.toString(100 * c.seconds / a.step.total_s, 'f', 1)),
            Qt::AlignRight, c.seconds);
    }
    return rows;
}

void ResultsTable::addIntervalRows(QList<Row> &rows, const ScenarioResults &results)
{
    if (!results.interval || !results.analysis)
        return;
    // The likely range of each: one standard deviation of the model's error.
    const QString why = intervalText(results);
    const auto add = [&](const QString &quantity, const QString &low, const QString &high) {
        rows.append({ quantity, tr("%1 – %2").arg(low, high), why, Qt::AlignRight, {}, false });
    };
    const auto [fastest, slowest] = results.interval->range(results.analysis->step.total_s);
    add(tr("Step time, likely range"), seconds(fastest), seconds(slowest));
    const auto [lowMfu, highMfu] = results.interval->range(results.analysis->gap.mfu);
    add(tr("MFU, likely range"), percent(lowMfu), percent(highMfu));
}

void ResultsTable::showResults(const ScenarioResults &results)
{
    mCurrent = rowsOf(results);
    render();
}

void ResultsTable::addBestLayout(const ScenarioResults &own, const ScenarioResults &best)
{
    if (!best.ok() || !best.compiled)
        return;
    const QLocale locale;
    const model::Stats &b = best.evaluation.stats;
    const auto add = [this](const QString &quantity, const QString &value, const QString &toolTip = {},
                            Qt::Alignment alignment = Qt::AlignLeft) {
        mCurrent.append({ quantity, value, toolTip, alignment, {}, false });
    };
    mCurrent.append({ tr("Best layout (your layout in brackets)"), {}, {}, {}, {}, true });
    add(tr("Layout"), layoutformat::summary(best.compiled->execution),
        own.compiled ? tr("Your layout: %1").arg(layoutformat::summary(own.compiled->execution)) : QString());
    const bool ownOk = own.ok() && own.analysis;
    const auto both = [&](const QString &bestValue, const QString &ownValue) {
        return ownOk ? QStringLiteral("%1  (%2)").arg(bestValue, ownValue) : bestValue;
    };
    add(tr("Best step time"), both(seconds(b.total_time), seconds(own.evaluation.stats.total_time)), {},
        Qt::AlignRight);
    add(tr("Best sample rate"),
        both(tr("%1 samples/s").arg(locale.toString(b.sample_rate, 'f', 2)),
             tr("%1 samples/s").arg(locale.toString(own.evaluation.stats.sample_rate, 'f', 2))),
        {}, Qt::AlignRight);
    add(tr("Best total efficiency (MFU)"),
        both(percent(best.analysis->gap.mfu), ownOk ? percent(own.analysis->gap.mfu) : QString()), {},
        Qt::AlignRight);
    if (const std::optional<double> loss = scenario::layoutChoiceLoss(own, best))
        add(tr("Layout choice loss"), percent(*loss),
            tr("Share of peak your layout gives up against the best layout"), Qt::AlignRight);
    render();
}

void ResultsTable::showError(const QString &message)
{
    mCurrent = { { tr("Error"), {}, {}, {}, {}, true },
                 { tr("Input"), message, message, Qt::AlignLeft, {}, false } };
    render();
}

void ResultsTable::setPinned(const QList<PinnedScenario> &pinned)
{
    mPinned.clear();
    for (const PinnedScenario &pin : pinned)
        mPinned.append({ pin.name, rowsOf(*pin.results) });
    render();
}

void ResultsTable::render()
{
    mWhenSeen->run([this] { renderNow(); });
}

void ResultsTable::renderNow()
{
    // One column per design: the current one, then the pins. A quantity only some designs have
    // (a status, an EP all-to-all) is placed after the row that precedes it in its own design.
    QList<const QList<Row> *> designs { &mCurrent };
    for (const auto &pin : std::as_const(mPinned))
        designs.append(&pin.second);
    const auto keyOf
        = [](const Row &row) { return (row.section ? QStringLiteral("\u0001") : QString()) + row.quantity; };
    QStringList order;
    QHash<QString, QVector<const Row *>> cells;
    for (qsizetype d = 0; d < designs.size(); ++d) {
        qsizetype previous = -1;
        for (const Row &row : *designs[d]) {
            const QString key = keyOf(row);
            qsizetype at = order.indexOf(key);
            if (at < 0)
                order.insert(at = previous + 1, key);
            previous = at;
            QVector<const Row *> &line = cells[key];
            line.resize(designs.size());
            line[d] = &row;
        }
    }

    clear();
    setRowCount(0);
    setColumnCount(static_cast<int>(1 + designs.size()));
    QStringList headers { tr("Quantity") };
    if (mPinned.isEmpty())
        headers << tr("Value");
    else
        headers << tr("Current design");
    for (const auto &pin : std::as_const(mPinned))
        headers << pin.first;
    setHorizontalHeaderLabels(headers);
    for (int column = 1; column < columnCount(); ++column)
        horizontalHeaderItem(column)->setToolTip(headers[column]);
    // One design: its values take the width left. Several: each column is as wide as its design's
    // name and values, so no name is cut (the table scrolls sideways when they do not all fit).
    const bool compare = !mPinned.isEmpty();
    horizontalHeader()->setStretchLastSection(!compare);
    for (int column = 1; column < columnCount(); ++column)
        horizontalHeader()->setSectionResizeMode(column, compare ? QHeaderView::ResizeToContents
                                                                 : QHeaderView::Interactive);
    for (const QString &key : std::as_const(order)) {
        const QVector<const Row *> &line = cells[key];
        const Row *first
            = *std::find_if(line.cbegin(), line.cend(), [](const Row *r) { return r != nullptr; });
        if (first->section) {
            addSection(first->quantity);
            continue;
        }
        const int row = rowCount();
        insertRow(row);
        setItem(row, 0, new QTableWidgetItem(first->quantity));
        item(row, 0)->setToolTip(first->toolTip);
        for (qsizetype d = 0; d < line.size(); ++d) {
            const Row *cell = line[d];
            auto *value = new QTableWidgetItem(cell ? cell->value : QStringLiteral("\u2014"));
            value->setTextAlignment((cell ? cell->alignment : Qt::AlignRight) | Qt::AlignVCenter);
            if (cell) {
                value->setToolTip(cell->toolTip);
                if (cell->seconds.isValid())
                    value->setData(kSecondsRole, cell->seconds);
            }
            setItem(row, static_cast<int>(1 + d), value);
        }
    }
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

} // namespace gapstudio::views
