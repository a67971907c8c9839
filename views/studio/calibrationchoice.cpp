#include "studio/calibrationchoice.h"

#include "studio/scenariodocument.h"

#include <algorithm>

namespace gapstudio::views {

CalibrationChoice::CalibrationChoice(ScenarioDocument *document, QWidget *parent)
    : QComboBox(parent)
    , mDocument(document)
{
    setObjectName(QStringLiteral("layout:calibration"));
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(12);
    fill();
    // A calibration fitted and saved in this session joins the library (ScenarioDocument::changed).
    connect(mDocument, &ScenarioDocument::libraryChanged, this, &CalibrationChoice::fill);
    connect(mDocument, &ScenarioDocument::changed, this, [this] {
        if (static_cast<std::size_t>(count()) < mDocument->library().calibrations.size())
            fill();
    });
    connect(this, &QComboBox::activated, this, [this](int index) {
        const QString id = itemData(index).toString();
        if (!id.isEmpty() && id.toStdString() != mDocument->scenario().calibration.presetId)
            mDocument->setCalibration(id.toStdString());
    });
}

void CalibrationChoice::fill()
{
    const QSignalBlocker blocker(this);
    const QString current = currentData().toString();
    clear();
    for (const auto &[id, calibration] : mDocument->library().calibrations) {
        addItem(QString::fromStdString(calibration.info.name), QString::fromStdString(id));
        setItemData(count() - 1, QString::fromStdString(calibration.info.source), Qt::ToolTipRole);
    }
    setCurrentIndex(std::max(0, findData(current)));
}

void CalibrationChoice::showResults()
{
    const scenario::Scenario &scenario = mDocument->scenario();
    const QSignalBlocker blocker(this);
    if (scenario.calibration.inlineBlock) {
        fill();
        addItem(tr("%1 (in this file)").arg(QString::fromStdString(scenario.calibration.inlineBlock->info.name)));
        setCurrentIndex(count() - 1);
        setToolTip(QString::fromStdString(scenario.calibration.inlineBlock->info.source));
        return;
    }
    const std::string id
        = scenario.calibration.presetId.empty() ? scenario::kDefaultCalibrationId : scenario.calibration.presetId;
    int index = findData(QString::fromStdString(id));
    if (index < 0) {
        fill();
        index = findData(QString::fromStdString(id));
    }
    setCurrentIndex(std::max(0, index));
    setToolTip(index >= 0 ? itemData(index, Qt::ToolTipRole).toString() : QString());
}

} // namespace gapstudio::views
