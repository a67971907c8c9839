#include "studio/canvasscene.h"

#include "studio/scenariodocument.h"
#include "studio/studioformat.h"

#include <QCoreApplication>
#include <QCursor>
#include <QFont>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsTextItem>
#include <QMenu>
#include <QMimeData>
#include <QPen>
#include <QTimer>

#include <algorithm>

namespace gapstudio::views {

namespace {

constexpr int kPartKey = 0; // QGraphicsItem::data key holding the Part
constexpr qreal kWidth = 900;
constexpr qreal kHeight = 560;
constexpr int kMaxDomainsDrawn = 4;

const QColor kLlmColor(0xe8, 0xf0, 0xfe);
const QColor kLayoutColor(0xfd, 0xf1, 0xdc);
const QColor kTotalColor(0xee, 0xee, 0xee);
const QColor kFabricColor(0xf6, 0xf8, 0xfa);
const QColor kLinkOutColor(0xd6, 0xe4, 0xf5);
const QColor kDomainColor(0xff, 0xff, 0xff);
const QColor kGpuColor(0xdf, 0xf3, 0xe4);
const QColor kLinkUpColor(0xe8, 0xe0, 0xf5);

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
        text += QStringLiteral("\nEP %1 · ES %2 · expert DP %3").arg(e.expertPar).arg(e.expertSlice).arg(e.dataParExp);
    return text + QStringLiteral("\nmicrobatch %1 · batch %2 · %3")
                      .arg(e.microbatchSize)
                      .arg(e.batchSize)
                      .arg(QString::fromLatin1(model::datatypeName(e.datatype)));
}

} // namespace

CanvasScene::CanvasScene(ScenarioDocument *document, QObject *parent)
    : QGraphicsScene(parent)
    , mDocument(document)
{
    setSceneRect(0, 0, kWidth, kHeight);
    connect(this, &QGraphicsScene::selectionChanged, this, [this] { emit partSelected(selectedPart()); });
    askTier = [](const QString &linkName) -> std::optional<bool> {
        QMenu menu;
        menu.addSection(tr("Use %1 as").arg(linkName));
        QAction *up = menu.addAction(tr("Scale-up link (inside each scale-up domain)"));
        QAction *out = menu.addAction(tr("Scale-out link (between the domains)"));
        const QAction *chosen = menu.exec(QCursor::pos());
        if (!chosen)
            return std::nullopt;
        return chosen == up ? std::optional<bool>(true)
                            : (chosen == out ? std::optional<bool>(false) : std::nullopt);
    };
}

CanvasScene::~CanvasScene()
{
    // ~QGraphicsScene removes the items and emits selectionChanged() after this destructor:
    // the lambda above must not run on the half-destroyed scene.
    disconnect(this, &QGraphicsScene::selectionChanged, this, nullptr);
}

void CanvasScene::setResults(ResultsPtr results)
{
    mResults = std::move(results);
    rebuild();
}

QByteArray CanvasScene::encodePayload(BlockKind kind, const QString &presetId)
{
    return (blockKindName(kind) + QLatin1Char(':') + presetId).toUtf8();
}

bool CanvasScene::decodePayload(const QByteArray &payload, BlockKind *kind, QString *presetId)
{
    const QString text = QString::fromUtf8(payload);
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    const auto decoded = blockKindFromName(text.left(colon));
    if (colon <= 0 || !decoded)
        return false;
    *kind = *decoded;
    *presetId = text.mid(colon + 1);
    return true;
}

CanvasScene::Part CanvasScene::partAt(QPointF scenePos) const
{
    for (QGraphicsItem *item : items(scenePos)) { // topmost first
        for (QGraphicsItem *i = item; i; i = i->parentItem())
            if (i->data(kPartKey).isValid())
                return static_cast<Part>(i->data(kPartKey).toInt());
    }
    return Part::None;
}

QPointF CanvasScene::partCenter(Part part) const
{
    for (QGraphicsItem *item : items(Qt::AscendingOrder))
        if (item->data(kPartKey).isValid() && static_cast<Part>(item->data(kPartKey).toInt()) == part)
            return item->sceneBoundingRect().center();
    return {};
}

CanvasScene::Part CanvasScene::selectedPart() const
{
    const QList<QGraphicsItem *> selected = selectedItems();
    return selected.isEmpty() ? Part::None : static_cast<Part>(selected.first()->data(kPartKey).toInt());
}

std::optional<bool> CanvasScene::tierForLink(const std::string &presetId, Part part)
{
    if (part == Part::Domain || part == Part::Gpu || part == Part::ScaleUpLink)
        return true;
    if (part == Part::ScaleOutLink)
        return false;
    // Outside both links: the one tier the link can serve, else ask.
    const auto it = mDocument->library().interconnects.find(presetId);
    const auto r = mDocument->resolved();
    if (it == mDocument->library().interconnects.end() || !r)
        return askTier ? askTier(QString::fromStdString(presetId)) : std::nullopt;
    const std::int64_t reach = it->second.maxDomainSize; // 0 = unlimited
    const bool upFits = reach == 0 || reach >= r->topology.scaleUpDomainSize;
    const bool outFits = reach == 0 || reach >= r->gpuCount;
    if (upFits != outFits)
        return upFits;
    return askTier ? askTier(QString::fromStdString(it->second.info.name)) : std::nullopt;
}

bool CanvasScene::dropBlock(BlockKind kind, const QString &presetId, QPointF scenePos)
{
    const std::string id = presetId.toStdString();
    bool scaleUp = false;
    if (kind == BlockKind::Interconnect) {
        const std::optional<bool> tier = tierForLink(id, partAt(scenePos));
        if (!tier)
            return false;
        scaleUp = *tier;
    }
    const int before = mDocument->undoStack()->index();
    if (!mDocument->applyPreset(kind, id, scaleUp))
        return false;
    return mDocument->undoStack()->index() != before;
}

bool CanvasScene::adjusted(const char *prefix) const
{
    if (!mResults)
        return false;
    const std::string p(prefix);
    return std::any_of(mResults->scenario.overrides.begin(), mResults->scenario.overrides.end(),
                       [&p](const auto &entry) { return entry.first.rfind(p, 0) == 0; });
}

void CanvasScene::dragEnterEvent(QGraphicsSceneDragDropEvent *event)
{
    event->setAccepted(event->mimeData()->hasFormat(QString::fromLatin1(kBlockMimeType)));
    if (event->isAccepted())
        event->setDropAction(Qt::CopyAction);
}

void CanvasScene::dragMoveEvent(QGraphicsSceneDragDropEvent *event)
{
    BlockKind kind;
    QString id;
    if (!decodePayload(event->mimeData()->data(QString::fromLatin1(kBlockMimeType)), &kind, &id)) {
        event->ignore();
        return;
    }
    event->setDropAction(Qt::CopyAction);
    event->accept();
    const Part part = partAt(event->scenePos());
    const bool inDomain = part == Part::Domain || part == Part::Gpu || part == Part::ScaleUpLink;
    switch (kind) { // show what the drop will set (a link outside both: decided on the drop)
    case BlockKind::Gpu: highlight(Part::Gpu); break;
    case BlockKind::Interconnect:
        highlight(inDomain                     ? Part::ScaleUpLink
                  : part == Part::ScaleOutLink ? Part::ScaleOutLink
                                               : Part::None);
        break;
    case BlockKind::Topology: highlight(Part::Fabric); break;
    case BlockKind::Llm: highlight(Part::Llm); break;
    case BlockKind::Layout: highlight(Part::Layout); break;
    }
}

void CanvasScene::dragLeaveEvent(QGraphicsSceneDragDropEvent *event)
{
    highlight(Part::None);
    event->accept();
}

void CanvasScene::dropEvent(QGraphicsSceneDragDropEvent *event)
{
    highlight(Part::None);
    BlockKind kind;
    QString id;
    if (!decodePayload(event->mimeData()->data(QString::fromLatin1(kBlockMimeType)), &kind, &id))
        return event->ignore();
    const QPointF at = event->scenePos();
    const Part part = partAt(at);
    const bool linkOutsideLinks = kind == BlockKind::Interconnect && part != Part::ScaleOutLink
                                  && part != Part::ScaleUpLink && part != Part::Domain && part != Part::Gpu;
    if (linkOutsideLinks) // may ask which tier: not inside the drag-and-drop's own event handling
        QTimer::singleShot(0, this, [this, kind, id, at] { dropBlock(kind, id, at); });
    else
        dropBlock(kind, id, at);
    event->setDropAction(Qt::CopyAction);
    event->accept();
}

void CanvasScene::highlight(Part part)
{
    if (part == mHighlighted)
        return;
    mHighlighted = part;
    for (QGraphicsItem *item : items()) {
        auto *rect = qgraphicsitem_cast<QGraphicsRectItem *>(item);
        if (!rect || !rect->data(kPartKey).isValid())
            continue;
        const bool on = static_cast<Part>(rect->data(kPartKey).toInt()) == part;
        rect->setPen(on ? QPen(QColor(0x1a, 0x73, 0xe8), 3) : QPen(QColor(0x70, 0x70, 0x70), 1));
    }
}

QGraphicsRectItem *CanvasScene::addPart(Part part, const QRectF &rect, const QColor &fill, const QString &title,
                                        const QString &body, QGraphicsItem *parent)
{
    auto *item = new QGraphicsRectItem(rect, parent);
    if (!parent)
        addItem(item);
    item->setBrush(fill);
    item->setPen(QPen(QColor(0x70, 0x70, 0x70), 1));
    item->setData(kPartKey, static_cast<int>(part));
    item->setFlag(QGraphicsItem::ItemIsSelectable);
    auto *text = new QGraphicsTextItem(item);
    text->setAcceptedMouseButtons(Qt::NoButton);
    text->setTextWidth(rect.width() - 8);
    QString html = QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped());
    if (!body.isEmpty())
        html += QStringLiteral("<br>") + body.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    text->setHtml(html);
    text->setPos(rect.topLeft() + QPointF(4, 2));
    return item;
}

qreal CanvasScene::addFabricLinks(const scenario::ResolvedScenario &r, std::int64_t domains)
{
    const bool outAdjusted = adjusted("scale_out.");
    const scenario::Interconnect &out = r.scaleOut;
    if (r.topology.kind != scenario::TopologyKind::ThreeTier) {
        addPart(Part::ScaleOutLink, { 30, 160, 840, 50 }, kLinkOutColor, tr("Scale-out link (per GPU)"),
                linkText(out, outAdjusted).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
        return 210;
    }
    // Three tiers: the spine across the leaves, the leaf switches across the domains.
    const double ratio = std::max(1.0, r.topology.oversubscription);
    const std::int64_t leafSize = std::max<std::int64_t>(1, r.topology.leafSize);
    const std::int64_t leaves = (r.gpuCount + leafSize - 1) / leafSize;
    addPart(
        Part::ScaleOutLink, { 30, 128, 840, 46 }, kLinkOutColor,
        tr("Spine (tier 2): %1 leaf switches, oversubscribed %2:1").arg(leaves).arg(format::number(ratio)),
        tr("%1 per GPU across the spine · %2")
            .arg(format::bandwidth(out.bandwidth_Bps / ratio), format::latency(out.latency_s)));
    addLine(450, 174, 450, 184, QPen(QColor(0x40, 0x60, 0x90), 2));
    addPart(Part::ScaleOutLink, { 30, 184, 840, 46 }, kLinkOutColor,
            tr("Leaf switches (tier 1): %1 GPUs each, %2 scale-up domains per leaf")
                .arg(leafSize)
                .arg(std::max<std::int64_t>(
                    1, leafSize / std::max<std::int64_t>(1, r.topology.scaleUpDomainSize))),
            linkText(out, outAdjusted).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
    Q_UNUSED(domains);
    return 230;
}

void CanvasScene::rebuild()
{
    const Part selected = selectedPart();
    const QSignalBlocker blocker(this);
    clear();
    mHighlighted = Part::None;
    if (!mResults || !mResults->compiled) {
        auto *text = addText(tr("The scenario does not compile — see Diagnostics."));
        text->setPos(20, 20);
        return;
    }
    const scenario::ResolvedScenario &r = mResults->compiled->resolved;
    const std::int64_t domainSize = std::max<std::int64_t>(1, r.topology.scaleUpDomainSize);
    const std::int64_t domains = (r.gpuCount + domainSize - 1) / domainSize;

    addPart(Part::Llm, { 10, 10, 290, 80 }, kLlmColor,
            tr("LLM: %1").arg(blockTitle(r.llm.info.name, adjusted("llm."))),
            tr("%1 layers · hidden %2 · sequence %3%4")
                .arg(r.llm.numBlocks)
                .arg(r.llm.hidden)
                .arg(r.llm.seqSize)
                .arg(r.llm.isMoe() ? tr("\n%1 experts, top-%2").arg(r.llm.numExperts).arg(r.llm.topK)
                                   : tr("\ndense, %1 heads").arg(r.llm.attnHeads)));
    addPart(Part::Layout, {310, 10, 300, 80}, kLayoutColor,
            tr("Layout: %1").arg(QString::fromStdString(r.layout.info.name)), layoutText(mResults->compiled->execution));
    addPart(Part::Total, {620, 10, 270, 80}, kTotalColor, tr("%1 GPUs").arg(r.gpuCount),
            tr("%1 scale-up domains × %2 GPUs").arg(domains).arg(domainSize));

    QString fabric;
    switch (r.topology.kind) {
    case scenario::TopologyKind::FullFlat:
        fabric = tr("one flat fabric: every GPU reaches every other directly at %1 per GPU")
                     .arg(format::bandwidth(r.scaleOut.bandwidth_Bps));
        break;
    case scenario::TopologyKind::TwoTier:
        fabric = tr("two tiers: scale-up domains joined by the scale-out link");
        break;
    case scenario::TopologyKind::ThreeTier:
        fabric = tr("three tiers: scale-up domains, leaf switches and a spine");
        break;
    }
    addPart(Part::Fabric, { 10, 100, 880, 450 }, kFabricColor,
            tr("Scale-out fabric: %1").arg(blockTitle(r.topology.info.name, adjusted("topology."))), fabric);
    const qreal linksBottom = addFabricLinks(r, domains);

    // Up to kMaxDomainsDrawn domains; the last slot says how many more there are.
    const int slotCount = static_cast<int>(std::min<std::int64_t>(domains, kMaxDomainsDrawn));
    const qreal slotWidth = (840.0 - (kMaxDomainsDrawn - 1) * 20.0) / kMaxDomainsDrawn;
    const qreal top = linksBottom + 30;
    const qreal height = 535 - top;
    for (int i = 0; i < slotCount; ++i) {
        const qreal x = 30 + i * (slotWidth + 20);
        const QRectF box(x, top, slotWidth, height);
        addLine(x + slotWidth / 2, linksBottom, x + slotWidth / 2, top, QPen(QColor(0x40, 0x60, 0x90), 2));
        if (i == slotCount - 1 && domains > slotCount) {
            auto *more = addPart(Part::Domain, box, kFabricColor, tr("… %1 more domains").arg(domains - slotCount + 1),
                                 tr("identical to the ones on the left"));
            more->setPen(QPen(QColor(0x70, 0x70, 0x70), 1, Qt::DashLine));
            continue;
        }
        auto *domain = addPart(Part::Domain, box, kDomainColor, tr("Scale-up domain %1").arg(i + 1), QString());
        const qreal gpuTop = top + 30, linkHeight = 95;
        const qreal gpuHeight = height - 30 - linkHeight - 18;
        auto *gpu = addPart(Part::Gpu, { x + 8, gpuTop, slotWidth - 16, gpuHeight }, kGpuColor,
                            blockTitle(r.gpu.info.name, adjusted("gpu.")),
                            tr("× %1 GPUs · %2 HBM")
                                .arg(std::min(domainSize, r.gpuCount))
                                .arg(format::bytes(r.gpu.hbm.capacity_B)),
                            domain);
        const int chips = static_cast<int>(std::min<std::int64_t>(domainSize, 16));
        const qreal chipTop = gpuTop + gpuHeight - 45;
        for (int c = 0; c < chips; ++c) {
            auto *chip = new QGraphicsRectItem(x + 16 + (c % 8) * ((slotWidth - 32) / 8),
                                               chipTop + (c / 8) * 20, (slotWidth - 32) / 8 - 4, 16, gpu);
            chip->setBrush(QColor(0x34, 0xa8, 0x53));
            chip->setPen(Qt::NoPen);
            chip->setAcceptedMouseButtons(Qt::NoButton);
        }
        addPart(Part::ScaleUpLink, { x + 8, top + height - linkHeight - 10, slotWidth - 16, linkHeight },
                kLinkUpColor, tr("Scale-up link"), linkText(r.scaleUp, adjusted("scale_up.")), domain);
    }
    if (selected != Part::None)
        for (QGraphicsItem *item : items(Qt::AscendingOrder))
            if (item->data(kPartKey).toInt() == static_cast<int>(selected)) {
                item->setSelected(true);
                break;
            }
}

} // namespace gapstudio::views
