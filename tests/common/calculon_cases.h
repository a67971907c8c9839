#pragma once
// Helpers shared by the tests that read the reference cases in tests/data/calculon/cases/.

#include "gapstudio/model/stats.h"

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <string>

namespace gapstudio::test {

inline QString casesDir()
{
    return QStringLiteral(TEST_DATA_DIR "/calculon/cases");
}

/// Case folder names, sorted (discovered at run time, so a new case is a new test row).
inline QStringList caseNames()
{
    return QDir(casesDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

inline std::string caseFile(const QString &caseName, const char *file)
{
    return (casesDir() + QLatin1Char('/') + caseName + QLatin1Char('/') + QLatin1String(file)).toStdString();
}

inline QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

inline nlohmann::json readJson(const std::string &path)
{
    const QByteArray bytes = readAll(QString::fromStdString(path));
    return nlohmann::json::parse(bytes.begin(), bytes.end());
}

/// The reference's acceptance rule (validation/calculon/README.md): 1e-6 relative, or 1e-9
/// absolute where the expected value is below 1e-9 in magnitude.
inline bool withinTolerance(double actual, double expected, double relative = 1e-6, double absolute = 1e-9)
{
    if (std::fabs(expected) < absolute)
        return std::fabs(actual - expected) <= absolute;
    return std::fabs(actual - expected) <= relative * std::fabs(expected);
}

/// Error used to rank mismatches: relative, or absolute for tiny expected values.
inline double errorOf(double actual, double expected, double absolute = 1e-9)
{
    if (std::isnan(actual))
        return INFINITY;
    if (std::fabs(expected) < absolute)
        return std::fabs(actual - expected);
    return std::fabs(actual - expected) / std::fabs(expected);
}

inline std::map<std::string, double> statsByName(const model::Stats &stats)
{
    std::map<std::string, double> result;
    stats.forEach([&result](std::string_view name, double value) { result.emplace(std::string(name), value); });
    return result;
}

} // namespace gapstudio::test
