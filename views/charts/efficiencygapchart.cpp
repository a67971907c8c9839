#include "charts/efficiencygapchart.h"

#include "charts/chartformat.h"
#include "charts/efficiencygapsteps.h"
#include "charts/likelyrange.h"
#include "results/calibrationtext.h"

#include "gapstudio/model/cost.h"
#include "gapstudio/scenario/best_layout.h"

#include <qcustomplot.h>

#include <QSet>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace gapstudio::views {

namespace cf = chartformat;

// The waterfall's steps (efficiencygapsteps.h).
using gapsteps::amountText;
using gapsteps::categoryKeys;
using gapsteps::currentSteps;
using gapsteps::findStep;
using gapsteps::isMfuKey;
using gapsteps::pinSteps;
using gapsteps::Scale;
using gapsteps::shownLosses;
using gapsteps::Step;

namespace {

const QColor kPeak(0x8C, 0x86, 0x82);
const QColor kLoss(0xE1, 0x57, 0x59);
const QColor kGain(0x59, 0xA1, 0x4F);
const QColor kMfu(0x4E, 0x79, 0xA7);

/// A run drawn per step: every pin's and the current one, side by side.
struct Run {
    const std::vector<Step> *steps;
    ChartRun run;
    QString name; ///< for tool tips
    double offset, width;
};

/// One series of a run's waterfall (peak, loss, gain or MFU), its fill the pin's (cf::pinBrush).
QCPBars *newSeries(QCustomPlot *p, const QString &name, const QColor &color, double width, int pin)
{
    auto *bars = new QCPBars(p->yAxis, p->xAxis);
    bars->setName(name);
    bars->setWidth(width);
    const QBrush fill = cf::pinBrush(color, pin);
    bars->setPen(QPen(fill.color().darker(120), 0.8));
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

/// The current run's step against a pin's: the difference of the signed numbers shown (a smaller
/// loss reads "+", as MFU gained), and its tool tip line.
struct StepDifference {
    double shown = 0; ///< percentage points, as the label shows it
    QString tip;
};
StepDifference compareStep(const Step &step, const std::vector<Step> &pin, const QString &pinRun, bool isMfu)
{
    const Step *base = findStep(pin, step.key);
    const auto signedValue = [](const Step *s) { return s ? (s->gain ? -s->value() : s->value()) : 0.0; };
    const double delta
        = isMfu ? step.value() - (base ? base->value() : 0.0) : signedValue(&step) - signedValue(base);
    const bool lossLike = !isMfu;
    const QString tip = QObject::tr("\n%1 %2: %3 percentage points %4")
                            .arg(pinRun, cf::percent((base ? base->value() : 0.0) / cf::kPercent),
                                 cf::number(std::abs(delta), 2),
                                 delta >= 0 ? (lossLike ? QObject::tr("more lost") : QObject::tr("higher"))
                                            : (lossLike ? QObject::tr("less lost") : QObject::tr("lower")));
    return { lossLike ? -delta : delta, tip };
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
/// unpriced parts, the first pin and the best layout.
QString headlineOf(const model::Analysis &current, const std::vector<ChartRun> &pins,
                   const ScenarioResults &results, const ScenarioResults *best, const Scale &scale,
                   const std::vector<Step> &now)
{
    QString headline
        = scale.dollars
              ? QObject::tr("Efficiency gap in dollars: %1 of a %2 training run buys useful compute")
                    .arg(amountText(scale, now.back().value(), 1), amountText(scale, scale.total, 1))
              : QObject::tr("Efficiency gap: MFU %1 of peak").arg(cf::percent(current.gap.mfu));
    if (!scale.dollars && results.interval) {
        const auto [low, high] = results.interval->range(current.gap.mfu);
        headline += QObject::tr(" (likely %1 \u2013 %2)").arg(cf::percent(low), cf::percent(high));
    }
    if (!scale.dollars && current.gap.failures != 0 && results.goodput)
        headline += QObject::tr(", %1 over the wall time with failures and checkpoints")
                        .arg(cf::percent(results.goodput->effectiveMfu));
    if (scale.dollars)
        if (const std::string warning = model::unpricedWarning(results.cost->bom); !warning.empty())
            headline += QStringLiteral("  \u26a0 ") + cf::qs(warning);
    if (!pins.empty()) {
        const model::EfficiencyGap &first = pins.front().analysis->gap;
        headline += QObject::tr("  (%1 %2, %3 pp)")
                        .arg(pins.front().run, cf::percent(first.mfu),
                             cf::signedNumber((current.gap.mfu - first.mfu) * cf::kPercent));
    }
    if (best)
        headline += QObject::tr("; best layout %1").arg(cf::percent(best->analysis->gap.mfu));
    return headline;
}

/// Every pin's run (its steps in `pinSteps`), then the current one, each at its place in a step's
/// category.
std::vector<Run> runsOf(const std::vector<ChartRun> &pins, const std::vector<std::vector<Step>> &pinSteps,
                        const ChartRun &current, const std::vector<Step> &now, const QString &currentName)
{
    std::vector<Run> runs;
    const int count = int(pins.size()) + 1;
    for (std::size_t i = 0; i < pins.size(); ++i) {
        const cf::GroupSlot slot = cf::groupSlot(int(i), count);
        runs.push_back({ &pinSteps[i], pins[i], pins[i].longName(), slot.offset, slot.width });
    }
    const cf::GroupSlot slot = cf::groupSlot(count - 1, count);
    runs.push_back({ &now, current, currentName, slot.offset, slot.width });
    return runs;
}

/// The likely range of a run's MFU step (the run's prediction interval), in percent of peak; none
/// in dollars, for another step, or without an interval.
std::optional<std::pair<double, double>> likelyRangeOf(const Step &step, const Run &run, const Scale &scale)
{
    if (scale.dollars || step.key != QLatin1String("mfu") || !run.run.results || !run.run.results->interval)
        return std::nullopt;
    return run.run.results->interval->range(step.value());
}

/// Every run's MFU range as error bars, with their tool tips.
void drawLikelyRanges(QCustomPlot *p, const std::vector<Run> &runs, const QStringList &keys,
                      const Scale &scale,
                      const std::function<void(QCPAbstractPlottable *, double, const QString &)> &tip)
{
    std::vector<LikelyRange> ranges;
    std::vector<QString> tips;
    for (const Run &run : runs)
        for (const Step &step : *run.steps)
            if (const auto range = likelyRangeOf(step, run, scale)) {
                ranges.push_back(
                    { keys.indexOf(step.key) + 1 + run.offset, step.value(), range->first, range->second });
                tips.push_back(QObject::tr("MFU, likely range (%1)\n%2 \u2013 %3\n%4")
                                   .arg(run.name, amountText(scale, range->first, 1),
                                        amountText(scale, range->second, 1), intervalText(*run.run.results)));
            }
    QCPErrorBars *bars
        = addLikelyRanges(p->yAxis, p->xAxis, ranges, QObject::tr("Likely range of the MFU (\u00b11\u03c3)"));
    for (std::size_t i = 0; i < ranges.size(); ++i)
        tip(bars, ranges[i].key, tips[i]);
}

/// What a run's bars need from the chart: its tool tips and labels (ChartView's).
struct Marks {
    std::function<void(QCPAbstractPlottable *, double, const QString &)> tip;
    std::function<QCPItemText *(double, double, const QString &)> label;
};

/// One run's waterfall: a bar per step at its category (`keys`), its amount beside it; for the
/// current run against pins, the difference from the first pin on the label and from every pin in
/// the tool tip. `suffix` names the run's series in the legend (empty: unnamed; `inLegend` false:
/// not listed).
void drawRun(QCustomPlot *p, const Run &run, const QStringList &keys, const Scale &scale,
             const std::vector<Run> &pins, const QString &suffix, bool inLegend, const Marks &marks,
             QCPAxisTickerText &ticker)
{
    // A loss floats: an invisible spacer bar up to its lower end, the loss stacked on it.
    auto *spacer = new QCPBars(p->yAxis, p->xAxis);
    spacer->setWidth(run.width);
    spacer->setPen(Qt::NoPen);
    spacer->setBrush(Qt::NoBrush);
    spacer->removeFromLegend();
    auto makeBars = [&](const QString &name, const QColor &color) {
        QCPBars *bars = newSeries(p, name + suffix, color, run.width, run.run.pin);
        if (!inLegend)
            bars->removeFromLegend();
        return bars;
    };
    QCPBars *peak = makeBars(QObject::tr("Peak"), kPeak);
    QCPBars *loss = makeBars(QObject::tr("Loss"), kLoss);
    loss->moveAbove(spacer);
    QCPBars *gain = nullptr;
    if (std::any_of(run.steps->begin(), run.steps->end(), [](const Step &s) { return s.gain; })) {
        gain = makeBars(QObject::tr("Gain"), kGain); // floats on the same spacer as the losses
        gain->moveAbove(spacer);
    }
    QCPBars *mfu = makeBars(QObject::tr("MFU"), kMfu);

    for (const Step &step : *run.steps) {
        const int index = int(keys.indexOf(step.key));
        const double key = index + 1 + run.offset;
        ticker.addTick(index + 1, step.label);
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
        if (!run.run.isPin() && !isPeak)
            for (const Run &pin : pins) {
                const StepDifference difference = compareStep(step, *pin.steps, pin.run.run, isMfu);
                if (&pin == &pins.front())
                    text += QStringLiteral("  (%1 pp)").arg(cf::signedNumber(difference.shown));
                tip += difference.tip;
            }
        marks.tip(bars, key, tip);
        // Past the likely range's whisker, if the step has one.
        const auto range = likelyRangeOf(step, run, scale);
        QCPItemText *label
            = marks.label(range ? std::max(step.upper(), range->second) : step.upper(), key, text);
        label->setFont(QFont(label->font().family(), pins.empty() ? 9 : pins.size() > 2 ? 7 : 8));
        if (run.run.isPin())
            label->setColor(QColor(0x70, 0x70, 0x70));
    }
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

void EfficiencyGapChart::rebuild(const model::Analysis &current, const std::vector<ChartRun> &pinned)
{
    QCustomPlot *p = plot();
    // In dollars the chart shows the current run alone: the pins' runs and the best layout's run
    // have their own costs.
    const Scale scale = currentScale(current);
    const std::vector<ChartRun> pins = scale.dollars ? std::vector<ChartRun> {} : pinned;
    const ScenarioResults *best = scale.dollars ? nullptr : bestLayout();
    const QSet<QString> shown = shownLosses(best ? *best->analysis : current, pins);
    const std::vector<Step> now = currentSteps(current, scale, results().get(), best, shown);
    std::vector<std::vector<Step>> before;
    for (const ChartRun &pin : pins)
        before.push_back(pinSteps(*pin.analysis, shown));
    const QStringList keys = categoryKeys(now, before);
    // With a best layout, the losses shown are the best layout's, then your layout's choice.
    const QString currentName = best ? tr("best layout, then yours") : QStringLiteral("current");
    const std::vector<Run> runs = runsOf(pins, before, currentRun(), now, currentName);
    const std::vector<Run> pinRuns(runs.begin(), runs.end() - 1);

    // One pin: each series twice, "(baseline)" and "(current, ...)". Several: the current run's
    // series, and one key per pin (its shade or hatch).
    const bool keyed = numbersPins();
    const Marks marks { [this](QCPAbstractPlottable *bars, double key, const QString &tip) {
                           setToolTip(bars, key, tip);
                       },
                        [this](double x, double y, const QString &text) {
                            return addLabel(x, y, text, Qt::AlignLeft | Qt::AlignVCenter);
                        } };
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (const Run &run : runs) {
        const QString suffix = pins.empty() || keyed ? QString() : tr(" (%1)").arg(run.name);
        drawRun(p, run, keys, scale, pinRuns, suffix, !(keyed && run.run.isPin()), marks, *ticker);
    }
    drawLikelyRanges(p, runs, keys, scale, marks.tip);
    addPinKeys(pins, [](const ChartRun &pin) { return cf::pinBrush(kLoss, pin.pin); });

    setAxes(p, ticker, keys.size(), scale);
    setHeadline(headlineOf(current, pins, *results(), best, scale, now));
}

void EfficiencyGapChart::setInDollars(bool dollars)
{
    mInDollars = dollars;
    setResults(results()); // redraws
}

EfficiencyGapChart::Scale EfficiencyGapChart::currentScale(const model::Analysis &current) const
{
    if (mInDollars && results() && results()->cost)
        return gapsteps::dollarScale(current.gap, *results()->cost);
    return gapsteps::percentScale(current.gap);
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
    const std::vector<ChartRun> pins = dollars ? std::vector<ChartRun> {} : pinRuns();
    const ScenarioResults *best = dollars ? nullptr : bestLayout();
    const QSet<QString> shown = shownLosses(best ? *best->analysis : *current, pins);
    std::vector<std::tuple<QString, std::vector<Step>, const ScenarioResults *>> runs;
    for (const ChartRun &pin : pins)
        runs.emplace_back(pin.run, pinSteps(*pin.analysis, shown), pin.results);
    runs.emplace_back(QStringLiteral("current"),
                      currentSteps(*current, currentScale(*current), results().get(), best, shown),
                      results().get());
    for (const auto &[run, steps, _] : runs) {
        for (const Step &step : steps)
            csv.append({run, step.key, step.label, cf::exact(step.from), cf::exact(step.to), cf::exact(step.value())});
    }
    // After every run's steps: the likely range of each run's MFU (from, to; value its width).
    if (!dollars)
        for (const auto &[run, steps, runResults] : runs)
            if (const Step *mfu = findStep(steps, QStringLiteral("mfu"));
                mfu && runResults && runResults->interval) {
                const auto [low, high] = runResults->interval->range(mfu->value());
                csv.append({ run, QStringLiteral("mfu_likely_range"), tr("MFU, likely range"), cf::exact(low),
                             cf::exact(high), cf::exact(high - low) });
            }
    return csv;
}

} // namespace gapstudio::views
