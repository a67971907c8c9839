#pragma once
/**
 * @file partlabel.h
 * A canvas part's label: a bold title over the body's lines, each wrapped to the part's width.
 * A slider step changes one figure of one or two labels (the scale-out link's bandwidth), and what
 * a label costs then is what it lays out and what it repaints:
 * - The title and the body are laid out (QTextLayout, shaped once and kept) only when their own
 *   text, the font or the width changes: a new body leaves the title as it is. A rich-text item
 *   (QGraphicsTextItem::setHtml) parsed the HTML, built a document and laid out both again.
 * - A new text repaints the area of the lines it replaces and of those that replace it, not the
 *   label's whole width: the boxes under a label (the fabric, the link) are filled again only
 *   there. (The label itself is drawn again whole into its device-coordinate cache.) The bounds
 *   stay the label's width, so the scene's index moves only when the number of lines changes.
 */

#include <QFont>
#include <QGraphicsItem>
#include <QTextLayout>

namespace gapstudio::views {

class PartLabel final : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };

    explicit PartLabel(QGraphicsItem *parent = nullptr);

    [[nodiscard]] int type() const override { return Type; }

    /// Shows `title` in bold over `body` (whose '\n' start new lines), wrapped to `width`.
    void setText(const QString &title, const QString &body, qreal width);
    [[nodiscard]] QString title() const { return mTitle.text; }
    [[nodiscard]] QString body() const { return mBody.text; }
    /// The title and the body as they read, one line break between them (none without a body).
    [[nodiscard]] QString toPlainText() const;
    [[nodiscard]] qreal textWidth() const { return mWidth; }

    /// The body's font, the title's in bold: the application's font when the label was made (as
    /// a QGraphicsTextItem's document takes it).
    [[nodiscard]] QFont font() const { return mFont; }

    [[nodiscard]] QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    /// A text laid out in lines from `top`, and the rectangle its lines cover.
    struct Block {
        QString text;
        QTextLayout layout;
        QRectF inked;
    };
    /// Lays `block` out anew from `top`; returns the area to repaint (its old and new lines).
    QRectF layOut(Block &block, const QString &text, const QFont &font, qreal top) const;
    void updateBounds();

    Block mTitle;
    Block mBody;
    qreal mWidth = -1;
    QFont mFont;
    QRectF mBounds;
};

} // namespace gapstudio::views
