#include "studio/collapsiblesection.h"

#include <QToolButton>
#include <QVBoxLayout>

namespace gapstudio::views {

CollapsibleSection::CollapsibleSection(const QString &title, QWidget *parent)
    : QWidget(parent)
    , mHeader(new QToolButton(this))
    , mContent(new QWidget(this))
{
    mHeader->setText(title);
    mHeader->setCheckable(true);
    mHeader->setChecked(true);
    mHeader->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    mHeader->setArrowType(Qt::DownArrow);
    mHeader->setAutoRaise(true);
    mHeader->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    QFont bold = mHeader->font();
    bold.setBold(true);
    mHeader->setFont(bold);
    mHeader->setToolTip(tr("Click to fold or unfold"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(mHeader);
    layout->addWidget(mContent);
    connect(mHeader, &QToolButton::toggled, this, &CollapsibleSection::setExpanded);
}

void CollapsibleSection::setExpanded(bool expanded)
{
    const QSignalBlocker blocker(mHeader);
    mHeader->setChecked(expanded);
    mHeader->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    mContent->setVisible(expanded);
}

bool CollapsibleSection::isExpanded() const
{
    return mHeader->isChecked();
}

} // namespace gapstudio::views
