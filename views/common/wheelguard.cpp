#include "common/wheelguard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace gapstudio::views {
namespace {

class WheelGuard final : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Polish && event->type() != QEvent::Wheel)
            return false;
        auto *widget = qobject_cast<QWidget *>(watched);
        if (!widget || !isWheelEditor(widget))
            return false;
        if (event->type() == QEvent::Polish) {
            // Qt gives a Qt::WheelFocus widget the focus before it delivers the wheel event, so
            // the policy must change before the first wheel, not in the wheel's filter.
            if (widget->focusPolicy() == Qt::WheelFocus)
                widget->setFocusPolicy(Qt::StrongFocus);
            return false;
        }
        if (widget->hasFocus())
            return false;
        event->ignore(); // filtered but not accepted: QApplication passes it to the parent
        return true;
    }
};

} // namespace

bool isWheelEditor(const QWidget *widget)
{
    return qobject_cast<const QAbstractSpinBox *>(widget) || qobject_cast<const QComboBox *>(widget)
           || (qobject_cast<const QAbstractSlider *>(widget) && !widget->inherits("QScrollBar"));
}

void installWheelGuard()
{
    static constexpr const char *kName = "gapstudioWheelGuard";
    QCoreApplication *app = QCoreApplication::instance();
    if (!app || app->findChild<WheelGuard *>(QLatin1String(kName), Qt::FindDirectChildrenOnly))
        return;
    auto *guard = new WheelGuard(app);
    guard->setObjectName(QLatin1String(kName));
    app->installEventFilter(guard);
}

} // namespace gapstudio::views
