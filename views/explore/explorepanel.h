#pragma once
/**
 * @file explorepanel.h
 * Design-space exploration for the current design: five charts in tabs (scaling with GPU count,
 * scale-up domain size, sensitivity tornado, design variants, TP x PP heatmap), "Search layouts…"
 * (SearchDialog) and "Run sweeps". The tornado, the variants and the domain sweep are a few dozen
 * evaluations and follow every design; the scaling curve and the heatmap need a layout search
 * per point and run on a worker thread when asked (progress and Cancel below the buttons).
 *
 * The design is evaluated once, by the scenario pipeline (the studio's results, or
 * scenario::runDesign for a bare design); every what-if uses the same evaluation options, the
 * searches keep the design's own settings (explore::searchSpaceFor), and "this design" in every
 * chart is that one evaluation. The tab bar's corner names the calibration of that evaluation
 * (calibrationtext.h), which every what-if shares.
 */

#include "results/scenarioresults.h"

#include "gapstudio/model/sweep.h"

#include <QList>
#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace gapstudio::views {

class BackgroundJob;
class CornerNote;
class DomainSweepChart;
class ExploreChart;
class HeatmapChart;
class ScalingChart;
class SearchDialog;
class TornadoChart;
class VariantsChart;

namespace explore {
struct ExploreResults;
}

class ExplorePanel final : public QWidget {
    Q_OBJECT

public:
    explicit ExplorePanel(QWidget *parent = nullptr);
    ~ExplorePanel() override;

    /// The studio's results: the design they compiled, explored with their evaluation options.
    /// Updates the tornado, the variants and the domain sweep at once; the scaling curve and the
    /// heatmap are marked out of date until the next runSweeps(). Results that did not compile
    /// leave nothing to explore.
    void setResults(const ResultsPtr &results);
    /// A bare design, evaluated with its reference semantics (explore::defaultEvaluateOptions).
    void setDesign(const model::Design &design);
    /// The same with explicit evaluation options.
    void setDesign(const model::Design &design, const model::EvaluateOptions &options);
    [[nodiscard]] const std::optional<model::Design> &design() const { return mDesign; }
    /// The design's own evaluation: "this design" in every chart.
    [[nodiscard]] ResultsPtr designResults() const { return mBase; }

    [[nodiscard]] ScalingChart *scalingChart() const { return mScaling; }
    [[nodiscard]] DomainSweepChart *domainSweepChart() const { return mDomain; }
    [[nodiscard]] TornadoChart *tornadoChart() const { return mTornado; }
    [[nodiscard]] VariantsChart *variantsChart() const { return mVariants; }
    [[nodiscard]] HeatmapChart *heatmapChart() const { return mHeatmap; }
    /// The five charts in tab order (each exports through plot()).
    [[nodiscard]] QList<ExploreChart *> charts() const;
    /// The chart of the current tab.
    [[nodiscard]] ExploreChart *currentChart() const;
    /// How many times the sensitivity, variants and domain-size sweeps were computed (each when
    /// the design changed and one of their charts was seen).
    [[nodiscard]] int fastChartUpdates() const { return mFastUpdates; }
    /// The calibration shown in the tab bar's corner (the whole text; the corner shortens it to the
    /// room the tabs leave).
    [[nodiscard]] QString calibrationNote() const;
    /// The open search dialog, if any.
    [[nodiscard]] SearchDialog *searchDialog() const { return mDialog; }
    [[nodiscard]] bool isRunning() const;

public slots:
    /// Opens (or raises) the layout search for the current design.
    void openSearchDialog();
    /// Computes the scaling curve and the heatmap on a worker thread.
    void runSweeps();
    void cancelSweeps();

signals:
    /// "Apply this layout" in the search dialog.
    void layoutApplied(const gapstudio::model::Execution &execution);
    /// runSweeps() delivered its results (also after a cancel).
    void sweepsFinished();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    /// The corner's calibration note, fitted beside the tabs.
    void setCalibrationNote(const QString &text);
    /// Shows as much of the note as the room beside the tabs allows.
    void fitCorner();
    void explore(const model::Design &design, ResultsPtr base);
    /// The charts computed without a search (sensitivity, variants, domain size).
    [[nodiscard]] QList<ExploreChart *> fastCharts() const;
    /// Computes their data if the design changed since (put off while they are not seen).
    void updateFastChartsIfStale();
    void updateFastCharts();
    /// The design's own point for the charts (x = its GPU count).
    [[nodiscard]] model::SweepPoint designPoint() const;
    void showResults(const explore::ExploreResults &results);
    void setRunning(bool running);

    std::optional<model::Design> mDesign;
    ResultsPtr mBase; ///< the design's evaluation by the pipeline
    model::EvaluateOptions mOptions;
    BackgroundJob *mJob = nullptr;
    SearchDialog *mDialog = nullptr;
    QTabWidget *mTabs = nullptr;
    ScalingChart *mScaling = nullptr;
    DomainSweepChart *mDomain = nullptr;
    TornadoChart *mTornado = nullptr;
    VariantsChart *mVariants = nullptr;
    HeatmapChart *mHeatmap = nullptr;
    QPushButton *mSearchButton = nullptr;
    QPushButton *mSweepsButton = nullptr;
    QPushButton *mCancelButton = nullptr;
    QProgressBar *mProgress = nullptr;
    QLabel *mStatus = nullptr;
    CornerNote *mCalibration = nullptr;
    bool mSweepsCurrent = false; ///< the scaling curve and heatmap belong to mDesign
    bool mFastStale = false;     ///< the fast charts' data is not computed for mDesign yet
    int mFastUpdates = 0;
};

} // namespace gapstudio::views
