#include "common/cornernote.h"

#include <QTabBar>
#include <QTabWidget>

#include <algorithm>

namespace gapstudio::views {

namespace {

/// Space kept between the last tab and the note (pixels).
constexpr int kGap_px = 24;

} // namespace

CornerNote::CornerNote(QWidget *parent)
    : QLabel(parent)
{
    setContentsMargins(6, 0, 6, 0);
}

void CornerNote::setWholeText(const QString &text)
{
    mWhole = text;
}

void CornerNote::fitBeside(const QTabWidget *tabs, int besides)
{
    const QMargins margins = contentsMargins();
    const int room = tabs->width() - tabs->tabBar()->sizeHint().width() - besides - margins.left()
                     - margins.right() - kGap_px;
    // Measuring the text shapes all of it: done again only when the text, the room or the font
    // changed, not at every change of the results that calls this.
    if (mWhole == mFitted.whole && room == mFitted.room && font() == mFitted.font)
        return;
    mFitted = { mWhole, room, font() };
    const QString shown = fontMetrics().elidedText(mWhole, Qt::ElideRight, std::max(0, room));
    setText(shown);
    setToolTip(shown == mWhole ? QString() : mWhole);
}

} // namespace gapstudio::views
