#include "studio/canvasscene.h"

#include "studio/scenariodocument.h"
#include "studio/studioformat.h"

#include <QFont>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsTextItem>
#include <QMimeData>
#include <QPen>

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

QString linkText(const scenario::Interconnect &link)
{
    return QStringLiteral("%1\n%2 · %3")
        .arg(QString::fromStdString(link.info.name), format::bandwidth(link.bandwidth_Bps),
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

bool CanvasScene::dropBlock(BlockKind kind, const QString &presetId, QPointF scenePos)
{
    const Part part = partAt(scenePos);
    const bool inDomain = part == Part::Domain || part == Part::Gpu || part == Part::ScaleUpLink;
    const std::string id = presetId.toStdString();
    const int before = mDocument->undoStack()->index();
    if (!mDocument->applyPreset(kind, id, kind == BlockKind::Interconnect && inDomain))
        return false;
    return mDocument->undoStack()->index() != before;
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
    switch (kind) { // show what the drop will set
    case BlockKind::Gpu: highlight(Part::Gpu); break;
    case BlockKind::Interconnect: highlight(inDomain ? Part::ScaleUpLink : Part::ScaleOutLink); break;
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
    dropBlock(kind, id, event->scenePos());
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

    addPart(Part::Llm, {10, 10, 290, 80}, kLlmColor, tr("LLM: %1").arg(QString::fromStdString(r.llm.info.name)),
            tr("%1 layers · hidden %2 · seq %3%4")
                .arg(r.llm.numBlocks)
                .arg(r.llm.hidden)
                .arg(r.llm.seqSize)
                .arg(r.llm.isMoe() ? tr("\n%1 experts, top-%2").arg(r.llm.numExperts).arg(r.llm.topK)
                                   : tr("\ndense, %1 heads").arg(r.llm.attnHeads)));
    addPart(Part::Layout, {310, 10, 300, 80}, kLayoutColor,
            tr("Layout: %1").arg(QString::fromStdString(r.layout.info.name)), layoutText(mResults->compiled->execution));
    addPart(Part::Total, {620, 10, 270, 80}, kTotalColor, tr("%1 GPUs").arg(r.gpuCount),
            tr("%1 scale-up domains × %2 GPUs").arg(domains).arg(domainSize));

    const bool fullFlat = r.topology.kind == scenario::TopologyKind::FullFlat;
    addPart(Part::Fabric, {10, 100, 880, 450}, kFabricColor,
            tr("Scale-out fabric: %1").arg(QString::fromStdString(r.topology.info.name)),
            fullFlat ? tr("every GPU reaches every other at scale-up-class bandwidth") : QString());
    addPart(Part::ScaleOutLink, {30, 160, 840, 50}, kLinkOutColor, tr("Scale-out link (per GPU)"),
            linkText(r.scaleOut).replace(QLatin1Char('\n'), QStringLiteral(" · ")));

    // Up to kMaxDomainsDrawn domains; the last slot says how many more there are.
    const int slotCount = static_cast<int>(std::min<std::int64_t>(domains, kMaxDomainsDrawn));
    const qreal slotWidth = (840.0 - (kMaxDomainsDrawn - 1) * 20.0) / kMaxDomainsDrawn;
    for (int i = 0; i < slotCount; ++i) {
        const qreal x = 30 + i * (slotWidth + 20);
        const QRectF box(x, 250, slotWidth, 285);
        addLine(x + slotWidth / 2, 210, x + slotWidth / 2, 250, QPen(QColor(0x40, 0x60, 0x90), 2));
        if (i == slotCount - 1 && domains > slotCount) {
            auto *more = addPart(Part::Domain, box, kFabricColor, tr("… %1 more domains").arg(domains - slotCount + 1),
                                 tr("identical to the ones on the left"));
            more->setPen(QPen(QColor(0x70, 0x70, 0x70), 1, Qt::DashLine));
            continue;
        }
        auto *domain = addPart(Part::Domain, box, kDomainColor, tr("Scale-up domain %1").arg(i + 1), QString());
        auto *gpu = addPart(Part::Gpu, {x + 8, 280, slotWidth - 16, 140}, kGpuColor,
                            QString::fromStdString(r.gpu.info.name),
                            tr("× %1 GPUs · %2 HBM")
                                .arg(std::min(domainSize, r.gpuCount))
                                .arg(format::bytes(r.gpu.hbm.capacity_B)),
                            domain);
        const int chips = static_cast<int>(std::min<std::int64_t>(domainSize, 16));
        for (int c = 0; c < chips; ++c) {
            auto *chip = new QGraphicsRectItem(x + 16 + (c % 8) * ((slotWidth - 32) / 8), 375 + (c / 8) * 20,
                                               (slotWidth - 32) / 8 - 4, 16, gpu);
            chip->setBrush(QColor(0x34, 0xa8, 0x53));
            chip->setPen(Qt::NoPen);
            chip->setAcceptedMouseButtons(Qt::NoButton);
        }
        addPart(Part::ScaleUpLink, {x + 8, 430, slotWidth - 16, 95}, kLinkUpColor, tr("Scale-up link"),
                linkText(r.scaleUp), domain);
    }
    if (selected != Part::None)
        for (QGraphicsItem *item : items(Qt::AscendingOrder))
            if (item->data(kPartKey).toInt() == static_cast<int>(selected)) {
                item->setSelected(true);
                break;
            }
}

CanvasView::CanvasView(CanvasScene *scene, QWidget *parent)
    : QGraphicsView(scene, parent)
{
    setObjectName(QStringLiteral("canvasView"));
    setAcceptDrops(true);
    setRenderHint(QPainter::Antialiasing);
    setDragMode(QGraphicsView::NoDrag);
}

void CanvasView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    fitInView(sceneRect(), Qt::KeepAspectRatio);
}

} // namespace gapstudio::views
