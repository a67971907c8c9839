#include "studio/parameterpanel.h"

#include "studio/overridekeys.h"
#include "studio/scenariodocument.h"
#include "studio/studioformat.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>

#include <cmath>

namespace gapstudio::views {

namespace {

constexpr int kSteps = 120; // positions of a continuous slider

/// kSteps + 1 log-spaced values from `low` to `high`, rounded to 3 significant digits (so the
/// round numbers of datasheets, e.g. 1 or 50, are exact positions when they lie on the grid).
std::vector<double> logRange(double low, double high)
{
    std::vector<double> values;
    for (int i = 0; i <= kSteps; ++i) {
        const double v = low * std::pow(high / low, static_cast<double>(i) / kSteps);
        const double unit = std::pow(10.0, std::floor(std::log10(v)) - 2);
        values.push_back(std::round(v / unit) * unit);
    }
    return values;
}

int nearest(const std::vector<double> &values, double value)
{
    int best = 0;
    for (int i = 1; i < static_cast<int>(values.size()); ++i)
        if (std::abs(std::log(values[static_cast<std::size_t>(i)] / value)) <
            std::abs(std::log(values[static_cast<std::size_t>(best)] / value)))
            best = i;
    return best;
}

double overrideOr(const ScenarioResults &r, const char *key, double fallback)
{
    const auto it = r.scenario.overrides.find(key);
    return it == r.scenario.overrides.end() ? fallback : it->second;
}

} // namespace

ParameterPanel::ParameterPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
{
    setObjectName(QStringLiteral("parameterPanel"));
    auto *grid = new QGridLayout(this);
    grid->setColumnStretch(1, 1);
    grid->setVerticalSpacing(4);
    using R = const ScenarioResults &;
    const auto resolved = [](R r) -> const scenario::ResolvedScenario & { return r.compiled->resolved; };
    namespace k = overrides;
    addRow(tr("GPU peak FLOPS"), {k::kComputeScale, logRange(0.25, 8), QStringLiteral("×"),
                                  [](R r) { return overrideOr(r, k::kComputeScale, 1); }});
    addRow(tr("HBM bandwidth"), {k::kHbmBandwidth, logRange(500, 32000), QStringLiteral("GB/s"),
                                 [=](R r) { return resolved(r).gpu.hbm.bandwidth_Bps / 1e9; }});
    addRow(tr("HBM capacity"), {k::kHbmCapacity, logRange(16, 1024), QStringLiteral("GiB"),
                                [=](R r) { return resolved(r).gpu.hbm.capacity_B / (1024.0 * 1024 * 1024); }});
    addRow(tr("Scale-up bandwidth"), {k::kScaleUpBandwidth, logRange(25, 6400), QStringLiteral("GB/s"),
                                      [=](R r) { return resolved(r).scaleUp.bandwidth_Bps / 1e9; }});
    addRow(tr("Scale-out bandwidth"), {k::kScaleOutBandwidth, logRange(6.25, 3200), QStringLiteral("GB/s"),
                                       [=](R r) { return resolved(r).scaleOut.bandwidth_Bps / 1e9; }});
    addRow(tr("Network latency"), {k::kScaleOutLatency, logRange(0.25, 200), QStringLiteral("µs"),
                                   [=](R r) { return resolved(r).scaleOut.latency_s * 1e6; }});
    addRow(tr("Scale-up domain"), {k::kDomainSize, {2, 4, 8, 16, 32, 64, 72, 128, 256, 512, 1024}, tr("GPUs"),
                                   [=](R r) { return static_cast<double>(resolved(r).topology.scaleUpDomainSize); }});
    addRow(tr("GPU count"), {"gpu_count", {64, 128, 256, 512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 65536},
                             tr("GPUs"), [=](R r) { return static_cast<double>(resolved(r).gpuCount); }});
    addRow(tr("Global batch"), {k::kBatchSize, {128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 16384, 32768},
                                tr("samples"), [=](R r) { return static_cast<double>(resolved(r).layout.execution.batchSize); }});
    addRow(tr("Sequence length"), {k::kSeqSize, {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072}, tr("tokens"),
                                   [=](R r) { return static_cast<double>(resolved(r).llm.seqSize); }});

    auto *reset = new QPushButton(tr("Reset sliders to the blocks' values"), this);
    reset->setObjectName(QStringLiteral("resetOverrides"));
    grid->addWidget(reset, grid->rowCount(), 0, 1, 3);
    grid->setRowStretch(grid->rowCount(), 1);
    connect(reset, &QPushButton::clicked, mDocument, &ScenarioDocument::clearOverrides);
}

void ParameterPanel::addRow(const QString &label, Row row)
{
    auto *grid = static_cast<QGridLayout *>(layout());
    const int r = grid->rowCount();
    row.slider = new QSlider(Qt::Horizontal, this);
    row.slider->setObjectName(QString::fromStdString("slider:" + row.key));
    row.slider->setRange(0, static_cast<int>(row.values.size()) - 1);
    row.slider->setPageStep(std::max<int>(1, static_cast<int>(row.values.size()) / 10));
    row.slider->setToolTip(QString::fromStdString(row.key));
    row.slider->setMinimumWidth(110);
    row.value = new QLabel(this);
    row.value->setMinimumWidth(90);
    row.value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    grid->addWidget(new QLabel(label, this), r, 0);
    grid->addWidget(row.slider, r, 1);
    grid->addWidget(row.value, r, 2);
    const std::size_t index = mRows.size();
    mRows.push_back(std::move(row));
    connect(mRows[index].slider, &QSlider::valueChanged, this,
            [this, index](int position) { commit(mRows[index], position); });
}

QSlider *ParameterPanel::slider(const std::string &key) const
{
    for (const Row &row : mRows)
        if (row.key == key)
            return row.slider;
    return nullptr;
}

void ParameterPanel::showValue(const Row &row, double value)
{
    const QString text = value >= 100 || row.values.size() <= kSteps ? QString::number(value, 'f', 0)
                                                                     : format::number(value, 3);
    row.value->setText(QStringLiteral("%1 %2").arg(text, row.unit));
}

void ParameterPanel::commit(const Row &row, int position)
{
    const double value = row.values[static_cast<std::size_t>(position)];
    showValue(row, value);
    if (row.key == "gpu_count")
        mDocument->setGpuCount(static_cast<std::int64_t>(value));
    else
        mDocument->setOverride(row.key, value);
}

void ParameterPanel::setResults(ResultsPtr results)
{
    const bool usable = results && results->compiled;
    for (Row &row : mRows) {
        row.slider->setEnabled(usable || row.slider->isSliderDown());
        if (!usable || row.slider->isSliderDown())
            continue;
        const double value = row.current(*results);
        const QSignalBlocker blocker(row.slider);
        row.slider->setValue(nearest(row.values, value));
        showValue(row, value);
    }
}

} // namespace gapstudio::views
