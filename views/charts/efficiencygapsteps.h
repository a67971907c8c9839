#pragma once
/**
 * @file efficiencygapsteps.h
 * The Efficiency gap chart's waterfall as steps: from 100 % of peak (or the run's cost) down by
 * each loss the model names (model::EfficiencyGap, model::gapInDollars) to the MFU, for the
 * current run (with its best layout's layout-choice loss) and for pins. The amounts are the
 * model's; this file only orders them into bars.
 */

#include "charts/chartview.h"
#include "charts/efficiencygapchart.h"

#include <QSet>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <vector>

namespace gapstudio::views::gapsteps {

using Scale = EfficiencyGapChart::Scale;

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
[[nodiscard]] QSet<QString> shownLosses(const model::Analysis &current, const std::vector<ChartRun> &pins);
/// The MFU's steps: "mfu", and "effective_mfu" with failures.
[[nodiscard]] bool isMfuKey(const QString &key);
/// The gap in percent of peak (model::EfficiencyGap).
[[nodiscard]] Scale percentScale(const model::EfficiencyGap &gap);
/// The gap in dollars of one training run of the token budget (model::gapInDollars).
[[nodiscard]] Scale dollarScale(const model::EfficiencyGap &gap, const model::CostResult &cost);
/// An amount as the scale shows it: percent of peak or dollars.
[[nodiscard]] QString amountText(const Scale &scale, double value, int decimals);
/// The current run's waterfall: with a best layout for it (both Ok, in percent of peak), the best
/// layout's losses and then the layout-choice loss down to yours.
[[nodiscard]] std::vector<Step> currentSteps(const model::Analysis &current, const Scale &scale,
                                             const ScenarioResults *own, const ScenarioResults *best,
                                             const QSet<QString> &shown);
/// A pin's waterfall (in percent of peak).
[[nodiscard]] std::vector<Step> pinSteps(const model::Analysis &pin, const QSet<QString> &shown);
/// Category order: the current run's steps, then each pin's extra steps before the next step
/// already there (its losses before the MFU).
[[nodiscard]] QStringList categoryKeys(const std::vector<Step> &current,
                                       const std::vector<std::vector<Step>> &pins);
/// The step with `key`, or nullptr.
[[nodiscard]] const Step *findStep(const std::vector<Step> &steps, const QString &key);

} // namespace gapstudio::views::gapsteps
