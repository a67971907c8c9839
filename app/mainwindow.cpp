#include "mainwindow.h"

#include "gapstudio/model/evaluate.h"
#include "results/resultstable.h"
#include "scenario/defaultscenario.h"

#include <QApplication>
#include <QMenuBar>
#include <QStatusBar>

namespace gapstudio {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("GapStudio"));

    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    QAction *quit = fileMenu->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    auto *table = new views::ResultsTable(this);
    setCentralWidget(table);
    try {
        const io::CalculonInputs scenario = views::defaultScenario();
        table->showEvaluation(model::evaluate(scenario.application, scenario.execution, scenario.system));
        statusBar()->showMessage(tr("Default scenario: %1, TP %2 × PP %3 × DP %4")
                                     .arg(QString::fromUtf8(views::kDefaultScenarioName))
                                     .arg(scenario.execution.tensorPar)
                                     .arg(scenario.execution.pipelinePar)
                                     .arg(scenario.execution.dataPar));
    } catch (const io::InputError &error) {
        table->showError(QString::fromStdString(error.what()));
    }
    resize(520, 500);
}

} // namespace gapstudio
