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

QString StatusSummary::shownText() const
{
    return fontMetrics().elidedText(text(), Qt::ElideRight, contentsRect().width());
}

void StatusSummary::paintEvent(QPaintEvent *)
{
    QPainter painter(this); // the widget's font and text colour, as QLabel draws
    painter.drawText(contentsRect(), static_cast<int>(alignment()), shownText());
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
