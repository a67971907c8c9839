#include "studio/examplemenu.h"

#include "gapstudio/io/preset_locations.h"

#include <QDir>
#include <QDirIterator>

#include <algorithm>
#include <set>
#include <tuple>

namespace gapstudio::views {

namespace {

const QString kScenarios = QStringLiteral("scenarios/");

bool isScenarioFile(const QString &relativePath)
{
    return relativePath.startsWith(kScenarios) && relativePath.endsWith(QStringLiteral(".json"));
}

/// Every scenario file's path relative to the preset folder, in no particular order.
std::set<QString> scenarioPaths()
{
    std::set<QString> paths;
    for (const io::PresetFolder &folder : io::presetSearchOrder()) {
        if (folder.source == io::PresetSource::Embedded) {
            for (const io::EmbeddedPresetFile &file : io::embeddedPresetFiles()) {
                const QString path
                    = QString::fromUtf8(file.path.data(), static_cast<qsizetype>(file.path.size()));
                if (isScenarioFile(path))
                    paths.insert(path);
            }
            continue;
        }
        const QDir root(QString::fromStdString(folder.path));
        QDirIterator it(root.filePath(kScenarios), { QStringLiteral("*.json") }, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            paths.insert(root.relativeFilePath(it.next()));
    }
    return paths;
}

/// "validation-runs" -> "Validation runs".
QString groupName(const QString &folder)
{
    QString name = folder;
    name.replace(QLatin1Char('-'), QLatin1Char(' ')).replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!name.isEmpty())
        name[0] = name[0].toUpper();
    return name;
}

} // namespace

std::optional<scenario::Scenario> loadExample(const QString &relativePath, QString *error)
{
    try {
        return io::loadShippedScenario(relativePath.toStdString());
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

std::vector<ExampleScenario> exampleScenarios(const scenario::PresetLibrary &library)
{
    std::vector<ExampleScenario> examples;
    const QString defaultPath = QString::fromLatin1(io::kDefaultScenarioFile);
    for (const QString &path : scenarioPaths()) {
        const std::optional<scenario::Scenario> s = loadExample(path);
        if (!s)
            continue;
        ExampleScenario example;
        example.relativePath = path;
        example.name = QString::fromStdString(s->info.name.empty() ? s->info.id : s->info.name);
        const QString inside = path.mid(kScenarios.size());
        if (path == defaultPath) {
            example.group = QObject::tr("Default design");
        } else if (inside.contains(QLatin1Char('/'))) {
            example.group = groupName(inside.section(QLatin1Char('/'), 0, 0));
        } else {
            const auto llm = library.llms.find(s->llm.presetId);
            example.group = s->llm.inlineBlock ? QString::fromStdString(s->llm.inlineBlock->info.name)
                            : llm != library.llms.end() ? QString::fromStdString(llm->second.info.name)
                                                        : QString::fromStdString(s->llm.presetId);
        }
        examples.push_back(std::move(example));
    }
    std::sort(
        examples.begin(), examples.end(), [&defaultPath](const ExampleScenario &a, const ExampleScenario &b) {
            const bool aDefault = a.relativePath == defaultPath, bDefault = b.relativePath == defaultPath;
            if (aDefault != bDefault)
                return aDefault;
            return std::tie(a.group, a.name) < std::tie(b.group, b.name);
        });
    return examples;
}

ExampleMenu::ExampleMenu(const scenario::PresetLibrary *library, QWidget *parent)
    : QMenu(tr("Open &example"), parent)
    , mLibrary(library)
{
    setObjectName(QStringLiteral("exampleMenu"));
    setToolTipsVisible(true);
    connect(this, &QMenu::aboutToShow, this, &ExampleMenu::populate);
    populate(); // so that the menu is never empty, e.g. for keyboard navigation
}

void ExampleMenu::populate()
{
    clear();
    QString group;
    QMenu *into = this;
    for (const ExampleScenario &example : exampleScenarios(*mLibrary)) {
        if (example.group != group) {
            group = example.group;
            into = example.group == tr("Default design") ? this : addMenu(example.group);
        }
        QAction *action = into->addAction(example.name);
        action->setToolTip(example.relativePath);
        connect(action, &QAction::triggered, this,
                [this, path = example.relativePath] { emit exampleChosen(path); });
    }
    if (actions().isEmpty())
        addAction(tr("No example scenarios found"))->setEnabled(false);
}

} // namespace gapstudio::views
