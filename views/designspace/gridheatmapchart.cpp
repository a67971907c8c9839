#include "designspace/gridheatmapchart.h"

#include "charts/chartformat.h"
#include "explore/heatmapchart.h"
#include "studio/parameternames.h"

#include <qcustomplot.h>

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

QString knobLabel(const std::string &key)
{
    const ParameterWords words = parameterWords(key);
    return words.unit.isEmpty() ? words.label : QStringLiteral("%1 (%2)").arg(words.label, words.unit);
}

QString knobValue(double value)
{
    return QLocale::c().toString(value, 'g', 10);
}

std::size_t indexOf(const std::vector<double> &values, double value)
{
    return static_cast<std::size_t>(std::lower_bound(values.begin(), values.end(), value) - values.begin());
}

/// "TP 8, PP 16, DP 32, microbatch 1" from a grid line's layout.
QString layoutText(const GridPoint &p)
{
    static const std::pair<const char *, const char *> kFields[] = { { "tensor_par", "TP" },
                                                                     { "pipeline_par", "PP" },
                                                                     { "data_par", "DP" },
                                                                     { "microbatch_size", "microbatch" } };
    QStringList parts;
    for (const auto &[key, name] : kFields)
        if (const auto it = p.layout.find(key); it != p.layout.end())
            parts << QStringLiteral("%1 %2").arg(QLatin1String(name), knobValue(it->second));
    return parts.join(QStringLiteral(", "));
}

} // namespace

QString gridMetricLabel(const std::string &metric)
{
    static const std::map<std::string, QString> kLabels {
        { "sample_rate", QObject::tr("Throughput (samples/s)") },
        { "tokens_per_second", QObject::tr("Tokens per second") },
        { "total_time", QObject::tr("Step time (s)") },
        { "total_efficiency", QObject::tr("MFU (fraction of peak)") },
        { "compute_efficiency", QObject::tr("Compute efficiency") },
        { "system_efficiency", QObject::tr("System efficiency") },
        { "bubble_time", QObject::tr("Pipeline bubble (s)") },
        { "tp_comm_exposed_time", QObject::tr("Exposed TP communication (s)") },
        { "pp_comm_exposed_time", QObject::tr("Exposed PP communication (s)") },
        { "dp_comm_exposed_time", QObject::tr("Exposed DP communication (s)") },
        { "ep_comm_exposed_time", QObject::tr("Exposed EP all-to-all (s)") },
        { "proc_mem_tier1_cap_req", QObject::tr("HBM needed per GPU (bytes)") },
        { "proc_mem_tier2_cap_req", QObject::tr("Tier-2 memory needed per GPU (bytes)") },
    };
    const auto it = kLabels.find(metric);
    return it != kLabels.end() ? it->second : QString::fromStdString(metric);
}

GridHeatmapChart::GridHeatmapChart(QWidget *parent)
    : ExploreChart(QStringLiteral("grid_heatmap"), tr("Hardware grid"), parent)
    , mScale(newColorScale(plot()))
{
    showMessage(tr("Open the results of gapstudio-cli grid to see one metric over two knobs"));
}

void GridHeatmapChart::onCleared()
{
    takeColorScale(plot(), mScale);
}

std::size_t GridHeatmapChart::columns() const
{
    return mFile && mSlice.across < mFile->knobValues.size() ? mFile->knobValues[mSlice.across].size() : 1;
}

std::size_t GridHeatmapChart::rows() const
{
    return mFile && mSlice.up < mFile->knobValues.size() ? mFile->knobValues[mSlice.up].size() : 1;
}

const GridPoint *GridHeatmapChart::cell(std::size_t column, std::size_t row) const
{
    const std::size_t i = row * columns() + column;
    return column < columns() && i < mCells.size() ? mCells[i] : nullptr;
}

void GridHeatmapChart::setGrid(std::shared_ptr<const GridFile> file, GridSlice slice)
{
    mFile = std::move(file);
    mSlice = std::move(slice);
    mCells.assign(columns() * rows(), nullptr);
    if (mFile) {
        const std::size_t knobs = mFile->knobs.size();
        mSlice.held.resize(knobs);
        // With one knob the grid is a row: "up" then has the single value 0.
        for (const GridPoint &p : mFile->points) {
            bool inSlice = true;
            for (std::size_t k = 0; k < knobs; ++k)
                if (k != mSlice.across && k != mSlice.up && p.knobs[k] != mSlice.held[k])
                    inSlice = false;
            if (!inSlice)
                continue;
            const std::size_t column = mSlice.across < knobs
                                           ? indexOf(mFile->knobValues[mSlice.across], p.knobs[mSlice.across])
                                           : 0;
            const std::size_t row
                = mSlice.up < knobs ? indexOf(mFile->knobValues[mSlice.up], p.knobs[mSlice.up]) : 0;
            mCells[row * columns() + column] = &p;
        }
    }
    rebuild();
}

double GridHeatmapChart::cellValue(const GridPoint *point) const
{
    if (!point || point->status != "ok")
        return std::numeric_limits<double>::quiet_NaN();
    const auto it = point->results.find(mSlice.metric);
    return it != point->results.end() ? it->second : std::numeric_limits<double>::quiet_NaN();
}

void GridHeatmapChart::rebuild()
{
    clearPlot();
    if (!mFile || mFile->knobs.empty()) {
        showMessage(mFile ? tr("The grid varies no knob") : tr("Open the results of gapstudio-cli grid"));
        return;
    }
    if (mSlice.across == mSlice.up) {
        showMessage(tr("Choose two different knobs"));
        return;
    }
    QCustomPlot *p = plot();
    const int nx = static_cast<int>(columns()), ny = static_cast<int>(rows());
    auto *map = new QCPColorMap(p->xAxis, p->yAxis);
    map->setName(tr("%1 per grid point (empty: not evaluated ok)").arg(gridMetricLabel(mSlice.metric)));
    map->data()->setSize(nx, ny);
    map->data()->setRange(QCPRange(0, nx - 1), QCPRange(0, ny - 1));
    double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
    for (int row = 0; row < ny; ++row)
        for (int column = 0; column < nx; ++column) {
            const double value
                = cellValue(cell(static_cast<std::size_t>(column), static_cast<std::size_t>(row)));
            map->data()->setCell(column, row, value);
            if (!std::isnan(value)) {
                lo = std::min(lo, value);
                hi = std::max(hi, value);
            }
        }
    const QCPColorGradient gradient = viridisGradient();
    map->setGradient(gradient);
    map->setInterpolate(false);
    p->plotLayout()->addElement(2, 1, mScale);
    map->setColorScale(mScale);
    mScale->setGradient(gradient);
    mScale->axis()->setLabel(gridMetricLabel(mSlice.metric));
    if (lo <= hi)
        mScale->setDataRange(QCPRange(lo == hi ? lo - 1 : lo, hi));
    if (nx <= 14 && ny <= 14)
        labelCells(lo, hi);
    setKnobAxes();
    setSubtitle(sliceSubtitle());
    replot();
}

void GridHeatmapChart::labelCells(double lo, double hi)
{
    for (std::size_t row = 0; row < rows(); ++row)
        for (std::size_t column = 0; column < columns(); ++column) {
            const GridPoint *point = cell(column, row);
            if (!point)
                continue;
            const double value = cellValue(point);
            auto *text = new QCPItemText(plot());
            text->position->setCoords(static_cast<double>(column), static_cast<double>(row));
            text->setText(std::isnan(value) ? QString::fromStdString(point->status)
                                            : QLocale::c().toString(value, 'g', 4));
            const double t = hi > lo ? (value - lo) / (hi - lo) : 1;
            text->setColor(!std::isnan(value) && t > 0.6 ? Qt::black : Qt::white);
            if (std::isnan(value))
                text->setColor(QColor(0x70, 0x70, 0x70));
            text->setFont(QFont(font().family(), 8));
        }
}

void GridHeatmapChart::setKnobAxes()
{
    QCustomPlot *p = plot();
    const int nx = static_cast<int>(columns()), ny = static_cast<int>(rows());
    const std::size_t knobs = mFile->knobs.size();
    QSharedPointer<QCPAxisTickerText> xTicks(new QCPAxisTickerText), yTicks(new QCPAxisTickerText);
    for (int column = 0; column < nx; ++column)
        xTicks->addTick(column, mSlice.across < knobs ? knobValue(
                                    mFile->knobValues[mSlice.across][static_cast<std::size_t>(column)])
                                                      : QString());
    for (int row = 0; row < ny; ++row)
        yTicks->addTick(row, mSlice.up < knobs
                                 ? knobValue(mFile->knobValues[mSlice.up][static_cast<std::size_t>(row)])
                                 : QString());
    p->xAxis->setTicker(xTicks);
    p->yAxis->setTicker(yTicks);
    p->xAxis->setLabel(mSlice.across < knobs ? knobLabel(mFile->knobs[mSlice.across]) : QString());
    p->yAxis->setLabel(mSlice.up < knobs ? knobLabel(mFile->knobs[mSlice.up]) : QString());
    p->xAxis->setRange(-0.5, nx - 0.5);
    p->yAxis->setRange(-0.5, ny - 0.5);
    p->xAxis->grid()->setVisible(false);
    p->yAxis->grid()->setVisible(false);
}

QString GridHeatmapChart::sliceSubtitle() const
{
    QStringList held;
    for (std::size_t k = 0; k < mFile->knobs.size(); ++k)
        if (k != mSlice.across && k != mSlice.up)
            held << QStringLiteral("%1 = %2").arg(parameterLabel(mFile->knobs[k]), knobValue(mSlice.held[k]));
    return tr("%1 of %2 points; %3")
        .arg(std::count_if(mCells.begin(), mCells.end(), [](const GridPoint *c) { return c; }))
        .arg(mFile->points.size())
        .arg(held.isEmpty() ? QFileInfo(mFile->path).fileName()
                            : tr("at %1").arg(held.join(QStringLiteral(", "))));
}

QString GridHeatmapChart::toolTipAt(const QPointF &pos) const
{
    if (!message().isEmpty() || !mFile)
        return {};
    const long column = std::lround(plot()->xAxis->pixelToCoord(pos.x()));
    const long row = std::lround(plot()->yAxis->pixelToCoord(pos.y()));
    if (column < 0 || row < 0)
        return {};
    const GridPoint *point = cell(static_cast<std::size_t>(column), static_cast<std::size_t>(row));
    if (!point)
        return column < static_cast<long>(columns()) && row < static_cast<long>(rows())
                   ? tr("not in the file")
                   : QString();
    QStringList knobs;
    for (std::size_t k = 0; k < mFile->knobs.size(); ++k)
        knobs << QStringLiteral("%1 = %2").arg(parameterLabel(mFile->knobs[k]), knobValue(point->knobs[k]));
    QString text = tr("Point %1: %2").arg(point->index).arg(knobs.join(QStringLiteral(", ")));
    if (point->status != "ok")
        return text + QStringLiteral("\n") + QString::fromStdString(point->status + ": " + point->message);
    const auto it = point->results.find(mSlice.metric);
    text += QStringLiteral("\n%1: %2")
                .arg(gridMetricLabel(mSlice.metric),
                     it != point->results.end() ? cf::exact(it->second) : tr("not in the file"));
    if (const QString layout = layoutText(*point); !layout.isEmpty())
        text += tr("\nLayout: %1").arg(layout);
    return text;
}

QList<QStringList> GridHeatmapChart::csvRows() const
{
    const std::size_t knobs = mFile ? mFile->knobs.size() : 0;
    QList<QStringList> rows {
        { mSlice.across < knobs ? QString::fromStdString(mFile->knobs[mSlice.across]) : QStringLiteral("x"),
          mSlice.up < knobs ? QString::fromStdString(mFile->knobs[mSlice.up]) : QStringLiteral("y"),
          QString::fromStdString(mSlice.metric), QStringLiteral("status"), QStringLiteral("point") }
    };
    for (const GridPoint *point : mCells) {
        if (!point)
            continue;
        const auto it = point->results.find(mSlice.metric);
        rows << QStringList { mSlice.across < knobs ? cf::exact(point->knobs[mSlice.across]) : QString(),
                              mSlice.up < knobs ? cf::exact(point->knobs[mSlice.up]) : QString(),
                              it != point->results.end() ? cf::exact(it->second) : QString(),
                              QString::fromStdString(point->status), QString::number(point->index) };
    }
    return rows;
}

} // namespace gapstudio::views
