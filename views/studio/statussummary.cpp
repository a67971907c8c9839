#include "studio/statussummary.h"

#include <QEvent>
#include <QStatusBar>

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

bool StatusSummary::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == mBar && event->type() == QEvent::Resize)
        fit();
    return QLabel::eventFilter(watched, event);
}

} // namespace gapstudio::views
