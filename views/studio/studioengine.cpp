#include "studio/studioengine.h"

#include "common/safewrite.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/preset_locations.h"

#include <nlohmann/json.hpp>


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

scenario::PresetLibrary loadStudioLibrary()
{
    std::vector<io::PresetFolder> order = io::presetSearchOrder();
    io::PresetLibraryLoad load;
    try {
        load = io::loadPresets(order);
    } catch (const std::exception &error) { // a wrong $GAPSTUDIO_PRESETS: the studio still opens
        qWarning("%s (left out)", error.what());
        std::erase_if(order,
                      [](const io::PresetFolder &f) { return f.source == io::PresetSource::Environment; });
        load = io::loadPresets(order);
    }
    for (const std::string &warning : load.warnings)
        qWarning("%s", warning.c_str());
    return std::move(load.library);
}

scenario::Scenario studioDefaultScenario()
{
    try {
        return io::loadShippedScenario(io::kDefaultScenarioFile);
    } catch (const std::exception &error) { // a broken copy in a preset folder: the embedded one
        qWarning("%s", error.what());
        return io::loadShippedScenario(io::kDefaultScenarioFile, { io::PresetFolder {} });
    }
}

std::string scenarioToJsonText(const scenario::Scenario &scenario)
{
    return io::toText(io::toJson(scenario));
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
