#include "studio/blockinspector.h"

#include "gapstudio/model/units.h"
#include "studio/parameternames.h"
#include "studio/studioformat.h"
#include "studio/valuefield.h"

#include <QHeaderView>
#include <QLocale>
#include <QTimer>

#include <cmath>

namespace gapstudio::views {

namespace {
QString str(const std::string &s)
{
    return QString::fromStdString(s);
}
QString topologyKind(scenario::TopologyKind kind)
{
    switch (kind) {
    case scenario::TopologyKind::TwoTier:
        return QObject::tr("two tiers");
    case scenario::TopologyKind::FullFlat:
        return QObject::tr("full flat");
    case scenario::TopologyKind::ThreeTier:
        return QObject::tr("three tiers (leaf and spine)");
    }
    return {};
}
constexpr double kGiB = units::kBytesPerGiB;
using Slot = ScenarioDocument::Slot;
using R = scenario::ResolvedScenario;

std::int64_t whole(double value)
{
    return std::llround(value);
}
} // namespace

BlockInspector::BlockInspector(QWidget *parent)
    : QTableWidget(0, 2, parent)
{
    setObjectName(QStringLiteral("blockInspector"));
    setHorizontalHeaderLabels({tr("Parameter"), tr("Value")});
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setWordWrap(false);
    connect(this, &QTableWidget::itemChanged, this, &BlockInspector::onItemChanged);
}

void BlockInspector::setDocument(ScenarioDocument *document)
{
    mDocument = document;
    setEditTriggers(document ? QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                             : QAbstractItemView::NoEditTriggers);
    refresh();
}

void BlockInspector::setPart(CanvasScene::Part part)
{
    mPart = part;
    refresh();
}

void BlockInspector::setResults(ResultsPtr results)
{
    mResults = std::move(results);
    refresh();
}

std::optional<ScenarioDocument::Slot> BlockInspector::slot() const
{
    using Part = CanvasScene::Part;
    switch (mPart) {
    case Part::Gpu:
    case Part::Domain:
        return Slot::Gpu;
    case Part::ScaleUpLink:
        return Slot::ScaleUp;
    case Part::ScaleOutLink:
        return Slot::ScaleOut;
    case Part::Fabric:
        return Slot::Topology;
    case Part::Llm:
    case Part::None:
        return Slot::Llm;
    case Part::Layout:
    case Part::Total:
        break;
    }
    return std::nullopt;
}

void BlockInspector::addRow(const QString &name, const QString &value)
{
    writeRow(name, value, value, Qt::ItemIsEnabled | Qt::ItemIsSelectable);
}

void BlockInspector::writeRow(const QString &name, const QString &value, const QString &toolTip,
                              Qt::ItemFlags valueFlags)
{
    // refresh() writes the rows over the ones shown: a row that reads the same is left as it is,
    // so that a change elsewhere in the design neither rebuilds nor lays out the table again.
    const int row = mFilled++;
    mEdits.emplace_back();
    if (row == rowCount()) {
        insertRow(row);
        setItem(row, 0, new QTableWidgetItem);
        setItem(row, 1, new QTableWidgetItem);
    }
    const auto write
        = [this](QTableWidgetItem *item, const QString &text, const QString &tip, Qt::ItemFlags flags) {
              if (item->text() == text && item->toolTip() == tip && item->flags() == flags)
                  return;
              item->setText(text);
              item->setToolTip(tip);
              item->setFlags(flags);
              mRowsChanged = true;
          };
    write(item(row, 0), name, {}, Qt::ItemIsEnabled);
    write(item(row, 1), value, toolTip, valueFlags);
}

void BlockInspector::addEditable(const QString &name, double value, const QString &unit, Edit edit)
{
    const QString text = unit.isEmpty() ? format::number(value, 6)
                                        : QStringLiteral("%1 %2").arg(format::number(value, 6), unit);
    if (!mDocument)
        return addRow(name, text);
    // Written once with its final flags and tip: a row written twice per refresh would count as
    // changed at every change of the design.
    writeRow(name, text,
             tr("%1. Double-click to type a new value (in %2); the block becomes an edited copy.")
                 .arg(text, unit.isEmpty() ? tr("a plain number") : unit),
             Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable);
    mEdits.back() = std::move(edit);
}

bool BlockInspector::isEditable(const QString &parameter) const
{
    for (int row = 0; row < rowCount(); ++row)
        if (item(row, 0)->text() == parameter)
            return mEdits[static_cast<std::size_t>(row)].has_value();
    return false;
}

bool BlockInspector::editValue(const QString &parameter, double value)
{
    for (int row = 0; row < rowCount(); ++row) {
        const auto &edit = mEdits[static_cast<std::size_t>(row)];
        if (item(row, 0)->text() != parameter || !edit || !mDocument)
            continue;
        const auto apply = edit->apply;
        return mDocument->editBlock(
            edit->slot, [&apply, value](R &r) { apply(r, value); }, tr("Edit %1").arg(parameter.toLower()));
    }
    return false;
}

void BlockInspector::onItemChanged(QTableWidgetItem *changed)
{
    if (mFilling || changed->column() != 1)
        return;
    const QString parameter = item(changed->row(), 0)->text();
    const std::optional<double> value = ValueField::parseNumber(changed->text());
    if (!value || !editValue(parameter, *value))               // not a number: show the block's value again
        QTimer::singleShot(0, this, &BlockInspector::refresh); // not inside the item's own signal
}

void BlockInspector::addIdentityRows(const scenario::BlockInfo &info, std::string_view prefix)
{
    QStringList edits;
    for (const auto &[key, value] : mResults->scenario.overrides)
        if (std::string_view(key).starts_with(prefix)) {
            const ParameterWords words = parameterWords(key);
            edits << tr("%1 %2 %3").arg(words.label, QLocale().toString(value, 'g', 6), words.unit).trimmed();
        }
    if (edits.isEmpty()) {
        addRow(tr("Name"), str(info.name));
        addRow(tr("Preset id"), str(info.id));
        return;
    }
    addRow(tr("Name"), tr("%1 (edited)").arg(str(info.name)));
    addRow(tr("Preset id"),
           tr("%1, changed by the sliders: %2").arg(str(info.id), edits.join(QStringLiteral("; "))));
}

void BlockInspector::addGpuRows(const R &r)
{
    addRow(tr("Block"), tr("GPU"));
    addIdentityRows(r.gpu.info, "gpu.");
    for (std::size_t i = 0; i < model::kDatatypeCount; ++i)
        if (r.gpu.matrixPeak_flops[i])
            addEditable(tr("Peak %1 (matrix)")
                            .arg(QString::fromLatin1(model::datatypeName(static_cast<model::Datatype>(i)))),
                        *r.gpu.matrixPeak_flops[i] / 1e12, QStringLiteral("TFLOP/s"),
                        { Slot::Gpu, [i](R &g, double v) { g.gpu.matrixPeak_flops[i] = v * 1e12; } });
    addEditable(tr("HBM capacity"), r.gpu.hbm.capacity_B / kGiB, QStringLiteral("GiB"),
                { Slot::Gpu, [](R &g, double v) { g.gpu.hbm.capacity_B = v * kGiB; } });
    addEditable(tr("HBM bandwidth"), r.gpu.hbm.bandwidth_Bps / 1e9, QStringLiteral("GB/s"),
                { Slot::Gpu, [](R &g, double v) { g.gpu.hbm.bandwidth_Bps = v * 1e9; } });
    addEditable(tr("Offload memory capacity"), r.gpu.tier2.capacity_B / kGiB, QStringLiteral("GiB"),
                { Slot::Gpu, [](R &g, double v) { g.gpu.tier2.capacity_B = v * kGiB; } });
    addEditable(tr("Offload memory bandwidth"), r.gpu.tier2.bandwidth_Bps / 1e9, QStringLiteral("GB/s"),
                { Slot::Gpu, [](R &g, double v) { g.gpu.tier2.bandwidth_Bps = v * 1e9; } });
    addEditable(tr("Board power"), r.gpu.boardPower_W, QStringLiteral("W"),
                { Slot::Gpu, [](R &g, double v) { g.gpu.boardPower_W = v; } });
    addRow(tr("Scale-up domain size"), format::count(r.topology.scaleUpDomainSize));
    addRow(tr("Source"), str(r.gpu.info.source));
}

void BlockInspector::addLinkRows(const scenario::Interconnect &l, Slot slot, const QString &role)
{
    const auto link
        = [slot](R &r) -> scenario::Interconnect & { return slot == Slot::ScaleUp ? r.scaleUp : r.scaleOut; };
    addRow(tr("Block"), role);
    addIdentityRows(l.info, slot == Slot::ScaleUp ? "scale_up." : "scale_out.");
    addEditable(tr("Bandwidth (per GPU)"), l.bandwidth_Bps / 1e9, QStringLiteral("GB/s"),
                { slot, [link](R &r, double v) { link(r).bandwidth_Bps = v * 1e9; } });
    addEditable(tr("Latency"), l.latency_s * 1e6, QStringLiteral("µs"),
                { slot, [link](R &r, double v) { link(r).latency_s = v * 1e-6; } });
    addEditable(tr("Efficiency"), l.efficiency * 100, QStringLiteral("%"),
                { slot, [link](R &r, double v) { link(r).efficiency = v / 100; } });
    addEditable(tr("All-to-all efficiency (0 = as above)"), l.allToAllEfficiency * 100, QStringLiteral("%"),
                { slot, [link](R &r, double v) { link(r).allToAllEfficiency = v / 100; } });
    addRow(tr("In-network reduction"), l.inNetworkReduction ? tr("yes") : tr("no"));
    addEditable(tr("Processor usage"), l.processorUsage * 100, QStringLiteral("%"),
                { slot, [link](R &r, double v) { link(r).processorUsage = v / 100; } });
    addEditable(tr("Most GPUs joined (0 = no limit)"), static_cast<double>(l.maxDomainSize), tr("GPUs"),
                { slot, [link](R &r, double v) { link(r).maxDomainSize = whole(v); } });
    addRow(tr("Source"), str(l.info.source));
}

void BlockInspector::addTopologyRows(const R &r)
{
    addRow(tr("Block"), tr("Topology"));
    addRow(tr("Name"), str(r.topology.info.name));
    addRow(tr("Kind"), topologyKind(r.topology.kind));
    addEditable(tr("Scale-up domain size"), static_cast<double>(r.topology.scaleUpDomainSize), tr("GPUs"),
                { Slot::Topology, [](R &t, double v) { t.topology.scaleUpDomainSize = whole(v); } });
    addRow(tr("Domains must be filled"), r.topology.scaleUpMustBeFilled ? tr("yes") : tr("no"));
    if (r.topology.kind == scenario::TopologyKind::ThreeTier) {
        addEditable(tr("GPUs per leaf switch"), static_cast<double>(r.topology.leafSize), tr("GPUs"),
                    { Slot::Topology, [](R &t, double v) { t.topology.leafSize = whole(v); } });
        addEditable(tr("Spine oversubscription"), r.topology.oversubscription, tr(": 1"),
                    { Slot::Topology, [](R &t, double v) { t.topology.oversubscription = v; } });
    }
    addRow(tr("Network tiers"),
           format::count(static_cast<std::int64_t>(mResults->compiled->system.networks.size())));
    addRow(tr("Source"), str(r.topology.info.source));
}

void BlockInspector::addLlmRows(const R &r)
{
    addRow(tr("Block"), tr("LLM"));
    addIdentityRows(r.llm.info, "llm.");
    const auto count = [this](const QString &name, std::int64_t value, std::int64_t scenario::Llm::*member) {
        addEditable(name, static_cast<double>(value), QString(),
                    { Slot::Llm, [member](R &l, double v) { l.llm.*member = whole(v); } });
    };
    count(tr("Hidden size"), r.llm.hidden, &scenario::Llm::hidden);
    count(tr("Feed-forward size"), r.llm.feedforward, &scenario::Llm::feedforward);
    count(tr("Sequence length"), r.llm.seqSize, &scenario::Llm::seqSize);
    count(tr("Attention heads"), r.llm.attnHeads, &scenario::Llm::attnHeads);
    count(tr("Key/value heads"), r.llm.kvHeads, &scenario::Llm::kvHeads);
    count(tr("Head size"), r.llm.headSize, &scenario::Llm::headSize);
    count(tr("Layers"), r.llm.numBlocks, &scenario::Llm::numBlocks);
    count(tr("Vocabulary"), r.llm.vocabSize, &scenario::Llm::vocabSize);
    count(tr("Experts"), r.llm.numExperts, &scenario::Llm::numExperts);
    count(tr("Experts per token"), r.llm.topK, &scenario::Llm::topK);
    addRow(tr("Source"), str(r.llm.info.source));
}

void BlockInspector::refresh()
{
    mFilling = true;
    mFilled = 0;
    mRowsChanged = false;
    mEdits.clear();
    fillRows();
    if (rowCount() != mFilled) {
        setRowCount(mFilled);
        mRowsChanged = true;
    }
    if (mRowsChanged)
        resizeRowsToContents();
    mFilling = false;
}

void BlockInspector::fillRows()
{
    if (!mResults || !mResults->compiled) {
        addRow(tr("—"), tr("no compiled scenario"));
        return;
    }
    const R &r = mResults->compiled->resolved;
    using Part = CanvasScene::Part;
    switch (mPart) {
    case Part::Gpu:
    case Part::Domain:
        addGpuRows(r);
        break;
    case Part::ScaleUpLink:
        addLinkRows(r.scaleUp, Slot::ScaleUp, tr("Scale-up interconnect"));
        break;
    case Part::ScaleOutLink:
        addLinkRows(r.scaleOut, Slot::ScaleOut, tr("Scale-out interconnect"));
        break;
    case Part::Fabric:
        addTopologyRows(r);
        break;
    case Part::Layout: {
        const model::Execution &e = mResults->compiled->execution;
        addRow(tr("Block"), tr("Layout (edit it in the Layout panel)"));
        addRow(tr("Name"), str(r.layout.info.name));
        addRow(tr("TP × PP × DP"), QStringLiteral("%1 × %2 × %3").arg(e.tensorPar).arg(e.pipelinePar).arg(e.dataPar));
        addRow(tr("EP · ES · expert DP"), QStringLiteral("%1 · %2 · %3").arg(e.expertPar).arg(e.expertSlice).arg(e.dataParExp));
        addRow(tr("Microbatch · global batch"), QStringLiteral("%1 · %2").arg(e.microbatchSize).arg(e.batchSize));
        addRow(tr("Datatype"), QString::fromLatin1(model::datatypeName(e.datatype)));
        break;
    }
    case Part::Total:
        addRow(tr("GPUs"), format::count(r.gpuCount));
        addRow(tr("Scale-up domain size"), format::count(r.topology.scaleUpDomainSize));
        if (mResults->ok())
            addRow(tr("Throughput"), tr("%1 tokens/s").arg(format::si(mResults->analysis->tokensPerSecond)));
        break;
    case Part::Llm:
    case Part::None:
        addLlmRows(r);
        break;
    }
}

} // namespace gapstudio::views
