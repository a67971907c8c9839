#pragma once
/**
 * @file gridpanel.h
 * The grid results viewer: opens a file written by `gapstudio-cli grid` (gridfile.h) and shows
 * one metric over two chosen knobs as a heatmap (gridheatmapchart.h), the other knobs held at
 * chosen values. A bad file leaves the previous grid shown and names the file and line.
 */

#include "designspace/gridfile.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QFormLayout;
class QLabel;

namespace gapstudio::views {

class GridHeatmapChart;

class GridPanel final : public QWidget {
    Q_OBJECT

public:
    explicit GridPanel(QWidget *parent = nullptr);

    /// Asks for a grid file and opens it.
    void openInteractive();
    /// Opens `path`; false (and the reason shown and in `error`) if it cannot be read.
    bool openFile(const QString &path, QString *error = nullptr);

    [[nodiscard]] GridHeatmapChart *chart() const { return mChart; }
    /// The x knob, y knob and metric choosers, and one "held at" chooser per other knob.
    [[nodiscard]] QComboBox *acrossBox() const { return mAcross; }
    [[nodiscard]] QComboBox *upBox() const { return mUp; }
    [[nodiscard]] QComboBox *metricBox() const { return mMetric; }
    [[nodiscard]] QString errorText() const;

private:
    void rebuildHeldBoxes();
    void redraw();

    std::shared_ptr<const GridFile> mFile;
    GridHeatmapChart *mChart;
    QLabel *mFileLabel;
    QLabel *mError;
    QComboBox *mAcross, *mUp, *mMetric;
    QFormLayout *mHeldForm;
    QList<QComboBox *> mHeld; ///< one per knob (hidden for the two drawn)
};

} // namespace gapstudio::views
