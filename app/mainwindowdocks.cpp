// The main window's docks: the panels, where they sit and how the results reach them (wiring only).
#include "mainwindow.h"

#include "charts/chartexporter.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "designspace/bestlayoutpanel.h"
#include "designspace/gridheatmapchart.h"
#include "designspace/gridpanel.h"
#include "explore/explorechart.h"
#include "explore/explorepanel.h"
#include "results/pinnedscenarios.h"
#include "results/resultstable.h"
#include "studio/blockinspector.h"
#include "studio/blockpalette.h"
#include "studio/canvasscene.h"
#include "studio/diagnosticslist.h"
#include "studio/docksizer.h"
#include "studio/layoutpanel.h"
#include "studio/layoutrules.h"
#include "studio/llmpanel.h"
#include "studio/parameterpanel.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "validation/validationpanel.h"

#include <QDockWidget>
#include <QScrollArea>

namespace gapstudio {

using namespace views;

/// The panels that show the results, beside the charts and Explore (members).
struct MainWindow::Panels {
    BlockPalette *palette = nullptr;
    BlockInspector *inspector = nullptr;
    LlmPanel *llm = nullptr;
    LayoutPanel *layout = nullptr;
    ParameterPanel *parameters = nullptr;
    DiagnosticsList *diagnostics = nullptr;
    ResultsTable *keyResults = nullptr;
    BestLayoutPanel *bestLayout = nullptr;
};

namespace {

QDockWidget *dock(QMainWindow *window, const QString &title, const QString &name, QWidget *content,
                  Qt::DockWidgetArea area)
{
    auto *d = new QDockWidget(title, window);
    d->setObjectName(name);
    d->setWidget(content);
    window->addDockWidget(area, d);
    return d;
}

QScrollArea *scrolled(QWidget *content)
{
    auto *area = new QScrollArea;
    area->setWidget(content);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}
} // namespace

void MainWindow::createDocks()
{
    Panels p;
    p.palette = new BlockPalette(mDocument->library(), this);
    p.inspector = mInspector = new BlockInspector(this);
    p.inspector->setDocument(mDocument); // the block's own values are editable in place
    p.llm = new LlmPanel(mDocument, this);
    p.layout = new LayoutPanel(mDocument, this);
    p.parameters = new ParameterPanel(mDocument, this);
    p.diagnostics = new DiagnosticsList(this);
    p.keyResults = new ResultsTable(this);
    p.keyResults->setDiagnosticWording([](const model::Diagnostic &d, const model::Execution *execution) {
        return diagnosticInWords(d, execution);
    });
    mCharts = new ChartsPanel(this);
    placeDocks(p);
    connectPanels(p);
}

void MainWindow::placeDocks(Panels &p)
{
    QDockWidget *paletteDock
        = dock(this, tr("Blocks"), QStringLiteral("paletteDock"), p.palette, Qt::LeftDockWidgetArea);
    QDockWidget *inspectorDock = dock(this, tr("Block parameters"), QStringLiteral("inspectorDock"),
                                      p.inspector, Qt::LeftDockWidgetArea);
    QDockWidget *parametersDock = dock(this, tr("Parameters"), QStringLiteral("parametersDock"),
                                       scrolled(p.parameters), Qt::RightDockWidgetArea);
    QDockWidget *layoutDock
        = dock(this, tr("Layout"), QStringLiteral("layoutDock"), scrolled(p.layout), Qt::RightDockWidgetArea);
    QDockWidget *llmDock
        = dock(this, tr("LLM"), QStringLiteral("llmDock"), scrolled(p.llm), Qt::RightDockWidgetArea);
    tabifyDockWidget(layoutDock, llmDock);
    p.bestLayout = new BestLayoutPanel(mDocument, this); // "judge at best layout"
    tabifyDockWidget(llmDock, dock(this, tr("Best layout"), QStringLiteral("bestLayoutDock"),
                                   scrolled(p.bestLayout), Qt::RightDockWidgetArea));
    layoutDock->raise();
    QDockWidget *chartsDock
        = dock(this, tr("Charts"), QStringLiteral("chartsDock"), mCharts, Qt::BottomDockWidgetArea);

    QDockWidget *diagnosticsDock = dock(this, tr("Diagnostics"), QStringLiteral("diagnosticsDock"),
                                        p.diagnostics, Qt::BottomDockWidgetArea);
    QDockWidget *resultsDock = dock(this, tr("Key results"), QStringLiteral("resultsDock"), p.keyResults,
                                    Qt::BottomDockWidgetArea);
    splitDockWidget(chartsDock, diagnosticsDock, Qt::Horizontal);
    tabifyDockWidget(diagnosticsDock, resultsDock);
    diagnosticsDock->raise();
    mExplore = new ExplorePanel(this);
    QDockWidget *exploreDock
        = dock(this, tr("Explore"), QStringLiteral("exploreDock"), mExplore, Qt::BottomDockWidgetArea);
    tabifyDockWidget(chartsDock, exploreDock);
    // Measured runs against the model; a run opens as the design under File > Open's rules.
    auto *validation = new ValidationPanel(mDocument, this);
    validation->setOpenGuard([this] { return maybeSave(); });
    tabifyDockWidget(chartsDock, dock(this, tr("Validation"), QStringLiteral("validationDock"), validation,
                                      Qt::BottomDockWidgetArea));
    auto *grid = new GridPanel(this); // results of gapstudio-cli grid as a heatmap
    tabifyDockWidget(chartsDock,
                     dock(this, tr("Grid"), QStringLiteral("gridDock"), grid, Qt::BottomDockWidgetArea));
    mExporter->addCharts(QList<GridHeatmapChart *> { grid->chart() });
    chartsDock->raise();
    // The charts span the full width under the canvas and the side columns.
    setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
    new DockSizer(this, { { { chartsDock }, { 0.38 }, Qt::Vertical, 240 }, // shares of the window, once shown
                          { { paletteDock, parametersDock }, { 0.2, 0.3 }, Qt::Horizontal, 260 },
                          { { chartsDock, diagnosticsDock }, { 0.76, 0.24 }, Qt::Horizontal, 240 },
                          { { paletteDock, inspectorDock }, { 0.28, 0.24 }, Qt::Vertical, 120 },
                          { { parametersDock, layoutDock }, { 0.22, 0.3 }, Qt::Vertical, 150 } });
}

void MainWindow::connectPanels(const Panels &p)
{
    connect(p.palette, &BlockPalette::blockActivated, this,
            [this](BlockKind kind, const QString &id) { mDocument->applyPreset(kind, id.toStdString()); });
    connect(mDocument, &ScenarioDocument::libraryChanged, p.palette,
            [this, palette = p.palette] { palette->setLibrary(mDocument->library()); });
    mExporter->addCharts(mCharts->charts());
    mExporter->addCharts(mExplore->charts());
    connect(mCanvas, &CanvasScene::partSelected, p.inspector, &BlockInspector::setPart);
    connect(mRecalculator, &Recalculator::resultsReady, this, [this, p](const ResultsPtr &results) {
        mCanvas->setResults(results);
        p.inspector->setResults(results);
        p.llm->setResults(results);
        p.layout->setResults(results);
        p.parameters->setResults(results);
        p.diagnostics->setResults(results);
        mCharts->setResults(results);
        p.keyResults->showResults(*results);
        mExplore->setResults(results);
        p.bestLayout->setResults(results);
    });
    p.bestLayout->showIn(mCharts, p.keyResults);
    // Pinned designs side by side: Key results columns and the charts' overlays.
    mPinned = new PinnedScenarios(this);
    connect(mPinned, &PinnedScenarios::changed, this, [this, p] {
        p.keyResults->setPinned(mPinned->pins());
        mCharts->setPins(mPinned->pins());
    });
    // "Apply this layout" from a search: one undoable edit of the layout.
    connect(mExplore, &ExplorePanel::layoutApplied, this, [this](const model::Execution &applied) {
        mDocument->editLayout("layout", [&applied](model::Execution &e) { e = applied; });
    });
}

} // namespace gapstudio
