// Every shipped example works: each *.gapstudio.json under presets/scenarios (subfolders included:
// File > Open example groups by them) and each step of each
// presets/roadmaps/*.gapstudio-roadmap.json evaluates Ok in the default (corrected) model, with
// a cost result. A new example that does not fit or run fails here, by name.
#include "gapstudio/io/preset_json.h"
#include "gapstudio/io/roadmap_json.h"
#include "gapstudio/scenario/pipeline.h"

#include <QDir>
#include <QDirIterator>
#include <QTest>

using namespace gapstudio;

class tst_Examples : public QObject {
    Q_OBJECT

    scenario::PresetLibrary mLibrary;

    void check(const scenario::Scenario &s, const QString &what)
    {
        const scenario::PipelineResult r = scenario::runScenario(s, mLibrary);
        QVERIFY2(r.ok(), qPrintable(what + QStringLiteral(": ") + QString::fromStdString(r.statusText)));
        QVERIFY2(r.cost && r.cost->joulesPerToken > 0, qPrintable(what));
    }

private slots:
    void initTestCase() { mLibrary = io::loadPresetLibrary(PRESETS_DIR); }

    void everyExample_data()
    {
        QTest::addColumn<QString>("path");
        const QDir scenarios(QStringLiteral(PRESETS_DIR "/scenarios"));
        QStringList paths;
        QDirIterator it(scenarios.path(), { QStringLiteral("*.json") }, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            paths << it.next();
        paths.sort();
        QVERIFY(paths.size() >= 17); // the five top-level examples and the paper's two groups of six
        for (const QString &path : paths) {
            QVERIFY2(path.endsWith(QLatin1String(".gapstudio.json")),
                     qPrintable(path + " is not a scenario"));
            QTest::newRow(qPrintable(scenarios.relativeFilePath(path))) << path;
        }
        const QDir roadmaps(QStringLiteral(PRESETS_DIR "/roadmaps"));
        for (const QString &name :
             roadmaps.entryList({ QStringLiteral("*.gapstudio-roadmap.json") }, QDir::Files))
            QTest::newRow(qPrintable(name)) << roadmaps.filePath(name);
    }
    void everyExample()
    {
        QFETCH(QString, path);
        if (path.endsWith(QLatin1String(".gapstudio.json"))) {
            check(io::loadScenario(path.toStdString()), path);
            return;
        }
        const io::Roadmap roadmap = io::loadRoadmap(path.toStdString());
        for (const io::RoadmapStep &step : roadmap.steps)
            check(step.scenario, path + QStringLiteral(" step ") + QString::fromStdString(step.name));
    }
};

QTEST_GUILESS_MAIN(tst_Examples)
#include "tst_examples.moc"
