// The mouse wheel scrolls the docks; it edits a field only once the user has clicked into it. In
// the main window at 1280 x 800, wheel ticks over the Layout dock's DP field, its datatype box and
// the Parameters dock's compute slider leave the design as it was (no value, GPU count or undo
// step changes) and scroll the dock instead; clicked into, DP takes the ticks, and the burst is
// one undo step that undo takes back whole.
#include "mainwindow.h"

#include "settle.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "studio/studioengine.h"
#include "test_home.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {

/// One wheel tick (`steps` notches, 120 units each; negative scrolls down) at the middle of
/// `target`, delivered as QApplication delivers a wheel from the window system (qapplication.cpp,
/// QApplication::notify, case QEvent::Wheel): to the deepest widget under the pointer, after
/// giving the keyboard focus to the first widget there whose policy takes focus on the wheel
/// (Qt::WheelFocus), then, while no widget accepts it, to each parent in turn up to the window.
/// QTest in Qt 6.4 has no wheel function, and an event sent with QApplication::sendEvent is not
/// spontaneous, so Qt would neither give focus nor pass it on.
void wheelOver(QWidget *target, int steps)
{
    QWidget *window = target->window();
    const QPoint inWindow = target->mapTo(window, target->rect().center());
    QWidget *w = window->childAt(inWindow);
    if (!w)
        w = window;
    for (QWidget *f = w; f; f = f->isWindow() ? nullptr : f->parentWidget())
        if (f->isEnabled() && (f->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus) {
            f->setFocus(Qt::MouseFocusReason);
            break;
        }
    const QPoint global = window->mapToGlobal(inWindow);
    for (; w; w = w->isWindow() ? nullptr : w->parentWidget()) {
        QWheelEvent event(QPointF(w->mapFromGlobal(global)), QPointF(global), QPoint(),
                          QPoint(0, 120 * steps), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        event.ignore();
        if (QApplication::sendEvent(w, &event) && event.isAccepted())
            return;
    }
}

QScrollArea *scrollAreaOf(QWidget *widget)
{
    for (QWidget *w = widget->parentWidget(); w; w = w->parentWidget())
        if (auto *area = qobject_cast<QScrollArea *>(w))
            return area;
    return nullptr;
}

} // namespace

class tst_WheelScroll : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mHome;

private slots:
    void initTestCase() { QVERIFY(test::useTemporaryHome(mHome, QStringLiteral("tst_wheelscroll"))); }

    void wheelScrollsTheDocksAndEditsOnlyAFocusedField()
    {
        MainWindow window(QString {});
        window.resize(1280, 800);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.recalculator()->recalculateNow(); // the fields show the design's values
        test::settle();
        ScenarioDocument *document = window.document();
        QUndoStack *undo = document->undoStack();

        auto *layoutDock = window.findChild<QDockWidget *>(QStringLiteral("layoutDock"));
        QVERIFY(layoutDock);
        layoutDock->raise();
        test::settle();
        auto *dataPar = layoutDock->findChild<QSpinBox *>(QStringLiteral("layout:data_par"));
        auto *datatype = layoutDock->findChild<QComboBox *>(QStringLiteral("layout:datatype"));
        QVERIFY(dataPar && datatype);
        QScrollArea *area = scrollAreaOf(dataPar);
        QVERIFY(area);
        // A dock short enough to scroll, as at 1280 x 800 with the groups unfolded.
        layoutDock->resize(layoutDock->width(), 260);
        test::settle();
        QVERIFY2(area->verticalScrollBar()->maximum() > 0, "the Layout dock does not scroll");

        const scenario::Scenario before = document->scenario();
        const int dp = dataPar->value();
        const int type = datatype->currentIndex();
        const int steps = undo->count();
        const int top = area->verticalScrollBar()->value();

        // Pointer over DP, not clicked: three ticks down scroll the dock.
        for (int tick = 0; tick < 3; ++tick)
            wheelOver(dataPar, -1);
        test::settle();
        QCOMPARE(dataPar->value(), dp);
        QVERIFY(!dataPar->hasFocus());
        QVERIFY2(area->verticalScrollBar()->value() > top, "the wheel did not scroll the Layout dock");
        // Over the datatype box, wherever the scrolling brought it.
        area->ensureWidgetVisible(datatype);
        test::settle();
        for (int tick = 0; tick < 3; ++tick)
            wheelOver(datatype, 1);
        test::settle();
        QCOMPARE(datatype->currentIndex(), type);
        // Over the Parameters dock's compute slider.
        auto *parameters = window.findChild<QDockWidget *>(QStringLiteral("parametersDock"));
        QVERIFY(parameters);
        parameters->raise();
        test::settle();
        auto *compute = parameters->findChild<QSlider *>(QStringLiteral("slider:gpu.compute_scale"));
        QVERIFY(compute);
        const int computeValue = compute->value();
        for (int tick = 0; tick < 3; ++tick)
            wheelOver(compute, 1);
        test::settle();
        QCOMPARE(compute->value(), computeValue);
        QCOMPARE(undo->count(), steps);
        QVERIFY(document->scenario() == before);

        // Clicked into, DP takes the wheel: three ticks up, one undo step, undone whole.
        layoutDock->raise();
        area->ensureWidgetVisible(dataPar);
        test::settle();
        auto *edit = dataPar->findChild<QLineEdit *>();
        QVERIFY(edit);
        QTest::mouseClick(edit, Qt::LeftButton, Qt::NoModifier, edit->rect().center());
        QVERIFY(dataPar->hasFocus());
        for (int tick = 0; tick < 3; ++tick)
            wheelOver(dataPar, 1);
        test::settle();
        QCOMPARE(dataPar->value(), dp + 3);
        QCOMPARE(undo->count(), steps + 1);
        undo->undo();
        QVERIFY(document->scenario() == before);
        // The field shows the undone design once its results are in (the recalculator's throttle
        // may still hold them: ask for them now, not after a wait).
        window.recalculator()->recalculateNow();
        test::settle();
        QCOMPARE(dataPar->value(), dp);
    }
};

QTEST_MAIN(tst_WheelScroll)
#include "tst_wheelscroll.moc"
