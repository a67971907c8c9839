#include "mainwindow.h"

#include "charts/chartexporter.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "designspace/bestlayoutpanel.h"
#include "designspace/gridheatmapchart.h"
#include "designspace/gridpanel.h"
#include "compare/comparemenu.h"
#include "compare/pinnedscenarios.h"
#include "explore/explorechart.h"
#include "explore/explorepanel.h"
#include "results/calibrationtext.h"
#include "results/resultstable.h"
#include "studio/autosaver.h"
#include "studio/blockactions.h"
#include "studio/blockinspector.h"
#include "studio/blockpalette.h"
#include "studio/canvasscene.h"
#include "studio/diagnosticslist.h"
#include "studio/docksizer.h"
#include "studio/examplemenu.h"
#include "studio/helpmenu.h"
#include "studio/layoutpanel.h"
#include "studio/llmpanel.h"
#include "studio/parameterpanel.h"
#include "studio/recalculator.h"
#include "studio/recentfiles.h"
#include "studio/scenariodocument.h"
#include "studio/scenarioproperties.h"
#include "studio/statusline.h"
#include "studio/studiosettings.h"
#include "studio/windowfit.h"
#include "validation/calibratedialog.h"
#include "validation/validationpanel.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

namespace gapstudio {

using namespace views;

namespace {
const AppSetting<QByteArray> kWindowState{"mainwindow/state", {}};
const AppSetting<QByteArray> kWindowGeometry { "mainwindow/geometry", {} };

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

MainWindow::MainWindow(const QString &scenarioPath, QWidget *parent)
    : QMainWindow(parent)
    , mDocument(new ScenarioDocument(loadStudioLibrary(), this))
    , mRecalculator(new Recalculator(mDocument, this))
    , mAutoSaver(new AutoSaver(mDocument, this))
{
    mCanvas = new CanvasScene(mDocument, this);
    mCanvasView = new CanvasView(mCanvas, this);
    setCentralWidget(mCanvasView);
    mExporter = new ChartExporter(this);
    mExporter->setProvenance(
        [this] {
            try {
                return QString::fromStdString(scenarioToJsonText(mDocument->scenario()));
            } catch (const std::exception &) { // a design the file format cannot express: no provenance
                return QString();
            }
        },
        [this] { return mDocument->displayName(); });
    mExporter->inputs = [this] { return QStringList { mDocument->fileName() }; };
    mExporter->calibration = [this] {
        const ResultsPtr results = mRecalculator->latest();
        return results ? calibrationText(*results) : QString();
    };
    createDocks();
    createMenus();
    connect(mRecalculator, &Recalculator::resultsReady, this, &MainWindow::showResults);
    connect(mDocument, &ScenarioDocument::fileNameChanged, this, &MainWindow::updateTitle);
    connect(mDocument, &ScenarioDocument::changed, this, &MainWindow::updateTitle); // the name may follow
    connect(mDocument->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);

    mDocument->resetToExample(studioDefaultScenario());
    QString error; // a scenario file, or the scenario embedded in an export
    if (!scenarioPath.isEmpty() && !load(scenarioPath, &error))
        statusBar()->showMessage(tr("Could not open %1").arg(error));
    mRecalculator->recalculateNow();
    updateTitle();
    resize(fittingWindowSize(screen() ? screen()->availableGeometry() : QRect()));
    setAcceptDrops(true); // drop a scenario or an exported chart/report to open it
}

MainWindow::~MainWindow()
{
    // The document (a child) is deleted after this destructor, and its undo stack then signals
    // "clean changed": it must no longer reach this window's slots.
    disconnect(mDocument->undoStack(), nullptr, this, nullptr);
    disconnect(mDocument, nullptr, this, nullptr);
}

void MainWindow::restoreWindowState()
{
    restoreGeometry(kWindowGeometry.get());
    if (restoreState(kWindowState.get()))
        DockSizer::cancel(this); // the user's own dock sizes
}

void MainWindow::showFirstRunHint()
{
    mHelp->showFirstRunHintOnce();
}

void MainWindow::createDocks()
{
    auto *palette = new BlockPalette(mDocument->library(), this);
    auto *inspector = mInspector = new BlockInspector(this);
    inspector->setDocument(mDocument); // the block's own values are editable in place
    auto *llm = new LlmPanel(mDocument, this);
    auto *layout = new LayoutPanel(mDocument, this);
    auto *parameters = new ParameterPanel(mDocument, this);
    auto *diagnostics = new DiagnosticsList(this);
    auto *keyResults = new ResultsTable(this);
    mCharts = new ChartsPanel(this);

    QDockWidget *paletteDock = dock(this, tr("Blocks"), QStringLiteral("paletteDock"), palette, Qt::LeftDockWidgetArea);
    QDockWidget *inspectorDock = dock(this, tr("Block parameters"), QStringLiteral("inspectorDock"), inspector,
                                      Qt::LeftDockWidgetArea);
    QDockWidget *parametersDock = dock(this, tr("Parameters"), QStringLiteral("parametersDock"), scrolled(parameters),
                                       Qt::RightDockWidgetArea);
    QDockWidget *layoutDock = dock(this, tr("Layout"), QStringLiteral("layoutDock"), scrolled(layout), Qt::RightDockWidgetArea);
    QDockWidget *llmDock
        = dock(this, tr("LLM"), QStringLiteral("llmDock"), scrolled(llm), Qt::RightDockWidgetArea);
    tabifyDockWidget(layoutDock, llmDock);
    auto *bestLayout = new BestLayoutPanel(mDocument, this); // "judge at best layout"
    tabifyDockWidget(llmDock, dock(this, tr("Best layout"), QStringLiteral("bestLayoutDock"),
                                   scrolled(bestLayout), Qt::RightDockWidgetArea));
    layoutDock->raise();
    QDockWidget *chartsDock = dock(this, tr("Charts"), QStringLiteral("chartsDock"), mCharts, Qt::BottomDockWidgetArea);

    QDockWidget *diagnosticsDock = dock(this, tr("Diagnostics"), QStringLiteral("diagnosticsDock"), diagnostics,
                                        Qt::BottomDockWidgetArea);
    QDockWidget *resultsDock = dock(this, tr("Key results"), QStringLiteral("resultsDock"), keyResults,
                                    Qt::BottomDockWidgetArea);
    splitDockWidget(chartsDock, diagnosticsDock, Qt::Horizontal);
    tabifyDockWidget(diagnosticsDock, resultsDock);
    diagnosticsDock->raise();
    mExplore = new ExplorePanel(this);
    QDockWidget *exploreDock = dock(this, tr("Explore"), QStringLiteral("exploreDock"), mExplore, Qt::BottomDockWidgetArea);
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

    connect(palette, &BlockPalette::blockActivated, this,
            [this](BlockKind kind, const QString &id) { mDocument->applyPreset(kind, id.toStdString()); });
    connect(mDocument, &ScenarioDocument::libraryChanged, palette,
            [this, palette] { palette->setLibrary(mDocument->library()); });
    mExporter->addCharts(mCharts->charts());
    mExporter->addCharts(mExplore->charts());
    connect(mCanvas, &CanvasScene::partSelected, inspector, &BlockInspector::setPart);
    connect(mRecalculator, &Recalculator::resultsReady, this,
            [=, this](const ResultsPtr &results) {
                mCanvas->setResults(results);
                inspector->setResults(results);
                llm->setResults(results);
                layout->setResults(results);
                parameters->setResults(results);
                diagnostics->setResults(results);
                mCharts->setResults(results);
                keyResults->showResults(*results);
                mExplore->setResults(results);
                bestLayout->setResults(results);
            });
    bestLayout->showIn(mCharts, keyResults);
    // Pinned designs side by side: Key results columns; the charts compare with the first.
    mPinned = new PinnedScenarios(this);
    connect(mPinned, &PinnedScenarios::changed, this, [=, this] {
        keyResults->setPinned(mPinned->pins());
        mCharts->setBaseline(mPinned->count() > 0 ? mPinned->pins().front().results : nullptr);
    });
    // "Apply this layout" from a search: one undoable edit of the layout.
    connect(mExplore, &ExplorePanel::layoutApplied, this, [this](const model::Execution &applied) {
        mDocument->editLayout("layout", [&applied](model::Execution &e) { e = applied; });
    });
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (maybeSave())
            mDocument->resetToExample(studioDefaultScenario());
    });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::open);
    auto *examples = new ExampleMenu(&mDocument->library(), file);
    connect(examples, &ExampleMenu::exampleChosen, this, &MainWindow::openExample);
    file->addMenu(examples);
    mRecent = new RecentFiles(file);
    connect(mRecent, &RecentFiles::fileChosen, this, [this](const QString &path) {
        if (maybeSave())
            openFile(path);
    });
    file->addMenu(mRecent);
    QAction *save = file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    createCostAndRoadmap(findChild<QDockWidget *>(QStringLiteral("chartsDock")), file, save);
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &MainWindow::saveAs);
    file->addSeparator();
    file->addAction(tr("&Import model (Hugging Face config.json)…"), this,
                    [this] { importModelInteractive(this, mDocument); });
    file->addAction(tr("&Export chart…"), QKeySequence(tr("Ctrl+E")), mExporter,
                    &ChartExporter::exportCurrent);
    file->addAction(tr("Export &report…"), QKeySequence(tr("Ctrl+Shift+E")), this, &MainWindow::exportReport);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = mDocument->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = mDocument->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addActions({undo, redo});
    edit->addSeparator();
    edit->addAction(tr("Scenario &properties…"), QKeySequence(tr("Ctrl+I")), this,
                    [this] { ScenarioPropertiesDialog(mDocument, this).exec(); });
    edit->addAction(tr("New &GPU…"), this,
                    [this] { newBlockInteractive(this, mDocument, NewBlockDialog::Kind::Gpu); });
    edit->addAction(tr("New &interconnect…"), this,
                    [this] { newBlockInteractive(this, mDocument, NewBlockDialog::Kind::Interconnect); });
    edit->addAction(tr("&Save selected block as preset…"), QKeySequence(tr("Ctrl+Shift+S")), this,
                    [this] { saveBlockAsPresetInteractive(this, mDocument, mInspector->slot()); });

    menuBar()->addMenu(new CompareMenu(
        mPinned, [this] { return mRecalculator->latest(); }, [this] { return mDocument->displayName(); },
        this));

    QMenu *explore = menuBar()->addMenu(tr("E&xplore"));
    explore->addAction(tr("&Search layouts…"), QKeySequence(tr("Ctrl+L")), mExplore, &ExplorePanel::openSearchDialog);
    explore->addAction(tr("&Run sweeps"), QKeySequence(tr("Ctrl+R")), mExplore, &ExplorePanel::runSweeps);
    if (auto *grid = findChild<GridPanel *>())
        explore->addAction(tr("Open &grid results…"), grid, &GridPanel::openInteractive);
    if (auto *validation = findChild<ValidationPanel *>())
        explore->addAction(tr("&Calibrate to my runs…"), validation,
                           [validation] { validation->calibrateDialog()->open(); });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, mCanvasView, &CanvasView::zoomIn);
    view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, mCanvasView, &CanvasView::zoomOut);
    view->addAction(tr("&Fit the canvas"), QKeySequence(tr("Ctrl+0")), mCanvasView, &CanvasView::fitToView);
    view->addSeparator();
    for (QDockWidget *d : findChildren<QDockWidget *>())
        view->addAction(d->toggleViewAction());

    mHelp = new HelpMenu(this, [this] { return mRecalculator->latest(); });
    menuBar()->addMenu(mHelp);
}

void MainWindow::showResults(const ResultsPtr &results)
{
    statusBar()->showMessage(statusLine(*results));
}

void MainWindow::updateTitle()
{
    const QString file
        = mDocument->fileName().isEmpty() ? tr("not saved") : QFileInfo(mDocument->fileName()).fileName();
    setWindowTitle(tr("%1 (%2)[*] — GapStudio").arg(mDocument->displayName(), file));
    setWindowModified(mDocument->isModified());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave())
        return event->ignore();
    mAutoSaver->discard();
    kWindowState.set(saveState());
    kWindowGeometry.set(saveGeometry());
    event->accept();
}

} // namespace gapstudio
