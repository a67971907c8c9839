#include "studio/recentfiles.h"

#include "common/studiosettings.h"

#include <QFileInfo>

namespace gapstudio::views {

namespace {
const AppSetting<QStringList> kRecentFiles { "mainwindow/recentFiles", {} };
}

RecentFiles::RecentFiles(QWidget *parent)
    : QMenu(tr("Open &recent"), parent)
{
    setObjectName(QStringLiteral("recentFilesMenu"));
    connect(this, &QMenu::aboutToShow, this, &RecentFiles::populate);
    populate();
}

QStringList RecentFiles::files()
{
    QStringList existing;
    for (const QString &path : kRecentFiles.get())
        if (QFileInfo::exists(path))
            existing << path;
    return existing;
}

void RecentFiles::add(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = kRecentFiles.get();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxFiles)
        list.removeLast();
    kRecentFiles.set(list);
    populate();
}

void RecentFiles::clearFiles()
{
    kRecentFiles.set({});
    populate();
}

void RecentFiles::populate()
{
    clear();
    const QStringList list = files();
    for (int i = 0; i < list.size(); ++i) {
        const QString &path = list[i];
        QAction *action = addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        action->setToolTip(path);
        action->setStatusTip(path);
        connect(action, &QAction::triggered, this, [this, path] { emit fileChosen(path); });
    }
    if (list.isEmpty()) {
        addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    addSeparator();
    addAction(tr("Clear the list"), this, &RecentFiles::clearFiles);
}

} // namespace gapstudio::views
