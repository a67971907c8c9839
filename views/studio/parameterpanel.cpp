#include "studio/parameterpanel.h"

#include "studio/collapsiblesection.h"
#include "studio/layoutrules.h"
#include "studio/parameternames.h"
#include "studio/scenariodocument.h"
#include "studio/studioformat.h"
#include "studio/valuefield.h"

#include "gapstudio/scenario/override_keys.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
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

/// Whole percent steps of an efficiency (a fraction) from `lowPercent` to 100 %.
std::vector<double> percentRange(int lowPercent)
{
    std::vector<double> values;
    for (int p = lowPercent; p <= 100; ++p)
        values.push_back(p / 100.0);
    return values;
}

int nearest(const std::vector<double> &values, double value)
{
    if (!(value > 0) || values.empty())
        return 0;
    int best = 0;
    double bestDistance = std::abs(std::log(values.front() / value));
    for (int i = 1; i < static_cast<int>(values.size()); ++i)
        if (const double distance = std::abs(std::log(values[static_cast<std::size_t>(i)] / value));
            distance < bestDistance) {
            best = i;
            bestDistance = distance;
        }
    return best;
}

double overrideOr(const ScenarioResults &r, const char *key, double fallback)
{
    const auto it = r.scenario.overrides.find(key);
    return it == r.scenario.overrides.end() ? fallback : it->second;
}

/// The GPU-count choices before the layout filters them.
const std::vector<double> kGpuCounts
    = { 64, 128, 256, 512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152, 65536 };

} // namespace

ParameterPanel::ParameterPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
{
    setObjectName(QStringLiteral("parameterPanel"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(2, 2, 2, 2);
    outer->setSpacing(2);
    const auto section = [&](const QString &title, const QString &name) {
        auto *s = new CollapsibleSection(title, this);
        s->setObjectName(name);
        auto *grid = new QGridLayout(s->content());
        grid->setContentsMargins(6, 0, 2, 4);
        grid->setColumnStretch(1, 1);
        grid->setVerticalSpacing(2);
        outer->addWidget(s);
        return grid;
    };
    using R = const ScenarioResults &;
    // A slider's value is the design's, in its key's unit (the model's table of keys).
    const auto value = [](const char *key) {
        return [key](R r) { return scenario::overrideKeyValue(*r.compiled, key).value_or(0); };
    };
    const auto percent = [](double fraction) { return format::percent(fraction); };
    const auto fromPercent = [](double typed) { return typed / 100.0; };
    namespace k = scenario::keys;

    QGridLayout *gpu = section(tr("GPU"), QStringLiteral("section:gpu"));
    // Compute is a scale factor on every peak; it is shown and typed as the resulting peak.
    addRow(
        gpu, k::kComputeScale, logRange(0.25, 8), [](R r) { return overrideOr(r, k::kComputeScale, 1); },
        [this](double scale) {
            const double base = basePeak();
            return base > 0 ? format::flops(base * scale) : tr("× %1").arg(format::number(scale));
        },
        [this](double typedTflops) {
            const double base = basePeak();
            return base > 0 ? typedTflops * 1e12 / base : typedTflops;
        });
    addRow(gpu, k::kHbmBandwidth, logRange(500, 32000), value(k::kHbmBandwidth));
    addRow(gpu, k::kHbmCapacity, logRange(16, 1024), value(k::kHbmCapacity));

    QGridLayout *net = section(tr("Network"), QStringLiteral("section:network"));
    addRow(net, k::kScaleUpBandwidth, logRange(25, 6400), value(k::kScaleUpBandwidth));
    addRow(net, k::kScaleUpLatency, logRange(0.05, 100), value(k::kScaleUpLatency));
    addRow(net, k::kScaleUpEfficiency, percentRange(30), value(k::kScaleUpEfficiency), percent, fromPercent);
    addRow(net, k::kScaleOutBandwidth, logRange(6.25, 3200), value(k::kScaleOutBandwidth));
    addRow(net, k::kScaleOutLatency, logRange(0.25, 200), value(k::kScaleOutLatency));
    addRow(net, k::kScaleOutEfficiency, percentRange(30), value(k::kScaleOutEfficiency), percent, fromPercent);
    addRow(net, k::kDomainSize, { 2, 4, 8, 16, 32, 64, 72, 128, 144, 256, 512, 576, 1024, 2048, 4096 },
           value(k::kDomainSize));

    QGridLayout *work = section(tr("Workload and scale"), QStringLiteral("section:workload"));
    addRow(work, k::kGpuCount, kGpuCounts, value(k::kGpuCount));
    addRow(work, k::kBatchSize, { 128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 16384, 32768 },
           value(k::kBatchSize));
    addRow(work, k::kSeqSize, { 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072 }, value(k::kSeqSize));

    auto *reset = new QPushButton(tr("Reset sliders to the blocks' values"), this);
    reset->setObjectName(QStringLiteral("resetOverrides"));
    reset->setToolTip(tr("Remove every slider change; the blocks' own values apply again"));
    outer->addWidget(reset);
    outer->addStretch(1);
    connect(reset, &QPushButton::clicked, mDocument, &ScenarioDocument::clearOverrides);
}

double ParameterPanel::basePeak() const
{
    if (!mResults || !mResults->compiled)
        return 0;
    const auto &peak
        = mResults->compiled->resolved.gpu
              .matrixPeak_flops[static_cast<std::size_t>(mResults->compiled->execution.datatype)];
    const double scale = overrideOr(*mResults, scenario::keys::kComputeScale, 1);
    return peak && scale > 0 ? *peak / scale : 0;
}

void ParameterPanel::addRow(QGridLayout *grid, std::string key, std::vector<double> values,
                            std::function<double(const ScenarioResults &)> current,
                            std::function<QString(double)> display, std::function<double(double)> fromTyped)
{
    Row row;
    row.key = std::move(key);
    row.values = std::move(values);
    row.current = std::move(current);
    row.display = std::move(display);
    row.fromTyped = std::move(fromTyped);
    const int r = grid->rowCount();
    row.label = parameterLabel(row.key);
    row.slider = new QSlider(Qt::Horizontal, this);
    row.slider->setObjectName(QString::fromStdString("slider:" + row.key));
    row.slider->setRange(0, static_cast<int>(row.values.size()) - 1);
    row.slider->setPageStep(std::max<int>(1, static_cast<int>(row.values.size()) / 10));
    row.slider->setToolTip(parameterToolTip(row.key));
    row.slider->setMinimumWidth(80);
    row.value = new ValueField(this);
    row.value->setObjectName(QString::fromStdString("value:" + row.key));
    row.value->setMinimumWidth(96);
    auto *label = new QLabel(row.label, this);
    label->setToolTip(row.slider->toolTip());
    grid->addWidget(label, r, 0);
    grid->addWidget(row.slider, r, 1);
    grid->addWidget(row.value, r, 2);
    const std::size_t index = mRows.size();
    mRows.push_back(std::move(row));
    connect(mRows[index].slider, &QSlider::valueChanged, this, [this, index](int position) {
        const Row &changed = mRows[index];
        commit(changed, changed.values[static_cast<std::size_t>(position)]);
    });
    connect(mRows[index].value, &ValueField::valueEntered, this, [this, index](double typed) {
        const Row &typedRow = mRows[index];
        commit(typedRow, typedRow.fromTyped ? typedRow.fromTyped(typed) : typed);
    });
}

QSlider *ParameterPanel::slider(const std::string &key) const
{
    for (const Row &row : mRows)
        if (row.key == key)
            return row.slider;
    return nullptr;
}

ValueField *ParameterPanel::valueField(const std::string &key) const
{
    for (const Row &row : mRows)
        if (row.key == key)
            return row.value;
    return nullptr;
}

QString ParameterPanel::label(const std::string &key) const
{
    for (const Row &row : mRows)
        if (row.key == key)
            return row.label;
    return {};
}

std::vector<double> ParameterPanel::gpuCountChoices() const
{
    for (const Row &row : mRows)
        if (row.key == scenario::keys::kGpuCount)
            return row.values;
    return {};
}

QString ParameterPanel::displayText(const Row &row, double value) const
{
    if (row.display)
        return row.display(value);
    const bool whole = std::abs(value - std::round(value)) < 1e-9 && std::abs(value) >= 1;
    const QString number
        = whole ? QString::number(static_cast<qint64>(std::llround(value))) : format::number(value, 3);
    const QString unit = parameterWords(row.key).unit;
    return unit.isEmpty() ? number : QStringLiteral("%1 %2").arg(number, unit);
}

void ParameterPanel::showValue(const Row &row, double value) const
{
    const QString text = displayText(row, value);
    if (text == row.value->text())
        return; // its tool tip too is unchanged
    row.value->setText(text);
    row.value->setToolTip(tr("%1: %2. Double-click to type a value.").arg(row.label, text));
}

void ParameterPanel::commit(const Row &row, double value)
{
    showValue(row, value);
    if (row.key == scenario::keys::kGpuCount)
        mDocument->setGpuCount(static_cast<std::int64_t>(std::llround(value)));
    else
        mDocument->setOverride(row.key, value);
}

void ParameterPanel::updateGpuCountChoices(Row &row, const ScenarioResults &results) const
{
    const model::Execution &e = results.compiled->execution;
    const double current = static_cast<double>(results.compiled->resolved.gpuCount);
    std::vector<double> choices;
    for (double count : kGpuCounts)
        if (count == current || gpuCountFits(e, static_cast<std::int64_t>(count), e.modelMoE))
            choices.push_back(count);
    if (std::find(choices.begin(), choices.end(), current) == choices.end()) {
        choices.push_back(current);
        std::sort(choices.begin(), choices.end());
    }
    if (choices == row.values)
        return;
    row.values = std::move(choices);
    const QSignalBlocker blocker(row.slider);
    row.slider->setRange(0, static_cast<int>(row.values.size()) - 1);
    row.slider->setPageStep(1);
}

void ParameterPanel::setResults(ResultsPtr results)
{
    mResults = std::move(results);
    const bool usable = mResults && mResults->compiled;
    for (Row &row : mRows) {
        row.slider->setEnabled(usable || row.slider->isSliderDown());
        row.value->setEnabled(usable);
        if (!usable || row.slider->isSliderDown())
            continue;
        if (row.key == scenario::keys::kGpuCount)
            updateGpuCountChoices(row, *mResults);
        const double value = row.current(*mResults);
        const QSignalBlocker blocker(row.slider);
        row.slider->setValue(nearest(row.values, value));
        showValue(row, value);
    }
}

} // namespace gapstudio::views
