#pragma once
/**
 * @file validationpanel.h
 * The Validation view: how well the model predicts measured training runs. The published runs
 * that come with the presets (or the user's own, after "Calibrate to my runs") are evaluated
 * with a chosen calibration (scenario::validateMeasurements) and shown as predicted against
 * measured iteration time (ValidationChart), the error per family (ErrorTable, the numbers of
 * scenario::summarize), the error per GPU generation (GenerationTable), the calibration's fitted
 * parameters beyond their documented range (ParameterRangeTable) and the runs without a clean
 * prediction with their cause (RunProblemsTable). Clicking a point opens that run as the current design,
 * under the same rules as opening a file (the open guard asks to save unsaved work first).
 */

#include "gapstudio/io/measurement_json.h"
#include "gapstudio/scenario/validation.h"

#include <QStringList>
#include <QWidget>

#include <functional>
#include <map>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;

namespace gapstudio::views {

class CalibrateDialog;
class ErrorTable;
class GenerationTable;
class ParameterRangeTable;
class RunProblemsTable;
class ScenarioDocument;
class ValidationChart;

class ValidationPanel final : public QWidget {
    Q_OBJECT

public:
    /// Which runs are shown.
    enum class Runs { Published, Mine };

    explicit ValidationPanel(ScenarioDocument *document, QWidget *parent = nullptr);

    /// Called before a run replaces the document; false keeps the document (the main window's
    /// "save unsaved changes?"). Without a guard, runs open directly.
    void setOpenGuard(std::function<bool()> guard) { mOpenGuard = std::move(guard); }

    /// Evaluates the chosen runs with the chosen calibration and shows them (done on first show
    /// and whenever a choice or the session's calibrations change).
    void refresh();
    /// Shows `runs`; the user's own runs are kept for "My runs".
    void showRuns(Runs runs);
    void setMyRuns(std::vector<io::Measurement> runs);
    /// Evaluates with calibration preset `id` of the session's library ("" = each run's own).
    /// False if there is no such preset.
    bool selectCalibration(const QString &id);

    /// Opens run `index` of the rows shown as the current design (through the open guard);
    /// with a calibration chosen here, the design names it. False if the guard refused.
    bool openRun(int index);
    /// The "Calibrate to my runs" dialog (created on first use).
    [[nodiscard]] CalibrateDialog *calibrateDialog();

    [[nodiscard]] ValidationChart *chart() const { return mChart; }
    [[nodiscard]] ErrorTable *errorTable() const { return mErrors; }
    [[nodiscard]] GenerationTable *generationTable() const { return mGenerations; }
    [[nodiscard]] ParameterRangeTable *parameterRangeTable() const { return mParameterRanges; }
    [[nodiscard]] RunProblemsTable *problemsTable() const { return mProblems; }
    [[nodiscard]] const std::vector<scenario::ValidationRow> &rows() const;
    /// The measurements behind rows(), in the same order.
    [[nodiscard]] const std::vector<io::Measurement> &measurements() const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    void updateCalibrationChoices();
    void onCalibrationSaved(const QString &id);

    ScenarioDocument *mDocument;
    std::function<bool()> mOpenGuard;
    QComboBox *mRunsChoice;
    QComboBox *mCalibrationChoice;
    QPushButton *mCalibrateButton;
    QLabel *mSummary;
    ValidationChart *mChart;
    ErrorTable *mErrors;
    GenerationTable *mGenerations;
    ParameterRangeTable *mParameterRanges;
    RunProblemsTable *mProblems;
    CalibrateDialog *mDialog = nullptr;

    std::vector<io::Measurement> mPublished, mMine;
    std::vector<io::Measurement> mShown; ///< the runs behind the rows shown
    QStringList mLoadWarnings;           ///< preset folders whose runs could not be read
    bool mPublishedLoaded = false;
    bool mStale = true; ///< the rows shown do not reflect the current choices
    std::map<std::string, scenario::CalibrationSet> mKnownCalibrations; ///< when last evaluated
};

} // namespace gapstudio::views
