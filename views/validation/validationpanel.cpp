#include "validation/validationpanel.h"

#include "charts/chartformat.h"
#include "studio/scenariodocument.h"
#include "validation/calibratedialog.h"
#include "validation/errortable.h"
#include "validation/generationtable.h"
#include "validation/parameterrangetable.h"
#include "validation/runproblemstable.h"
#include "validation/validationchart.h"

#include "gapstudio/io/shipped_measurements.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace gapstudio::views {

namespace {

QLabel *caption(const QString &text)
{
    auto *label = new QLabel(text);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    return label;
}

} // namespace

ValidationPanel::ValidationPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mRunsChoice(new QComboBox(this))
    , mCalibrationChoice(new QComboBox(this))
    , mCalibrateButton(new QPushButton(tr("Calibrate to my runs…"), this))
    , mSummary(new QLabel(this))
    , mChart(new ValidationChart(this))
    , mErrors(new ErrorTable(this))
    , mGenerations(new GenerationTable(this))
    , mParameterRanges(new ParameterRangeTable(this))
    , mProblems(new RunProblemsTable(this))
{
    setObjectName(QStringLiteral("validationPanel"));
    mRunsChoice->setObjectName(QStringLiteral("validationRuns"));
    mCalibrationChoice->setObjectName(QStringLiteral("validationCalibration"));
    mCalibrateButton->setObjectName(QStringLiteral("calibrateButton"));
    mRunsChoice->addItem(tr("Published runs"), static_cast<int>(Runs::Published));
    mRunsChoice->addItem(tr("My runs"), static_cast<int>(Runs::Mine));
    mRunsChoice->setToolTip(
        tr("Published: the measured training runs that come with GapStudio. Mine: the runs "
           "loaded in \"Calibrate to my runs\"."));
    mCalibrationChoice->setToolTip(tr("The calibration the model runs with: each run's own (the shipped one, "
                                      "unless the run names another), or one preset for all runs."));
    mSummary->setWordWrap(true);
    mSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    updateCalibrationChoices();

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Runs:"), this));
    controls->addWidget(mRunsChoice);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Calibration:"), this));
    controls->addWidget(mCalibrationChoice, 1);
    controls->addStretch();
    controls->addWidget(mCalibrateButton);

    auto *side = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(caption(tr("Error per family")));
    sideLayout->addWidget(mErrors, 1);
    sideLayout->addWidget(caption(tr("Error per GPU generation")));
    sideLayout->addWidget(mGenerations, 1);
    sideLayout->addWidget(caption(tr("Fitted parameters at or beyond an end of their range")));
    sideLayout->addWidget(mParameterRanges, 1);
    sideLayout->addWidget(caption(tr("Runs without a clean prediction")));
    sideLayout->addWidget(mProblems, 1);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(mChart);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(mSummary);
    layout->addWidget(splitter, 1);

    const auto choiceChanged = [this] {
        mStale = true;
        refresh();
    };
    connect(mRunsChoice, &QComboBox::currentIndexChanged, this, choiceChanged);
    connect(mCalibrationChoice, &QComboBox::currentIndexChanged, this, choiceChanged);
    connect(mCalibrateButton, &QPushButton::clicked, this, [this] { calibrateDialog()->open(); });
    connect(mChart, &ValidationChart::runClicked, this, &ValidationPanel::openRun);
    connect(mProblems, &QTableWidget::cellDoubleClicked, this, [this](int row) {
        openRun(mProblems->item(row, 0)->data(RunProblemsTable::kIndexRole).toInt());
    });
    // A calibration saved or replaced in this session changes what the runs predict.
    connect(mDocument, &ScenarioDocument::changed, this, [this] {
        if (mDocument->library().calibrations == mKnownCalibrations)
            return;
        updateCalibrationChoices();
        mStale = true;
        if (isVisible())
            refresh();
    });
}

const std::vector<scenario::ValidationRow> &ValidationPanel::rows() const
{
    return mChart->rows();
}

const std::vector<io::Measurement> &ValidationPanel::measurements() const
{
    return mShown;
}

void ValidationPanel::updateCalibrationChoices()
{
    const QString current = mCalibrationChoice->currentData().toString();
    const QSignalBlocker block(mCalibrationChoice);
    mCalibrationChoice->clear();
    mCalibrationChoice->addItem(tr("Each run's own (by default the shipped calibration)"), QString());
    for (const auto &[id, set] : mDocument->library().calibrations)
        mCalibrationChoice->addItem(
            QStringLiteral("%1 (%2)").arg(QString::fromStdString(set.info.name), QString::fromStdString(id)),
            QString::fromStdString(id));
    mCalibrationChoice->setCurrentIndex(std::max(0, mCalibrationChoice->findData(current)));
    mKnownCalibrations = mDocument->library().calibrations;
}

bool ValidationPanel::selectCalibration(const QString &id)
{
    const int index = mCalibrationChoice->findData(id);
    if (index < 0)
        return false;
    mCalibrationChoice->setCurrentIndex(index);
    return true;
}

void ValidationPanel::showRuns(Runs runs)
{
    mRunsChoice->setCurrentIndex(mRunsChoice->findData(static_cast<int>(runs)));
}

void ValidationPanel::setMyRuns(std::vector<io::Measurement> runs)
{
    mMine = std::move(runs);
    mStale = true;
    if (mRunsChoice->currentData().toInt() == static_cast<int>(Runs::Mine))
        refresh();
}

void ValidationPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (mStale)
        refresh();
}

void ValidationPanel::refresh()
{
    if (!mPublishedLoaded) {
        io::MeasurementLoad load = io::loadShippedMeasurements();
        mPublished = std::move(load.measurements);
        for (const std::string &warning : load.warnings)
            mLoadWarnings << QString::fromStdString(warning);
        mPublishedLoaded = true;
    }
    const bool mine = mRunsChoice->currentData().toInt() == static_cast<int>(Runs::Mine);
    mShown = mine ? mMine : mPublished;
    const scenario::PresetLibrary &library = mDocument->library();
    const std::string id = mCalibrationChoice->currentData().toString().toStdString();
    const auto chosen = library.calibrations.find(id);
    const scenario::CalibrationSet *calibration
        = chosen == library.calibrations.end() ? nullptr : &chosen->second;
    std::vector<scenario::ValidationRow> rows = scenario::validateMeasurements(mShown, library, calibration);
    const scenario::ValidationSummary summary = scenario::summarize(rows);

    const QString which = mine ? tr("your runs") : tr("published runs");
    const QString calibrationName
        = calibration ? QString::fromStdString(calibration->info.name) : tr("each run's own calibration");
    mChart->setRows(std::move(rows), tr("%1 %2 · %3").arg(summary.total).arg(which, calibrationName));
    mErrors->showSets({ { QString(), summary } });
    // A generation the calibration has not seen: what its fit recorded (the shipped one's when
    // each run keeps its own).
    const auto recorded = calibration ? library.calibrations.find(id)
                                      : library.calibrations.find(scenario::kDefaultCalibrationId);
    const scenario::FitSummary *fit
        = recorded == library.calibrations.end() || !recorded->second.fit ? nullptr : &*recorded->second.fit;
    mGenerations->showGenerations(summary, fit);
    mParameterRanges->showFit(fit);
    mProblems->showRows(mChart->rows());
    const std::size_t unpredicted = summary.total - summary.all.rows;
    QString text = summary.total == 0
                       ? (mine ? tr("No runs of yours yet: load them with \"Calibrate to my runs…\".")
                               : tr("No published runs found."))
                       : tr("%1 of %2 runs predicted with %3: mean |error| %4, largest %5.")
                             .arg(summary.all.rows)
                             .arg(summary.total)
                             .arg(calibrationName, chartformat::percent(summary.all.meanAbsError),
                                  chartformat::percent(summary.all.maxAbsError));
    if (unpredicted > 0)
        text += QLatin1Char(' ')
                + tr("%n run(s) without a prediction are listed with their cause.", nullptr,
                     static_cast<int>(unpredicted));
    if (!mLoadWarnings.isEmpty())
        text += QLatin1Char(' ') + mLoadWarnings.join(QLatin1Char(' '));
    mSummary->setText(text);
    mStale = false;
}

bool ValidationPanel::openRun(int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= mShown.size())
        return false;
    if (mOpenGuard && !mOpenGuard())
        return false;
    scenario::Scenario design = mShown[static_cast<std::size_t>(index)].scenario;
    // The design reproduces the point: with a calibration chosen here, it names that preset.
    if (const QString id = mCalibrationChoice->currentData().toString(); !id.isEmpty())
        design.calibration = { id.toStdString(), std::nullopt };
    mDocument->reset(design);
    return true;
}

CalibrateDialog *ValidationPanel::calibrateDialog()
{
    if (!mDialog) {
        mDialog = new CalibrateDialog(mDocument, this);
        connect(mDialog, &CalibrateDialog::calibrationSaved, this, &ValidationPanel::onCalibrationSaved);
    }
    return mDialog;
}

void ValidationPanel::onCalibrationSaved(const QString &id)
{
    // Show the user's runs with what was just fitted to them.
    const QSignalBlocker blockRuns(mRunsChoice);
    const QSignalBlocker blockCalibration(mCalibrationChoice);
    mMine = mDialog->runs();
    updateCalibrationChoices();
    selectCalibration(id);
    showRuns(Runs::Mine);
    refresh();
}

} // namespace gapstudio::views
