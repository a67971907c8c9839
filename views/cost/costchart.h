#pragma once
/**
 * @file costchart.h
 * What an hour of the cluster costs, as one stacked bar: capital by part (GPUs, servers, scale-up
 * and scale-out network, spread over the depreciation period) and energy (and the facility charge
 * when one is set), the shares of model::CostResult::usdPerHour. With pins, a bar per
 * pin above the current design's.
 * Only a design that runs (status Ok) has a cost; otherwise the chart says why.
 */

#include "charts/chartview.h"

class QCPBars;

namespace gapstudio::views {

class CostChart final : public ChartView {
    Q_OBJECT

public:
    explicit CostChart(QWidget *parent = nullptr);

    [[nodiscard]] QList<QStringList> csvRows() const override;
    /// The stacked bars of share `key` ("gpus", "energy", ...), nullptr if not drawn.
    [[nodiscard]] QCPBars *share(const QString &key) const;

protected:
    void rebuild(const model::Analysis &current, const std::vector<ChartRun> &pins) override;
};

} // namespace gapstudio::views
