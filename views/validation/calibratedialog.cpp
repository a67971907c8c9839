#include "validation/calibratedialog.h"

#include "charts/chartformat.h"
#include "explore/backgroundjob.h"
#include "studio/scenariodocument.h"
#include "validation/errortable.h"
#include "validation/runfiles.h"
#include "validation/usercalibration.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <set>

namespace gapstudio::views {

namespace {

QPushButton *button(const QString &text, const char *name, QWidget *parent)
{
    auto *b = new QPushButton(text, parent);
    b->setObjectName(QString::fromLatin1(name));
    return b;
}

std::size_t familyCount(const std::vector<io::Measurement> &runs)
{
    std::set<std::string> families;
    for (const io::Measurement &m : runs)
        families.insert(m.family);
    return families.size();
}

} // namespace

CalibrateDialog::CalibrateDialog(ScenarioDocument *document, QWidget *parent)
    : QDialog(parent)
    , mDocument(document)
    , mJob(new BackgroundJob(this))
    , mRunsTable(new QTableWidget(0, 4, this))
    , mLoadError(new QLabel(this))
    , mName(new QLineEdit(tr("My cluster"), this))
    , mFitButton(button(tr("Fit"), "fitButton", this))
    , mCancelButton(button(tr("Cancel fit"), "cancelFitButton", this))
    , mSaveButton(button(tr("Save and use for this design"), "saveCalibrationButton", this))
    , mProgress(new QProgressBar(this))
    , mStatus(new QLabel(this))
    , mComparison(new ErrorTable(this))
{
    setObjectName(QStringLiteral("calibrateDialog"));
    setWindowTitle(tr("Calibrate to my runs"));
    resize(820, 640);
    auto *intro = new QLabel(
        tr("Load the measured iteration times of your own training runs: GapStudio measurement files, or a "
           "CSV "
           "table with one run per line (columns scenario, measured_iteration_time_s and the layout it ran "
           "with: "
           "gpu_count, tensor_par, pipeline_par, data_par, microbatch_size, batch_size; scenario is "
           "\"current\" for this design or a scenario file). The fit starts from the shipped calibration."),
        this);
    intro->setWordWrap(true);
    mRunsTable->setObjectName(QStringLiteral("myRunsTable"));
    mRunsTable->setHorizontalHeaderLabels({ tr("Run"), tr("Family"), tr("Measured"), tr("From") });
    mRunsTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mRunsTable->verticalHeader()->hide();
    mRunsTable->horizontalHeader()->setStretchLastSection(true);
    mRunsTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    mLoadError->setObjectName(QStringLiteral("loadError"));
    mLoadError->setWordWrap(true);
    mLoadError->setStyleSheet(QStringLiteral("color: #b00020"));
    mLoadError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mName->setObjectName(QStringLiteral("calibrationName"));
    mStatus->setObjectName(QStringLiteral("fitStatus"));
    mStatus->setWordWrap(true);
    mProgress->setRange(0, 1);
    mProgress->setValue(0);

    QPushButton *addFiles = button(tr("Add measurement files…"), "addMeasurementsButton", this);
    QPushButton *addCsv = button(tr("Add a CSV of runs…"), "addCsvButton", this);
    QPushButton *clear = button(tr("Remove all"), "clearRunsButton", this);
    auto *loadRow = new QHBoxLayout;
    loadRow->addWidget(addFiles);
    loadRow->addWidget(addCsv);
    loadRow->addWidget(clear);
    loadRow->addStretch();
    auto *fitRow = new QHBoxLayout;
    fitRow->addWidget(mFitButton);
    fitRow->addWidget(mCancelButton);
    fitRow->addWidget(mProgress, 1);
    auto *form = new QFormLayout;
    form->addRow(tr("Calibration name:"), mName);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(mSaveButton, QDialogButtonBox::ActionRole);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(loadRow);
    layout->addWidget(mRunsTable, 1);
    layout->addWidget(mLoadError);
    layout->addLayout(form);
    layout->addLayout(fitRow);
    layout->addWidget(mStatus);
    layout->addWidget(new QLabel(tr("Error per family, before and after the fit:"), this));
    layout->addWidget(mComparison, 1);
    layout->addWidget(buttons);

    connect(addFiles, &QPushButton::clicked, this, [this] { addFromDialog(false); });
    connect(addCsv, &QPushButton::clicked, this, [this] { addFromDialog(true); });
    connect(clear, &QPushButton::clicked, this, &CalibrateDialog::clearRuns);
    connect(mFitButton, &QPushButton::clicked, this, &CalibrateDialog::startFit);
    connect(mCancelButton, &QPushButton::clicked, this, &CalibrateDialog::cancelFit);
    connect(mSaveButton, &QPushButton::clicked, this, [this] { saveAndUse(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &CalibrateDialog::reject);
    setStatus(tr("Load your runs, then fit."));
    updateButtons();
}

QString CalibrateDialog::loadError() const
{
    return mLoadError->text();
}

QString CalibrateDialog::statusText() const
{
    return mStatus->text();
}

void CalibrateDialog::setStatus(const QString &text)
{
    mStatus->setText(text);
}

void CalibrateDialog::setCalibrationName(const QString &name)
{
    mName->setText(name);
}

void CalibrateDialog::addFromDialog(bool csv)
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, csv ? tr("Add a CSV of runs") : tr("Add measurement files"), QString(),
        csv ? tr("CSV of runs (*.csv)") : tr("Measured runs (*.json)"));
    if (!paths.isEmpty())
        addRunFiles(paths);
}

bool CalibrateDialog::addRunFiles(const QStringList &paths)
{
    LoadedRuns loaded = loadRunFiles(paths, mDocument->scenario(), mRuns);
    mLoadError->setText(loaded.error);
    if (!loaded.error.isEmpty())
        return false;
    for (io::Measurement &m : loaded.runs)
        mRuns.push_back(std::move(m));
    mFit.reset();
    mComparison->showSets({});
    showRunsTable();
    setStatus(tr("%n run(s) loaded.", nullptr, static_cast<int>(mRuns.size())));
    updateButtons();
    return true;
}

void CalibrateDialog::clearRuns()
{
    mRuns.clear();
    mFit.reset();
    mLoadError->clear();
    mComparison->showSets({});
    showRunsTable();
    setStatus(tr("Load your runs, then fit."));
    updateButtons();
}

void CalibrateDialog::showRunsTable()
{
    mRunsTable->setRowCount(static_cast<int>(mRuns.size()));
    for (int row = 0; row < mRunsTable->rowCount(); ++row) {
        const io::Measurement &m = mRuns[static_cast<std::size_t>(row)];
        auto *from = new QTableWidgetItem(QFileInfo(QString::fromStdString(m.file)).fileName());
        from->setToolTip(QString::fromStdString(m.source));
        mRunsTable->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(m.id)));
        mRunsTable->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(m.family)));
        mRunsTable->setItem(row, 2,
                            new QTableWidgetItem(QStringLiteral("%1 s").arg(m.measuredIterationTime_s)));
        mRunsTable->setItem(row, 3, from);
    }
}

bool CalibrateDialog::isFitting() const
{
    return mJob->isRunning();
}

void CalibrateDialog::startFit()
{
    if (mRuns.empty() || isFitting())
        return;
    mFit.reset();
    mComparison->showSets({});
    const scenario::PresetLibrary library = mDocument->library();
    std::optional<scenario::CalibrationSet> start;
    if (const auto it = library.calibrations.find(scenario::kDefaultCalibrationId);
        it != library.calibrations.end())
        start = it->second;
    const bool leaveOneFamilyOut = familyCount(mRuns) >= 2;
    const std::string name = mName->text().toStdString();
    mProgress->setRange(0, 0); // busy until the first fit is done
    setStatus(tr("Fitting to %n run(s)…", nullptr, static_cast<int>(mRuns.size())));
    BackgroundJob *job = mJob;
    mJob->start<Outcome>(
        [this, job, library, start, runs = mRuns, leaveOneFamilyOut, name](const std::atomic<bool> &cancel) {
            scenario::CalibrationFitOptions options;
            options.name = name;
            options.start = start ? &*start : nullptr;
            options.leaveOneFamilyOut = leaveOneFamilyOut;
            options.cancelled = [&cancel] { return cancel.load(); };
            options.progress = [this, job](int done, int total) {
                job->post([this, done, total] {
                    mProgress->setRange(0, total);
                    mProgress->setValue(done);
                    setStatus(tr("Fitting: %1 of %2 fits done…").arg(done).arg(total));
                });
            };
            Outcome outcome;
            try {
                outcome.fit = scenario::fitCalibration(runs, library, options);
            } catch (const std::exception &error) { // no run could be evaluated
                outcome.error = QString::fromUtf8(error.what());
            }
            return outcome;
        },
        [this](Outcome outcome) { onFitDone(std::move(outcome)); });
    updateButtons();
}

void CalibrateDialog::cancelFit()
{
    if (!isFitting())
        return;
    mJob->requestCancel();
    setStatus(tr("Cancelling: the fit stops at the end of the fit it is in…"));
    mCancelButton->setEnabled(false);
}

void CalibrateDialog::onFitDone(Outcome outcome)
{
    mProgress->setRange(0, 1);
    mProgress->setValue(outcome.fit && !outcome.fit->cancelled ? 1 : 0);
    const bool ok = outcome.error.isEmpty() && !outcome.fit->cancelled;
    if (!outcome.error.isEmpty()) {
        setStatus(tr("The fit failed: %1").arg(outcome.error));
    } else if (outcome.fit->cancelled) {
        setStatus(tr("Fit cancelled: nothing was kept."));
    } else {
        mFit = std::move(outcome.fit);
        QList<ErrorTable::Set> sets { { tr("Before"), scenario::summarize(mFit->before) },
                                      { tr("After"), scenario::summarize(mFit->after) } };
        QString text = tr("Fitted to %1 runs: mean |error| %2 before, %3 after")
                           .arg(mFit->afterStats.rows)
                           .arg(chartformat::percent(mFit->beforeStats.meanAbsError),
                                chartformat::percent(mFit->afterStats.meanAbsError));
        if (!mFit->leftOut.empty()) {
            sets.append({ tr("Family left out"), scenario::summarize(mFit->leftOut) });
            text += tr("; %1 for each family predicted by a fit without it")
                        .arg(chartformat::percent(mFit->leftOutStats.meanAbsError));
        }
        // A parameter at or beyond an end of its documented range stands for a mechanism the
        // model lacks: the runs want a value no measured kernel or link gives.
        QStringList atBound;
        for (const scenario::FittedParameter &p : mFit->calibration.fit->parameters)
            if (p.atBound)
                atBound << tr("%1 = %2 (range %3 to %4)")
                               .arg(QString::fromStdString(p.name))
                               .arg(p.value, 0, 'g', 3)
                               .arg(p.low, 0, 'g', 3)
                               .arg(p.high, 0, 'g', 3);
        if (!atBound.isEmpty())
            text += tr(". At or beyond an end of their documented range, where the model lacks a "
                       "mechanism: %1")
                        .arg(atBound.join(QStringLiteral(", ")));
        mComparison->showSets(sets);
        setStatus(text + QLatin1Char('.'));
    }
    updateButtons();
    emit fitFinished(ok);
    if (mClosing) {
        mClosing = false;
        QDialog::reject();
    }
}

QString CalibrateDialog::saveAndUse(QString *error)
{
    const auto fail = [&](const QString &message) {
        setStatus(message);
        if (error)
            *error = message;
        return QString();
    };
    if (!mFit || isFitting())
        return fail(tr("Fit the calibration first."));
    const QString directory = userCalibrationsDirectory();
    scenario::CalibrationSet calibration = mFit->calibration;
    const QString name = mName->text().trimmed().isEmpty() ? tr("My calibration") : mName->text().trimmed();
    const QString id = newCalibrationId(name, mDocument->library(), directory);
    QStringList files;
    for (const io::Measurement &m : mRuns)
        if (const QString file = QFileInfo(QString::fromStdString(m.file)).fileName(); !files.contains(file))
            files << file;
    calibration.info.id = id.toStdString();
    calibration.info.name = name.toStdString();
    calibration.info.source
        = tr("Fitted in GapStudio to %1 measured runs (%2), starting from the shipped calibration")
              .arg(mRuns.size())
              .arg(files.join(QStringLiteral(", ")))
              .toStdString();
    QString why;
    const QString path = saveUserCalibration(calibration, directory, &why);
    if (path.isEmpty())
        return fail(tr("Could not save the calibration: %1").arg(why));
    mSavedPath = path;
    mDocument->addCalibration(calibration);
    mDocument->setCalibration(id.toStdString());
    setStatus(
        tr("Saved as the preset \"%1\" (%2); the design now uses it (Edit > Undo goes back).").arg(id, path));
    emit calibrationSaved(id);
    return id;
}

void CalibrateDialog::updateButtons()
{
    const bool fitting = isFitting();
    mFitButton->setEnabled(!fitting && !mRuns.empty());
    mCancelButton->setEnabled(fitting);
    mSaveButton->setEnabled(!fitting && mFit.has_value());
    for (const char *name : { "addMeasurementsButton", "addCsvButton", "clearRunsButton" })
        findChild<QPushButton *>(QString::fromLatin1(name))->setEnabled(!fitting);
    mName->setEnabled(!fitting);
}

void CalibrateDialog::reject()
{
    // Closing while fitting cancels the fit; the dialog closes when the worker has stopped.
    if (isFitting()) {
        mClosing = true;
        cancelFit();
        hide();
        return;
    }
    QDialog::reject();
}

} // namespace gapstudio::views
