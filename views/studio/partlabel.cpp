#include "studio/partlabel.h"

#include <QGuiApplication>
#include <QPainter>
#include <QPalette>
#include <QTextOption>
#include <QWidget>

#include <algorithm>

namespace gapstudio::views {

namespace {

/// Room around the lines for glyphs drawn past their advance (a bold 'f', antialiasing).
constexpr qreal kInkMargin = 2;

QFont boldOf(QFont font)
{
    font.setBold(true);
    return font;
}

} // namespace

PartLabel::PartLabel(QGraphicsItem *parent)
    : QGraphicsItem(parent)
    , mFont(QGuiApplication::font())
{
}

QString PartLabel::toPlainText() const
{
    return mBody.text.isEmpty() ? mTitle.text : mTitle.text + QLatin1Char('\n') + mBody.text;
}

QRectF PartLabel::layOut(Block &block, const QString &text, const QFont &font, qreal top) const
{
    const QRectF before = block.inked;
    block.text = text;
    QString shown = text;
    shown.replace(QLatin1Char('\n'), QChar::LineSeparator); // a forced line break in QTextLayout
    block.layout.clearLayout();
    block.layout.setText(shown);
    block.layout.setFont(font);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere); // as a QTextDocument wraps
    block.layout.setTextOption(option);
    block.layout.setCacheEnabled(true); // shaped once, drawn from the shaped glyphs
    qreal bottom = top, right = 0;
    if (!text.isEmpty()) {
        block.layout.beginLayout();
        for (QTextLine line = block.layout.createLine(); line.isValid(); line = block.layout.createLine()) {
            line.setLeadingIncluded(true); // as QTextDocumentLayout spaces lines
            line.setLineWidth(std::max<qreal>(0, mWidth));
            line.setPosition({ 0, bottom });
            bottom += line.height();
            right = std::max(right, line.naturalTextWidth());
        }
        block.layout.endLayout();
    }
    block.inked = QRectF(0, top, right, bottom - top);
    return before.united(block.inked).adjusted(-kInkMargin, -kInkMargin, kInkMargin, kInkMargin);
}

void PartLabel::setText(const QString &title, const QString &body, qreal width)
{
    const bool newWidth = width != mWidth;
    if (!newWidth && title == mTitle.text && body == mBody.text)
        return;
    mWidth = width;
    QRectF dirty;
    if (newWidth || title != mTitle.text)
        dirty = layOut(mTitle, title, boldOf(mFont), 0);
    const qreal bodyTop = mTitle.inked.bottom();
    if (newWidth || body != mBody.text || bodyTop != mBody.inked.top())
        dirty |= layOut(mBody, body, mFont, bodyTop);
    updateBounds();
    update(dirty);
}

void PartLabel::updateBounds()
{
    const QRectF bounds = QRectF(0, 0, std::max<qreal>(0, mWidth), mBody.inked.bottom())
                              .united(mTitle.inked)
                              .united(mBody.inked)
                              .adjusted(-kInkMargin, -kInkMargin, kInkMargin, kInkMargin);
    if (bounds != mBounds) {
        prepareGeometryChange();
        mBounds = bounds;
    }
}

QRectF PartLabel::boundingRect() const
{
    return mBounds;
}

void PartLabel::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *widget)
{
    // The text colour of the view's palette, as a QGraphicsTextItem draws (the application's when
    // drawn without a view: an export).
    painter->setPen((widget ? widget->palette() : QGuiApplication::palette()).color(QPalette::Text));
    mTitle.layout.draw(painter, {});
    mBody.layout.draw(painter, {});
}

} // namespace gapstudio::views
