// MainWindow's file actions: open (scenarios, examples, or the scenario embedded in an exported
// chart or report), save, export the report, drop to open, crash recovery. Wiring only; charts
// are exported by views::ChartExporter.
#include "mainwindow.h"

#include "roadmap/roadmappanel.h"

#include "common/lastfolder.h"
#include "common/safewrite.h"
#include "report/provenance.h"
#include "report/report.h"
#include "results/calibrationtext.h"
#include "results/pinnedscenarios.h"
#include "studio/autosaver.h"
#include "studio/examplemenu.h"
#include "studio/recalculator.h"
#include "studio/recentfiles.h"
#include "studio/scenariodocument.h"
#include "studio/userpresets.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLocale>
#include <QMessageBox>
#include <QMimeData>

namespace gapstudio {

using namespace views;

namespace {
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
    else
        mRecent->add(mDocument->fileName());
    return error.isEmpty();
}

bool MainWindow::saveAs()
{
    const QString suggested
        = mDocument->fileName().isEmpty()
              ? suggestedPath(QString::fromStdString(presetIdFor(mDocument->displayName()))
                              + QStringLiteral(".gapstudio.json"))
              : mDocument->fileName();
    QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"), suggested, kFileFilter);
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QStringLiteral(".json")))
        path += QStringLiteral(".gapstudio.json");
    rememberFolder(path);
    QString error;
    if (!mDocument->saveAs(path, &error))
        QMessageBox::critical(this, tr("Save failed"), error);
    else
        mRecent->add(path);
    return error.isEmpty();
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open scenario"), lastFolder(),
                                       kFileFilter + tr(";;GapStudio exports (*.png *.svg *.pdf *.csv)"));
    if (path.isEmpty())
        return;
    rememberFolder(path);
    openFile(path);
}

bool MainWindow::load(const QString &path, QString *error)
{
    // A scenario file opens as the document; an exported chart or report restores the scenario
    // embedded in it (its provenance) as a new, unsaved document.
    if (path.endsWith(QStringLiteral(".json"))) {
        if (!mDocument->open(path, error))
            return false;
        mRecent->add(path);
        return true;
    }
    const std::optional<scenario::Scenario> restored = restoreScenario(path, error);
    if (restored)
        mDocument->reset(*restored);
    return restored.has_value();
}

void MainWindow::openFile(const QString &path)
{
    QString error;
    if (!load(path, &error))
        QMessageBox::critical(this, tr("Open failed"), error);
}

void MainWindow::openExample(const QString &relativePath)
{
    if (!maybeSave())
        return;
    QString error;
    if (const std::optional<scenario::Scenario> example = loadExample(relativePath, &error))
        mDocument->resetToExample(*example); // its name follows the user's changes
    else
        QMessageBox::critical(this, tr("Open failed"), error);
}

void MainWindow::exportReport()
{
    const ResultsPtr current = mRecalculator->latest();
    if (!current)
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export report"), suggestedPath(QStringLiteral("report.pdf")), tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    rememberFolder(path);
    ReportOptions options;
    options.roadmap = mRoadmap ? mRoadmap->roadmap() : nullptr; // an open roadmap gets its section
    options.embedded = mDocument->selfContained(current->scenario);
    // The saved file reproduces the design only when it holds these changes; else the report does.
    if (!mDocument->isModified())
        options.scenarioFile = QFileInfo(mDocument->fileName()).fileName();
    QString error;
    if (!isNotAnInput(path, { mDocument->fileName() }, &error)
        || !writeReport(*current, mPinned->results(), path, &error, options))
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
    // Autosaves of sessions that ended without saving (each instance and document has its own).
    const QList<Recovery> recoveries = mAutoSaver->recoveries();
    if (recoveries.isEmpty())
        return;
    const auto describe = [](const Recovery &r) {
        const QString name
            = r.documentFile.isEmpty() ? tr("Untitled design") : QFileInfo(r.documentFile).fileName();
        return tr("%1 (autosaved %2)").arg(name, QLocale().toString(r.saved, QLocale::ShortFormat));
    };
    int chosen = -1;
    if (recoveries.size() == 1) {
        const auto answer = QMessageBox::question(
            this, tr("Restore unsaved work?"),
            tr("GapStudio did not shut down cleanly. Restore the autosaved design %1?")
                .arg(describe(recoveries.front())));
        if (answer != QMessageBox::Yes) {
            AutoSaver::discardRecovery(recoveries.front());
            return;
        }
        chosen = 0;
    } else {
        QStringList items;
        for (const Recovery &r : recoveries)
            items << describe(r);
        bool ok = false;
        const QString item = QInputDialog::getItem(
            this, tr("Restore unsaved work?"),
            tr("Earlier sessions left unsaved work. Restore which design? (The others are kept for later.)"),
            items, 0, false, &ok);
        if (!ok)
            return; // kept: offered again next time
        chosen = static_cast<int>(items.indexOf(item));
    }
    QString error;
    if (!mAutoSaver->restore(recoveries.at(chosen), &error))
        QMessageBox::warning(this, tr("Restore failed"), error);
}

} // namespace gapstudio
