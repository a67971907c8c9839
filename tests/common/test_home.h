#pragma once
// A studio test's own home: settings, autosave and user presets go to a temporary folder of the
// test (XDG_DATA_HOME, XDG_CONFIG_HOME, QStandardPaths' test mode), never to the user's.

#include <QCoreApplication>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace gapstudio::test {

/// Points the studio's data and configuration at `home`; false if `home` could not be made.
inline bool useTemporaryHome(const QTemporaryDir &home, const QString &applicationName)
{
    if (!home.isValid())
        return false;
    qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toUtf8());
    qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toUtf8());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("GapStudioTest"));
    QCoreApplication::setApplicationName(applicationName);
    return true;
}

} // namespace gapstudio::test
