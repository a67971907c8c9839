#include "studio/statussummary.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QStatusBar>
#include <QToolTip>

#include <algorithm>

namespace gapstudio::views {

namespace {
/// Left of the text, as QStatusBar indents the widgets of its layout; right, room for its grip.
constexpr int kIndent = 3;
constexpr int kGripRoom = 20;
} // namespace

StatusSummary::StatusSummary(QStatusBar *bar)
    : QLabel(bar)
    , mBar(bar)
{
    setObjectName(QStringLiteral("statusSummary"));
    setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
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

const QStaticText &StatusSummary::prepared() const
{
    const int width = contentsRect().width();
    if (text() == mPrepared.whole && width == mPrepared.width && font() == mPrepared.font)
        return mPrepared.shown;
    QStaticText shown(text());
    shown.setTextFormat(Qt::PlainText);
    shown.prepare(QTransform(), font());
    if (shown.size().width() > width) {
        shown.setText(fontMetrics().elidedText(text(), Qt::ElideRight, width));
        shown.prepare(QTransform(), font());
    }
    mPrepared = { text(), width, font(), shown };
    return mPrepared.shown;
}

QString StatusSummary::shownText() const
{
    return prepared().text();
}

void StatusSummary::paintEvent(QPaintEvent *)
{
    const QStaticText &shown = prepared();
    const QRect area = contentsRect();
    QPainter painter(this); // the widget's font and text colour, as QLabel draws
    // Left, and centred vertically as QPainter::drawText centres a line.
    painter.drawStaticText(QPointF(area.left(), area.top() + (area.height() - shown.size().height()) / 2),
                           shown);
}

bool StatusSummary::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        if (shownText() != text())
            QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), text(), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QLabel::event(event);
}

bool StatusSummary::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == mBar && event->type() == QEvent::Resize)
        fit();
    return QLabel::eventFilter(watched, event);
}

} // namespace gapstudio::views
