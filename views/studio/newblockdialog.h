#pragma once
/**
 * @file newblockdialog.h
 * Edit > New GPU / New interconnect: a block from a few datasheet figures, starting from an
 * existing block ("Based on") for what a datasheet does not give (efficiency curves, collective
 * costs). The result is saved under My blocks (blockactions.h).
 */

#include "gapstudio/io/preset_json.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace gapstudio::views {

class NewBlockDialog : public QDialog {
    Q_OBJECT

public:
    enum class Kind { Gpu, Interconnect };
    /// What to do with a new interconnect: keep it in My blocks only, or use it in the design.
    enum class Use { Nothing, ScaleUp, ScaleOut };

    NewBlockDialog(Kind kind, const scenario::PresetLibrary &library, QWidget *parent = nullptr);

    [[nodiscard]] Kind kind() const { return mKind; }
    /// The block as entered (id from the name, userpresets.h presetIdFor).
    [[nodiscard]] io::PresetFile block() const;
    /// For an interconnect: where the design should use it.
    [[nodiscard]] Use use() const;

    // The fields, for tests.
    [[nodiscard]] QLineEdit *nameEdit() const { return mName; }
    [[nodiscard]] QComboBox *basedOn() const { return mBasedOn; }
    [[nodiscard]] QDoubleSpinBox *field(const QString &name) const;

private:
    void fillFromBase();
    QDoubleSpinBox *addNumber(const QString &name, const QString &label, const QString &unit, double max,
                              int decimals);

    Kind mKind;
    const scenario::PresetLibrary &mLibrary;
    QLineEdit *mName;
    QComboBox *mBasedOn;
    QLineEdit *mSource;
    QCheckBox *mReduction = nullptr;
    QComboBox *mUse = nullptr;
    QList<QDoubleSpinBox *> mFields;
};

} // namespace gapstudio::views
