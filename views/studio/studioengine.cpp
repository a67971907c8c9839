#include "studio/studioengine.h"

#include "common/safewrite.h"

#include "studio/builtinpresets.h"

#include "gapstudio/io/preset_json.h"

#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <array>

namespace gapstudio::views {

namespace {
constexpr std::array<const char *, 5> kKindNames = {"gpu", "interconnect", "topology", "llm", "layout"};
}

QString blockKindName(BlockKind kind)
{
    return QString::fromLatin1(kKindNames[static_cast<std::size_t>(kind)]);
}

std::optional<BlockKind> blockKindFromName(const QString &name)
{
    for (std::size_t i = 0; i < kKindNames.size(); ++i)
        if (name == QLatin1String(kKindNames[i]))
            return static_cast<BlockKind>(i);
    return std::nullopt;
}

scenario::PresetLibrary builtinLibrary()
{
    return fallback::library();
}

QString presetsDirectory()
{
    QStringList candidates;
    if (qEnvironmentVariableIsSet("GAPSTUDIO_PRESETS"))
        candidates << qEnvironmentVariable("GAPSTUDIO_PRESETS");
    candidates << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/gapstudio/presets");
    candidates << QStandardPaths::locateAll(QStandardPaths::AppDataLocation, QStringLiteral("presets"),
                                            QStandardPaths::LocateDirectory);
    candidates << QStringLiteral(GAPSTUDIO_SOURCE_PRESETS_DIR);
    for (const QString &dir : candidates)
        if (!dir.isEmpty() && QFileInfo(dir + QStringLiteral("/gpus")).isDir())
            return QFileInfo(dir).canonicalFilePath();
    return {};
}

scenario::PresetLibrary loadStudioLibrary()
{
    const QString dir = presetsDirectory();
    if (!dir.isEmpty()) {
        try {
            return io::loadPresetLibrary(dir.toStdString());
        } catch (const std::exception &error) {
            qWarning("presets in %s not loaded (%s); using the built-in library", qPrintable(dir), error.what());
        }
    }
    return builtinLibrary();
}

scenario::CompileResult compileScenario(const scenario::Scenario &scenario, const scenario::PresetLibrary &library)
{
    try {
        return scenario::compile(scenario, library);
    } catch (const std::exception &error) {
        scenario::CompileResult result;
        result.diagnostics.push_back({model::DiagnosticCode::InvalidScenario, "", error.what()});
        return result;
    }
}

scenario::Scenario studioDefaultScenario(const scenario::PresetLibrary &library)
{
    const QString dir = presetsDirectory();
    if (!dir.isEmpty()) {
        try {
            scenario::Scenario s = io::loadScenario((dir + QStringLiteral("/scenarios/default.gapstudio.json")).toStdString());
            if (compileScenario(s, library).compiled)
                return s;
        } catch (const std::exception &) { // fall back below
        }
    }
    return fallback::defaultScenario();
}

std::string scenarioToJsonText(const scenario::Scenario &scenario)
{
    return io::toText(io::toJson(scenario));
}

bool sameScenario(const scenario::Scenario &a, const scenario::Scenario &b)
{
    try {
        return scenarioToJsonText(a) == scenarioToJsonText(b);
    } catch (const std::exception &) {
        return false;
    }
}

std::optional<scenario::Scenario> scenarioFromJsonText(const std::string &text, QString *error)
{
    try {
        return io::parseScenario(nlohmann::json::parse(text), "scenario");
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

std::optional<scenario::Scenario> readScenarioFile(const QString &path, QString *error)
{
    try {
        return io::loadScenario(path.toStdString());
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

bool writeScenarioFile(const scenario::Scenario &scenario, const QString &path, QString *error)
{
    std::string text;
    try {
        text = scenarioToJsonText(scenario);
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    // Complete or untouched, with the OS reason on failure (Qt 6.4's QSaveFile commits after a
    // failed flush: a full disk left a 0-byte file and reported success).
    return writeFileSafely(path, QByteArray::fromStdString(text), error);
}

} // namespace gapstudio::views
