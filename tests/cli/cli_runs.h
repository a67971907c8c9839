#pragma once
// The measured runs and the CLI as the tests of `validate` and `calibrate` use them: run the CLI
// as a user would, name a shipped measurement, write a variant of one.
#include "json_files.h"
#include "run_process.h"

#include <QFile>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

namespace gapstudio::test::cli {

using Result = ProcessResult;

/// The CLI with `arguments`; calibrate fits every run and fold, so it may take ten minutes.
inline Result run(const QStringList &arguments)
{
    return runProcess(QStringLiteral(GAPSTUDIO_CLI), arguments, {}, 600000);
}

inline const QString kMeasurements = QStringLiteral(PRESETS_DIR "/measurements");

inline QString measurement(const char *family, const char *id)
{
    return kMeasurements + QLatin1Char('/') + QLatin1String(family) + QLatin1Char('/') + QLatin1String(id)
           + QLatin1String(".json");
}

inline QByteArray lastLine(const QByteArray &text)
{
    const QList<QByteArray> lines = text.trimmed().split('\n');
    return lines.isEmpty() ? QByteArray() : lines.last();
}

/// Writes `json` (a measurement file with one change) into `dir`.
inline QString writeVariant(const QTemporaryDir &dir, const char *name, const nlohmann::json &json)
{
    return writeJsonFile(dir.path() + QLatin1Char('/') + QLatin1String(name), json);
}

inline QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

inline nlohmann::json readJson(const QString &path)
{
    return readJsonFile(path);
}

} // namespace gapstudio::test::cli
