#include "studio/studioengine.h"

#include "studio/builtinpresets.h"

#include <QFile>
#include <QSaveFile>

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

scenario::PresetLibrary loadStudioLibrary()
{
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

scenario::Scenario studioDefaultScenario(const scenario::PresetLibrary &)
{
    return fallback::defaultScenario();
}

std::string scenarioToJsonText(const scenario::Scenario &scenario)
{
    return fallback::toJson(scenario).dump(2) + "\n";
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
        return fallback::fromJson(nlohmann::json::parse(text));
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

std::optional<scenario::Scenario> readScenarioFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QString why;
    auto scenario = scenarioFromJsonText(file.readAll().toStdString(), &why);
    if (!scenario && error)
        *error = QStringLiteral("%1: %2").arg(path, why);
    return scenario;
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
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
        !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace gapstudio::views
