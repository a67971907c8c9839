// Every chart zooms and pans, Reset zoom returns to what was drawn, and a zoomed chart draws no
// value label outside its view.
#include "chartprobe.h"
#include "chartresults.h"

#include "charts/chartinteraction.h"

#include <QTest>
#include <QWheelEvent>

#include <memory>

using namespace gapstudio;

class tst_ChartZoom : public QObject {
    Q_OBJECT

private:
    views::ResultsPtr mDense;

private slots:
    void initTestCase()
    {
        mDense = test::denseResults();
        QVERIFY(mDense->hasStats());
    }

    // Every chart zooms and pans (QCustomPlot range drag and zoom) and its right-click
    // menu has Copy image, Export… and Reset zoom, which returns to the ranges drawn.
    void zoomResetsToWhatWasDrawn()
    {
        views::StepTimeChart chart;
        chart.setResults(mDense);
        views::ChartInteraction *interaction = chart.interaction();
        QVERIFY(interaction);
        QVERIFY(chart.plot()->interactions().testFlag(QCP::iRangeZoom));
        QVERIFY(chart.plot()->interactions().testFlag(QCP::iRangeDrag));
        QVERIFY(!interaction->isZoomed());
        const QCPRange drawn = chart.plot()->xAxis->range();
        chart.plot()->xAxis->scaleRange(0.5);
        QVERIFY(interaction->isZoomed());
        std::unique_ptr<QMenu> menu(interaction->createMenu(nullptr));
        QStringList actions;
        QAction *reset = nullptr;
        for (QAction *action : menu->actions()) {
            actions << action->text();
            if (action->objectName() == QLatin1String("resetZoom"))
                reset = action;
        }
        QVERIFY2(reset && reset->isEnabled(), qPrintable(actions.join(QLatin1Char('|'))));
        QVERIFY(actions.size() >= 3);
        reset->trigger();
        QCOMPARE(chart.plot()->xAxis->range().lower, drawn.lower);
        QCOMPARE(chart.plot()->xAxis->range().upper, drawn.upper);
        QVERIFY(!interaction->isZoomed());
    }

    // Zoomed in with the wheel, a chart draws no value label of a bar out of view: such a label
    // once stayed beside the view and showed as a stray character (the "s" of "ms") over the
    // axis or at the plot's edge, on screen and in the chart's image. Every label still drawn
    // has its data point in view and stays inside the plot area; back at home, all are drawn.
    void zoomedLabelsStayInView()
    {
        views::StepTimeChart stepTime;
        views::EfficiencyGapChart gap;
        for (views::ChartView *chart : std::initializer_list<views::ChartView *> { &stepTime, &gap }) {
            chart->setResults(mDense);
            chart->resize(900, 500);
            chart->show();
            QVERIFY(QTest::qWaitForWindowExposed(chart));
            QCustomPlot *plot = chart->plot();
            plot->replot(QCustomPlot::rpImmediateRefresh);
            const auto dataLabels = [plot] {
                QList<QCPItemText *> labels;
                for (int i = 0; i < plot->itemCount(); ++i)
                    if (auto *label = qobject_cast<QCPItemText *>(plot->item(i));
                        label && label->position->type() == QCPItemPosition::ptPlotCoords
                        && !label->text().isEmpty())
                        labels << label;
                return labels;
            };
            const QList<QCPItemText *> labels = dataLabels();
            QVERIFY2(labels.size() >= 2, qPrintable(chart->id())); // the step time: one per bar
            for (const QCPItemText *label : labels)
                QVERIFY2(label->visible(), qPrintable(label->text()));

            // The wheel turned forward (zoom in) five notches over the plot area's left quarter.
            const QRect area = plot->axisRect()->rect();
            const QPointF at(area.left() + area.width() / 4.0, area.center().y());
            for (int notch = 0; notch < 5; ++notch) {
                QWheelEvent wheel(at, plot->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                                  Qt::NoModifier, Qt::NoScrollPhase, false);
                QCoreApplication::sendEvent(plot, &wheel);
            }
            QVERIFY(chart->interaction()->isZoomed());
            plot->replot(QCustomPlot::rpImmediateRefresh);
            int hidden = 0;
            const QRectF inView = QRectF(plot->axisRect()->rect()).adjusted(-1, -1, 1, 1);
            for (const QCPItemText *label : labels) {
                if (!label->visible()) {
                    ++hidden;
                    continue;
                }
                const QString which = chart->id() + QStringLiteral(": \"") + label->text() + QLatin1Char('"');
                QVERIFY2(inView.contains(label->position->pixelPosition()),
                         qPrintable(which + QStringLiteral(" drawn for a point out of view")));
                const QRectF box
                    = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
                          .normalized();
                QVERIFY2(label->clipToAxisRect() || inView.contains(box),
                         qPrintable(which + QStringLiteral(" drawn outside the plot area")));
            }
            QVERIFY2(hidden >= 1, qPrintable(chart->id())); // the zoom left some bars out of view

            chart->interaction()->resetZoom();
            plot->replot(QCustomPlot::rpImmediateRefresh);
            for (const QCPItemText *label : dataLabels())
                QVERIFY2(label->visible(), qPrintable(label->text()));
        }
    }
};

QTEST_MAIN(tst_ChartZoom)
#include "tst_chartzoom.moc"
