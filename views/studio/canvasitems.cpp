#include "studio/canvasitems.h"

#include "studio/partlabel.h"

#include <QBrush>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsTextItem>

#include <algorithm>
#include <vector>

namespace gapstudio::views {

namespace {

void setRectIfChanged(QGraphicsRectItem *item, const QRectF &rect, const QBrush &brush, const QPen &pen)
{
    if (item->rect() != rect)
        item->setRect(rect);
    if (item->brush() != brush)
        item->setBrush(brush);
    if (item->pen() != pen)
        item->setPen(pen);
}

} // namespace

void CanvasItems::begin()
{
    mOrder = 0;
    for (Entry &entry : mItems)
        entry.named = false;
}

void CanvasItems::end()
{
    std::vector<QGraphicsItem *> stale;
    for (const Entry &entry : std::as_const(mItems))
        if (!entry.named)
            stale.push_back(entry.item);
    // An item goes with its parent: delete only the stale items whose parent stays (all chosen
    // before the first delete, which also deletes children).
    std::vector<QGraphicsItem *> roots;
    for (QGraphicsItem *item : stale)
        if (std::find(stale.begin(), stale.end(), item->parentItem()) == stale.end())
            roots.push_back(item);
    for (QGraphicsItem *item : roots)
        delete item; // removes it (and its children) from the scene
    mItems.removeIf([](const auto &entry) { return !entry.value().named; });
}

template <typename Item, typename Make> Item *CanvasItems::find(const QString &key, Make make)
{
    Entry &entry = mItems[key];
    auto *item = qgraphicsitem_cast<Item *>(entry.item);
    Q_ASSERT(item || !entry.item); // one key, one kind of item
    if (!item) {
        item = make();
        entry = Entry { item, nullptr, {}, false };
    }
    entry.named = true;
    item->setZValue(mOrder++); // a no-op unless the drawing order changed
    return item;
}

void CanvasItems::place(QGraphicsItem *item, QGraphicsItem *parent)
{
    if (item->parentItem() != parent)
        item->setParentItem(parent);
    if (!parent && item->scene() != mScene)
        mScene->addItem(item);
}

QGraphicsRectItem *CanvasItems::part(const QString &key, int part, const QRectF &rect, const QColor &fill,
                                     const QPen &pen, const QString &title, const QString &body,
                                     QGraphicsItem *parent)
{
    auto *item = find<QGraphicsRectItem>(key, [] {
        auto *created = new QGraphicsRectItem;
        created->setFlag(QGraphicsItem::ItemIsSelectable);
        return created;
    });
    place(item, parent);
    setRectIfChanged(item, rect, QBrush(fill), pen);
    if (item->data(kPartKey) != QVariant(part))
        item->setData(kPartKey, part);

    Entry &entry = mItems[key];
    if (!entry.label) {
        entry.label = new PartLabel(item);
        entry.label->setAcceptedMouseButtons(Qt::NoButton);
        // Repaints of an unchanged label blit its pixmap; a new text draws the label into it again
        // and repaints the view where its lines changed.
        entry.label->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
    }
    PartLabel *label = entry.label;
    label->setZValue(mOrder++);
    label->setText(title, body, rect.width() - 2 * kLabelInset.x()); // lays out only what changed
    label->setPos(rect.topLeft() + kLabelInset);                     // a no-op when unchanged
    return item;
}

QGraphicsRectItem *CanvasItems::box(const QString &key, const QRectF &rect, const QColor &fill,
                                    QGraphicsItem *parent)
{
    auto *item = find<QGraphicsRectItem>(key, [] {
        auto *created = new QGraphicsRectItem;
        created->setAcceptedMouseButtons(Qt::NoButton);
        return created;
    });
    place(item, parent);
    setRectIfChanged(item, rect, QBrush(fill), QPen(Qt::NoPen));
    return item;
}

QGraphicsLineItem *CanvasItems::line(const QString &key, const QLineF &line, const QPen &pen)
{
    auto *item = find<QGraphicsLineItem>(key, [] { return new QGraphicsLineItem; });
    place(item, nullptr);
    if (item->line() != line)
        item->setLine(line);
    if (item->pen() != pen)
        item->setPen(pen);
    return item;
}

QGraphicsTextItem *CanvasItems::text(const QString &key, const QString &plain, QPointF pos)
{
    auto *item = find<QGraphicsTextItem>(key, [] { return new QGraphicsTextItem; });
    place(item, nullptr);
    Entry &entry = mItems[key];
    if (entry.text != plain) {
        item->setPlainText(plain);
        entry.text = plain;
    }
    item->setPos(pos);
    return item;
}

} // namespace gapstudio::views
