// The status bar's one-line summary of the results outlasts what covers it for a while: a menu's
// status tips (as the user moves over a menu, then closes it) and the studio's notices. Before,
// the summary was itself a temporary message, and the first tip erased it for good. It fills the
// bar as the bar is resized, and a summary wider than the bar ends in an ellipsis.
#include "mainwindow.h"

#include "paintedregion.h"
#include "settle.h"
#include "studio/recalculator.h"
#include "studio/statusline.h"
#include "studio/statussummary.h"
#include "test_home.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QLabel>
#include <QScreen>
#include <QStatusBar>
#include <QStatusTipEvent>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {

/// A status bar `width` wide showing a summary of `text`, with or without its size grip.
StatusSummary *showSummary(QStatusBar &bar, const QString &text, int width, bool grip = true)
{
    bar.setSizeGripEnabled(grip);
    bar.resize(width, 24);
    auto *summary = new StatusSummary(&bar);
    summary->setText(text);
    bar.show();
    return summary;
}

/// What the bar's window shows on screen (its backing store), not a fresh rendering.
QImage onScreen(QStatusBar &bar)
{
    return bar.screen()->grabWindow(bar.winId()).toImage();
}

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
        StatusSummary *summary = showSummary(
            bar,
            QStringLiteral("Step time 4.003 s · 2.1 M tokens/s · MFU 9.5 % · Calibration shipped: "
                           "GPU default (no entry for future-gpu-tithi2026), software default"),
            320);
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
        StatusSummary *summary = showSummary(
            bar, QStringLiteral("Step time 2.108 s · 4.0 M tokens/s · MFU 18.4 % · Calibration shipped"),
            width);
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
        QStatusBar bar, fresh;
        StatusSummary *summary = showSummary(bar, before, 1400);
        showSummary(fresh, after, 1400);
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        QVERIFY(QTest::qWaitForWindowExposed(&fresh));
        test::settle();

        test::PaintedRegion repainted(summary);
        summary->setText(after);
        test::settle();
        const QFontMetricsF metrics(summary->font());
        const qreal start = summary->contentsRect().left()
                            + metrics.horizontalAdvance(after.left(20));        // "Step time 2.108 s · "
        const qreal end = start + metrics.horizontalAdvance(after.mid(20, 17)); // "4.1 M tokens/s · "
        QVERIFY(!repainted.region.isEmpty());
        QVERIFY2(repainted.region.boundingRect().left() >= start - 3
                     && repainted.region.boundingRect().right() <= end + 3,
                 qPrintable(QStringLiteral("repainted %1 to %2 for a piece from %3 to %4")
                                .arg(repainted.region.boundingRect().left())
                                .arg(repainted.region.boundingRect().right())
                                .arg(start)
                                .arg(end)));
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
            showSummary(other, text, 1400);
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
        // The summary exactly as wide as the whole text (3 px indents either side, no grip).
        const int width = static_cast<int>(std::ceil(metrics.horizontalAdvance(whole))) + 6;
        StatusSummary *summary = showSummary(bar, elided, width, false);
        showSummary(fresh, whole, width, false);
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
        QCOMPARE(onScreen(bar), onScreen(fresh));
    }
};

QTEST_MAIN(tst_StatusSummary)
#include "tst_statussummary.moc"
