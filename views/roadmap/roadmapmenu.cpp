#include "roadmap/roadmapmenu.h"

#include "common/lastfolder.h"
#include "roadmap/roadmapdata.h"
#include "roadmap/roadmappanel.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

namespace gapstudio::views {

void addRoadmapActions(QMenu *file, QAction *before, RoadmapPanel *panel, QWidget *dock)
{
    const auto showDock = [dock] {
        dock->show();
        dock->raise();
    };
    auto *open = new QAction(QObject::tr("Open &roadmap…"), file);
    QObject::connect(open, &QAction::triggered, panel, [panel, showDock] {
        const QString path = QFileDialog::getOpenFileName(
            panel->window(), QObject::tr("Open roadmap"), lastFolder(),
            QObject::tr("GapStudio roadmaps (*.gapstudio-roadmap.json);;JSON (*.json)"));
        if (path.isEmpty())
            return;
        rememberFolder(path);
        panel->openFile(path); // a bad file: the view says why
        showDock();
    });
    file->insertAction(before, open);
    auto *examples = new QMenu(QObject::tr("Example road&maps"), file);
    file->insertMenu(before, examples);
    // Listed when the menu opens: the preset folders may change during a session.
    QObject::connect(examples, &QMenu::aboutToShow, examples, [examples, panel, showDock] {
        examples->clear();
        const QStringList shipped = shippedRoadmaps();
        if (shipped.isEmpty())
            examples->addAction(QObject::tr("(none found in the preset folders)"))->setEnabled(false);
        for (const QString &path : shipped) {
            QAction *example = examples->addAction(shippedRoadmapName(path), panel, [panel, path, showDock] {
                panel->openShipped(path);
                showDock();
            });
            example->setStatusTip(QFileInfo(path).fileName());
        }
    });
}

} // namespace gapstudio::views
