// The main window's docks for cost and power and for the roadmap, and the roadmap's File menu entries
// (wiring only).
#include "mainwindow.h"

#include "charts/chartexporter.h"
#include "charts/chartinteraction.h"
#include "cost/costchart.h"
#include "cost/costpanel.h"
#include "results/pinnedscenarios.h"
#include "roadmap/roadmapchart.h"
#include "roadmap/roadmapmenu.h"
#include "roadmap/roadmappanel.h"
#include "studio/recalculator.h"

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>

namespace gapstudio {

using namespace views;

void MainWindow::createCostAndRoadmap(QDockWidget *tabbedWith, QMenu *file, QAction *before)
{
    auto *cost = new CostPanel(mDocument, this);
    mRoadmap = new RoadmapPanel(mDocument, this);
    mRoadmap->setOpenGuard([this] { return maybeSave(); });
    QDockWidget *docks[2]
        = { new QDockWidget(tr("Cost and power"), this), new QDockWidget(tr("Roadmap"), this) };
    docks[0]->setObjectName(QStringLiteral("costDock"));
    docks[0]->setWidget(cost);
    docks[1]->setObjectName(QStringLiteral("roadmapDock"));
    docks[1]->setWidget(mRoadmap);
    for (QDockWidget *d : docks) {
        addDockWidget(Qt::BottomDockWidgetArea, d);
        tabifyDockWidget(tabbedWith, d);
    }
    tabbedWith->raise();
    mExporter->addChart(cost->chart(), cost->chart()->id(), cost->chart()->interaction());
    mExporter->addChart(mRoadmap->chart(), mRoadmap->chart()->id(), mRoadmap->chart()->interaction());
    connect(mRecalculator, &Recalculator::resultsReady, cost, &CostPanel::setResults);
    // The cost chart draws the same pins as the other charts.
    connect(mPinned, &PinnedScenarios::changed, cost, [this, cost] { cost->setPins(mPinned->pins()); });
    addRoadmapActions(file, before, mRoadmap, docks[1]);
}

} // namespace gapstudio
