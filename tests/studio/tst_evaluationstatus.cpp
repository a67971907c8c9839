// Every view goes by the evaluation status: a design that does not fit in
// memory is never shown as a plausible result. The views are wired as the main window wires them;
// the design starts as the shipped GPT-3 175B on 4096 H100 (it runs), then takes the 8-GPU layout
// of validation case 01: GPT-3 175B on 8 H100 cannot fit (its 175e9 weights alone are 350 GB in
// fp16, 44 GB per GPU over TP 8, before gradients and optimizer state; an H100 has 80 GiB).
#include "shippedresults.h"

#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "explore/explorechart.h"
#include "explore/explorepanel.h"
#include "results/resultstable.h"
#include "studio/blockinspector.h"
#include "studio/diagnosticslist.h"
#include "studio/layoutpanel.h"
#include "studio/llmpanel.h"
#include "studio/parameterpanel.h"
#include "studio/scenariodocument.h"
#include "studio/statusline.h"

#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QLabel>
#include <QTest>
#include <QVBoxLayout>

using namespace gapstudio;
using namespace gapstudio::views;

namespace {

void collectModel(const QAbstractItemModel *model, const QModelIndex &parent, QStringList &out)
{
    for (int row = 0; row < model->rowCount(parent); ++row)
        for (int column = 0; column < model->columnCount(parent); ++column) {
            const QModelIndex index = model->index(row, column, parent);
            out << index.data(Qt::DisplayRole).toString();
            collectModel(model, index, out);
        }
}

void collectLayout(QCPLayout *layout, QStringList &out)
{
    for (int i = 0; i < layout->elementCount(); ++i) {
        QCPLayoutElement *element = layout->elementAt(i);
        if (auto *text = qobject_cast<QCPTextElement *>(element))
            out << text->text();
        if (auto *inner = qobject_cast<QCPLayout *>(element))
            collectLayout(inner, out);
    }
}

/// Every text a user can read in `root` without hovering: labels, buttons, item views, and the
/// charts' titles, legends, axis labels, item texts and messages.
QStringList visibleTexts(QWidget *root)
{
    QStringList out;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (auto *label = qobject_cast<QLabel *>(w))
            out << label->text();
        if (auto *button = qobject_cast<QAbstractButton *>(w))
            out << button->text();
        if (auto *view = qobject_cast<QAbstractItemView *>(w); view && view->model())
            collectModel(view->model(), {}, out);
        if (auto *plot = qobject_cast<QCustomPlot *>(w)) {
            for (int i = 0; i < plot->plottableCount(); ++i)
                out << plot->plottable(i)->name();
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
                    out << text->text();
            for (QCPAxis *axis : plot->axisRect()->axes())
                if (axis->visible())
                    out << axis->label();
            collectLayout(plot->plotLayout(), out);
        }
    }
    return out;
}

struct Studio {
    ScenarioDocument document { loadStudioLibrary() };
    Recalculator recalculator { &document };
    QWidget window;
    ChartsPanel *charts = new ChartsPanel;
    ResultsTable *keyResults = new ResultsTable;
    DiagnosticsList *diagnostics = new DiagnosticsList;
    BlockInspector *inspector = new BlockInspector;
    LlmPanel *llm = new LlmPanel(&document);
    LayoutPanel *layout = new LayoutPanel(&document);
    ParameterPanel *parameters = new ParameterPanel(&document);
    ExplorePanel *explore = new ExplorePanel;
    QLabel *statusBar = new QLabel;

    Studio()
    {
        auto *box = new QVBoxLayout(&window);
        for (QWidget *w : std::initializer_list<QWidget *> { charts, keyResults, diagnostics, inspector, llm,
                                                             layout, parameters, explore, statusBar })
            box->addWidget(w);
        inspector->setPart(CanvasScene::Part::Total); // the part with the throughput
        // As MainWindow::connectPanels and showResults connect them.
        QObject::connect(&recalculator, &Recalculator::resultsReady, &window, [this](const ResultsPtr &r) {
            charts->setResults(r);
            keyResults->showResults(*r);
            diagnostics->setResults(r);
            inspector->setResults(r);
            llm->setResults(r);
            layout->setResults(r);
            parameters->setResults(r);
            explore->setResults(r);
            statusBar->setText(statusLine(*r));
        });
        document.reset(test::shippedScenario(test::kDenseScenario));
        recalculator.recalculateNow();
    }

    [[nodiscard]] bool showsMfu() { return !visibleTexts(&window).filter(QStringLiteral("MFU")).isEmpty(); }
};

} // namespace

class tst_EvaluationStatus : public QObject {
    Q_OBJECT

private slots:
    void overCapacityShowsNoMfuAndSaysWhy()
    {
        Studio studio;
        QCOMPARE(studio.recalculator.latest()->status, scenario::EvaluationStatus::Ok);
        QVERIFY(studio.showsMfu()); // the collector sees an MFU where there is one
        QVERIFY(studio.statusBar->text().contains(QStringLiteral("MFU")));

        QVERIFY(studio.document.applyPreset(BlockKind::Layout, "val01-megatron-22b-8gpu-full"));
        studio.document.setGpuCount(8);
        studio.recalculator.recalculateNow();
        const ResultsPtr over = studio.recalculator.latest();
        QCOMPARE(over->status, scenario::EvaluationStatus::OverCapacity);

        const QStringList mfu = visibleTexts(&studio.window).filter(QStringLiteral("MFU"));
        QVERIFY2(mfu.isEmpty(), qPrintable(mfu.join(QStringLiteral(" | "))));
        // The status bar names the shortfall in words: what each GPU needs and has.
        const QString status = studio.statusBar->text();
        QVERIFY2(status.startsWith(QStringLiteral("Does not fit in memory: each GPU needs ")),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("GiB of HBM but has 80 GiB")), qPrintable(status));
        // Only the memory chart draws the design; the step time chart says why it does not.
        QVERIFY(studio.charts->chart(QStringLiteral("memory"))->message().isEmpty());
        QVERIFY(studio.charts->chart(QStringLiteral("memory"))->plot()->plottableCount() > 0);
        for (const char *id : { "step_time", "bandwidth", "efficiency_gap" }) {
            const ChartView *chart = studio.charts->chart(QString::fromLatin1(id));
            QCOMPARE(chart->plot()->plottableCount(), 0);
            QVERIFY2(chart->message().contains(QStringLiteral("80 GiB")), qPrintable(chart->message()));
        }

        studio.document.undoStack()->undo(); // back to a design that runs: the numbers return
        studio.document.undoStack()->undo();
        studio.recalculator.recalculateNow();
        QCOMPARE(studio.recalculator.latest()->status, scenario::EvaluationStatus::Ok);
        QVERIFY(studio.statusBar->text().contains(QStringLiteral("MFU")));
    }

    void infeasibleStatusBarSaysWhy()
    {
        Studio studio;
        studio.document.setOverride("layout.tensor_par", 7); // divides neither the heads nor the GPUs
        studio.recalculator.recalculateNow();
        const ResultsPtr r = studio.recalculator.latest();
        QCOMPARE(r->status, scenario::EvaluationStatus::Malformed);
        QVERIFY2(studio.statusBar->text().startsWith(QStringLiteral("Cannot be evaluated: ")),
                 qPrintable(studio.statusBar->text()));
        QVERIFY(studio.statusBar->text().contains(QString::fromStdString(r->cause()->message)));
        QVERIFY(!studio.showsMfu());
    }
};

QTEST_MAIN(tst_EvaluationStatus)
#include "tst_evaluationstatus.moc"
