#include "studio/blockactions.h"

#include "common/lastfolder.h"
#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/hf_import.h"
#include "studio/userpresets.h"

#include <nlohmann/json.hpp>

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>

namespace gapstudio::views {

namespace {

using Slot = ScenarioDocument::Slot;

bool fail(QString *error, const QString &why)
{
    if (error)
        *error = why;
    return false;
}

/// The block of `slot` in a resolved design, as a preset file.
io::PresetFile blockOf(const scenario::ResolvedScenario &r, Slot slot)
{
    switch (slot) {
    case Slot::Gpu:
        return r.gpu;
    case Slot::ScaleUp:
        return r.scaleUp;
    case Slot::ScaleOut:
        return r.scaleOut;
    case Slot::Topology:
        return r.topology;
    case Slot::Llm:
        return r.llm;
    }
    return r.gpu;
}

/// Whether the library already has a preset of `block`'s kind and id (that the user's hides).
bool hidesPreset(const scenario::PresetLibrary &library, const io::PresetFile &block)
{
    return std::visit(
        [&library](const auto &b) {
            using T = std::decay_t<decltype(b)>;
            if constexpr (std::is_same_v<T, scenario::Gpu>)
                return library.gpus.contains(b.info.id);
            else if constexpr (std::is_same_v<T, scenario::Interconnect>)
                return library.interconnects.contains(b.info.id);
            else if constexpr (std::is_same_v<T, scenario::Topology>)
                return library.topologies.contains(b.info.id);
            else if constexpr (std::is_same_v<T, scenario::Llm>)
                return library.llms.contains(b.info.id);
            else
                return false;
        },
        block);
}

} // namespace

std::optional<QString> addUserBlock(ScenarioDocument *document, const io::PresetFile &block, QString *error)
{
    const QString path = saveUserPreset(block, error);
    if (path.isEmpty())
        return std::nullopt;
    document->addToLibrary(libraryOf(block));
    return path;
}

std::optional<std::string> saveBlockAsPreset(ScenarioDocument *document, Slot slot, const QString &name,
                                             QString *error)
{
    const auto resolved = document->resolved();
    if (!resolved) {
        fail(error, QObject::tr("The design's blocks cannot be resolved (see Diagnostics)"));
        return std::nullopt;
    }
    io::PresetFile block = blockOf(*resolved, slot);
    const std::string id = presetIdFor(name);
    std::visit(
        [&](auto &b) {
            b.info.source = "Saved in GapStudio from " + b.info.name
                            + (b.info.source.empty() ? "" : ": " + b.info.source);
            b.info.id = id;
            b.info.name = name.trimmed().toStdString();
        },
        block);
    if (!addUserBlock(document, block, error))
        return std::nullopt;
    document->useSavedBlock(slot, id);
    return id;
}

std::optional<ImportedModel> importModel(ScenarioDocument *document, const QString &configPath,
                                         QString *error)
{
    const QFileInfo file(configPath);
    const QString folder
        = file.fileName() == QStringLiteral("config.json") ? file.dir().dirName() : file.completeBaseName();
    ImportedModel imported;
    imported.id = "hf-" + presetIdFor(folder);
    scenario::HfImport hf;
    try {
        hf = scenario::importHuggingFaceConfig(io::readJsonFile(configPath.toStdString()),
                                               configPath.toStdString(), imported.id,
                                               folder.toStdString() + " (imported)");
    } catch (const std::exception &e) {
        fail(error, QString::fromStdString(e.what()));
        return std::nullopt;
    }
    for (const std::string &note : hf.approximations)
        imported.approximations << QString::fromStdString(note);
    const auto path = addUserBlock(document, hf.llm, error);
    if (!path)
        return std::nullopt;
    imported.path = *path;
    document->useSavedBlock(Slot::Llm, imported.id);
    return imported;
}

void saveBlockAsPresetInteractive(QWidget *parent, ScenarioDocument *document, std::optional<Slot> slot)
{
    if (!slot) {
        QMessageBox::information(parent, QObject::tr("Save as preset"),
                                 QObject::tr("Select a GPU, link, fabric or the LLM on the canvas first."));
        return;
    }
    const auto resolved = document->resolved();
    const QString current = resolved ? QString::fromStdString(std::visit(
                                [](const auto &b) { return b.info.name; }, blockOf(*resolved, *slot)))
                                     : QString();
    bool ok = false;
    const QString name = QInputDialog::getText(
        parent, QObject::tr("Save as preset"),
        QObject::tr("Name of the block in My blocks (saved in %1):").arg(userPresetFolder()),
        QLineEdit::Normal, QObject::tr("My %1").arg(current), &ok);
    if (!ok || name.trimmed().isEmpty())
        return;
    if (resolved) {
        io::PresetFile probe = blockOf(*resolved, *slot);
        std::visit([&name](auto &b) { b.info.id = presetIdFor(name); }, probe);
        if (hidesPreset(document->library(), probe)
            && QMessageBox::question(
                   parent, QObject::tr("Replace a block?"),
                   QObject::tr("A block with the id \"%1\" exists. Yours will replace it for you "
                               "(your blocks come first). Continue?")
                       .arg(QString::fromStdString(presetIdFor(name))))
                   != QMessageBox::Yes)
            return;
    }
    QString error;
    if (!saveBlockAsPreset(document, *slot, name, &error))
        QMessageBox::critical(parent, QObject::tr("Save as preset failed"), error);
}

void newBlockInteractive(QWidget *parent, ScenarioDocument *document, NewBlockDialog::Kind kind)
{
    NewBlockDialog dialog(kind, document->library(), parent);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    io::PresetFile block;
    try {
        block = dialog.block();
    } catch (const std::exception &e) {
        QMessageBox::critical(parent, dialog.windowTitle(), QString::fromStdString(e.what()));
        return;
    }
    if (!addUserBlock(document, block, &error)) {
        QMessageBox::critical(parent, dialog.windowTitle(), error);
        return;
    }
    const std::string id = std::visit([](const auto &b) { return b.info.id; }, block);
    if (kind == NewBlockDialog::Kind::Gpu)
        document->useSavedBlock(Slot::Gpu, id);
    else if (dialog.use() != NewBlockDialog::Use::Nothing)
        document->useSavedBlock(dialog.use() == NewBlockDialog::Use::ScaleUp ? Slot::ScaleUp : Slot::ScaleOut,
                                id);
}

void importModelInteractive(QWidget *parent, ScenarioDocument *document)
{
    const QString path
        = QFileDialog::getOpenFileName(parent, QObject::tr("Import a Hugging Face model"), lastFolder(),
                                       QObject::tr("Model configuration (config.json *.json)"));
    if (path.isEmpty())
        return;
    rememberFolder(path);
    QString error;
    const std::optional<ImportedModel> imported = importModel(document, path, &error);
    if (!imported) {
        QMessageBox::critical(parent, QObject::tr("Import failed"), error);
        return;
    }
    QString text = QObject::tr("The model is now in My blocks and the design trains it.");
    if (!imported->approximations.isEmpty())
        text += QObject::tr("\n\nApproximated:\n• %1")
                    .arg(imported->approximations.join(QStringLiteral("\n• ")));
    QMessageBox::information(parent, QObject::tr("Model imported"), text);
}

} // namespace gapstudio::views
