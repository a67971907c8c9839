// One table of override keys (scenario::overrideKeys()): every key has words and a unit; the
// value a key reads back from a design is what the model uses (an override of that very value
// leaves every statistic unchanged, calibrated network tiers included: the sliders once showed the
// preset's link efficiency while the model ran the calibration's); the studio's slider names and
// the list in presets/README.md are the table's, and the README list fails this test when stale.
#include "shippedresults.h"
#include "studio/parameternames.h"

#include "gapstudio/scenario/override_keys.h"
#include "gapstudio/scenario/pipeline.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace gapstudio;

namespace {

/// The presets README's list of override keys, as the table gives it.
QString readmeSection()
{
    QString text = QStringLiteral("| Key | Name | Unit | Meaning |\n|---|---|---|---|\n");
    for (const scenario::OverrideKey &k : scenario::overrideKeys())
        text += QStringLiteral("| `%1` | %2 | %3 | %4 |\n")
                    .arg(QLatin1String(k.key), QString::fromUtf8(k.label), QString::fromUtf8(k.unit),
                         QString::fromUtf8(k.description));
    return text;
}

constexpr const char *kBegin
    = "<!-- override keys: the table of scenario::overrideKeys(), checked by tst_override_keys -->\n";
constexpr const char *kEnd = "<!-- end of override keys -->";

} // namespace

class tst_OverrideKeys : public QObject {
    Q_OBJECT

private slots:
    void everyKeyHasWords()
    {
        for (const scenario::OverrideKey &k : scenario::overrideKeys()) {
            QVERIFY2(*k.label != '\0', k.key);
            QVERIFY2(*k.description != '\0', k.key);
            QCOMPARE(scenario::findOverrideKey(k.key), &k);
            // The studio's sliders and tips name a key by the table's words.
            const views::ParameterWords words = views::parameterWords(k.key);
            if (std::string(k.key) != scenario::keys::kComputeScale) // shown as the peak it gives
                QCOMPARE(words.label, QString::fromUtf8(k.label));
            QCOMPARE(words.help, QString::fromUtf8(k.description));
        }
        QVERIFY(!scenario::findOverrideKey("gpu.no_such_key"));
    }

    // For every key with a value of its own: override the design with the value it reads, and
    // the design and its results do not change (the reader is the setter's inverse, to the bit).
    void readValuesRoundTrip_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("moe default") << QString::fromLatin1(test::kMoeScenario);
        QTest::newRow("dense gpt3 h100") << QString::fromLatin1(test::kDenseScenario);
    }
    void readValuesRoundTrip()
    {
        QFETCH(QString, file);
        const scenario::Scenario design = test::shippedScenario(file.toStdString());
        const scenario::PipelineResult own = scenario::runScenario(design, test::shippedLibrary());
        QVERIFY(own.ok());
        int read = 0;
        for (const scenario::OverrideKey &k : scenario::overrideKeys()) {
            const std::optional<double> value = scenario::overrideKeyValue(*own.compiled, k.key);
            if (std::string(k.key) == scenario::keys::kComputeScale) {
                QVERIFY(!value); // a scale of the peaks, no value of its own
                continue;
            }
            QVERIFY2(value, k.key);
            scenario::Scenario overridden = design;
            overridden.overrides[k.key] = *value;
            const scenario::PipelineResult again = scenario::runScenario(overridden, test::shippedLibrary());
            QVERIFY2(again.ok(), k.key);
            // Every statistic the model gives, to the bit.
            std::vector<double> before, after;
            own.evaluation.stats.forEachMoe([&before](std::string_view, double v) { before.push_back(v); });
            again.evaluation.stats.forEachMoe([&after](std::string_view, double v) { after.push_back(v); });
            for (std::size_t i = 0; i < before.size(); ++i)
                QVERIFY2(after[i] == before[i] || (std::isnan(after[i]) && std::isnan(before[i])),
                         qPrintable(QStringLiteral("%1: statistic %2 is %3, was %4")
                                        .arg(QLatin1String(k.key))
                                        .arg(i)
                                        .arg(after[i], 0, 'g', 17)
                                        .arg(before[i], 0, 'g', 17)));
            ++read;
        }
        QCOMPARE(read, int(scenario::overrideKeys().size()) - 1);
    }

    void presetsReadmeListsTheTable()
    {
        QFile file(QStringLiteral(PRESETS_DIR "/README.md"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString readme = QString::fromUtf8(file.readAll());
        const qsizetype begin = readme.indexOf(QString::fromLatin1(kBegin));
        const qsizetype end = readme.indexOf(QString::fromLatin1(kEnd));
        QVERIFY2(begin >= 0 && end > begin, "presets/README.md has no override-key section");
        const QString shown = readme.mid(begin + qsizetype(std::strlen(kBegin)),
                                         end - begin - qsizetype(std::strlen(kBegin)));
        QVERIFY2(shown == readmeSection(),
                 qPrintable(QStringLiteral("presets/README.md is stale; its section should read:\n")
                            + readmeSection()));
    }
};

QTEST_MAIN(tst_OverrideKeys)
#include "tst_override_keys.moc"
