#pragma once

#include "results/scenarioresults.h"

#include <QMainWindow>

class QAction;
class QDockWidget;
class QMenu;

namespace gapstudio {

namespace views {
class AutoSaver;
class BlockInspector;
class CanvasScene;
class CanvasView;
class ChartExporter;
class ChartsPanel;
class ExplorePanel;
class HelpMenu;
class PinnedScenarios;
class Recalculator;
class RecentFiles;
class RoadmapPanel;
class ScenarioDocument;
class StatusSummary;
} // namespace views

/// The main window: wiring only. The document owns the scenario, the recalculator the results,
/// the views their widgets; this class builds the docks and menus and connects them.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    /// Opens `scenarioPath`, or the default scenario when it is empty.
    explicit MainWindow(const QString &scenarioPath = {}, QWidget *parent = nullptr);
    ~MainWindow() override;

    [[nodiscard]] views::ScenarioDocument *document() const { return mDocument; }
    [[nodiscard]] views::Recalculator *recalculator() const { return mRecalculator; }
    [[nodiscard]] views::ChartExporter *chartExporter() const { return mExporter; }
    [[nodiscard]] views::CanvasView *canvasView() const { return mCanvasView; }
    /// Restores the size, position and dock layout of the last interactive session.
    void restoreWindowState();
    /// Offers to restore the autosave a crashed session left behind.
    void offerRecovery();
    /// Shows Getting started at the very first start.
    void showFirstRunHint();
    /// Opens a scenario file, or the scenario embedded in an exported chart or report.
    void openFile(const QString &path);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    /// The docks' panels that show the results (mainwindowdocks.cpp).
    struct Panels;
    /// The docks and their panels, placed and connected: mainwindowdocks.cpp.
    void createDocks();
    void placeDocks(Panels &panels);
    void connectPanels(const Panels &panels);
    void createMenus();
    /// The Cost and power dock and the Roadmap dock (tabbed with `tabbedWith`) and the roadmap entries of
    /// the File menu (before `before`): mainwindowcost.cpp.
    void createCostAndRoadmap(QDockWidget *tabbedWith, QMenu *file, QAction *before);
    void showResults(const views::ResultsPtr &results);
    bool maybeSave();
    bool save();
    bool saveAs();
    void open();
    /// Opens `path` (see openFile) without dialogs; false with the reason in `error`.
    bool load(const QString &path, QString *error);
    void exportReport();
    void openExample(const QString &relativePath);
    void updateTitle();

    views::ScenarioDocument *mDocument;
    views::Recalculator *mRecalculator;
    views::AutoSaver *mAutoSaver;
    views::CanvasScene *mCanvas = nullptr;
    views::CanvasView *mCanvasView = nullptr;
    views::BlockInspector *mInspector = nullptr;
    views::ChartExporter *mExporter = nullptr;
    views::RecentFiles *mRecent = nullptr;
    views::HelpMenu *mHelp = nullptr;
    /// The results in one line (statusLine), in the status bar.
    views::StatusSummary *mStatusSummary = nullptr;
    views::ChartsPanel *mCharts = nullptr;
    views::ExplorePanel *mExplore = nullptr;
    views::RoadmapPanel *mRoadmap = nullptr; ///< the open roadmap, if any (the report's roadmap section)
    views::PinnedScenarios *mPinned = nullptr; ///< the designs pinned for comparison
};

} // namespace gapstudio
