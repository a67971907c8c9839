// The README's pictures of the studio against the app that makes them: `gapstudio --screenshot`
// writes the design and the step time it shows into the PNG (as the chart exports carry their
// design), and every picture the README makes that way must show the step time the app computes
// for its design today. A change of the model that moves a pictured number fails here, naming the
// README's command that makes the picture again, so the pictures cannot go stale unnoticed.
#include "charts/chartexport.h"
#include "report/provenance.h"
#include "studio/recalculator.h"

#include "gapstudio/io/preset_json.h"

#include "run_process.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gapstudio;

namespace {

/// The step time the studio shows for `design`, with the shipped presets.
std::optional<double> computedStepTime(const scenario::Scenario &design)
{
    static const scenario::PresetLibrary library = io::loadPresetLibrary(PRESETS_DIR);
    const views::ResultsPtr results = views::computeResults(design, library);
    if (!results->ok())
        return std::nullopt;
    return results->evaluation.stats.total_time;
}

/// The design a screenshot was made of, and the step time it says it shows.
struct Pictured {
    std::optional<scenario::Scenario> design;
    std::optional<double> stepTime_s;
    QString problem;
};

Pictured pictured(const QString &png)
{
    Pictured p;
    const QString json = views::readProvenance(png, &p.problem);
    if (!json.isEmpty())
        p.design = views::scenarioFromProvenance(json, png, &p.problem);
    p.stepTime_s = views::screenshotStepTime(png);
    return p;
}

} // namespace

class tst_Screenshots : public QObject {
    Q_OBJECT

private slots:
    void screenshotCarriesItsDesignAndStepTime()
    {
        // The README's command, on a shipped example.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath(QStringLiteral("studio.png"));
        const QString example
            = QStringLiteral(PRESETS_DIR "/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json");
        QProcessEnvironment env;
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        const test::ProcessResult run = test::runProcess(
            QStringLiteral(GAPSTUDIO_GUI),
            { QStringLiteral("--scenario"), example, QStringLiteral("--screenshot"), out }, {}, 120000, env);
        QVERIFY2(run.exitCode == 0, run.err.constData());

        const Pictured p = pictured(out);
        QVERIFY2(p.design, qPrintable(p.problem));
        QVERIFY(*p.design == io::loadScenario(example.toStdString()));
        QVERIFY(p.stepTime_s);
        const std::optional<double> computed = computedStepTime(*p.design);
        QVERIFY(computed);
        QCOMPARE(*p.stepTime_s, *computed); // written with 17 digits: the same double
    }

    void readmePicturesAreCurrent_data()
    {
        // Every picture the README makes with --screenshot.
        QFile readme(QStringLiteral(SOURCE_DIR "/README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        QTest::addColumn<QString>("picture");
        int rows = 0;
        QRegularExpressionMatchIterator it
            = QRegularExpression(QStringLiteral("--screenshot (docs/[A-Za-z0-9_.-]+\\.png)"))
                  .globalMatch(text);
        while (it.hasNext()) {
            const QString picture = it.next().captured(1);
            QTest::newRow(qPrintable(picture)) << picture;
            ++rows;
        }
        QVERIFY2(rows >= 3, "the README makes its pictures of the studio with gapstudio --screenshot");
    }

    void readmePicturesAreCurrent()
    {
        QFETCH(QString, picture);
        const Pictured p = pictured(QStringLiteral(SOURCE_DIR "/") + picture);
        const QString again
            = QStringLiteral("%1: make it again with the README's gapstudio --screenshot command")
                  .arg(picture);
        QVERIFY2(p.design,
                 qPrintable(again + QStringLiteral(" (no design in it: ") + p.problem + QLatin1Char(')')));
        QVERIFY2(p.stepTime_s, qPrintable(again + QStringLiteral(" (no step time in it)")));
        const std::optional<double> computed = computedStepTime(*p.design);
        QVERIFY2(computed, qPrintable(picture + QStringLiteral(": its design has no step time now")));
        QVERIFY2(std::abs(*p.stepTime_s / *computed - 1) <= 1e-9,
                 qPrintable(again
                            + QStringLiteral(" (it shows a step time of %1 s; the app computes %2 s)")
                                  .arg(*p.stepTime_s, 0, 'g', 6)
                                  .arg(*computed, 0, 'g', 6)));
    }
};

QTEST_MAIN(tst_Screenshots)
#include "tst_screenshots.moc"
