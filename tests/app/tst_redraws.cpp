// Work for what is on screen only (views/common/whenseen.h, PlotChart::requestDraw): after a change
// of the design in the shown main window, the chart in front is drawn, but a chart on a tab behind
// it, Explore's sensitivity, variants and domain-size sweeps (a dock's tab behind Charts) and Key
// results (behind Diagnostics) are not. Each shows the current design once the user clicks its
// tab, equal to the same view made on its own for the same results. Block parameters write a part's
// rows over those shown. A slider step lays nothing out again (fixed-size value labels) and
// rewrites only what it changes (Diagnostics' line in place, Layout's fields left as they are).
#include "mainwindow.h"

#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "common/cornernote.h"
#include "cost/costfigures.h"
#include "cost/costpanel.h"
#include "explore/explorepanel.h"
#include "explore/variantschart.h"
#include "results/resultstable.h"
#include "settle.h"
#include "studio/blockinspector.h"
#include "studio/diagnosticslist.h"
#include "studio/parameterpanel.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "studio/statusline.h"
#include "studio/statussummary.h"
#include "studio/valuefield.h"
#include "test_home.h"

#include "gapstudio/scenario/override_keys.h"

#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {

/// Clicks the tab named `text` of whichever tab bar of `window` has it (a dock's or a panel's).
bool clickTab(QWidget *window, const QString &text)
{
    for (QTabBar *bar : window->findChildren<QTabBar *>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == text && bar->isVisible()) {
                QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(i).center());
                test::settle();
                return true;
            }
    return false;
}

/// The table's cells, row by row.
QStringList cells(const QTableWidget &table)
{
    QStringList all;
    for (int row = 0; row < table.rowCount(); ++row)
        for (int column = 0; column < table.columnCount(); ++column)
            all << (table.item(row, column) ? table.item(row, column)->text() : QString());
    return all;
}

/// Shows `window` at 1600 x 1000 with the default design's results in every view.
bool showWithResults(MainWindow &window)
{
    window.resize(1600, 1000);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    window.recalculator()->recalculateNow();
    test::settle();
    return true;
}

/// The lines of a diagnostics list: text, tool tip and icon (as an image).
QStringList lines(const QListWidget &list)
{
    QStringList all;
    for (int row = 0; row < list.count(); ++row) {
        const QImage icon = list.item(row)->icon().pixmap(16).toImage();
        all << list.item(row)->text() << list.item(row)->toolTip()
            << QString::number(qHashBits(icon.constBits(), static_cast<size_t>(icon.sizeInBytes())));
    }
    return all;
}

/// Names the widgets under `root` that receive a layout request or a paint event.
class LayoutSpy : public QObject {
public:
    explicit LayoutSpy(QWidget *root)
        : mRoot(root)
    {
        qApp->installEventFilter(this);
    }
    ~LayoutSpy() override { qApp->removeEventFilter(this); }
    QStringList layouts;
    QStringList paints;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        auto *widget = qobject_cast<QWidget *>(watched);
        if (widget && (widget == mRoot || mRoot->isAncestorOf(widget))) {
            const QString name = QString::fromLatin1(widget->metaObject()->className()) + QLatin1Char(' ')
                                 + widget->objectName();
            if (event->type() == QEvent::LayoutRequest)
                layouts << name;
            if (event->type() == QEvent::Paint)
                paints << name;
        }
        return false;
    }

private:
    QWidget *mRoot;
};

} // namespace

class tst_Redraws : public QObject {
    Q_OBJECT

private:
    QTemporaryDir mHome;

private slots:
    void initTestCase() { QVERIFY(test::useTemporaryHome(mHome, QStringLiteral("tst_redraws"))); }

    void hiddenViewsWaitUntilTheirTabIsClicked()
    {
        MainWindow window(QString {});
        QVERIFY(showWithResults(window));
        auto *charts = window.findChild<ChartsPanel *>();
        auto *explore = window.findChild<ExplorePanel *>();
        auto *keyResults = window.findChild<ResultsTable *>(QStringLiteral("resultsTable"));
        QVERIFY(charts && explore && keyResults);
        ChartView *stepTime = charts->charts().at(0);
        ChartView *bandwidth = charts->charts().at(1);
        QCOMPARE(stepTime->id(), QStringLiteral("step_time"));
        QCOMPARE(bandwidth->id(), QStringLiteral("bandwidth"));

        // A slider step: the step-time chart in front is drawn; the hidden views are not.
        const int stepDraws = stepTime->draws(), bandwidthDraws = bandwidth->draws();
        const int sweeps = explore->fastChartUpdates();
        const QStringList keyBefore = cells(*keyResults);
        window.document()->setOverride(scenario::keys::kScaleOutBandwidth, 123);
        window.recalculator()->recalculateNow();
        test::settle();
        const ResultsPtr latest = window.recalculator()->latest();
        QVERIFY(latest && latest->ok());
        QCOMPARE(stepTime->draws(), stepDraws + 1);
        QCOMPARE(bandwidth->draws(), bandwidthDraws);
        QCOMPARE(explore->fastChartUpdates(), sweeps);
        QCOMPARE(cells(*keyResults), keyBefore);

        // Bandwidth per tier clicked: drawn once, as a chart of its own draws the same results.
        QVERIFY(clickTab(&window, QStringLiteral("Bandwidth per tier")));
        QCOMPARE(bandwidth->draws(), bandwidthDraws + 1);
        ChartsPanel fresh;
        fresh.setResults(latest);
        QCOMPARE(bandwidth->csvRows(), fresh.charts().at(1)->csvRows());
        QCOMPARE(bandwidth->headline(), fresh.charts().at(1)->headline());

        // Key results clicked (Diagnostics in front): the current design's rows.
        QVERIFY(clickTab(&window, QStringLiteral("Key results")));
        ResultsTable table;
        table.showResults(*latest);
        QCOMPARE(cells(*keyResults), cells(table));
        QVERIFY(cells(*keyResults) != keyBefore);

        // Explore, then its Variants tab: the sweeps of the current design, computed once.
        QVERIFY(clickTab(&window, QStringLiteral("Explore")));
        QVERIFY(clickTab(&window, QStringLiteral("Variants")));
        QCOMPARE(explore->fastChartUpdates(), sweeps + 1);
        const model::SweepPoint *designed = explore->variantsChart()->designPoint();
        QVERIFY(designed && designed->evaluation.ok);
        QCOMPARE(designed->evaluation.stats.total_time, latest->evaluation.stats.total_time);
    }

    void aSliderStepLaysNothingOut()
    {
        MainWindow window(QString {});
        QVERIFY(showWithResults(window));
        const std::string key = scenario::keys::kScaleOutBandwidth;
        auto *parameters = window.findChild<ParameterPanel *>();
        auto *cost = window.findChild<CostPanel *>();
        auto *diagnostics = window.findChild<DiagnosticsList *>();
        QVERIFY(parameters && cost && diagnostics);
        QSlider *slider = parameters->slider(key);
        ValueField *value = parameters->valueField(key);
        QVERIFY(slider && value && slider->isVisibleTo(&window));
        QCOMPARE(diagnostics->count(), 1); // "Feasible: ..."
        // The line shown is marked: an item made again would not carry the mark (comparing the
        // item's address would not do: a new item may be allocated where the old one was).
        constexpr int kMarkRole = Qt::UserRole + 101;
        diagnostics->item(0)->setData(kMarkRole, QStringLiteral("shown before the steps"));
        auto *dollars = cost->findChild<QLabel *>(QStringLiteral("usd_per_million_tokens"));
        QVERIFY(dollars);
        const QString dollarsBefore = dollars->text();
        const QString valueBefore = value->text();

        // The user steps the scale-out bandwidth's slider with the keyboard, as often as a drag.
        LayoutSpy spy(&window);
        slider->setFocus();
        for (int step = 0; step < 3; ++step) {
            QTest::keyClick(slider, Qt::Key_Right);
            window.recalculator()->recalculateNow();
            test::settle();
        }
        const ResultsPtr latest = window.recalculator()->latest();
        QVERIFY(latest && latest->ok());
        QVERIFY(value->text() != valueBefore);
        // The value reads whole (its label only grows), and changing it laid out nothing around
        // it; the layout's fields (their values unchanged) were not drawn again.
        auto *label = value->findChild<QLabel *>();
        QVERIFY(label && label->width() >= label->fontMetrics().horizontalAdvance(label->text()));
        const QStringList panelLayouts = spy.layouts.filter(QRegularExpression(QStringLiteral(
            "ParameterPanel|CollapsibleSection|ValueField|QScrollArea|CostPanel|MainWindow|QStatusBar")));
        QVERIFY2(panelLayouts.isEmpty(), qPrintable(panelLayouts.join(QStringLiteral(", "))));
        QVERIFY2(spy.paints.filter(QStringLiteral("QSpinBox layout:")).isEmpty(),
                 qPrintable(spy.paints.join(QStringLiteral(", "))));

        // The status bar says the new results in full, over the bar (and it alone was laid out
        // again, above: the main window was not).
        auto *summary = window.statusBar()->findChild<StatusSummary *>(QStringLiteral("statusSummary"));
        QVERIFY(summary && summary->isVisible());
        QCOMPARE(summary->text(), statusLine(*latest));
        QCOMPARE(summary->shownText(), summary->text()); // as drawn
        QVERIFY(window.statusBar()->rect().contains(summary->geometry()));
        QVERIFY(summary->width() >= summary->fontMetrics().horizontalAdvance(summary->text()));

        // Diagnostics: the same line, its figures rewritten in place; as a list of its own shows them.
        QCOMPARE(diagnostics->item(0)->data(kMarkRole).toString(), QStringLiteral("shown before the steps"));
        DiagnosticsList freshList;
        freshList.setResults(latest);
        QCOMPARE(lines(*diagnostics), lines(freshList));

        // Cost and power (a tab behind Charts) is written when its tab is clicked, as a panel of
        // its own shows the same results.
        QCOMPARE(dollars->text(), dollarsBefore);
        QVERIFY(clickTab(&window, QStringLiteral("Cost and power")));
        CostPanel freshCost(window.document());
        freshCost.setResults(latest);
        for (const CostFigure &figure : costFigureNames())
            QCOMPARE(cost->findChild<QLabel *>(figure.key)->text(), freshCost.figureText(figure.key));
        QVERIFY(dollars->text() != dollarsBefore);
    }

    void aValueLabelGrowsToItsText()
    {
        ValueField field;
        field.setText(QStringLiteral("1 GB/s"));
        field.show();
        auto *label = field.findChild<QLabel *>();
        const int width = label->width();
        const QString longer = QStringLiteral("123,456,789.5 GB/s (typed)");
        QVERIFY(label->fontMetrics().horizontalAdvance(longer) > width);
        field.setText(longer);
        test::settle();
        QCOMPARE(field.text(), longer);
        QVERIFY(label->width() >= label->fontMetrics().horizontalAdvance(longer));

        // A new font is measured again: larger, the label grows to it; smaller, it shrinks.
        const QSize atFirstFont = label->size();
        QFont large = field.font();
        large.setPointSizeF(large.pointSizeF() * 2);
        field.setFont(large);
        test::settle();
        QVERIFY(label->height() > atFirstFont.height());
        QVERIFY(label->width() >= label->fontMetrics().horizontalAdvance(longer));
        QFont small = large;
        small.setPointSizeF(large.pointSizeF() / 4);
        field.setFont(small);
        test::settle();
        QVERIFY(label->width() < atFirstFont.width());
        // As tall as the taller of its text and the editor that replaces it, at the new font.
        QCOMPARE(label->height(), std::max(label->sizeHint().height(), field.editor()->sizeHint().height()));
        QVERIFY(label->width() >= label->fontMetrics().horizontalAdvance(longer));
    }

    // The corner note (the calibration, beside the chart tabs) measures its text only when the
    // text, the room or the font changed; each of those still fits it again.
    void aCornerNoteFitsAgainWhenItsRoomChanges()
    {
        QTabWidget tabs;
        tabs.addTab(new QWidget, QStringLiteral("Step time"));
        auto *note = new CornerNote;
        tabs.setCornerWidget(note);
        tabs.resize(400, 200);
        const QString whole = QStringLiteral("Calibration shipped: GPU default (no entry for "
                                             "future-gpu-tithi2026), software default, fitted on 47 runs");
        note->setWholeText(whole);
        note->fitBeside(&tabs);
        QVERIFY(note->text().endsWith(QChar(0x2026)));
        QCOMPARE(note->toolTip(), whole);

        tabs.resize(2400, 200); // room for all of it
        note->fitBeside(&tabs);
        QCOMPARE(note->text(), whole);
        QVERIFY(note->toolTip().isEmpty());

        const QString other = QStringLiteral("Calibration: none");
        note->setWholeText(other);
        note->fitBeside(&tabs);
        QCOMPARE(note->text(), other);

        note->setWholeText(whole);
        note->fitBeside(&tabs);
        QCOMPARE(note->text(), whole);
        QFont large = note->font();
        large.setPointSizeF(large.pointSizeF() * 6);
        note->setFont(large); // the same text and room, too little at this size
        note->fitBeside(&tabs);
        QVERIFY(note->text().endsWith(QChar(0x2026)));
    }

    void blockParametersWriteOverTheRowsShown()
    {
        // The inspector writes a part's rows over those shown (no rebuild per change): after a
        // part with many rows, a part with fewer shows exactly its own, as a fresh inspector does.
        MainWindow window(QString {});
        window.recalculator()->recalculateNow();
        const ResultsPtr latest = window.recalculator()->latest();
        QVERIFY(latest && latest->ok());
        BlockInspector shown, fresh;
        shown.setResults(latest);
        fresh.setResults(latest);
        shown.setPart(CanvasScene::Part::Gpu);
        const int gpuRows = shown.rowCount();
        for (const CanvasScene::Part part :
             { CanvasScene::Part::Layout, CanvasScene::Part::Gpu, CanvasScene::Part::Total }) {
            shown.setPart(part);
            fresh.setPart(part);
            QCOMPARE(cells(shown), cells(fresh));
        }
        QVERIFY(gpuRows > fresh.rowCount());

        // Editable rows (the LLM's, with a document) are left as they are when a change elsewhere
        // in the design (a slider of the scale-out link) leaves them reading the same.
        BlockInspector llm;
        llm.setDocument(window.document());
        llm.setPart(CanvasScene::Part::Llm);
        llm.setResults(latest);
        QVERIFY(llm.isEditable(QStringLiteral("Hidden size")));
        QSignalSpy rewritten(&llm, &QTableWidget::itemChanged);
        window.document()->setOverride(scenario::keys::kScaleOutBandwidth, 77);
        window.recalculator()->recalculateNow();
        llm.setResults(window.recalculator()->latest());
        QCOMPARE(rewritten.count(), 0);
    }
};

QTEST_MAIN(tst_Redraws)
#include "tst_redraws.moc"
