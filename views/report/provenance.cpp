#include "report/provenance.h"

#include "charts/chartexport.h"

#include "gapstudio/io/preset_json.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QObject>

namespace gapstudio::views {

namespace {

std::optional<scenario::Scenario> fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return std::nullopt;
}

} // namespace

QString scenarioProvenance(const scenario::Scenario &scenario)
{
    return QString::fromStdString(io::toText(io::toJson(scenario)));
}

std::optional<scenario::Scenario> scenarioFromProvenance(const QString &json, const QString &origin,
                                                         QString *error)
{
    const std::string file = origin.toStdString();
    try {
        // The same limits as a scenario file (nesting, duplicate keys): io::parseJsonText.
        nlohmann::json parsed = io::parseJsonText(json.toStdString(), file);
        return io::parseScenario(io::migratePreset(std::move(parsed), io::PresetKind::Scenario, file), file);
    } catch (const std::exception &e) { // io::InputError: "file: /pointer: message"
        return fail(error, QString::fromUtf8(e.what()));
    }
}

std::optional<scenario::Scenario> restoreScenario(const QString &path, QString *error)
{
    if (!QFile::exists(path))
        return fail(error, QObject::tr("%1: no such file").arg(path));
    if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        try {
            return io::loadScenario(path.toStdString());
        } catch (const std::exception &e) { // io::InputError: "file: /pointer: message"
            return fail(error, QString::fromUtf8(e.what()));
        }
    }
    QString problem;
    const QString embedded = readProvenance(path, &problem);
    if (!problem.isEmpty())
        return fail(error, problem.startsWith(path) ? problem : QStringLiteral("%1: %2").arg(path, problem));
    if (embedded.isEmpty())
        return fail(error,
                    QObject::tr("%1: carries no GapStudio scenario (not an export of GapStudio)").arg(path));
    return scenarioFromProvenance(embedded, path, error);
}

} // namespace gapstudio::views
