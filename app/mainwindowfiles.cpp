// MainWindow's file actions: open (scenarios, or the scenario embedded in an exported chart or
// report), save, export chart and report, drop to open, crash recovery. Wiring only.
#include "mainwindow.h"

#include "charts/chartexport.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "explore/explorechart.h"
#include "explore/explorepanel.h"
#include "report/provenance.h"
#include "report/report.h"
#include "results/calibrationtext.h"
#include "studio/autosaver.h"
#include "studio/recalculator.h"
#include "studio/scenariodocument.h"
#include "studio/studiosettings.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>

namespace gapstudio {

using namespace views;

namespace {
const AppSetting<QString> kLastDirectory{"mainwindow/lastDirectory", {}};
const QString kFileFilter = QObject::tr("GapStudio scenarios (*.gapstudio.json);;JSON (*.json)");
} // namespace

bool MainWindow::maybeSave()
{
    if (!mDocument->isModified())
        return true;
    const auto answer = QMessageBox::warning(this, tr("GapStudio"), tr("The scenario has unsaved changes. Save them?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    return answer == QMessageBox::Discard || (answer == QMessageBox::Save && save());
}

bool MainWindow::save()
{
    if (mDocument->fileName().isEmpty())
        return saveAs();
    QString error;
    if (!mDocument->saveAs(mDocument->fileName(), &error))
        QMessageBox::critical(this, tr("Save failed"), error);
    return error.isEmpty();
}

bool MainWindow::saveAs()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"), kLastDirectory.get(), kFileFilter);
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QStringLiteral(".json")))
        path += QStringLiteral(".gapstudio.json");
    kLastDirectory.set(QFileInfo(path).absolutePath());
    QString error;
    if (!mDocument->saveAs(path, &error))
        QMessageBox::critical(this, tr("Save failed"), error);
    return error.isEmpty();
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open scenario"), kLastDirectory.get(),
        kFileFilter + tr(";;GapStudio exports (*.png *.svg *.pdf *.csv)"));
    if (path.isEmpty())
        return;
    kLastDirectory.set(QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::openFile(const QString &path)
{
    // A scenario file opens as the document; an exported chart or report restores the scenario
    // embedded in it (its provenance) as a new, unsaved document.
    QString error;
    if (path.endsWith(QStringLiteral(".json"))) {
        if (!mDocument->open(path, &error))
            QMessageBox::critical(this, tr("Open failed"), error);
        return;
    }
    if (const std::optional<scenario::Scenario> restored = restoreScenario(path, &error))
        mDocument->reset(*restored);
    else
        QMessageBox::critical(this, tr("Open failed"), error);
}

void MainWindow::exportChart()
{
    // The visible chart: the explore tab's when it is in front, else the results charts'.
    ExportSource source;
    QString id;
    if (ExploreChart *explore = mExplore->isVisible() ? mExplore->currentChart() : nullptr) {
        source = { explore->plot(), explore->size(), explore->title(), explore->csvRows(), {} };
        id = explore->id();
    } else if (ChartView *chart = mCharts->currentChart()) {
        source = { chart->plot(), chart->exportSize(), chart->headline(), chart->csvRows(), {} };
        id = chart->id();
    } else {
        return;
    }
    if (const ResultsPtr results = mRecalculator->latest())
        source.calibration = calibrationText(*results); // the design's, for the explore charts too
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"),
                                                      kLastDirectory.get() + QLatin1Char('/') + id + QStringLiteral(".png"),
                                                      tr("PNG (*.png);;PDF (*.pdf);;SVG (*.svg);;CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    QString provenance;
    try {
        provenance = QString::fromStdString(scenarioToJsonText(mDocument->scenario()));
    } catch (const std::exception &) { // a scenario the file format cannot express: export without
    }
    if (!views::exportPlot(source, path, provenance, 2.0, &error))
        QMessageBox::critical(this, tr("Export failed"), error);
}

void MainWindow::exportReport()
{
    const ResultsPtr current = mRecalculator->latest();
    if (!current)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export report"),
                                                      kLastDirectory.get() + QStringLiteral("/report.pdf"), tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    kLastDirectory.set(QFileInfo(path).absolutePath());
    ReportOptions options;
    options.scenarioFile = QFileInfo(mDocument->fileName()).fileName();
    QString error;
    if (!writeReport(*current, mBaseline.get(), path, &error, options))
        QMessageBox::critical(this, tr("Export failed"), error);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile() && maybeSave())
        openFile(urls.front().toLocalFile());
}

void MainWindow::offerRecovery()
{
    if (!AutoSaver::hasRecovery())
        return;
    const auto answer = QMessageBox::question(this, tr("Restore unsaved work?"),
                                              tr("GapStudio did not shut down cleanly. Restore the autosaved scenario?"));
    QString error;
    if (answer == QMessageBox::Yes && !mAutoSaver->restore(&error))
        QMessageBox::warning(this, tr("Restore failed"), error);
    if (answer != QMessageBox::Yes)
        mAutoSaver->discard();
}

} // namespace gapstudio
