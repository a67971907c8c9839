#include "cost/costpanel.h"

#include "cost/costchart.h"
#include "cost/costfigures.h"
#include "cost/costinputs.h"
#include "studio/scenariodocument.h"

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
    , mStatus(new QLabel(this))
    , mBanner(new QLabel(this))
    , mChart(new CostChart(this))
{
    setObjectName(QStringLiteral("cost_panel"));
    mBanner->setObjectName(QStringLiteral("cost_banner"));
    mBanner->setWordWrap(true);
    mBanner->setStyleSheet(QStringLiteral("background: #fff3cd; color: #664d03; border: 1px solid #e0c36a; "
                                          "padding: 4px;"));
    mBanner->hide();
    auto *inputs = new QGroupBox(tr("Assumptions and prices"), this);
    auto *form = new QFormLayout(inputs);
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

void CostPanel::setResults(ResultsPtr results)
{
    mResults = std::move(results);
    mChart->setResults(mResults);
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

void CostPanel::setBaseline(ResultsPtr baseline)
{
    mChart->setBaseline(std::move(baseline));
}

QString CostPanel::figureText(const QString &key) const
{
    const QLabel *label = mFigures.value(key);
    return label ? label->text() : QString();
}

QString CostPanel::statusText() const
{
    return mStatus->text();
}

} // namespace gapstudio::views
