#pragma once
// The report tests' inputs and the headless exports run in-process (report/headless.h).

#include "report/headless.h"

#include <QFile>
#include <QString>
#include <QStringList>

namespace gapstudio::test {

inline const QString kDefaultScenario = QStringLiteral(PRESETS_DIR "/scenarios/default.gapstudio.json");
inline const QString kBaselineScenario
    = QStringLiteral(PRESETS_DIR "/scenarios/gpt4-moe-4096-h100-hbd8.gapstudio.json");

/// gapstudio ARGUMENTS, headless, in this process: its exit status.
inline int headless(const QStringList &arguments)
{
    return views::runHeadless(QStringList { QStringLiteral("gapstudio") } + arguments);
}

/// The first `size` bytes of a file (empty if it cannot be read).
inline QByteArray fileStart(const QString &path, qint64 size = 16)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(size) : QByteArray();
}

} // namespace gapstudio::test
