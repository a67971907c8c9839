// The canvas's drawing (CanvasScene, declared in canvasscene.h): the parts of the design named by
// identity in one pass over the latest results; CanvasItems keeps the items that are named again
// and changes only what differs (canvasitems.h).
#include "studio/canvasscene.h"

#include "studio/studioformat.h"

#include <QCoreApplication>
#include <QGraphicsRectItem>
#include <QPen>

#include <algorithm>

namespace gapstudio::views {

namespace {

constexpr int kMaxDomainsDrawn = 4;

const QColor kLlmColor(0xe8, 0xf0, 0xfe);
const QColor kLayoutColor(0xfd, 0xf1, 0xdc);
const QColor kTotalColor(0xee, 0xee, 0xee);
const QColor kFabricColor(0xf6, 0xf8, 0xfa);
const QColor kLinkOutColor(0xd6, 0xe4, 0xf5);
const QColor kDomainColor(0xff, 0xff, 0xff);
const QColor kGpuColor(0xdf, 0xf3, 0xe4);
const QColor kLinkUpColor(0xe8, 0xe0, 0xf5);
const QColor kChipColor(0x34, 0xa8, 0x53);
const QPen kWirePen(QColor(0x40, 0x60, 0x90), 2);

/// The name of a block; one the sliders changed is "Custom, from <name>" (its values are no
/// longer the preset's).
QString blockTitle(const std::string &name, bool adjusted)
{
    const QString text = QString::fromStdString(name);
    return adjusted ? QCoreApplication::translate("CanvasScene", "Custom, from %1").arg(text) : text;
}

QString linkText(const scenario::Interconnect &link, bool adjusted)
{
    return QStringLiteral("%1\n%2 · %3")
        .arg(blockTitle(link.info.name, adjusted), format::bandwidth(link.bandwidth_Bps),
             format::latency(link.latency_s));
}

QString layoutText(const model::Execution &e)
{
    QString text = QStringLiteral("TP %1 × PP %2 × DP %3").arg(e.tensorPar).arg(e.pipelinePar).arg(e.dataPar);
    if (e.modelMoE)
        text += QStringLiteral("\nEP %1 · ES %2 · expert DP %3")
                    .arg(e.expertPar)
                    .arg(e.expertSlice)
                    .arg(e.dataParExp);
    return text
           + QStringLiteral("\nmicrobatch %1 · batch %2 · %3")
                 .arg(e.microbatchSize)
                 .arg(e.batchSize)
                 .arg(QString::fromLatin1(model::datatypeName(e.datatype)));
}

QString fabricText(const scenario::ResolvedScenario &r)
{
    switch (r.topology.kind) {
    case scenario::TopologyKind::FullFlat:
        return QCoreApplication::translate(
                   "CanvasScene", "one flat fabric: every GPU reaches every other directly at %1 per GPU")
            .arg(format::bandwidth(r.scaleOut.bandwidth_Bps));
    case scenario::TopologyKind::TwoTier:
        return QCoreApplication::translate("CanvasScene",
                                           "two tiers: scale-up domains joined by the scale-out link");
    case scenario::TopologyKind::ThreeTier:
        return QCoreApplication::translate("CanvasScene",
                                           "three tiers: scale-up domains, leaf switches and a spine");
    }
    return {};
}

} // namespace

QPen CanvasScene::partPen(Part part) const
{
    return part != Part::None && part == mHighlighted ? QPen(QColor(0x1a, 0x73, 0xe8), 3)
                                                      : QPen(QColor(0x70, 0x70, 0x70), 1);
}

QGraphicsRectItem *CanvasScene::addPart(const QString &key, Part part, const QRectF &rect, const QColor &fill,
                                        const QString &title, const QString &body, QGraphicsItem *parent)
{
    return mItems.part(key, static_cast<int>(part), rect, fill, partPen(part), title, body, parent);
}

void CanvasScene::redraw()
{
    const Part selected = selectedPart();
    const QSignalBlocker blocker(this);
    mHighlighted = Part::None; // a change ends a drag's highlight, as a new drawing did
    mItems.begin();
    if (!mResults || !mResults->compiled)
        mItems.text(QStringLiteral("message"), tr("The scenario does not compile — see Diagnostics."),
                    { 20, 20 });
    else
        drawDesign(mResults->compiled->resolved);
    mItems.end();
    // The selected item stays selected; if it is gone, the first item of its part is.
    if (selected != Part::None && selectedItems().isEmpty())
        for (QGraphicsItem *item : items(Qt::AscendingOrder))
            if (item->data(CanvasItems::kPartKey).toInt() == static_cast<int>(selected)) {
                item->setSelected(true);
                break;
            }
}

void CanvasScene::drawDesign(const scenario::ResolvedScenario &r)
{
    const std::int64_t domainSize = std::max<std::int64_t>(1, r.topology.scaleUpDomainSize);
    const std::int64_t domains = (r.gpuCount + domainSize - 1) / domainSize;

    addPart(QStringLiteral("llm"), Part::Llm, { 10, 10, 255, 80 }, kLlmColor,
            tr("LLM: %1").arg(blockTitle(r.llm.info.name, adjusted("llm."))),
            tr("%1 layers · hidden %2 · sequence %3%4")
                .arg(r.llm.numBlocks)
                .arg(r.llm.hidden)
                .arg(r.llm.seqSize)
                .arg(r.llm.isMoe() ? tr("\n%1 experts, top-%2").arg(r.llm.numExperts).arg(r.llm.topK)
                                   : tr("\ndense, %1 heads").arg(r.llm.attnHeads)));
    addPart(QStringLiteral("layout"), Part::Layout, { 275, 10, 280, 80 }, kLayoutColor,
            tr("Layout: %1").arg(QString::fromStdString(r.layout.info.name)),
            layoutText(mResults->compiled->execution));
    addPart(QStringLiteral("total"), Part::Total, { 565, 10, 225, 80 }, kTotalColor,
            tr("%1 GPUs").arg(r.gpuCount), tr("%1 scale-up domains × %2 GPUs").arg(domains).arg(domainSize));
    addPart(QStringLiteral("fabric"), Part::Fabric, { 10, 100, 880, 450 }, kFabricColor,
            tr("Scale-out fabric: %1").arg(blockTitle(r.topology.info.name, adjusted("topology."))),
            fabricText(r));
    const qreal linksBottom = addFabricLinks(r);

    // Up to kMaxDomainsDrawn domains; the last slot says how many more there are.
    const int slotCount = static_cast<int>(std::min<std::int64_t>(domains, kMaxDomainsDrawn));
    const qreal slotWidth = (840.0 - (kMaxDomainsDrawn - 1) * 20.0) / kMaxDomainsDrawn;
    const qreal top = linksBottom + 30;
    const qreal height = 535 - top;
    for (int i = 0; i < slotCount; ++i) {
        const qreal x = 30 + i * (slotWidth + 20);
        const QRectF box(x, top, slotWidth, height);
        const QLineF wire(x + slotWidth / 2, linksBottom, x + slotWidth / 2, top);
        if (i == slotCount - 1 && domains > slotCount) {
            mItems.line(QStringLiteral("more domains/line"), wire, kWirePen);
            QPen dashed = partPen(Part::Domain);
            dashed.setStyle(Qt::DashLine);
            mItems.part(QStringLiteral("more domains"), static_cast<int>(Part::Domain), box, kFabricColor,
                        dashed, tr("… %1 more domains").arg(domains - slotCount + 1),
                        tr("identical to the ones on the left"));
            continue;
        }
        const QString key = QStringLiteral("domain %1").arg(i + 1);
        mItems.line(key + QStringLiteral("/line"), wire, kWirePen);
        auto *domain
            = addPart(key, Part::Domain, box, kDomainColor, tr("Scale-up domain %1").arg(i + 1), QString());
        const qreal gpuTop = top + 30, linkHeight = 95;
        const qreal gpuHeight = height - 30 - linkHeight - 18;
        auto *gpu
            = addPart(key + QStringLiteral("/gpu"), Part::Gpu, { x + 8, gpuTop, slotWidth - 16, gpuHeight },
                      kGpuColor, blockTitle(r.gpu.info.name, adjusted("gpu.")),
                      tr("× %1 GPUs · %2 HBM")
                          .arg(std::min(domainSize, r.gpuCount))
                          .arg(format::bytes(r.gpu.hbm.capacity_B)),
                      domain);
        const int chips = static_cast<int>(std::min<std::int64_t>(domainSize, 16));
        const qreal chipTop = gpuTop + gpuHeight - 45;
        for (int c = 0; c < chips; ++c)
            mItems.box(key + QStringLiteral("/gpu/chip %1").arg(c),
                       { x + 16 + (c % 8) * ((slotWidth - 32) / 8), chipTop + (c / 8) * 20,
                         (slotWidth - 32) / 8 - 4, 16 },
                       kChipColor, gpu);
        addPart(key + QStringLiteral("/scale-up link"), Part::ScaleUpLink,
                { x + 8, top + height - linkHeight - 10, slotWidth - 16, linkHeight }, kLinkUpColor,
                tr("Scale-up link"), linkText(r.scaleUp, adjusted("scale_up.")), domain);
    }
}

qreal CanvasScene::addFabricLinks(const scenario::ResolvedScenario &r)
{
    const bool outAdjusted = adjusted("scale_out.");
    const scenario::Interconnect &out = r.scaleOut;
    if (r.topology.kind != scenario::TopologyKind::ThreeTier) {
        addPart(QStringLiteral("scale-out link"), Part::ScaleOutLink, { 30, 160, 840, 50 }, kLinkOutColor,
                tr("Scale-out link (per GPU)"),
                linkText(out, outAdjusted).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
        return 210;
    }
    // Three tiers: the spine across the leaves, the leaf switches across the domains.
    const double ratio = std::max(1.0, r.topology.oversubscription);
    const std::int64_t leafSize = std::max<std::int64_t>(1, r.topology.leafSize);
    const std::int64_t leaves = (r.gpuCount + leafSize - 1) / leafSize;
    addPart(
        QStringLiteral("spine"), Part::ScaleOutLink, { 30, 128, 840, 46 }, kLinkOutColor,
        tr("Spine (tier 2): %1 leaf switches, oversubscribed %2:1").arg(leaves).arg(format::number(ratio)),
        tr("%1 per GPU across the spine · %2")
            .arg(format::bandwidth(out.bandwidth_Bps / ratio), format::latency(out.latency_s)));
    mItems.line(QStringLiteral("spine/line"), { 450, 174, 450, 184 }, kWirePen);
    addPart(QStringLiteral("leaf"), Part::ScaleOutLink, { 30, 184, 840, 46 }, kLinkOutColor,
            tr("Leaf switches (tier 1): %1 GPUs each, %2 scale-up domains per leaf")
                .arg(leafSize)
                .arg(std::max<std::int64_t>(
                    1, leafSize / std::max<std::int64_t>(1, r.topology.scaleUpDomainSize))),
            linkText(out, outAdjusted).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
    return 230;
}

} // namespace gapstudio::views
