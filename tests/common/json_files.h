#pragma once
// JSON files in tests that run the CLI: read an output or a shipped file, write a variant of one.

#include <QFile>
#include <QString>

#include <nlohmann/json.hpp>

namespace gapstudio::test {

/// The JSON in `path` (a missing file stops the test run: the test's own setup is broken).
inline nlohmann::json readJsonFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return nlohmann::json::parse(file.readAll().toStdString());
}

/// Writes `json` to `path` and returns `path`.
inline QString writeJsonFile(const QString &path, const nlohmann::json &json)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(json.dump(2).c_str());
    return path;
}

} // namespace gapstudio::test
