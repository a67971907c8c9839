#include "results/pinnedscenarios.h"

#include <algorithm>

namespace gapstudio::views {

void PinnedScenarios::pin(ResultsPtr results, const QString &name)
{
    if (!results)
        return;
    const auto taken = [this](const QString &candidate) {
        return std::any_of(mPins.cbegin(), mPins.cend(),
                           [&](const PinnedScenario &p) { return p.name == candidate; });
    };
    const QString base = name.isEmpty() ? tr("Pinned design") : name;
    QString unique = base;
    for (int n = 2; taken(unique); ++n)
        unique = QStringLiteral("%1 (%2)").arg(base).arg(n);
    mPins.append({ unique, std::move(results) });
    emit changed();
}

QList<PinnedScenario> baselinePin(ResultsPtr baseline)
{
    if (!baseline)
        return {};
    QString name = QString::fromStdString(baseline->scenario.info.name);
    return { PinnedScenario { std::move(name), std::move(baseline) } };
}

void PinnedScenarios::unpin(int index)
{
    if (index < 0 || index >= mPins.size())
        return;
    mPins.removeAt(index);
    emit changed();
}

void PinnedScenarios::clear()
{
    if (mPins.isEmpty())
        return;
    mPins.clear();
    emit changed();
}

std::vector<const ScenarioResults *> PinnedScenarios::results() const
{
    std::vector<const ScenarioResults *> out;
    for (const PinnedScenario &p : mPins)
        out.push_back(p.results.get());
    return out;
}

} // namespace gapstudio::views
