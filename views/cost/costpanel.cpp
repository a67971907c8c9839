#include "cost/costpanel.h"

#include "common/whenseen.h"
#include "cost/costchart.h"
#include "cost/costfigures.h"
#include "cost/costinputs.h"
#include "studio/scenariodocument.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace gapstudio::views {

namespace {

const QString kNone = QStringLiteral("\u2014");

} // namespace

CostPanel::CostPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mStorage(new QComboBox(this))
    , mStatus(new QLabel(this))
    , mBanner(new QLabel(this))
    , mChart(new CostChart(this))
    , mWhenSeen(new WhenSeen(this))
{
    setObjectName(QStringLiteral("cost_panel"));
    mBanner->setObjectName(QStringLiteral("cost_banner"));
    mBanner->setWordWrap(true);
    mBanner->setStyleSheet(QStringLiteral("background: #fff3cd; color: #664d03; border: 1px solid #e0c36a; "
                                          "padding: 4px;"));
    mBanner->hide();
    auto *inputs = new QGroupBox(tr("Assumptions and prices"), this);
    auto *form = new QFormLayout(inputs);
    // The storage block: its bandwidths replace reliability.storage_GBps's default, its price and
    // power join the bill of materials.
    mStorage->setObjectName(QStringLiteral("cost:storage"));
    mStorage->setToolTip(tr("Where checkpoints are written: a storage preset (presets/storage) with its "
                            "bandwidths, price and power"));
    fillStorage();
    connect(mDocument, &ScenarioDocument::libraryChanged, this, &CostPanel::fillStorage);
    connect(mStorage, &QComboBox::activated, this, [this](int index) {
        const std::string id = mStorage->itemData(index).toString().toStdString();
        if (id != mDocument->scenario().storage.presetId || mDocument->scenario().storage.inlineBlock)
            mDocument->setStorage(id);
    });
    form->addRow(tr("Checkpoint storage"), mStorage);
    for (const CostInput &input : costInputs()) {
        auto *spin = new QDoubleSpinBox(inputs);
        const QString key = QString::fromLatin1(input.key);
        spin->setObjectName(key);
        spin->setRange(input.minimum, input.maximum);
        spin->setDecimals(input.decimals);
        spin->setKeyboardTracking(false); // one edit when the value is entered, not per keystroke
        spin->setGroupSeparatorShown(true);
        if (!input.unit.isEmpty())
            spin->setSuffix(QLatin1Char(' ') + input.unit);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, key](double value) { apply(key, value); });
        form->addRow(input.name, spin);
        mFields.insert(key, spin);
    }
    auto *figures = new QGroupBox(tr("Cost and power of this design"), this);
    auto *figureForm = new QFormLayout(figures);
    for (const CostFigure &figure : costFigureNames()) {
        auto *label = new QLabel(kNone, figures);
        label->setObjectName(figure.key);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        figureForm->addRow(figure.name, label);
        mFigures.insert(figure.key, label);
    }
    mStatus->setObjectName(QStringLiteral("cost_status"));
    mStatus->setWordWrap(true);
    // The figures and fields scroll: the dock shares the bottom area with the charts and stays as
    // short as they are.
    auto *column = new QWidget;
    auto *left = new QVBoxLayout(column);
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(mBanner);
    left->addWidget(figures);
    left->addWidget(inputs);
    left->addWidget(mStatus);
    left->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(column);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(column->sizeHint().width() + 20);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(scroll);
    layout->addWidget(mChart, 1);
}

void CostPanel::apply(const QString &key, double displayValue)
{
    for (const CostInput &input : costInputs()) {
        if (key != QLatin1String(input.key))
            continue;
        const double value = displayValue * input.displayScale;
        // Only a change the user made: the field shows the resolved value after every recalculation.
        if (mResults && mResults->compiled
            && std::abs(input.current(*mResults->compiled) - value) <= 1e-12 * std::abs(value))
            return;
        mDocument->setOverride(input.key, value);
        return;
    }
}

void CostPanel::fillStorage()
{
    const QSignalBlocker blocker(mStorage);
    mStorage->clear();
    mStorage->addItem(tr("None: the bandwidth below, unpriced"), QString());
    for (const auto &[id, storage] : mDocument->library().storage)
        mStorage->addItem(QString::fromStdString(storage.info.name), QString::fromStdString(id));
}

void CostPanel::setResults(ResultsPtr results)
{
    mResults = std::move(results);
    mChart->setResults(mResults); // draws when seen itself (PlotChart::requestDraw)
    // A tab behind Charts: the figures and fields are written when it is raised (whenseen.h).
    mWhenSeen->run([this] { showResults(); });
}

void CostPanel::showResults()
{
    {
        // The design's storage: a preset by its id, a block inline in the file by its name.
        const QSignalBlocker blocker(mStorage);
        const scenario::BlockRef<scenario::Storage> &ref = mDocument->scenario().storage;
        const QString id = QString::fromStdString(ref.presetId);
        if (ref.inlineBlock) {
            const QString name
                = tr("%1 (in the file)").arg(QString::fromStdString(ref.inlineBlock->info.name));
            if (mStorage->findText(name) < 0)
                mStorage->addItem(name, QStringLiteral("\n"));
            mStorage->setCurrentIndex(mStorage->findText(name));
        } else {
            mStorage->setCurrentIndex(std::max(0, mStorage->findData(id)));
        }
    }
    const bool compiled = mResults && mResults->compiled;
    for (const CostInput &input : costInputs()) {
        QDoubleSpinBox *spin = mFields.value(QString::fromLatin1(input.key));
        spin->setEnabled(compiled);
        if (!compiled)
            continue;
        const QSignalBlocker block(spin);
        spin->setValue(input.current(*mResults->compiled) / input.displayScale);
    }
    for (QLabel *label : std::as_const(mFigures))
        label->setText(kNone);
    const QList<CostFigure> figures = mResults ? costFigures(*mResults) : QList<CostFigure>();
    // Parts without a price count as free: every $ figure says so, and the banner says which.
    const QString warning = figures.isEmpty()
                                ? QString()
                                : QString::fromStdString(model::unpricedWarning(mResults->cost->bom));
    mBanner->setText(QStringLiteral("\u26a0 ") + warning);
    mBanner->setVisible(!warning.isEmpty());
    for (const CostFigure &figure : figures)
        if (QLabel *label = mFigures.value(figure.key))
            label->setText(!warning.isEmpty() && figure.key.contains(QLatin1String("usd"))
                               ? figure.text + tr(" (incomplete)")
                               : figure.text);
    if (!mResults)
        mStatus->clear();
    else if (figures.isEmpty())
        mStatus->setText(tr("No cost: %1").arg(QString::fromStdString(mResults->statusText)));
    else {
        QStringList notes;
        for (const std::string &note : mResults->cost->bom.notes)
            notes << QString::fromStdString(note);
        mStatus->setText(notes.isEmpty()
                             ? tr("Prices and power come from the presets' cost blocks (most are "
                                  "estimates; each names its source). Compare designs, not quotes.")
                             : notes.join(QLatin1Char('\n')));
    }
}

void CostPanel::setPins(const QList<PinnedScenario> &pins)
{
    mChart->setPins(pins);
}

QDoubleSpinBox *CostPanel::field(const QString &key) const
{
    mWhenSeen->flush();
    return mFields.value(key);
}

QComboBox *CostPanel::storageChoice() const
{
    mWhenSeen->flush();
    return mStorage;
}

QString CostPanel::figureText(const QString &key) const
{
    mWhenSeen->flush();
    const QLabel *label = mFigures.value(key);
    return label ? label->text() : QString();
}

QString CostPanel::statusText() const
{
    mWhenSeen->flush();
    return mStatus->text();
}

} // namespace gapstudio::views
