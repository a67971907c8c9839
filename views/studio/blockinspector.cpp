#include "studio/blockinspector.h"

#include "studio/studioformat.h"

#include <QHeaderView>

namespace gapstudio::views {

namespace {
QString str(const std::string &s)
{
    return QString::fromStdString(s);
}
QString topologyKind(scenario::TopologyKind kind)
{
    switch (kind) {
    case scenario::TopologyKind::TwoTier: return QStringLiteral("two-tier");
    case scenario::TopologyKind::FullFlat: return QStringLiteral("full-flat");
    case scenario::TopologyKind::ThreeTier: return QStringLiteral("three-tier");
    }
    return {};
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

void BlockInspector::addRow(const QString &name, const QString &value)
{
    const int row = rowCount();
    insertRow(row);
    setItem(row, 0, new QTableWidgetItem(name));
    auto *item = new QTableWidgetItem(value);
    item->setToolTip(value);
    setItem(row, 1, item);
}

void BlockInspector::refresh()
{
    setRowCount(0);
    if (!mResults || !mResults->compiled) {
        addRow(tr("—"), tr("no compiled scenario"));
        return;
    }
    const scenario::ResolvedScenario &r = mResults->compiled->resolved;
    using Part = CanvasScene::Part;
    const auto link = [this](const scenario::Interconnect &l, const QString &role) {
        addRow(tr("Block"), role);
        addRow(tr("Name"), str(l.info.name));
        addRow(tr("Preset id"), str(l.info.id));
        addRow(tr("Bandwidth (per GPU)"), format::bandwidth(l.bandwidth_Bps));
        addRow(tr("Latency"), format::latency(l.latency_s));
        addRow(tr("Efficiency"), format::percent(l.efficiency));
        addRow(tr("In-network reduction"), l.inNetworkReduction ? tr("yes") : tr("no"));
        addRow(tr("Processor usage"), format::percent(l.processorUsage));
        addRow(tr("Source"), str(l.info.source));
    };
    switch (mPart) {
    case Part::Gpu:
    case Part::Domain: {
        addRow(tr("Block"), tr("GPU"));
        addRow(tr("Name"), str(r.gpu.info.name));
        addRow(tr("Preset id"), str(r.gpu.info.id));
        for (std::size_t i = 0; i < model::kDatatypeCount; ++i)
            if (r.gpu.matrixPeak_flops[i])
                addRow(tr("Peak %1 (matrix)").arg(QString::fromLatin1(model::datatypeName(static_cast<model::Datatype>(i)))),
                       format::flops(*r.gpu.matrixPeak_flops[i]));
        addRow(tr("HBM capacity"), format::bytes(r.gpu.hbm.capacity_B));
        addRow(tr("HBM bandwidth"), format::bandwidth(r.gpu.hbm.bandwidth_Bps));
        addRow(tr("Tier-2 capacity"), format::bytes(r.gpu.tier2.capacity_B));
        addRow(tr("Tier-2 bandwidth"), format::bandwidth(r.gpu.tier2.bandwidth_Bps));
        addRow(tr("Scale-up domain size"), format::count(r.topology.scaleUpDomainSize));
        addRow(tr("Source"), str(r.gpu.info.source));
        break;
    }
    case Part::ScaleUpLink: link(r.scaleUp, tr("Scale-up interconnect")); break;
    case Part::ScaleOutLink: link(r.scaleOut, tr("Scale-out interconnect")); break;
    case Part::Fabric:
        addRow(tr("Block"), tr("Topology"));
        addRow(tr("Name"), str(r.topology.info.name));
        addRow(tr("Kind"), topologyKind(r.topology.kind));
        addRow(tr("Scale-up domain size"), format::count(r.topology.scaleUpDomainSize));
        addRow(tr("Domains must be filled"), r.topology.scaleUpMustBeFilled ? tr("yes") : tr("no"));
        addRow(tr("Network tiers"), format::count(static_cast<std::int64_t>(mResults->compiled->system.networks.size())));
        addRow(tr("Source"), str(r.topology.info.source));
        break;
    case Part::Layout: {
        const model::Execution &e = mResults->compiled->execution;
        addRow(tr("Block"), tr("Layout"));
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
        addRow(tr("Block"), tr("LLM"));
        addRow(tr("Name"), str(r.llm.info.name));
        addRow(tr("Preset id"), str(r.llm.info.id));
        addRow(tr("Hidden"), format::count(r.llm.hidden));
        addRow(tr("Feed-forward"), format::count(r.llm.feedforward));
        addRow(tr("Sequence"), format::count(r.llm.seqSize));
        addRow(tr("Attention heads"), format::count(r.llm.attnHeads));
        addRow(tr("KV heads"), format::count(r.llm.kvHeads));
        addRow(tr("Head size"), format::count(r.llm.headSize));
        addRow(tr("Layers"), format::count(r.llm.numBlocks));
        addRow(tr("Experts · top-k"), QStringLiteral("%1 · %2").arg(r.llm.numExperts).arg(r.llm.topK));
        addRow(tr("Source"), str(r.llm.info.source));
        break;
    }
    resizeRowsToContents();
}

} // namespace gapstudio::views
