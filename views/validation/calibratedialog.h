#pragma once
/**
 * @file calibratedialog.h
 * "Calibrate to my runs": the user loads measured runs of their own cluster (measurement files
 * or a CSV of layouts and measured times, runfiles.h), fits a calibration to them on a worker
 * thread (scenario::fitCalibration from the shipped calibration, with progress and Cancel),
 * compares the error per family before and after (and, with two families or more, of each
 * family predicted by a fit without it), then saves the calibration as a user preset and makes
 * the current design use it (one undoable edit).
 */

#include "gapstudio/io/measurement_json.h"
#include "gapstudio/scenario/calibrate.h"

#include <QDialog>

#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace gapstudio::views {

class BackgroundJob;
class ErrorTable;
class ScenarioDocument;

class CalibrateDialog final : public QDialog {
    Q_OBJECT

public:
    explicit CalibrateDialog(ScenarioDocument *document, QWidget *parent = nullptr);

    /// Adds the runs of `paths` (runfiles.h); on an error adds none and shows it. False on error.
    bool addRunFiles(const QStringList &paths);
    void clearRuns();
    [[nodiscard]] const std::vector<io::Measurement> &runs() const { return mRuns; }
    /// The last load error shown, empty if none.
    [[nodiscard]] QString loadError() const;

    /// The calibration's name (its preset id is derived from it when saving).
    void setCalibrationName(const QString &name);

    /// Starts fitting the runs in the background; fitFinished() when done.
    void startFit();
    /// Asks the fit to stop (it stops after the fit it is in); nothing is kept.
    void cancelFit();
    [[nodiscard]] bool isFitting() const;
    /// The last finished, uncancelled fit.
    [[nodiscard]] const std::optional<scenario::CalibrationFit> &fit() const { return mFit; }
    [[nodiscard]] ErrorTable *comparison() const { return mComparison; }
    /// One line on the state of the fit ("Fitting: 1 of 4 fits done", "Fit cancelled", ...).
    [[nodiscard]] QString statusText() const;

    /// Saves the fit as a user preset and makes the current design use it. Returns its id, or
    /// an empty string (reason in `error`).
    QString saveAndUse(QString *error = nullptr);
    /// Where the last saveAndUse() wrote the preset.
    [[nodiscard]] QString savedPath() const { return mSavedPath; }

signals:
    /// A fit ended: `ok` false when it was cancelled or failed.
    void fitFinished(bool ok);
    /// A calibration preset `id` was saved and the design now uses it.
    void calibrationSaved(const QString &id);

protected:
    void reject() override;

private:
    /// What the worker hands back.
    struct Outcome {
        std::optional<scenario::CalibrationFit> fit;
        QString error;
    };

    void addFromDialog(bool csv);
    void showRunsTable();
    void onFitDone(Outcome outcome);
    void updateButtons();
    void setStatus(const QString &text);

    ScenarioDocument *mDocument;
    BackgroundJob *mJob;
    std::vector<io::Measurement> mRuns;
    std::optional<scenario::CalibrationFit> mFit;
    QString mSavedPath;
    bool mClosing = false;

    QTableWidget *mRunsTable;
    QLabel *mLoadError;
    QLineEdit *mName;
    QPushButton *mFitButton;
    QPushButton *mCancelButton;
    QPushButton *mSaveButton;
    QProgressBar *mProgress;
    QLabel *mStatus;
    ErrorTable *mComparison;
};

} // namespace gapstudio::views
