// The preset search order, the layered library and the embedded copy (io/preset_locations.h).
#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/preset_locations.h"
#include "gapstudio/scenario/pipeline.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace gapstudio;
using io::PresetSource;

namespace {

/// A fake installation: bin/, share/gapstudio/presets, a data home, an environment folder and a
/// source tree, every preset folder holding one GPU preset named after the folder.
struct Tree {
    QTemporaryDir root;
    QString path(const QString &relative) const { return root.filePath(relative); }

    void gpu(const QString &folder, const std::string &id, const std::string &name) const
    {
        scenario::Gpu gpu = io::embeddedPresetLibrary().gpus.at("nvidia-h100-sxm-80gb");
        gpu.info.id = id;
        gpu.info.name = name;
        QDir().mkpath(path(folder + QStringLiteral("/gpus")));
        io::savePresetFile(gpu, (path(folder) + QStringLiteral("/gpus/") + QString::fromStdString(id)
                                 + QStringLiteral(".json"))
                                    .toStdString());
    }

    io::PresetEnvironment environment() const
    {
        io::PresetEnvironment e;
        e.presetsVariable = path(QStringLiteral("env")).toStdString();
        e.executableDir = path(QStringLiteral("prefix/bin")).toStdString();
        e.dataHome = path(QStringLiteral("data")).toStdString();
        e.home = path(QStringLiteral("home")).toStdString();
        e.sourceTree = path(QStringLiteral("source")).toStdString();
        return e;
    }
};

QList<PresetSource> sources(const std::vector<io::PresetFolder> &order)
{
    QList<PresetSource> out;
    for (const io::PresetFolder &f : order)
        out << f.source;
    return out;
}

} // namespace

class tst_PresetLocations : public QObject {
    Q_OBJECT

private slots:
    // The user's blocks come before the installed ones: a block saved under a shipped id hides it.
    void orderIsEnvironmentUserInstalledSourceEmbedded()
    {
        Tree t;
        for (const char *folder :
             { "env", "prefix/share/gapstudio/presets", "data/gapstudio/presets", "source" })
            QVERIFY(QDir().mkpath(t.path(QString::fromLatin1(folder))));
        QDir().mkpath(t.path(QStringLiteral("prefix/bin")));
        const std::vector<io::PresetFolder> order = io::presetSearchOrder(t.environment());
        QCOMPARE(sources(order), (QList<PresetSource> { PresetSource::Environment, PresetSource::UserData,
                                                        PresetSource::Installed, PresetSource::SourceTree,
                                                        PresetSource::Embedded }));
        QCOMPARE(QString::fromStdString(order[1].path), t.path(QStringLiteral("data/gapstudio/presets")));
        QCOMPARE(QString::fromStdString(order[2].path),
                 t.path(QStringLiteral("prefix/share/gapstudio/presets")));
    }

    void missingFoldersAreLeftOutButTheVariableIsNot()
    {
        Tree t;
        io::PresetEnvironment e = t.environment();
        QCOMPARE(sources(io::presetSearchOrder(e)),
                 (QList<PresetSource> { PresetSource::Environment, PresetSource::Embedded }));
        QVERIFY_THROWS_EXCEPTION(io::InputError, (void)io::loadPresets(io::presetSearchOrder(e)));
        e.presetsVariable.clear();
        QCOMPARE(sources(io::presetSearchOrder(e)), (QList<PresetSource> { PresetSource::Embedded }));
    }

    void userFolderFallsBackToHome()
    {
        Tree t;
        io::PresetEnvironment e = t.environment();
        e.dataHome.clear();
        QCOMPARE(QString::fromStdString(io::userPresetsDirectory(e)),
                 t.path(QStringLiteral("home/.local/share/gapstudio/presets")));
        e.home.clear();
        QVERIFY(io::userPresetsDirectory(e).empty());
    }

    // Each folder has the same id with its own name, and one id of its own: the earlier folder's
    // wins, the others are all there, and the embedded copy completes the library.
    void earlierFoldersHideLaterOnes()
    {
        Tree t;
        const QList<QPair<QString, std::string>> folders
            = { { QStringLiteral("env"), "env" },
                { QStringLiteral("data/gapstudio/presets"), "user" },
                { QStringLiteral("source"), "source" } };
        for (const auto &[folder, name] : folders) {
            t.gpu(folder, "shared-gpu", name);
            t.gpu(folder, name + "-only", name);
        }
        const io::PresetLibraryLoad load = io::loadPresets(io::presetSearchOrder(t.environment()));
        QCOMPARE(load.library.gpus.at("shared-gpu").info.name, std::string("env"));
        for (const char *own : { "env-only", "user-only", "source-only" })
            QVERIFY2(load.library.gpus.contains(own), own);
        QVERIFY(load.library.gpus.contains("nvidia-b200")); // from the embedded copy
        QCOMPARE(load.folders.size(), std::size_t(4));
        QVERIFY(load.warnings.empty());
    }

    void brokenUserFolderIsLeftOutWithAWarning()
    {
        Tree t;
        t.gpu(QStringLiteral("data/gapstudio/presets"), "mine", "mine");
        QFile broken(t.path(QStringLiteral("data/gapstudio/presets/gpus/broken.json")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{ not json");
        broken.close();
        io::PresetEnvironment e = t.environment();
        e.presetsVariable.clear();
        const io::PresetLibraryLoad load = io::loadPresets(io::presetSearchOrder(e));
        QCOMPARE(load.warnings.size(), std::size_t(1));
        QVERIFY2(load.warnings[0].find("broken.json") != std::string::npos, load.warnings[0].c_str());
        QVERIFY(load.library.gpus.contains("nvidia-h100-sxm-80gb"));
    }

    // The embedded copy is the shipped presets/ folder, file by file.
    void embeddedCopyIsTheShippedFolder()
    {
        QStringList shipped;
        QDirIterator it(QStringLiteral(PRESETS_DIR), { QStringLiteral("*.json") }, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            shipped << QDir(QStringLiteral(PRESETS_DIR)).relativeFilePath(it.next());
        shipped.sort();
        QStringList embedded;
        for (const io::EmbeddedPresetFile &file : io::embeddedPresetFiles()) {
            const QString path
                = QString::fromUtf8(file.path.data(), static_cast<qsizetype>(file.path.size()));
            embedded << path;
            QFile source(QStringLiteral(PRESETS_DIR "/") + path);
            QVERIFY(source.open(QIODevice::ReadOnly));
            QCOMPARE(QByteArray(file.text.data(), static_cast<qsizetype>(file.text.size())),
                     source.readAll());
        }
        QCOMPARE(embedded, shipped);
    }

    // A binary far from any preset folder still has the presets and the default scenario.
    void embeddedAloneRunsTheDefault()
    {
        const std::vector<io::PresetFolder> order = io::presetSearchOrder(io::PresetEnvironment {});
        QCOMPARE(sources(order), QList<PresetSource> { PresetSource::Embedded });
        const io::PresetLibraryLoad load = io::loadPresets(order);
        const scenario::Scenario s = io::loadShippedScenario(io::kDefaultScenarioFile, order);
        QCOMPARE(s.info.id, std::string("default"));
        QCOMPARE(scenario::runScenario(s, load.library).status, scenario::EvaluationStatus::Ok);
        QVERIFY_THROWS_EXCEPTION(io::InputError, (void)io::loadShippedScenario("scenarios/none.json", order));
    }

    void shippedScenarioComesFromTheFirstFolderThatHasIt()
    {
        Tree t;
        QDir().mkpath(t.path(QStringLiteral("source/scenarios")));
        scenario::Scenario mine
            = io::loadShippedScenario(io::kDefaultScenarioFile, io::presetSearchOrder({}));
        mine.info.name = "from the source tree";
        io::saveScenario(mine,
                         t.path(QStringLiteral("source/scenarios/default.gapstudio.json")).toStdString());
        io::PresetEnvironment e = t.environment();
        e.presetsVariable.clear();
        QCOMPARE(io::loadShippedScenario(io::kDefaultScenarioFile, io::presetSearchOrder(e)).info.name,
                 std::string("from the source tree"));
    }
};

QTEST_GUILESS_MAIN(tst_PresetLocations)
#include "tst_preset_locations.moc"
