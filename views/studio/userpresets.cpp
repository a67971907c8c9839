#include "studio/userpresets.h"

#include "gapstudio/io/preset_locations.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <variant>

namespace gapstudio::views {

namespace {

/// The folder of each kind, as in the shipped presets/ (presets/README.md).
QString kindFolder(const io::PresetFile &preset)
{
    return std::visit(
        [](const auto &block) -> QString {
            using T = std::decay_t<decltype(block)>;
            if constexpr (std::is_same_v<T, scenario::Gpu>)
                return QStringLiteral("gpus");
            else if constexpr (std::is_same_v<T, scenario::Interconnect>)
                return QStringLiteral("interconnects");
            else if constexpr (std::is_same_v<T, scenario::Topology>)
                return QStringLiteral("topologies");
            else if constexpr (std::is_same_v<T, scenario::Llm>)
                return QStringLiteral("llms");
            else if constexpr (std::is_same_v<T, scenario::Layout>)
                return QStringLiteral("layouts");
            else
                return {};
        },
        preset);
}

std::string idOf(const io::PresetFile &preset)
{
    return std::visit([](const auto &block) { return block.info.id; }, preset);
}

} // namespace

QString userPresetFolder()
{
    return QString::fromStdString(io::userPresetsDirectory());
}

std::set<std::pair<BlockKind, std::string>> userPresetIds()
{
    std::set<std::pair<BlockKind, std::string>> ids;
    const QString folder = userPresetFolder();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        return ids;
    scenario::PresetLibrary library;
    try {
        library = io::loadPresetLibrary(folder.toStdString());
    } catch (const std::exception &) { // reported when the library loads (loadStudioLibrary)
        return ids;
    }
    const auto add = [&ids](BlockKind kind, const auto &presets) {
        for (const auto &entry : presets)
            ids.insert({ kind, entry.first });
    };
    add(BlockKind::Gpu, library.gpus);
    add(BlockKind::Interconnect, library.interconnects);
    add(BlockKind::Topology, library.topologies);
    add(BlockKind::Llm, library.llms);
    add(BlockKind::Layout, library.layouts);
    return ids;
}

std::string presetIdFor(const QString &name)
{
    static const QRegularExpression separators(QStringLiteral("[^a-z0-9.]+"));
    QString id = name.toLower().replace(separators, QStringLiteral("-"));
    while (id.startsWith(QLatin1Char('-')))
        id.remove(0, 1);
    while (id.endsWith(QLatin1Char('-')))
        id.chop(1);
    return id.isEmpty() ? std::string("my-block") : id.toStdString();
}

QString saveUserPreset(const io::PresetFile &preset, QString *error)
{
    const QString folder = userPresetFolder();
    const QString kind = kindFolder(preset);
    const std::string id = idOf(preset);
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return QString();
    };
    if (folder.isEmpty())
        return fail(QObject::tr("No folder for your presets: neither XDG_DATA_HOME nor HOME is set"));
    if (kind.isEmpty() || id.empty())
        return fail(
            QObject::tr("Only GPUs, interconnects, topologies, LLMs and layouts can be saved as presets"));
    const QString dir = QDir(folder).filePath(kind);
    if (!QDir().mkpath(dir))
        return fail(QObject::tr("Cannot create the folder %1").arg(dir));
    const QString path = QDir(dir).filePath(QString::fromStdString(id) + QStringLiteral(".json"));
    try {
        io::savePresetFile(preset, path.toStdString());
    } catch (const std::exception &e) {
        return fail(QString::fromStdString(e.what()));
    }
    return path;
}

scenario::PresetLibrary libraryOf(const io::PresetFile &preset)
{
    scenario::PresetLibrary library;
    std::visit(
        [&library](const auto &block) {
            using T = std::decay_t<decltype(block)>;
            if constexpr (std::is_same_v<T, scenario::Gpu>)
                library.gpus[block.info.id] = block;
            else if constexpr (std::is_same_v<T, scenario::Interconnect>)
                library.interconnects[block.info.id] = block;
            else if constexpr (std::is_same_v<T, scenario::Topology>)
                library.topologies[block.info.id] = block;
            else if constexpr (std::is_same_v<T, scenario::Llm>)
                library.llms[block.info.id] = block;
            else if constexpr (std::is_same_v<T, scenario::Layout>)
                library.layouts[block.info.id] = block;
        },
        preset);
    return library;
}

} // namespace gapstudio::views
