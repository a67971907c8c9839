#include "mainwindow.h"

#include "charts/chartexporter.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "common/studiosettings.h"
#include "common/wheelguard.h"
#include "compare/comparemenu.h"
#include "designspace/gridpanel.h"
#include "explore/explorechart.h"
#include "explore/explorepanel.h"
#include "results/calibrationtext.h"
#include "results/pinnedscenarios.h"
#include "studio/autosaver.h"
#include "studio/blockactions.h"
#include "studio/blockinspector.h"
#include "studio/canvasscene.h"
#include "studio/docksizer.h"
#include "studio/examplemenu.h"
#include "studio/helpmenu.h"
#include "studio/recalculator.h"
#include "studio/recentfiles.h"
#include "studio/scenariodocument.h"
#include "studio/scenarioproperties.h"
#include "studio/statusline.h"
#include "studio/statussummary.h"
#include "studio/windowfit.h"
#include "validation/calibratedialog.h"
#include "validation/validationpanel.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

namespace gapstudio {

using namespace views;

namespace {
const AppSetting<QByteArray> kWindowState{"mainwindow/state", {}};
const AppSetting<QByteArray> kWindowGeometry { "mainwindow/geometry", {} };
} // namespace

MainWindow::MainWindow(const QString &scenarioPath, QWidget *parent)
    : QMainWindow(parent)
    , mDocument(new ScenarioDocument(loadStudioLibrary(), this))
    , mRecalculator(new Recalculator(mDocument, this))
    , mAutoSaver(new AutoSaver(mDocument, this))
{
    installWheelGuard(); // before any editor is polished: the wheel scrolls docks, it never edits them
    mCanvas = new CanvasScene(mDocument, this);
    mCanvasView = new CanvasView(mCanvas, this);
    setCentralWidget(mCanvasView);
    // The results' one-line summary is a widget of the status bar, not a temporary message: a menu's
    // status tips and notices cover it for a while, and it comes back.
    mStatusSummary = new StatusSummary(statusBar());
    mExporter = new ChartExporter(this);
    mExporter->setProvenance(
        [this] {
            try {
                return QString::fromStdString(scenarioToJsonText(mDocument->selfContained()));
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
    connect(mDocument, &ScenarioDocument::notice, this, [this](const QString &text) {
        statusBar()->showMessage(text, 20'000); // over the summary, which comes back after it
    });
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
    mStatusSummary->setText(statusLine(*results));
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
