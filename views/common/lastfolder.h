#pragma once
/**
 * @file lastfolder.h
 * The folder file dialogs open in: the last one the user chose a file in, else their Documents
 * folder (never `/`).
 */

#include "common/studiosettings.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace gapstudio::views {

inline const AppSetting<QString> kLastFolder { "mainwindow/lastDirectory", {} };

/// The folder to open file dialogs in.
[[nodiscard]] inline QString lastFolder()
{
    const QString last = kLastFolder.get();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return !documents.isEmpty() && QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

/// `fileName` in the folder to open file dialogs in (a dialog's suggested path).
[[nodiscard]] inline QString suggestedPath(const QString &fileName)
{
    return QDir(lastFolder()).filePath(fileName);
}

/// Remembers the folder of a file the user chose.
inline void rememberFolder(const QString &chosenFile)
{
    if (!chosenFile.isEmpty())
        kLastFolder.set(QFileInfo(chosenFile).absolutePath());
}

} // namespace gapstudio::views
