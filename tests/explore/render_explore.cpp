// Not a test: renders the Explore panel for gpt3-175B on 1024 H100s (case 18's layout with DP 8),
// whose heatmap has many cells, into DIR for looking at the charts. Built on request only:
//   cmake --build build --target render_explore && build/bin/render_explore DIR
#include "exploredesigns.h"

#include "explore/explorechart.h"
#include "explore/explorepanel.h"
#include "explore/searchdialog.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QTabWidget>

#include <cstdio>

using namespace gapstudio;

namespace {

void render(QWidget *widget, const QDir &dir, const QString &name)
{
    widget->resize(widget->size().expandedTo(QSize(1000, 600)));
    widget->show();
    QCoreApplication::processEvents();
    for (QCustomPlot *plot : widget->findChildren<QCustomPlot *>())
        plot->replot(QCustomPlot::rpImmediateRefresh);
    widget->grab().save(dir.filePath(name + QStringLiteral(".png")));
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: render_explore DIR\n");
        return 2;
    }
    const QDir dir(QString::fromLocal8Bit(argv[1]));
    model::Design design = test::largeSearchDesign();
    design.execution.numProcs = 1024;
    design.execution.dataPar = 8;
    views::ExplorePanel panel;
    panel.setDesign(design);
    QEventLoop loop;
    QObject::connect(&panel, &views::ExplorePanel::sweepsFinished, &loop, &QEventLoop::quit);
    panel.runSweeps();
    loop.exec();
    auto *tabs = panel.findChild<QTabWidget *>(QStringLiteral("exploreTabs"));
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        render(&panel, dir, QStringLiteral("gpt3_%1").arg(panel.currentChart()->id()));
    }
    panel.openSearchDialog();
    QObject::connect(panel.searchDialog(), &views::SearchDialog::searchFinished, &loop, &QEventLoop::quit);
    panel.searchDialog()->start();
    loop.exec();
    render(panel.searchDialog(), dir, QStringLiteral("gpt3_search_dialog"));
    return 0;
}
