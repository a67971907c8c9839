#include "charts/efficiencygapsteps.h"

#include "charts/chartformat.h"

#include "gapstudio/model/cost.h"
#include "gapstudio/scenario/best_layout.h"

#include <cmath>
#include <optional>

namespace gapstudio::views::gapsteps {

namespace cf = chartformat;

namespace {

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
            steps.push_back({ cf::qs(loss.key), cf::qs(loss.label), level, level - loss.value,
                              std::abs(loss.value), gains });
            level -= loss.value;
        }
    const double useful = scale.amounts.front().value;
    steps.push_back({ QStringLiteral("mfu"), QObject::tr("Achieved MFU"), useful, 0, useful });
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

} // namespace

/// Losses that are not zero in at least one of the runs (only these are drawn and listed).
QSet<QString> shownLosses(const model::Analysis &current, const std::vector<ChartRun> &pins)
{
    std::vector<const model::Analysis *> analyses { &current };
    for (const ChartRun &pin : pins)
        analyses.push_back(pin.analysis);
    QSet<QString> keys;
    for (const model::Analysis *analysis : analyses) {
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

/// A pin's waterfall (in percent of peak).
std::vector<Step> pinSteps(const model::Analysis &pin, const QSet<QString> &shown)
{
    std::vector<Step> steps = stepsOf(percentScale(pin.gap), shown);
    addFailures(steps, pin.gap, shown);
    return steps;
}

/// Category order: the current run's steps, then each pin's extra steps before the next step
/// already there (its losses before the MFU).
QStringList categoryKeys(const std::vector<Step> &current, const std::vector<std::vector<Step>> &pins)
{
    QStringList keys;
    for (const Step &step : current)
        keys << step.key;
    for (const std::vector<Step> &steps : pins)
        for (auto step = steps.begin(); step != steps.end(); ++step) {
            if (keys.contains(step->key))
                continue;
            qsizetype at = keys.size();
            for (auto next = step + 1; next != steps.end() && at == keys.size(); ++next)
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

} // namespace gapstudio::views::gapsteps
