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
    // Presets added in this session, a calibration fitted in the Validation view among them.
    connect(mDocument, &ScenarioDocument::libraryChanged, this, &CalibrationChoice::fill);
    connect(this, &QComboBox::activated, this, [this](int index) {
        const QString id = itemData(index).toString();
        if (!id.isEmpty() && id.toStdString() != mDocument->scenario().calibration.presetId)
            mDocument->setCalibration(id.toStdString());
    });
}

void CalibrationChoice::fill()
{
    {
        const QSignalBlocker blocker(this);
        clear();
        for (const auto &[id, calibration] : mDocument->library().calibrations) {
            addItem(QString::fromStdString(calibration.info.name), QString::fromStdString(id));
            setItemData(count() - 1, QString::fromStdString(calibration.info.source), Qt::ToolTipRole);
        }
    }
    showDesign();
}

void CalibrationChoice::showDesign()
{
    const scenario::Scenario &scenario = mDocument->scenario();
    const QSignalBlocker blocker(this);
    // The library's entries carry their id; an embedded calibration's entry, added last, none.
    const bool embeddedShown = count() > 0 && itemData(count() - 1).toString().isEmpty();
    if (const auto &embedded = scenario.calibration.inlineBlock) {
        const QString name = tr("%1 (in this file)").arg(QString::fromStdString(embedded->info.name));
        if (!embeddedShown)
            addItem(name);
        setItemText(count() - 1, name);
        setCurrentIndex(count() - 1);
        setToolTip(QString::fromStdString(embedded->info.source));
        return;
    }
    if (embeddedShown)
        removeItem(count() - 1);
    const std::string id
        = scenario.calibration.presetId.empty() ? scenario::kDefaultCalibrationId : scenario.calibration.presetId;
    const int index = findData(QString::fromStdString(id));
    setCurrentIndex(std::max(0, index));
    setToolTip(index >= 0 ? itemData(index, Qt::ToolTipRole).toString() : QString());
}

} // namespace gapstudio::views
