#include "studio/statussummary.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QStatusBar>
#include <QToolTip>

#include <algorithm>

namespace gapstudio::views {

namespace {
/// Left of the text, as QStatusBar indents the widgets of its layout; right, room for its grip.
constexpr int kIndent = 3;
constexpr int kGripRoom = 20;
/// Room beside a piece for glyphs drawn past their advance (antialiasing).
constexpr qreal kInkMargin = 2;

/// The line cut after each separator of statusline.h; any cut draws the same line.
QStringList piecesOf(const QString &text)
{
    static const QString separator = QStringLiteral(" · ");
    QStringList pieces;
    qsizetype start = 0;
    for (qsizetype at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, start)) {
        pieces << text.mid(start, at + separator.size() - start);
        start = at + separator.size();
    }
    if (start < text.size())
        pieces << text.mid(start);
    return pieces;
}

QStaticText laidOut(const QString &text, const QFont &font)
{
    QStaticText drawn(text);
    drawn.setTextFormat(Qt::PlainText);
    drawn.prepare(QTransform(), font);
    return drawn;
}
} // namespace

StatusSummary::StatusSummary(QStatusBar *bar)
    : QWidget(bar)
    , mBar(bar)
{
    setObjectName(QStringLiteral("statusSummary"));
    bar->installEventFilter(this);
    connect(bar, &QStatusBar::messageChanged, this, [this](const QString &message) {
        setVisible(message.isEmpty());
    });
    fit();
}

void StatusSummary::fit()
{
    const QRect area = mBar->rect().adjusted(kIndent, 0, -(mBar->isSizeGripEnabled() ? kGripRoom : kIndent), 0);
    move(area.topLeft());
    setFixedSize(std::max(0, area.width()), std::max(0, area.height()));
}

void StatusSummary::setText(const QString &text)
{
    if (text == mText)
        return;
    mText = text;
    const QRectF changed = layOut();
    if (!changed.isEmpty())
        update(changed.toAlignedRect());
}

QString StatusSummary::shownText() const
{
    return mIsElided ? mElided.text() : mText;
}

QPointF StatusSummary::origin() const
{
    const QRect area = contentsRect();
    const qreal lineHeight = mIsElided         ? mElided.size().height()
                             : mPieces.empty() ? 0
                                               : mPieces.front().drawn.size().height();
    return { static_cast<qreal>(area.left()), area.top() + (area.height() - lineHeight) / 2 };
}

QRectF StatusSummary::areaOf(const Piece &piece) const
{
    return QRectF(contentsRect().left() + piece.x - kInkMargin, 0, piece.width + 2 * kInkMargin, height());
}

QRectF StatusSummary::layOut()
{
    const bool wasElided = mIsElided;
    const bool newFont = font() != mLaidOutFont;
    mLaidOutFont = font();
    const QFontMetricsF metrics(font());
    const QStringList texts = piecesOf(mText);
    std::vector<Piece> pieces(static_cast<std::size_t>(texts.size()));
    QRectF changed;
    qreal x = 0;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        Piece &piece = pieces[i];
        const Piece *old = i < mPieces.size() ? &mPieces[i] : nullptr;
        if (old && !newFont && old->text == texts[static_cast<qsizetype>(i)]) {
            piece = *old; // laid out already (QStaticText shares it)
        } else {
            piece.text = texts[static_cast<qsizetype>(i)];
            piece.drawn = laidOut(piece.text, font());
            piece.width = metrics.horizontalAdvance(piece.text); // with its trailing space
        }
        piece.x = x;
        x += piece.width;
        if (!old || old->text != piece.text || old->x != piece.x || newFont)
            changed |= areaOf(piece).united(old ? areaOf(*old) : QRectF());
    }
    for (std::size_t i = pieces.size(); i < mPieces.size(); ++i)
        changed |= areaOf(mPieces[i]);
    mPieces = std::move(pieces);

    // The line elided as a whole when it does not fit (QFontMetrics::elidedText's own test).
    const int width = contentsRect().width();
    mIsElided = x > width;
    if (mIsElided)
        mElided = laidOut(fontMetrics().elidedText(mText, Qt::ElideRight, width), font());
    return mIsElided || wasElided ? QRectF(rect()) : changed;
}

void StatusSummary::paintEvent(QPaintEvent *event)
{
    QPainter painter(this); // the widget's font and text colour, as a QLabel draws
    const QPointF at = origin();
    if (mIsElided) {
        painter.drawStaticText(at, mElided);
        return;
    }
    for (std::size_t i = 0; i < mPieces.size(); ++i)
        if (event->rect().intersects(areaOf(mPieces[i]).toAlignedRect())) // only what is repainted
            painter.drawStaticText(at + QPointF(mPieces[i].x, 0), mPieces[i].drawn);
}

bool StatusSummary::event(QEvent *event)
{
    switch (event->type()) {
    case QEvent::ToolTip:
        if (mIsElided)
            QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), mText, this);
        else
            QToolTip::hideText();
        return true;
    case QEvent::Resize: // a new width, whose repaint is whole
    case QEvent::FontChange:
        layOut();
        update();
        break;
    default:
        break;
    }
    return QWidget::event(event);
}

bool StatusSummary::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == mBar && event->type() == QEvent::Resize)
        fit();
    return QWidget::eventFilter(watched, event);
}

} // namespace gapstudio::views
