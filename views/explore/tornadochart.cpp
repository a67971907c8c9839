#include "explore/tornadochart.h"

#include "charts/chartformat.h"
#include "studio/parameternames.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace gapstudio::views {

namespace cf = chartformat;

QString parameterValueText(const model::Design &design, model::HardwareParameter parameter)
{
    const double v = model::parameterValue(design, parameter);
    switch (parameter) {
    case model::HardwareParameter::PeakFlops:
        return cf::number(v / 1e12, 1) + QStringLiteral(" TFLOP/s");
    case model::HardwareParameter::HbmBandwidth:
        return cf::number(v / 1e12, 2) + QStringLiteral(" TB/s");
    case model::HardwareParameter::HbmCapacity:
        return cf::gib(v);
    case model::HardwareParameter::ScaleUpBandwidth:
    case model::HardwareParameter::ScaleOutBandwidth:
        return cf::gbps(v);
    case model::HardwareParameter::NetworkLatency: { // every tier's latency scales: name both ends
        const auto &tiers = design.system.networks;
        if (tiers.size() < 2)
            return cf::number(v * 1e6, 2) + QStringLiteral(" µs");
        return QObject::tr("scale-up %1 µs, scale-out %2 µs")
            .arg(cf::number(tiers.front().latency_s * 1e6, 2), cf::number(tiers.back().latency_s * 1e6, 2));
    }
    case model::HardwareParameter::ScaleUpDomainSize:
        return QStringLiteral("%1 GPUs").arg(static_cast<qint64>(std::llround(v)));
    }
    return {};
}

TornadoChart::TornadoChart(QWidget *parent)
    : ExploreChart(QStringLiteral("tornado"), tr("Sensitivity: what buys the most"), parent)
{
    showMessage(tr("Run sweeps to see which hardware parameter matters most"));
    connect(plot(), &QCustomPlot::afterLayout, this, &TornadoChart::fitLabels);
}

void TornadoChart::setTickLabels()
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (std::size_t i = 0; i < mLabels.size(); ++i) {
        const RowLabel &l = mLabels[i];
        ticker->addTick(static_cast<double>(i + 1),
                        mTwoLines && !l.value.isEmpty() ? l.name + QStringLiteral("\n") + l.value : l.name);
    }
    plot()->yAxis->setTicker(ticker);
}

void TornadoChart::fitLabels()
{
    if (mLabels.empty() || !hasData())
        return;
    const QCPAxis *axis = plot()->yAxis;
    const double row_px = std::fabs(axis->coordToPixel(2) - axis->coordToPixel(1));
    const bool twoLines = row_px >= 2 * QFontMetrics(axis->tickLabelFont()).lineSpacing() + 2;
    if (twoLines == mTwoLines)
        return;
    mTwoLines = twoLines;
    setTickLabels();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void TornadoChart::setData(std::vector<model::Elasticity> elasticities,
                           const std::optional<model::Design> &design,
                           const std::optional<model::Stats> &designStats)
{
    mDesignStats = designStats;
    std::stable_sort(elasticities.begin(), elasticities.end(),
                     [](const model::Elasticity &a, const model::Elasticity &b) {
                         if (a.valid != b.valid)
                             return a.valid;
                         return std::fabs(a.stepTime) > std::fabs(b.stepTime);
                     });
    mBars = std::move(elasticities);
    rebuild(design);
}

void TornadoChart::rebuild(const std::optional<model::Design> &design)
{
    clearPlot();
    if (mBars.empty()) {
        showMessage(tr("No sensitivity: the design has no valid evaluation"));
        return;
    }
    QCustomPlot *p = plot();
    QString subtitle = tr("Elasticity of step time: the %-change of the step for +1 % of the parameter; "
                          "longest bar = what buys the most");
    if (mDesignStats)
        subtitle += tr("\nAround this design: step time %1, %2 samples/s, MFU %3")
                        .arg(cf::ms(mDesignStats->total_time), cf::number(mDesignStats->sample_rate, 2),
                             cf::percent(mDesignStats->total_efficiency));
    setSubtitle(subtitle);

    // Categories run down the left axis (key axis = yAxis), elasticities along the bottom.
    auto *shortens = new QCPBars(p->yAxis, p->xAxis);
    shortens->setName(tr("More of it shortens the step"));
    shortens->setPen(Qt::NoPen);
    shortens->setBrush(QColor(0x4E79A7));
    shortens->setWidth(0.6);
    auto *lengthens = new QCPBars(p->yAxis, p->xAxis);
    lengthens->setName(tr("More of it lengthens the step"));
    lengthens->setPen(Qt::NoPen);
    lengthens->setBrush(QColor(0xE15759));
    lengthens->setWidth(0.6);

    mLabels.clear();
    double extent = 0;
    for (const model::Elasticity &e : mBars)
        if (e.valid)
            extent = std::max(extent, std::fabs(e.stepTime));
    extent = extent > 0 ? extent * 1.35 : 1;
    for (std::size_t i = 0; i < mBars.size(); ++i) {
        const model::Elasticity &e = mBars[i];
        const double key = static_cast<double>(i + 1);
        const QString name = hardwareParameterLabel(e.parameter); // the sliders' words
        const QString value = design ? parameterValueText(*design, e.parameter) : QString();
        mLabels.push_back({ name, value });
        const QString label = value.isEmpty() ? name : name + QStringLiteral(" = ") + value;
        auto *text = new QCPItemText(p);
        text->position->setCoords(e.valid ? e.stepTime : 0, key);
        text->setClipToAxisRect(false);
        text->setPadding(QMargins(4, 0, 4, 0));
        if (!e.valid) {
            // A whole-number parameter (e.g. the domain size) may not move at all by 1 %.
            text->setText(e.moved ? tr("infeasible at ±1 %") : tr("not moved by ±1 %"));
            text->setColor(QColor(0x80, 0x80, 0x80));
            text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            continue;
        }
        QCPBars *bars = e.stepTime <= 0 ? shortens : lengthens;
        bars->addData(key, e.stepTime);
        text->setText(cf::signedNumber(e.stepTime, 3));
        text->setPositionAlignment((e.stepTime <= 0 ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
        setToolTip(bars, key,
                   tr("%1: +1 % gives %2 % step time and %3 % MFU")
                       .arg(label, cf::signedNumber(e.stepTime, 3), cf::signedNumber(e.mfu, 3)));
    }

    setTickLabels();
    p->yAxis->setRangeReversed(true); // the largest bar on top
    p->yAxis->setRange(0.4, static_cast<double>(mBars.size()) + 0.6);
    p->yAxis->grid()->setVisible(false);
    p->yAxis->setTickLength(0, 0);
    p->xAxis->setLabel(tr("Elasticity of step time (d ln T / d ln p)"));
    p->xAxis->setRange(-extent, extent);
    p->xAxis->grid()->setZeroLinePen(QPen(QColor(0x40, 0x40, 0x40), 1.2));
    replot();
}

QList<QStringList> TornadoChart::csvRows() const
{
    updateData();
    QList<QStringList> rows { { QStringLiteral("parameter"), QStringLiteral("valid"),
                                QStringLiteral("step_time_elasticity"), QStringLiteral("mfu_elasticity") } };
    for (const model::Elasticity &e : mBars)
        rows << QStringList { QString::fromUtf8(model::parameterKey(e.parameter)),
                              e.valid ? QStringLiteral("1") : QStringLiteral("0"), cf::exact(e.stepTime),
                              cf::exact(e.mfu) };
    return rows;
}

} // namespace gapstudio::views
