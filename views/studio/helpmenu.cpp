#include "studio/helpmenu.h"

#include "charts/chartexport.h"
#include "common/studiosettings.h"
#include "studio/userpresets.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace gapstudio::views {

namespace {

const AppSetting<bool> kShowGettingStarted { "help/showGettingStarted", true };

QString percent(double fraction)
{
    return QString::number(fraction * 100, 'f', 1) + QStringLiteral(" %");
}

void collectShortcuts(const QMenu *menu, const QString &path, QList<QPair<QString, QString>> &out)
{
    for (const QAction *action : menu->actions()) {
        const QString name = QString(action->text()).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
        if (action->menu())
            collectShortcuts(action->menu(), path + name + QStringLiteral(" > "), out);
        else if (!action->shortcut().isEmpty())
            out.append({ path + name, action->shortcut().toString(QKeySequence::NativeText) });
    }
}

} // namespace

QString aboutText(const ScenarioResults *results)
{
    QString text = QObject::tr("<h3>GapStudio %1</h3>"
                               "<p>Co-design AI datacenters for training large language models: GPUs, "
                               "interconnects, topology, model and parallel layout, evaluated live.</p>")
                       .arg(gapstudioVersion());
    text += QObject::tr(
        "<p><b>Model.</b> The analytical LLM-training model of Calculon (Isaev et al., SC '23) and its "
        "mixture-of-experts extension calculon-MoE (Tithi et al., ICS '26, <i>Closing the Efficiency "
        "Gap</i>). "
        "Designs are evaluated with the <i>corrected model</i>: the references' formulas with their "
        "documented "
        "quirks fixed, plus attention, embedding, MoE and FP8 details. In reference mode "
        "(gapstudio-cli) the two references are reproduced exactly (Calculon at caa4b11, calculon-MoE at "
        "e3eb609); validated against their outputs and published measurements.</p>");
    if (results && results->compiled) {
        const scenario::CompiledScenario &c = *results->compiled;
        if (c.resolved.calibration) {
            const scenario::CalibrationSet &cal = *c.resolved.calibration;
            text += QObject::tr("<p><b>Calibration in use.</b> %1 (%2): %3")
                        .arg(QString::fromStdString(cal.info.name).toHtmlEscaped(),
                             QString::fromStdString(cal.info.id).toHtmlEscaped(),
                             QString::fromStdString(cal.info.source).toHtmlEscaped());
            if (cal.fit)
                text += QObject::tr(" Fitted to %1 measured runs: mean error %2 (before: %3), largest %4, "
                                    "leave-one-family-out %5.")
                            .arg(cal.fit->rows)
                            .arg(percent(cal.fit->meanAbsError), percent(cal.fit->meanAbsErrorBefore),
                                 percent(cal.fit->maxAbsError),
                                 percent(cal.fit->leaveOneFamilyOutMeanAbsError));
            text += QStringLiteral("</p>");
        } else {
            text += QObject::tr(
                "<p><b>Calibration in use.</b> None: the corrected model's built-in defaults.</p>");
        }
        if (!c.calibrationNote.empty())
            text
                += QStringLiteral("<p>%1</p>").arg(QString::fromStdString(c.calibrationNote).toHtmlEscaped());
        text += QObject::tr("<p><b>Software stack.</b> %1</p>")
                    .arg(QString::fromStdString(c.resolved.software.info.name).toHtmlEscaped());
    }
    text += QObject::tr("<p><b>Your blocks</b> are saved in %1.</p>").arg(userPresetFolder().toHtmlEscaped());
    text += QObject::tr("<p>Built with Qt %1 and QCustomPlot.</p>").arg(QString::fromLatin1(qVersion()));
    return text;
}

QList<QPair<QString, QString>> shortcutList(const QWidget *window)
{
    QList<QPair<QString, QString>> out;
    if (const QMenuBar *bar = window->findChild<QMenuBar *>())
        for (const QAction *action : bar->actions())
            if (action->menu())
                collectShortcuts(action->menu(),
                                 QString(action->text()).remove(QLatin1Char('&')) + QStringLiteral(" > "),
                                 out);
    out.append({ QObject::tr("Canvas > Zoom"), QObject::tr("Ctrl + mouse wheel") });
    out.append(
        { QObject::tr("Charts > Zoom / pan / reset"), QObject::tr("Mouse wheel / drag / double-click") });
    out.append({ QObject::tr("Sliders > Type a value"), QObject::tr("Double-click the value") });
    return out;
}

GettingStartedDialog::GettingStartedDialog(QWidget *parent)
    : QDialog(parent)
    , mSteps(new QStackedWidget(this))
    , mCounter(new QLabel(this))
    , mBack(new QPushButton(tr("Back"), this))
    , mNext(new QPushButton(tr("Next"), this))
    , mShowAtStart(new QCheckBox(tr("Show this at start"), this))
{
    setObjectName(QStringLiteral("gettingStarted"));
    setWindowTitle(tr("Getting started with GapStudio"));
    const QStringList steps = {
        tr("<b>1. The canvas is your datacenter.</b><br>Scale-up domains of GPUs inside a scale-out fabric, "
           "with the LLM and its parallel layout above. Drag a GPU, interconnect, topology, LLM or layout "
           "from "
           "<i>Blocks</i> onto it: a link dropped on a domain becomes the scale-up link, on the fabric's "
           "band the "
           "scale-out link."),
        tr("<b>2. Move the sliders.</b><br>Every chart follows at once in <i>Parameters</i>. Double-click a "
           "value "
           "to type one. To change a block itself, edit its values in <i>Block parameters</i>; <i>Save as "
           "preset</i> keeps it under <i>My blocks</i>."),
        tr("<b>3. Set the parallel layout.</b><br>In <i>Layout</i>, TP, PP, EP and ES split the work; DP and "
           "expert DP follow the GPU count. A layout that cannot run says why, in words, under the field to "
           "change, and in <i>Diagnostics</i>."),
        tr("<b>4. Read and explore.</b><br><i>Charts</i> and <i>Key results</i> show the step time, "
           "efficiency "
           "gap and memory; right-click a chart to copy, export or reset its zoom. <i>Explore</i> searches "
           "better layouts and shows what buys the most. File &gt; Export report writes a PDF.")
    };
    for (const QString &step : steps) {
        auto *label = new QLabel(step, mSteps);
        label->setWordWrap(true);
        label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        label->setMinimumWidth(420);
        mSteps->addWidget(label);
    }
    mShowAtStart->setChecked(kShowGettingStarted.get());
    auto *close = new QPushButton(tr("Close"), this);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(mShowAtStart);
    buttons->addStretch(1);
    buttons->addWidget(mCounter);
    buttons->addWidget(mBack);
    buttons->addWidget(mNext);
    buttons->addWidget(close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mSteps, 1);
    layout->addLayout(buttons);
    connect(mBack, &QPushButton::clicked, this, [this] { setStep(step() - 1); });
    connect(mNext, &QPushButton::clicked, this, [this] { setStep(step() + 1); });
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
    connect(mShowAtStart, &QCheckBox::toggled, this, [](bool on) { kShowGettingStarted.set(on); });
    setStep(0);
}

int GettingStartedDialog::stepCount() const
{
    return mSteps->count();
}

int GettingStartedDialog::step() const
{
    return mSteps->currentIndex();
}

void GettingStartedDialog::setStep(int step)
{
    mSteps->setCurrentIndex(std::clamp(step, 0, stepCount() - 1));
    mCounter->setText(tr("%1 of %2").arg(this->step() + 1).arg(stepCount()));
    mBack->setEnabled(this->step() > 0);
    mNext->setEnabled(this->step() + 1 < stepCount());
}

HelpMenu::HelpMenu(QWidget *window, std::function<ResultsPtr()> latest)
    : QMenu(tr("&Help"), window)
    , mWindow(window)
    , mLatest(std::move(latest))
{
    setObjectName(QStringLiteral("helpMenu"));
    addAction(tr("&Getting started"), QKeySequence::HelpContents, this, &HelpMenu::showGettingStarted);
    addAction(tr("&Keyboard shortcuts"), this, &HelpMenu::showShortcuts);
    addSeparator();
    addAction(tr("&About GapStudio"), this, &HelpMenu::showAbout);
}

void HelpMenu::showFirstRunHintOnce()
{
    if (!kShowGettingStarted.get())
        return;
    kShowGettingStarted.set(false); // once; the dialog's box turns it back on
    showGettingStarted();
}

void HelpMenu::showGettingStarted()
{
    auto *dialog = new GettingStartedDialog(mWindow);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show(); // not modal: the tour can stay open while trying it out
}

void HelpMenu::showShortcuts()
{
    QDialog dialog(mWindow);
    dialog.setWindowTitle(tr("Keyboard shortcuts"));
    const QList<QPair<QString, QString>> shortcuts = shortcutList(mWindow);
    auto *table = new QTableWidget(static_cast<int>(shortcuts.size()), 2, &dialog);
    table->setHorizontalHeaderLabels({ tr("Action"), tr("Shortcut") });
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int row = 0; row < shortcuts.size(); ++row) {
        table->setItem(row, 0, new QTableWidgetItem(shortcuts[row].first));
        table->setItem(row, 1, new QTableWidgetItem(shortcuts[row].second));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog.resize(560, 480);
    dialog.exec();
}

void HelpMenu::showAbout()
{
    const ResultsPtr latest = mLatest ? mLatest() : nullptr;
    QMessageBox::about(mWindow, tr("About GapStudio"), aboutText(latest.get()));
}

} // namespace gapstudio::views
