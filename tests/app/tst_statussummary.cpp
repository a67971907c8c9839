// The status bar's one-line summary of the results outlasts what covers it for a while: a menu's
// status tips (as the user moves over a menu, then closes it) and the studio's notices. Before,
// the summary was itself a temporary message, and the first tip erased it for good. It fills the
// bar as the bar is resized, and a summary wider than the bar ends in an ellipsis.
#include "mainwindow.h"

#include "settle.h"
#include "studio/recalculator.h"
#include "studio/statusline.h"
#include "studio/statussummary.h"
#include "test_home.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QLabel>
#include <QPaintEvent>
#include <QScreen>
#include <QStatusBar>
#include <QStatusTipEvent>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {

/// Adds the regions of a widget's paint events to `region`.
struct PaintSpy : QObject {
    PaintSpy(QWidget *widget, QRegion *region)
        : mRegion(region)
    {
        widget->installEventFilter(this);
    }
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            *mRegion |= static_cast<QPaintEvent *>(event)->region();
        return false;
    }
    QRegion *mRegion;
};

} // namespace

class tst_StatusSummary : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mHome;

private slots:
    void initTestCase() { QVERIFY(test::useTemporaryHome(mHome, QStringLiteral("tst_statussummary"))); }

    void summaryComesBackAfterAMenu()
    {
        MainWindow window(QString {});
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.recalculator()->recalculateNow();
        test::settle();
        const ResultsPtr results = window.recalculator()->latest();
        QVERIFY(results);
        // What the status bar shows, whichever way it shows it.
        const auto shown = [&window] {
            if (!window.statusBar()->currentMessage().isEmpty())
                return window.statusBar()->currentMessage();
            auto *label = window.statusBar()->findChild<StatusSummary *>(QStringLiteral("statusSummary"));
            return label && label->isVisible() ? label->text() : QString();
        };
        const QString summary = statusLine(*results);
        QVERIFY(!summary.isEmpty());
        QCOMPARE(shown(), summary);

        // Over a menu entry (its status tip), then out of the menu (an empty tip): QMainWindow
        // shows each in the status bar.
        QStatusTipEvent over(QStringLiteral("Open a scenario file"));
        QApplication::sendEvent(&window, &over);
        QCOMPARE(shown(), QStringLiteral("Open a scenario file"));
        // The tip covers the summary: the two are not drawn over each other.
        auto *label = window.statusBar()->findChild<StatusSummary *>(QStringLiteral("statusSummary"));
        QVERIFY(label && !label->isVisible());
        QStatusTipEvent out { QString() };
        QApplication::sendEvent(&window, &out);
        test::settle();
        QCOMPARE(shown(), summary);
        QVERIFY(label->isVisible());
    }

    void aNarrowBarShortensTheSummary()
    {
        QStatusBar bar;
        bar.resize(320, 24);
        auto *summary = new StatusSummary(&bar);
        summary->setText(
            QStringLiteral("Step time 4.003 s · 2.1 M tokens/s · MFU 9.5 % · Calibration shipped: "
                           "GPU default (no entry for future-gpu-tithi2026), software default"));
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        test::settle();
        // Narrow: the start of the summary and an ellipsis, within the bar; text() stays whole.
        QVERIFY(bar.rect().contains(summary->geometry()));
        const QString shown = summary->shownText();
        QVERIFY(shown.endsWith(QChar(0x2026)));
        QVERIFY(summary->text().startsWith(shown.chopped(1)));
        QVERIFY(summary->fontMetrics().horizontalAdvance(shown) <= summary->contentsRect().width());
        // Widened: the label follows the bar and the whole summary shows.
        bar.resize(2400, 24);
        test::settle();
        QVERIFY(summary->width() > 2000);
        QCOMPARE(summary->shownText(), summary->text());
    }

    // The summary draws its text as a label of its size, font and alignment draws the same
    // text (QLabel: the style's drawItemText), whole or elided, pixel for pixel.
    void theSummaryIsDrawnAsALabel_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("whole") << 1400;
        QTest::newRow("elided") << 320;
    }
    void theSummaryIsDrawnAsALabel()
    {
        QFETCH(int, width);
        QStatusBar bar;
        bar.resize(width, 24);
        auto *summary = new StatusSummary(&bar);
        summary->setText(
            QStringLiteral("Step time 2.108 s · 4.0 M tokens/s · MFU 18.4 % · Calibration shipped"));
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        test::settle();
        QCOMPARE(summary->shownText().endsWith(QChar(0x2026)), width < 600);

        QLabel label(summary->shownText());
        label.setFixedSize(summary->size());
        label.setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label.setFont(summary->font());
        label.setPalette(summary->palette());
        label.setContentsMargins(summary->contentsMargins());
        const auto drawn = [](QWidget *widget) {
            QImage image(widget->size(), QImage::Format_RGB32);
            image.fill(Qt::white);
            widget->render(&image, {}, {}, QWidget::DrawChildren); // the text alone, no background
            return image;
        };
        QCOMPARE(drawn(summary), drawn(&label));
    }

    // A new figure repaints its piece of the line, not the whole line, and the bar then shows
    // what a bar given the new text from the start shows (what is on screen, not a fresh render).
    void aNewFigureRepaintsItsPieceOnly()
    {
        const QString before
            = QStringLiteral("Step time 2.108 s · 4.0 M tokens/s · MFU 18.4 % · Calibration shipped");
        const QString after
            = QStringLiteral("Step time 2.108 s · 4.1 M tokens/s · MFU 18.4 % · Calibration shipped");
        const auto shownBar = [](QStatusBar &bar, const QString &text) {
            bar.resize(1400, 24);
            auto *summary = new StatusSummary(&bar);
            summary->setText(text);
            bar.show();
            return summary;
        };
        QStatusBar bar, fresh;
        StatusSummary *summary = shownBar(bar, before);
        shownBar(fresh, after);
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        QVERIFY(QTest::qWaitForWindowExposed(&fresh));
        test::settle();

        QRegion painted;
        PaintSpy spy(summary, &painted);
        summary->setText(after);
        test::settle();
        const QFontMetricsF metrics(summary->font());
        const qreal start = summary->contentsRect().left()
                            + metrics.horizontalAdvance(after.left(20));        // "Step time 2.108 s · "
        const qreal end = start + metrics.horizontalAdvance(after.mid(20, 17)); // "4.1 M tokens/s · "
        QVERIFY(!painted.isEmpty());
        QVERIFY2(painted.boundingRect().left() >= start - 3 && painted.boundingRect().right() <= end + 3,
                 qPrintable(QStringLiteral("repainted %1 to %2 for a piece from %3 to %4")
                                .arg(painted.boundingRect().left())
                                .arg(painted.boundingRect().right())
                                .arg(start)
                                .arg(end)));
        const auto onScreen
            = [](QStatusBar &shown) { return shown.screen()->grabWindow(shown.winId()).toImage(); };
        QCOMPARE(onScreen(bar), onScreen(fresh));

        // Then texts that change every piece, end in an ellipsis, come back whole, move the pieces
        // after a wider figure and have fewer pieces: each time the screen shows what a fresh bar
        // shows.
        const QString calibration
            = QStringLiteral("Calibration shipped: GPU default (no entry for future-gpu-tithi2026)");
        for (const QString &text :
             { QStringLiteral("Step time 12.108 s · 14.1 M tokens/s · MFU 8.4 % · ") + calibration,
               QStringLiteral("Step time 2.1 s · 4.1 M tokens/s · MFU 8.4 % · ") + calibration.repeated(3),
               QStringLiteral("Step time 2.1 s · 4.1 M tokens/s · MFU 8.4 % · ") + calibration,
               QStringLiteral("Step time 12.1 s · 4.1 M tokens/s · MFU 8.4 % · ")
                   + calibration, // the rest moved
               QStringLiteral("Step time 2.1 s · ") + calibration }) {
            summary->setText(text);
            QStatusBar other;
            shownBar(other, text);
            QVERIFY(QTest::qWaitForWindowExposed(&other));
            test::settle();
            QCOMPARE(summary->shownText().endsWith(QChar(0x2026)), text.size() > 200);
            QVERIFY2(onScreen(bar) == onScreen(other), qPrintable(text));
        }
    }

    // An ellipsis can stand over the end of a piece before the one cut (the ellipsis is wider
    // than what of the cut piece fits). A whole text that changes only the later piece then
    // still takes the ellipsis off the screen.
    void anEllipsisOverAnEarlierPieceGoes()
    {
        const QString prefix = QStringLiteral("Step time 2.1 s · 4.1 M tokens/s · MFU 8.4 % · ");
        const QString elided = prefix + QStringLiteral("Calibration shipped: GPU default");
        const QString whole = prefix + QStringLiteral(".");
        QStatusBar bar, fresh;
        const QFontMetricsF metrics(bar.font());
        QVERIFY(metrics.horizontalAdvance(QChar(0x2026)) > metrics.horizontalAdvance(QStringLiteral(".")) + 4);
        const auto shownBar = [&](QStatusBar &shown, const QString &text) {
            shown.setSizeGripEnabled(false);
            // The summary exactly as wide as the whole text (3 px indents either side).
            shown.resize(static_cast<int>(std::ceil(metrics.horizontalAdvance(whole))) + 6, 24);
            auto *summary = new StatusSummary(&shown);
            summary->setText(text);
            shown.show();
            return summary;
        };
        StatusSummary *summary = shownBar(bar, elided);
        shownBar(fresh, whole);
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        QVERIFY(QTest::qWaitForWindowExposed(&fresh));
        test::settle();
        // The ellipsis starts a few pixels before the last piece.
        QVERIFY2(summary->shownText().endsWith(QChar(0x2026))
                     && metrics.horizontalAdvance(summary->shownText().chopped(1))
                            < metrics.horizontalAdvance(prefix) - 4,
                 qPrintable(summary->shownText()));

        summary->setText(whole);
        test::settle();
        QCOMPARE(summary->shownText(), whole);
        const auto onScreen
            = [](QStatusBar &shown) { return shown.screen()->grabWindow(shown.winId()).toImage(); };
        QCOMPARE(onScreen(bar), onScreen(fresh));
    }
};

QTEST_MAIN(tst_StatusSummary)
#include "tst_statussummary.moc"
