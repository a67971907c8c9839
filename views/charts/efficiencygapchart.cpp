#include "charts/efficiencygapchart.h"

#include "charts/chartformat.h"

#include "gapstudio/model/cost.h"
#include "gapstudio/scenario/best_layout.h"

#include <qcustomplot.h>

#include <QSet>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace gapstudio::views {

namespace cf = chartformat;

namespace {

const QColor kPeak(0x8C, 0x86, 0x82);
const QColor kLoss(0xE1, 0x57, 0x59);
const QColor kGain(0x59, 0xA1, 0x4F);
const QColor kMfu(0x4E, 0x79, 0xA7);

/// One bar of the waterfall, in percent of peak: `percent` long, from `from` down to `to` (a
/// loss) or up to `to` (a gain: a negative loss, e.g. calibrated kernels faster than the model's
/// default efficiency).
struct Step {
    QString key;
    QString label;
    double from = 0, to = 0, percent = 0;
    bool gain = false;
    [[nodiscard]] double value() const { return percent; }
    [[nodiscard]] double lower() const { return std::min(from, to); }
    [[nodiscard]] double upper() const { return std::max(from, to); }
};

/// Losses that are not zero in at least one of the runs (only these are drawn and listed).
QSet<QString> shownLosses(const model::Analysis &current, const model::Analysis *baseline)
{
    QSet<QString> keys;
    for (const model::Analysis *analysis : {&current, baseline})
        if (analysis) {
            for (const model::TimeComponent &loss : analysis->gap.losses)
                if (loss.seconds != 0)
                    keys.insert(cf::qs(loss.key));
            if (analysis->gap.failures != 0)
                keys.insert(QStringLiteral("failures"));
        }
    return keys;
}

bool isMfuKey(const QString &key)
{
    return key == QLatin1String("mfu") || key == QLatin1String("effective_mfu");
}

/// After a waterfall in percent of peak that ends at the MFU: what failures, checkpoints and
/// restarts take from it (model::EfficiencyGap::failures), and the MFU over the wall time.
void addFailures(std::vector<Step> &steps, const model::EfficiencyGap &gap, const QSet<QString> &shown)
{
    if (!shown.contains(QStringLiteral("failures")))
        return;
    const double mfu = steps.back().value(), lost = gap.failures * cf::kPercent;
    steps.push_back(
        { QStringLiteral("failures"), QObject::tr("Failures and checkpoints"), mfu, mfu - lost, lost });
    steps.push_back({ QStringLiteral("effective_mfu"), QObject::tr("Effective MFU (goodput)"), mfu - lost, 0,
                      mfu - lost });
}

using Scale = EfficiencyGapChart::Scale;

/// The gap in percent of peak: the MFU and each loss's fraction of peak (`seconds` holds the
/// fraction of peak lost, model::EfficiencyGap).
Scale percentScale(const model::EfficiencyGap &gap)
{
    Scale scale;
    scale.totalLabel = QObject::tr("Peak (100 %)");
    scale.amounts.push_back({ "useful", {}, gap.mfu * cf::kPercent });
    for (const model::TimeComponent &loss : gap.losses)
        scale.amounts.push_back({ loss.key, loss.label, loss.seconds * cf::kPercent });
    return scale;
}

/// The gap in dollars of one training run of the token budget (model::gapInDollars): with
/// failures, the run's cost over the wall time is the sum of its shares.
Scale dollarScale(const model::EfficiencyGap &gap, const model::CostResult &cost)
{
    Scale scale { 0, model::gapInDollars(gap, cost.runUsd), true, QObject::tr("Cost of the run") };
    for (const model::CostShare &share : scale.amounts) {
        scale.total += share.value;
        if (share.key == "failures")
            scale.totalLabel = QObject::tr("Cost of the run with failures");
    }
    return scale;
}

QString amountText(const Scale &scale, double value, int decimals)
{
    if (!scale.dollars)
        return cf::percent(value / cf::kPercent, decimals);
    return cf::usd(value);
}

/// The waterfall of one run: 100% of peak (or the run's cost), one step down per shown loss, then
/// one step up per gain, and the MFU. Losses come before gains, so the level never rises above
/// the peak (the losses less the gains are 1 - MFU, and MFU <= 1).
std::vector<Step> stepsOf(const Scale &scale, const QSet<QString> &shown)
{
    std::vector<Step> steps { { QStringLiteral("peak"), scale.totalLabel, scale.total, 0, scale.total } };
    double level = scale.total;
    for (const bool gains : { false, true })
        for (std::size_t i = 1; i < scale.amounts.size(); ++i) {
            const model::CostShare &loss = scale.amounts[i];
            if (!shown.contains(cf::qs(loss.key)) || (loss.value < 0) != gains)
                continue; // zero in every run, or not in this pass
            steps.push_back({ cf::qs(loss.key), cf::qs(loss.label), level, level - loss.value, std::abs(loss.value),
                              gains });
            level -= loss.value;
        }
    const double useful = scale.amounts.front().value;
    steps.push_back({QStringLiteral("mfu"), QObject::tr("Achieved MFU"), useful, 0, useful});
    return steps;
}

/// Your layout's waterfall in "judge at best layout" mode, in percent of peak: the losses of the
/// best layout, then the layout-choice loss from the best layout's MFU down to yours (the model's
/// layoutChoiceLoss).
std::vector<Step> stepsWithLayoutChoice(const model::EfficiencyGap &best, double layoutChoice, double mfu,
                                        const QSet<QString> &shown)
{
    std::vector<Step> steps = stepsOf(percentScale(best), shown);
    const double from = steps.back().value(); // the best layout's MFU
    const double lost = layoutChoice * cf::kPercent;
    steps.back() = { QStringLiteral("layout_choice"),
                     QObject::tr("Layout choice (yours vs best)"),
                     from,
                     from - lost,
                     std::abs(lost),
                     lost < 0 };
    steps.push_back(
        { QStringLiteral("mfu"), QObject::tr("Achieved MFU"), mfu * cf::kPercent, 0, mfu * cf::kPercent });
    return steps;
}

/// The current run's waterfall: with a best layout for it (both Ok, in percent of peak),
/// stepsWithLayoutChoice.
std::vector<Step> currentSteps(const model::Analysis &current, const Scale &scale, const ScenarioResults *own,
                               const ScenarioResults *best, const QSet<QString> &shown)
{
    if (scale.dollars)
        return stepsOf(scale, shown);
    std::vector<Step> steps;
    if (own && best)
        if (const std::optional<double> loss = scenario::layoutChoiceLoss(*own, *best))
            steps = stepsWithLayoutChoice(best->analysis->gap, *loss, current.gap.mfu, shown);
    if (steps.empty())
        steps = stepsOf(scale, shown);
    addFailures(steps, current.gap, shown);
    return steps;
}

/// A baseline's waterfall (in percent of peak).
std::vector<Step> baselineSteps(const model::Analysis &baseline, const QSet<QString> &shown)
{
    std::vector<Step> steps = stepsOf(percentScale(baseline.gap), shown);
    addFailures(steps, baseline.gap, shown);
    return steps;
}

/// Category order: the current run's steps, each of the baseline's extra steps before the next
/// step both runs have (its losses before the MFU).
QStringList categoryKeys(const std::vector<Step> &current, const std::vector<Step> *baseline)
{
    QStringList keys;
    for (const Step &step : current)
        keys << step.key;
    if (baseline)
        for (auto step = baseline->begin(); step != baseline->end(); ++step) {
            if (keys.contains(step->key))
                continue;
            qsizetype at = keys.size();
            for (auto next = step + 1; next != baseline->end() && at == keys.size(); ++next)
                if (const qsizetype index = keys.indexOf(next->key); index >= 0)
                    at = index;
            keys.insert(at, step->key);
        }
    return keys;
}

const Step *findStep(const std::vector<Step> &steps, const QString &key)
{
    for (const Step &step : steps)
        if (step.key == key)
            return &step;
    return nullptr;
}

/// A run drawn per step: the current one, and the baseline's beside it when there is one.
struct Run {
    const std::vector<Step> *steps;
    QString name;
    double offset;
    bool isBaseline;
};

/// One series of a run's waterfall (peak, loss, gain or MFU), its colour shaded for the baseline.
QCPBars *newSeries(QCustomPlot *p, const QString &name, const QColor &color, double width, bool isBaseline)
{
    auto *bars = new QCPBars(p->yAxis, p->xAxis);
    bars->setName(name);
    bars->setWidth(width);
    const QColor fill = isBaseline ? cf::baselineShade(color) : color;
    bars->setPen(QPen(fill.darker(120), 0.8));
    bars->setBrush(fill);
    return bars;
}

/// A step's tooltip in `run`, its amount `text` already signed: what it is and, for a loss or a
/// gain, where it goes from and to.
QString stepTip(const Step &step, const Run &run, const Scale &scale, const QString &text, bool isLoss)
{
    QString tip
        = QObject::tr("%1 (%2): %3 %4")
              .arg(step.label, run.name, text,
                   scale.dollars ? QObject::tr("of the training run's cost") : QObject::tr("of peak"));
    if (isLoss)
        tip += QObject::tr("\nfrom %1 down to %2")
                   .arg(amountText(scale, step.from, 1), amountText(scale, step.to, 1));
    if (step.gain)
        tip += QObject::tr("\na gain: from %1 up to %2 (faster than the model's default for this part)")
                   .arg(amountText(scale, step.from, 1), amountText(scale, step.to, 1));
    return tip;
}

/// The current run's step against the baseline's: the difference of the signed numbers shown
/// (a smaller loss reads "+", as MFU gained), added to the label `text` and the tooltip `tip`.
void compareStep(const Step &step, const std::vector<Step> &before, bool isMfu, QString &text, QString &tip)
{
    const Step *base = findStep(before, step.key);
    const auto signedValue = [](const Step *s) { return s ? (s->gain ? -s->value() : s->value()) : 0.0; };
    const double delta
        = isMfu ? step.value() - (base ? base->value() : 0.0) : signedValue(&step) - signedValue(base);
    const bool lossLike = !isMfu;
    text += QStringLiteral("  (%1 pp)").arg(cf::signedNumber(lossLike ? -delta : delta));
    tip += QObject::tr("\nbaseline %1: %2 percentage points %3")
               .arg(cf::percent((base ? base->value() : 0.0) / cf::kPercent), cf::number(std::abs(delta), 2),
                    delta >= 0 ? (lossLike ? QObject::tr("more lost") : QObject::tr("higher"))
                               : (lossLike ? QObject::tr("less lost") : QObject::tr("lower")));
}

/// Steps down the left axis (first on top), percent of peak or dollars along the bottom.
void setAxes(QCustomPlot *p, const QSharedPointer<QCPAxisTickerText> &ticker, qsizetype steps,
             const Scale &scale)
{
    p->yAxis->setTicker(ticker);
    p->yAxis->setRangeReversed(true);
    p->yAxis->setRange(0.4, static_cast<double>(steps) + 0.6);
    p->yAxis->grid()->setVisible(false);
    p->xAxis->setRange(0, scale.total * 1.25);
    // Plain dollars on the axis, not 1.5·10^6; percent with QCustomPlot's default format.
    p->xAxis->setNumberFormat(scale.dollars ? QStringLiteral("f") : QStringLiteral("gbd"));
    p->xAxis->setNumberPrecision(scale.dollars ? 0 : 6);
    p->xAxis->setLabel(scale.dollars ? QObject::tr("Cost of one training run of the token budget ($)")
                                     : QObject::tr("Share of peak compute throughput (%)"));
}

/// The headline: MFU (or the useful share of a run's cost), the goodput's over the wall time,
/// unpriced parts, the baseline and the best layout.
QString headlineOf(const model::Analysis &current, const model::Analysis *baseline,
                   const ScenarioResults &results, const ScenarioResults *best, const Scale &scale,
                   const std::vector<Step> &now)
{
    QString headline
        = scale.dollars
              ? QObject::tr("Efficiency gap in dollars: %1 of a %2 training run buys useful compute")
                    .arg(amountText(scale, now.back().value(), 1), amountText(scale, scale.total, 1))
              : QObject::tr("Efficiency gap: MFU %1 of peak").arg(cf::percent(current.gap.mfu));
    if (!scale.dollars && current.gap.failures != 0 && results.goodput)
        headline += QObject::tr(", %1 over the wall time with failures and checkpoints")
                        .arg(cf::percent(results.goodput->effectiveMfu));
    if (scale.dollars)
        if (const std::string warning = model::unpricedWarning(results.cost->bom); !warning.empty())
            headline += QStringLiteral("  \u26a0 ") + cf::qs(warning);
    if (baseline)
        headline += QObject::tr("  (baseline %1, %2 pp)")
                        .arg(cf::percent(baseline->gap.mfu),
                             cf::signedNumber((current.gap.mfu - baseline->gap.mfu) * cf::kPercent));
    if (best)
        headline += QObject::tr("; best layout %1").arg(cf::percent(best->analysis->gap.mfu));
    return headline;
}

} // namespace

EfficiencyGapChart::EfficiencyGapChart(QWidget *parent)
    : ChartView(QStringLiteral("efficiency_gap"), tr("Efficiency gap"), parent)
{
}

void EfficiencyGapChart::setBestLayout(ResultsPtr own, ResultsPtr best)
{
    mBestFor = std::move(own);
    mBest = std::move(best);
    setResults(results()); // redraws
}

const ScenarioResults *EfficiencyGapChart::bestLayout() const
{
    const ResultsPtr current = results();
    return current && current == mBestFor && mBest && mBest->ok() && current->ok() ? mBest.get() : nullptr;
}

void EfficiencyGapChart::rebuild(const model::Analysis &current, const model::Analysis *baseline)
{
    QCustomPlot *p = plot();
    // In dollars the chart shows the current run alone: the baseline's run and the best layout's
    // run have their own costs.
    const Scale scale = currentScale(current);
    if (scale.dollars)
        baseline = nullptr;
    const ScenarioResults *best = scale.dollars ? nullptr : bestLayout();
    const QSet<QString> shown = shownLosses(best ? *best->analysis : current, baseline);
    const std::vector<Step> now = currentSteps(current, scale, results().get(), best, shown);
    const std::vector<Step> before = baseline ? baselineSteps(*baseline, shown) : std::vector<Step> {};
    const QStringList keys = categoryKeys(now, baseline ? &before : nullptr);
    // With a best layout, the losses shown are the best layout's, then your layout's choice.
    const QString currentName = best ? tr("best layout, then yours") : QStringLiteral("current");

    std::vector<Run> runs;
    if (baseline)
        runs = {{&before, QStringLiteral("baseline"), -0.21, true}, {&now, currentName, 0.21, false}};
    else
        runs = {{&now, currentName, 0.0, false}};
    const double width = baseline ? 0.38 : 0.6;

    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (const Run &run : runs) {
        const QString suffix = baseline ? tr(" (%1)").arg(run.name) : QString();
        // A loss floats: an invisible spacer bar up to its lower end, the loss stacked on it.
        auto *spacer = new QCPBars(p->yAxis, p->xAxis);
        spacer->setWidth(width);
        spacer->setPen(Qt::NoPen);
        spacer->setBrush(Qt::NoBrush);
        spacer->removeFromLegend();
        auto makeBars = [&](const QString &name, const QColor &color) {
            return newSeries(p, name + suffix, color, width, run.isBaseline);
        };
        QCPBars *peak = makeBars(tr("Peak"), kPeak);
        QCPBars *loss = makeBars(tr("Loss"), kLoss);
        loss->moveAbove(spacer);
        QCPBars *gain = nullptr;
        if (std::any_of(run.steps->begin(), run.steps->end(), [](const Step &s) { return s.gain; })) {
            gain = makeBars(tr("Gain"), kGain); // floats on the same spacer as the losses
            gain->moveAbove(spacer);
        }
        QCPBars *mfu = makeBars(tr("MFU"), kMfu);

        for (const Step &step : *run.steps) {
            const int index = int(keys.indexOf(step.key));
            const double key = index + 1 + run.offset;
            ticker->addTick(index + 1, step.label);
            const bool isPeak = step.key == QLatin1String("peak"), isMfu = isMfuKey(step.key);
            QCPBars *bars = isPeak ? peak : isMfu ? mfu : step.gain ? gain : loss;
            if (bars == loss || bars == gain)
                spacer->addData(key, step.lower());
            bars->addData(key, step.value());

            const bool isLoss = bars == loss;
            const int decimals = step.value() < 1 ? 2 : 1; // small losses stay visible as numbers
            const QString amount = amountText(scale, step.value(), decimals);
            QString text = isLoss      ? QStringLiteral("\u2212") + amount
                           : step.gain ? QStringLiteral("+") + amount
                                       : amount;
            QString tip = stepTip(step, run, scale, text, isLoss);
            if (baseline && !run.isBaseline && !isPeak)
                compareStep(step, before, isMfu, text, tip);
            setToolTip(bars, key, tip);
            QCPItemText *label = addLabel(step.upper(), key, text, Qt::AlignLeft | Qt::AlignVCenter);
            label->setFont(QFont(font().family(), baseline ? 8 : 9));
            if (run.isBaseline)
                label->setColor(QColor(0x70, 0x70, 0x70));
        }
    }

    setAxes(p, ticker, keys.size(), scale);
    setHeadline(headlineOf(current, baseline, *results(), best, scale, now));
}

void EfficiencyGapChart::setInDollars(bool dollars)
{
    mInDollars = dollars;
    setResults(results()); // redraws
}

EfficiencyGapChart::Scale EfficiencyGapChart::currentScale(const model::Analysis &current) const
{
    if (mInDollars && results() && results()->cost)
        return dollarScale(current.gap, *results()->cost);
    return percentScale(current.gap);
}

QList<QStringList> EfficiencyGapChart::csvRows() const
{
    const model::Analysis *current = currentAnalysis();
    const bool dollars = current && currentScale(*current).dollars;
    const QString unit = dollars ? QStringLiteral("_usd") : QStringLiteral("_percent");
    QList<QStringList> csv{{QStringLiteral("run"), QStringLiteral("step_key"), QStringLiteral("step"),
                            QStringLiteral("from") + unit, QStringLiteral("to") + unit, QStringLiteral("value") + unit}};
    if (!current)
        return csv;
    const model::Analysis *baseline = dollars ? nullptr : baselineAnalysis();
    const ScenarioResults *best = dollars ? nullptr : bestLayout();
    const QSet<QString> shown = shownLosses(best ? *best->analysis : *current, baseline);
    for (const auto &[analysis, run] : {std::pair{baseline, QStringLiteral("baseline")},
                                        std::pair{current, QStringLiteral("current")}}) {
        if (!analysis)
            continue;
        const std::vector<Step> steps = analysis == current ? currentSteps(*current, currentScale(*current),
                                                                           results().get(), best, shown)
                                                            : baselineSteps(*analysis, shown);
        for (const Step &step : steps)
            csv.append({run, step.key, step.label, cf::exact(step.from), cf::exact(step.to), cf::exact(step.value())});
    }
    return csv;
}

} // namespace gapstudio::views
