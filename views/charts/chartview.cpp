#include "charts/chartview.h"

#include <qcustomplot.h>

namespace gapstudio::views {

ChartView::ChartView(QString id, QString title, QWidget *parent)
    : PlotChart(std::move(id), std::move(title), parent)
{
    requestDraw();
}

void ChartView::setResults(ResultsPtr current)
{
    mCurrent = std::move(current);
    requestDraw();
}

void ChartView::setPins(QList<PinnedScenario> pins)
{
    mPins = std::move(pins);
    requestDraw();
}

void ChartView::setBaseline(ResultsPtr baseline)
{
    setPins(baselinePin(std::move(baseline)));
}

QString ChartRun::longName() const
{
    return name.isEmpty() ? run : QStringLiteral("%1 (%2)").arg(run, name);
}

bool ChartView::shows(const ResultsPtr &results) const
{
    return results && results->hasStats()
           && (results->ok()
               || (results->status == scenario::EvaluationStatus::OverCapacity && showsOverCapacity()));
}

const model::Analysis *ChartView::currentAnalysis() const
{
    return shows(mCurrent) ? &*mCurrent->analysis : nullptr;
}

std::vector<ChartRun> ChartView::pinRuns() const
{
    std::vector<ChartRun> runs;
    if (!currentAnalysis())
        return runs;
    for (int i = 0; i < mPins.size(); ++i) {
        const PinnedScenario &pin = mPins[i];
        if (!shows(pin.results))
            continue;
        const QString run = numbersPins() ? QStringLiteral("pin %1").arg(i + 1) : QStringLiteral("baseline");
        runs.push_back({ run, pin.name, &*pin.results->analysis, pin.results.get(), i + 1 });
    }
    return runs;
}

ChartRun ChartView::currentRun() const
{
    return { QStringLiteral("current"), {}, currentAnalysis(), mCurrent.get(), 0 };
}

void ChartView::addPinKeys(const std::vector<ChartRun> &pins,
                           const std::function<QBrush(const ChartRun &)> &brushOf)
{
    if (!numbersPins())
        return;
    for (const ChartRun &pin : pins) {
        auto *key = new QCPBars(plot()->yAxis, plot()->xAxis); // no data: a legend entry only
        key->setObjectName(QStringLiteral("pinKey"));
        key->setName(QStringLiteral("%1: %2").arg(pin.run, pin.name));
        const QBrush brush = brushOf ? brushOf(pin) : QBrush(Qt::NoBrush);
        key->setBrush(brush);
        key->setPen(brush.style() == Qt::NoBrush ? QPen(Qt::NoPen) : QPen(brush.color().darker(120), 0.8));
    }
}

void ChartView::draw()
{
    clearPlot();
    if (!mCurrent) {
        showMessage(tr("No results"));
    } else if (const model::Analysis *current = currentAnalysis()) {
        rebuild(*current, pinRuns());
        // Legend items clip to their own rectangle, which is exactly one text line: leave room
        // for descenders when the painter's font metrics differ slightly from the screen's.
        for (int i = 0; i < plot()->legend->elementCount(); ++i) // cells of a wrapped grid may be empty
            if (QCPLayoutElement *item = plot()->legend->elementAt(i))
                item->setMargins(QMargins(0, 1, 0, 3));
        replot();
    } else if (mCurrent->status == scenario::EvaluationStatus::OverCapacity) {
        showMessage(tr("Not shown: the design cannot run. %1. See the Memory chart.")
                        .arg(QString::fromStdString(mCurrent->statusText)));
    } else {
        showMessage(tr("No results: %1").arg(QString::fromStdString(mCurrent->statusText)));
    }
}

} // namespace gapstudio::views
