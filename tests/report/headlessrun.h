#pragma once
// The report tests' inputs and the headless exports run in-process (report/headless.h).

#include "report/headless.h"

#include "gapstudio/io/preset_json.h"

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

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

/// What the report tests share: the folder they write to (GAPSTUDIO_REPORT_DIR keeps the files)
/// and the default scenario.
class ExportFixture {
protected:
    QTemporaryDir mTemp;
    QString mDir;
    scenario::Scenario mDefault;

    [[nodiscard]] QString path(const QString &name) const { return QDir(mDir).filePath(name); }

    /// Makes the folder and reads the default scenario (from initTestCase); false if the folder
    /// cannot be made.
    [[nodiscard]] bool prepare()
    {
        mDir = qEnvironmentVariable("GAPSTUDIO_REPORT_DIR", mTemp.path());
        mDefault = io::loadScenario(kDefaultScenario.toStdString());
        return mTemp.isValid() && QDir().mkpath(mDir);
    }
};

} // namespace gapstudio::test
