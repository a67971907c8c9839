#include "designspace/gridpanel.h"

#include "designspace/gridheatmapchart.h"
#include "studio/parameternames.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace gapstudio::views {

GridPanel::GridPanel(QWidget *parent)
    : QWidget(parent)
    , mChart(new GridHeatmapChart(this))
    , mFileLabel(new QLabel(tr("No grid open"), this))
    , mError(new QLabel(this))
    , mAcross(new QComboBox(this))
    , mUp(new QComboBox(this))
    , mMetric(new QComboBox(this))
    , mHeldForm(new QFormLayout)
{
    setObjectName(QStringLiteral("grid_panel"));
    mError->setObjectName(QStringLiteral("grid_error"));
    mError->setWordWrap(true);
    mError->setStyleSheet(QStringLiteral("color: #B00020"));
    mError->hide();
    auto *open = new QPushButton(tr("Open grid results…"), this);
    open->setToolTip(tr("The JSON lines written by gapstudio-cli grid (one line per hardware point)"));
    connect(open, &QPushButton::clicked, this, &GridPanel::openInteractive);

    auto *choices = new QFormLayout;
    choices->addRow(tr("Across"), mAcross);
    choices->addRow(tr("Up"), mUp);
    choices->addRow(tr("Colour"), mMetric);
    auto *side = new QVBoxLayout;
    side->addWidget(open);
    side->addWidget(mFileLabel);
    side->addWidget(mError);
    side->addLayout(choices);
    side->addLayout(mHeldForm);
    side->addStretch();
    auto *layout = new QHBoxLayout(this);
    layout->addLayout(side);
    layout->addWidget(mChart, 1);

    for (QComboBox *box : { mAcross, mUp, mMetric })
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (mFile)
                redraw();
        });
}

void GridPanel::openInteractive()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open grid results"), {}, tr("Grid results (*.jsonl *.json *.txt);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

bool GridPanel::openFile(const QString &path, QString *error)
{
    QString problem;
    std::optional<GridFile> file = readGridFile(path, &problem);
    if (!file) {
        mError->setText(problem);
        mError->show();
        if (error)
            *error = problem;
        return false;
    }
    mError->hide();
    mError->clear();
    mFile = std::make_shared<const GridFile>(std::move(*file));
    mFileLabel->setText(tr("%1: %2 points").arg(QFileInfo(path).fileName()).arg(mFile->points.size()));
    const QSignalBlocker blockAcross(mAcross), blockUp(mUp), blockMetric(mMetric);
    mAcross->clear();
    mUp->clear();
    mMetric->clear();
    for (const std::string &knob : mFile->knobs) {
        mAcross->addItem(parameterLabel(knob), QString::fromStdString(knob));
        mUp->addItem(parameterLabel(knob), QString::fromStdString(knob));
    }
    mUp->addItem(tr("(none)"));
    for (const std::string &metric : mFile->metrics)
        mMetric->addItem(gridMetricLabel(metric), QString::fromStdString(metric));
    mAcross->setCurrentIndex(0);
    mUp->setCurrentIndex(mFile->knobs.size() > 1 ? 1 : mUp->count() - 1);
    const int rate = mMetric->findData(QStringLiteral("sample_rate"));
    mMetric->setCurrentIndex(rate >= 0 ? rate : 0);
    rebuildHeldBoxes();
    redraw();
    return true;
}

QString GridPanel::errorText() const
{
    return mError->text();
}

void GridPanel::rebuildHeldBoxes()
{
    while (mHeldForm->rowCount() > 0)
        mHeldForm->removeRow(0);
    mHeld.clear();
    for (std::size_t k = 0; k < mFile->knobs.size(); ++k) {
        auto *box = new QComboBox(this);
        for (const double value : mFile->knobValues[k])
            box->addItem(QLocale::c().toString(value, 'g', 10), value);
        mHeldForm->addRow(tr("%1 at").arg(parameterLabel(mFile->knobs[k])), box);
        mHeld << box;
        connect(box, &QComboBox::currentIndexChanged, this, &GridPanel::redraw);
    }
}

void GridPanel::redraw()
{
    GridSlice slice;
    slice.across = static_cast<std::size_t>(std::max(0, mAcross->currentIndex()));
    slice.up = static_cast<std::size_t>(std::max(0, mUp->currentIndex())); // "(none)": past the knobs
    slice.metric = mMetric->currentData().toString().toStdString();
    for (qsizetype k = 0; k < mHeld.size(); ++k) {
        slice.held.push_back(mHeld[k]->currentData().toDouble());
        const bool drawn
            = static_cast<std::size_t>(k) == slice.across || static_cast<std::size_t>(k) == slice.up;
        mHeldForm->setRowVisible(static_cast<int>(k), !drawn);
    }
    mChart->setGrid(mFile, slice);
}

} // namespace gapstudio::views
