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
#include <QLabel>
#include <QStatusBar>
#include <QStatusTipEvent>
#include <QTemporaryDir>
#include <QTest>

using namespace gapstudio;
using namespace gapstudio::views;

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
            auto *label = window.statusBar()->findChild<QLabel *>(QStringLiteral("statusSummary"));
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
        auto *label = window.statusBar()->findChild<QLabel *>(QStringLiteral("statusSummary"));
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
        label.setAlignment(summary->alignment());
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
};

QTEST_MAIN(tst_StatusSummary)
#include "tst_statussummary.moc"
