#include "charts/legendtexts.h"

#include <algorithm>
#include <vector>

namespace gapstudio::views {

namespace {
constexpr qsizetype kMaxTexts = 512;

/// The plottable's legend icon, which QCustomPlot lets only its own legend entry draw: the
/// pointer to the protected member is taken through a class that makes it accessible.
struct IconAccess : QCPAbstractPlottable {
    using QCPAbstractPlottable::drawLegendIcon;
};

void drawIcon(const QCPAbstractPlottable &plottable, QCPPainter *painter, const QRectF &rect)
{
    (plottable.*(&IconAccess::drawLegendIcon))(painter, rect);
}
} // namespace

const LegendTexts::Text &LegendTexts::of(const QFont &font, const QString &name, int iconHeight)
{
    const QString key = font.key() + QLatin1Char('\n') + QString::number(iconHeight) + QLatin1Char('\n') + name;
    auto it = mTexts.find(key);
    if (it == mTexts.end()) {
        if (mTexts.size() >= kMaxTexts) // names come and go with pinned designs: start again
            mTexts.clear();
        Text made;
        // QCPPlottableLegendItem's measure of its name (qcustomplot.cpp 2.1, minimumOuterSizeHint).
        made.bounds = QFontMetrics(font).boundingRect(0, 0, 0, iconHeight, Qt::TextDontClip, name);
        made.text = QStaticText(name);
        made.text.setTextFormat(Qt::PlainText);
        made.text.prepare(QTransform(), font);
        it = mTexts.insert(key, made);
    }
    return *it;
}

void LegendTexts::adopt(QCPLegend *legend)
{
    bool any = false;
    for (int i = 0; i < legend->itemCount() && !any; ++i) {
        auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
        any = item && !qobject_cast<LegendEntry *>(item);
    }
    if (!any)
        return;
    // Every entry, in the legend's order (a wrapped grid's last cells may be empty): a replaced
    // entry goes where its original was.
    std::vector<QCPAbstractLegendItem *> order;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = legend->item(i))
            order.push_back(item);
    for (QCPAbstractLegendItem *item : order)
        legend->take(item);
    for (QCPAbstractLegendItem *item : order) {
        auto *original = qobject_cast<QCPPlottableLegendItem *>(item);
        if (!original || qobject_cast<LegendEntry *>(original)) {
            legend->addItem(item);
            continue;
        }
        auto *entry = new LegendEntry(legend, original->plottable(), this);
        entry->setFont(original->font());
        entry->setTextColor(original->textColor());
        entry->setSelectedFont(original->selectedFont());
        entry->setSelectedTextColor(original->selectedTextColor());
        entry->setSelectable(original->selectable());
        entry->setSelected(original->selected());
        entry->setMargins(original->margins());
        entry->setVisible(original->visible());
        entry->setLayer(original->layer());
        delete original;
        legend->addItem(entry);
    }
    legend->setFillOrder(legend->fillOrder(), true); // re-wrap: the grid as it was
}

LegendEntry::LegendEntry(QCPLegend *legend, QCPAbstractPlottable *plottable, LegendTexts *texts)
    : QCPPlottableLegendItem(legend, plottable)
    , mTexts(texts)
{
}

const LegendTexts::Text &LegendEntry::text() const
{
    const QFont font = getFont();
    const int iconHeight = mParentLegend->iconSize().height();
    if (!mHasText || font != mTextFont || mPlottable->name() != mTextName || iconHeight != mTextIconHeight) {
        mText = mTexts->of(font, mPlottable->name(), iconHeight);
        mTextFont = font;
        mTextName = mPlottable->name();
        mTextIconHeight = iconHeight;
        mHasText = true;
    }
    return mText;
}

QSize LegendEntry::minimumOuterSizeHint() const
{
    // QCPPlottableLegendItem::minimumOuterSizeHint with the name measured once.
    const QSize iconSize = mParentLegend->iconSize();
    const QRect &bounds = text().bounds;
    QSize result(iconSize.width() + mParentLegend->iconTextPadding() + bounds.width(),
                 std::max(bounds.height(), iconSize.height()));
    result.rwidth() += mMargins.left() + mMargins.right();
    result.rheight() += mMargins.top() + mMargins.bottom();
    return result;
}

void LegendEntry::draw(QCPPainter *painter)
{
    // An icon with a border (a selected entry, or a legend with a border pen): QCustomPlot's draw.
    if (getIconBorderPen().style() != Qt::NoPen) {
        QCPPlottableLegendItem::draw(painter);
        return;
    }
    // Else QCPPlottableLegendItem::draw's text and icon, the name laid out once (drawStaticText at
    // the top left of the rectangle drawText(..., Qt::TextDontClip, name) fills).
    painter->setFont(getFont());
    painter->setPen(QPen(getTextColor()));
    const QSize iconSize = mParentLegend->iconSize();
    const QRect iconRect(mRect.topLeft(), iconSize);
    painter->drawStaticText(QPointF(mRect.x() + iconSize.width() + mParentLegend->iconTextPadding(), mRect.y()),
                            text().text);
    painter->save();
    painter->setClipRect(iconRect, Qt::IntersectClip);
    drawIcon(*mPlottable, painter, iconRect);
    painter->restore();
}

} // namespace gapstudio::views
