#include "studio/canvasscene.h"

#include "studio/scenariodocument.h"

#include <QCursor>
#include <QGraphicsRectItem>
#include <QGraphicsSceneDragDropEvent>
#include <QMenu>
#include <QMimeData>
#include <QPen>
#include <QTimer>

#include <algorithm>

namespace gapstudio::views {

namespace {
constexpr int kPartKey = CanvasItems::kPartKey;
constexpr qreal kWidth = 900;
constexpr qreal kHeight = 560;
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
    const CpuMeter::Scope timed(mUpdateCpu);
    mResults = std::move(results);
    redraw();
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
        QPen pen = partPen(static_cast<Part>(rect->data(kPartKey).toInt()));
        pen.setStyle(rect->pen().style()); // "more domains" stays dashed
        rect->setPen(pen);
    }
}

} // namespace gapstudio::views
