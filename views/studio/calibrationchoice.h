#pragma once
// The design's calibration as a choice beside its software stack: the library's calibration
// presets by name (the shipped default, the fit that costs the MoE blocks' host operators, the
// user's own), one undo step each (ScenarioDocument::setCalibration).

#include <QComboBox>

namespace gapstudio::views {

class ScenarioDocument;

class CalibrationChoice : public QComboBox {
    Q_OBJECT

public:
    explicit CalibrationChoice(ScenarioDocument *document, QWidget *parent = nullptr);

    /// Selects the design's calibration (one embedded in the file is shown by its name, as an
    /// entry of its own). Cheap enough for every change of the design: it rebuilds nothing.
    void showDesign();

private:
    void fill();

    ScenarioDocument *mDocument;
};

} // namespace gapstudio::views
