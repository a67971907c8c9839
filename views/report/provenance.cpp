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
        nlohmann::json parsed = nlohmann::json::parse(json.toStdString());
        return io::parseScenario(io::migratePreset(std::move(parsed), io::PresetKind::Scenario, file), file);
    } catch (const nlohmann::json::parse_error &e) {
        return fail(error, QStringLiteral("%1: the embedded scenario is not JSON (%2)")
                               .arg(origin, QString::fromUtf8(e.what())));
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
    const QString embedded = readProvenance(path);
    if (embedded.isEmpty())
        return fail(error,
                    QObject::tr("%1: carries no GapStudio scenario (not an export of GapStudio)").arg(path));
    return scenarioFromProvenance(embedded, path, error);
}

} // namespace gapstudio::views
