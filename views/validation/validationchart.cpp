#include "validation/validationchart.h"

#include "charts/chartformat.h"
#include "results/calibrationtext.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>

namespace gapstudio::views {

namespace {

using chartformat::qs;

/// Markers cycled with the colours, so that families differ in shape as well as colour.
constexpr QCPScatterStyle::ScatterShape kShapes[]
    = { QCPScatterStyle::ssDisc,     QCPScatterStyle::ssSquare, QCPScatterStyle::ssDiamond,
        QCPScatterStyle::ssTriangle, QCPScatterStyle::ssCircle, QCPScatterStyle::ssTriangleInverted,
        QCPScatterStyle::ssCross,    QCPScatterStyle::ssPlus,   QCPScatterStyle::ssStar };

QString signedPercent(double fraction)
{
    return chartformat::signedNumber(fraction * chartformat::kPercent, 1) + QStringLiteral(" %");
}

QString secondsText(double s)
{
    return QLocale::c().toString(s, 'g', 4) + QStringLiteral(" s");
}

} // namespace

ValidationChart::ValidationChart(QWidget *parent)
    : ExploreChart(QStringLiteral("validation"), tr("Predicted against measured iteration time"), parent)
{
    connect(plot(), &QCustomPlot::mouseRelease, this, [this](QMouseEvent *event) {
        if (event->button() != Qt::LeftButton)
            return;
        if (const int index = rowAt(event->position()); index >= 0)
            emit runClicked(index);
    });
    showMessage(tr("No measured runs evaluated yet"));
}

void ValidationChart::setRows(std::vector<scenario::ValidationRow> rows, const QString &subtitle)
{
    mRows = std::move(rows);
    mPlotted.clear();
    for (std::size_t i = 0; i < mRows.size(); ++i)
        if (mRows[i].predicted_s && *mRows[i].predicted_s > 0)
            mPlotted.push_back(static_cast<int>(i));
    if (mPlotted.empty()) {
        showMessage(mRows.empty() ? tr("No measured runs")
                                  : tr("No run has a prediction (see the list of runs)"));
        return;
    }
    clearPlot();
    setSubtitle(subtitle);
    QCustomPlot *p = plot();
    double low = std::numeric_limits<double>::max();
    double high = 0;
    std::map<std::string, std::vector<int>> families; // sorted by name: stable colours
    for (int index : mPlotted) {
        const scenario::ValidationRow &row = mRows[static_cast<std::size_t>(index)];
        families[row.family].push_back(index);
        low = std::min({ low, row.measured_s, *row.predicted_s });
        high = std::max({ high, row.measured_s, *row.predicted_s });
    }
    low /= 1.5;
    high *= 1.5;
    drawGuides(low, high);
    int family = 0;
    for (const auto &[name, indices] : families) {
        QCPGraph *graph = p->addGraph();
        graph->setObjectName(QStringLiteral("family:") + qs(name));
        graph->setName(QStringLiteral("%1 (%2)").arg(qs(name)).arg(indices.size()));
        graph->setLineStyle(QCPGraph::lsNone);
        const QColor color = chartformat::componentColor(std::string(), family);
        const auto shape = kShapes[static_cast<std::size_t>(family) % std::size(kShapes)];
        graph->setScatterStyle(QCPScatterStyle(shape, color, color.lighter(130), 8));
        graph->setPen(QPen(color));
        std::vector<int> sorted = indices; // QCPGraph keeps its data sorted by key
        std::stable_sort(sorted.begin(), sorted.end(), [this](int a, int b) {
            return mRows[static_cast<std::size_t>(a)].measured_s
                   < mRows[static_cast<std::size_t>(b)].measured_s;
        });
        for (int index : sorted) {
            const scenario::ValidationRow &row = mRows[static_cast<std::size_t>(index)];
            graph->addData(row.measured_s, *row.predicted_s);
        }
        ++family;
    }
    for (QCPAxis *axis : { p->xAxis, p->yAxis }) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog));
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setRange(low, high);
    }
    p->xAxis->setLabel(tr("Measured iteration time (s)"));
    p->yAxis->setLabel(tr("Predicted iteration time (s)"));
    replot();
}

void ValidationChart::drawGuides(double low, double high)
{
    // Straight lines on log-log axes: predicted = measured, and the band's edges where
    // measured / predicted - 1 = +-kBand, i.e. predicted = measured / (1 +- kBand).
    QCustomPlot *p = plot();
    const auto line = [&](double factor, const QString &name, const QPen &pen) {
        QCPGraph *graph = p->addGraph();
        graph->setObjectName(QStringLiteral("guide"));
        graph->setName(name);
        graph->setPen(pen);
        graph->setData({ low, high }, { low * factor, high * factor }, true);
        return graph;
    };
    const QColor band(0x59A14F);
    QCPGraph *upper = line(1 / (1 - kBand), tr("±10 % error"), QPen(band, 1, Qt::DashLine));
    QCPGraph *lower = line(1 / (1 + kBand), QString(), QPen(band, 1, Qt::DashLine));
    QColor fill = band;
    fill.setAlpha(40);
    upper->setBrush(fill);
    upper->setChannelFillGraph(lower);
    lower->removeFromLegend();
    line(1, tr("predicted = measured"), QPen(QColor(0x60, 0x60, 0x60), 1.2));
}

std::optional<QPointF> ValidationChart::pointPosition(int index) const
{
    if (std::find(mPlotted.begin(), mPlotted.end(), index) == mPlotted.end())
        return std::nullopt;
    const scenario::ValidationRow &row = mRows[static_cast<std::size_t>(index)];
    return QPointF(plot()->xAxis->coordToPixel(row.measured_s),
                   plot()->yAxis->coordToPixel(*row.predicted_s));
}

int ValidationChart::rowAt(const QPointF &pos) const
{
    int best = -1;
    double bestDistance = plot()->selectionTolerance();
    for (int index : mPlotted) {
        const QPointF at = *pointPosition(index);
        const double distance = std::hypot(at.x() - pos.x(), at.y() - pos.y());
        if (distance <= bestDistance) {
            best = index;
            bestDistance = distance;
        }
    }
    return best;
}

QString ValidationChart::toolTipAt(const QPointF &pos) const
{
    const int index = rowAt(pos);
    return index < 0 ? QString() : toolTip(index);
}

QString ValidationChart::toolTip(int index) const
{
    const scenario::ValidationRow &row = mRows[static_cast<std::size_t>(index)];
    QString text
        = QStringLiteral("<b>%1</b> (%2)<br>").arg(qs(row.name).toHtmlEscaped(), qs(row.id).toHtmlEscaped());
    text += tr("Family: %1<br>").arg(qs(row.family).toHtmlEscaped());
    text += tr("Measured %1, predicted %2: error %3<br>")
                .arg(secondsText(row.measured_s), secondsText(*row.predicted_s), signedPercent(*row.error));
    if (row.status == scenario::RunStatus::OverCapacity)
        text += tr("<i>Over memory capacity in the model:</i> %1<br>").arg(qs(row.cause).toHtmlEscaped());
    text += tr("<i>Source:</i> %1<br>").arg(qs(row.source).toHtmlEscaped());
    if (!row.notes.empty())
        text += tr("<i>Assumptions:</i> %1<br>").arg(qs(row.notes).toHtmlEscaped());
    text += tr("<i>Calibration:</i> %1<br>").arg(calibrationText(row.calibrationNote).toHtmlEscaped());
    text += tr("Click to open this run as the current design.");
    return QStringLiteral("<p style='white-space:normal'>%1</p>").arg(text);
}

QList<QStringList> ValidationChart::csvRows() const
{
    QList<QStringList> out { { QStringLiteral("id"), QStringLiteral("family"), QStringLiteral("measured_s"),
                               QStringLiteral("predicted_s"), QStringLiteral("error"),
                               QStringLiteral("status"), QStringLiteral("cause"),
                               QStringLiteral("calibration") } };
    for (const scenario::ValidationRow &row : mRows)
        out.append({ qs(row.id), qs(row.family), chartformat::exact(row.measured_s),
                     row.predicted_s ? chartformat::exact(*row.predicted_s) : QString(),
                     row.error ? chartformat::exact(*row.error) : QString(),
                     QString::fromLatin1(scenario::runStatusName(row.status)), qs(row.cause),
                     qs(row.calibrationNote) });
    return out;
}

} // namespace gapstudio::views
