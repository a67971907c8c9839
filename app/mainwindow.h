#pragma once

#include "results/scenarioresults.h"

#include <QMainWindow>

namespace gapstudio {

namespace views {
class AutoSaver;
class CanvasScene;
class ChartsPanel;
class ExplorePanel;
class Recalculator;
class ScenarioDocument;
} // namespace views

/// The main window: wiring only. The document owns the scenario, the recalculator the results,
/// the views their widgets; this class builds the docks and menus and connects them.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    /// Opens `scenarioPath`, or the default scenario when it is empty.
    explicit MainWindow(const QString &scenarioPath = {}, QWidget *parent = nullptr);

    [[nodiscard]] views::ScenarioDocument *document() const { return mDocument; }
    [[nodiscard]] views::Recalculator *recalculator() const { return mRecalculator; }
    /// Restores the dock layout of the last interactive session.
    void restoreWindowState();
    /// Offers to restore the autosave a crashed session left behind.
    void offerRecovery();

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createDocks();
    void createMenus();
    void showResults(const views::ResultsPtr &results);
    bool maybeSave();
    bool save();
    bool saveAs();
    void open();
    void exportChart();
    void exportReport();
    void openFile(const QString &path);
    void updateTitle();

    views::ScenarioDocument *mDocument;
    views::Recalculator *mRecalculator;
    views::AutoSaver *mAutoSaver;
    views::CanvasScene *mCanvas = nullptr;
    views::ChartsPanel *mCharts = nullptr;
    views::ExplorePanel *mExplore = nullptr;
    views::ResultsPtr mBaseline; ///< the pinned design, if any
};

} // namespace gapstudio
