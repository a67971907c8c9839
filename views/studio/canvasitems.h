#pragma once
/**
 * @file canvasitems.h
 * The canvas's items kept by identity ("domain 2/gpu", "scale-out link"), so that a change of the
 * results updates them in place instead of clearing the scene: each drawing pass names every item
 * it wants, an item named again keeps its pointer (its selection, its place in the scene) and
 * changes only what differs (rectangle, colour, pen, label), an item not named again is removed,
 * and a new name adds an item. A label (partlabel.h) lays out only the text that changed; its
 * rendering is cached as a device-coordinate pixmap, so a repaint of an unchanged label shapes no
 * text (a full repaint of the default canvas took about half the CPU time with the cache,
 * offscreen). Only this class deletes the items it made: the scene must
 * not be cleared behind its back.
 */

#include <QColor>
#include <QHash>
#include <QLineF>
#include <QPen>
#include <QPointF>
#include <QRectF>
#include <QString>

class QGraphicsItem;
class QGraphicsLineItem;
class QGraphicsRectItem;
class QGraphicsScene;
class QGraphicsTextItem;

namespace gapstudio::views {

class PartLabel;

class CanvasItems {
public:
    /// QGraphicsItem::data key holding a part's kind (CanvasScene::Part as int).
    static constexpr int kPartKey = 0;
    /// A part's label from its box's top-left corner, and from its right edge.
    static constexpr QPointF kLabelInset { 8, 6 };

    explicit CanvasItems(QGraphicsScene *scene)
        : mScene(scene)
    {
    }

    /// Starts a drawing pass: every item the pass wants must be named before end().
    void begin();
    /// Removes the items this pass did not name (with their children).
    void end();

    /// A selectable box of kind `part` with a label (a bold title over the body's lines).
    QGraphicsRectItem *part(const QString &key, int part, const QRectF &rect, const QColor &fill,
                            const QPen &pen, const QString &title, const QString &body,
                            QGraphicsItem *parent = nullptr);
    /// A plain filled box without pen, label or mouse buttons (a chip in a GPU block).
    QGraphicsRectItem *box(const QString &key, const QRectF &rect, const QColor &fill, QGraphicsItem *parent);
    QGraphicsLineItem *line(const QString &key, const QLineF &line, const QPen &pen);
    /// A free text (the message shown instead of the drawing).
    QGraphicsTextItem *text(const QString &key, const QString &plain, QPointF pos);

    /// The number of items kept by name (for tests).
    [[nodiscard]] qsizetype count() const { return mItems.size(); }

private:
    struct Entry {
        QGraphicsItem *item = nullptr;
        PartLabel *label = nullptr;         ///< a part's label
        QString text;                       ///< a free text's text as last set
        bool named = false;                 ///< named in the current pass
    };

    /// The entry for `key`, created by `make` if there is none or it has another item type.
    template <typename Item, typename Make> Item *find(const QString &key, Make make);
    void place(QGraphicsItem *item, QGraphicsItem *parent);

    QGraphicsScene *mScene;
    QHash<QString, Entry> mItems;
    qreal mOrder = 0; ///< stacking order within a pass: the drawing order of a full rebuild
};

} // namespace gapstudio::views
