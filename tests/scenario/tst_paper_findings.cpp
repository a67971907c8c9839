// The paper's qualitative findings on its comparison examples (Tithi et al. 2026, "Closing the
// Efficiency Gap", ICS '26; abstract and conclusions as summarised in docs/reference/paper.md §9):
// FullFlat is at least as fast as two-tier at equal GPU count, a larger scale-up domain helps the
// MoE, and compute/communication overlap and hardware (in-network) collectives help. Every design
// runs at the layout its example file gives (its own best feasible layout, not a shared one), with
// the default model, through the Qt-free pipeline. The examples are the two groups of
// presets/scenarios/paper-*: at 4096 GPUs and one global batch, so a shorter step is a higher
// throughput.
#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/pipeline.h"

#include <QTest>

#include <map>

using namespace gapstudio;

namespace {

const QString kMoe = QStringLiteral(PRESETS_DIR "/scenarios/paper-MoE-1.8T-4096-GPUs/");
const QString kGpt3 = QStringLiteral(PRESETS_DIR "/scenarios/paper-GPT3-175B-4096-GPUs/");

/// The designs of each group (file names without .gapstudio.json).
const QStringList kDesigns = { QStringLiteral("h100-hbd8"),       QStringLiteral("h100-hbd64"),
                               QStringLiteral("h100-hbd128"),     QStringLiteral("h100-fullflat"),
                               QStringLiteral("future-two-tier"), QStringLiteral("future-fullflat") };

/// Software (ring) collectives on every tier, as calculon-MoE's *_SW_COLLECTIVE systems: RS/AG
/// [1.5, -1], AR [2, -1] (docs/reference/paper.md §5, "Hardware-accelerated collectives").
model::Design softwareCollectives(model::Design d)
{
    for (model::NetworkTier &n : d.system.networks) {
        n.reduceScatter = { 1.5, -1, n.reduceScatter.efficiency };
        n.allGather = { 1.5, -1, n.allGather.efficiency };
        n.allReduce = { 2, -1, n.allReduce.efficiency };
    }
    return d;
}

/// No compute/communication overlap: TP communication and the DP gradient reduction exposed.
model::Design noOverlap(model::Design d)
{
    d.execution.tensorParOverlap = model::TpOverlap::None;
    d.execution.dataParOverlap = false;
    return d;
}

} // namespace

class tst_PaperFindings : public QObject {
    Q_OBJECT

    scenario::PresetLibrary mLibrary;
    std::map<QString, scenario::PipelineResult> mResults; ///< by path

    const scenario::PipelineResult &result(const QString &path)
    {
        auto it = mResults.find(path);
        if (it == mResults.end())
            it = mResults.emplace(path, scenario::runScenario(io::loadScenario(path.toStdString()), mLibrary))
                     .first;
        return it->second;
    }

    /// The step time of the example at `path` (it must evaluate Ok at 4096 GPUs, batch 2048).
    double step(const QString &path)
    {
        const scenario::PipelineResult &r = result(path);
        if (!r.ok()) {
            qWarning("%s: %s", qPrintable(path), r.statusText.c_str());
            return 0;
        }
        const model::Execution e = r.design()->execution;
        if (e.numProcs != 4096 || e.batchSize != 2048) {
            qWarning("%s: not at 4096 GPUs and a global batch of 2048", qPrintable(path));
            return 0;
        }
        return r.analysis->step.total_s;
    }

    /// The step time of the example with one switch flipped by `flip`, at the example's layout.
    double flipped(const QString &path, model::Design (*flip)(model::Design))
    {
        const scenario::PipelineResult &r = result(path);
        const scenario::PipelineResult variant = scenario::runDesign(flip(*r.design()), r.evaluateOptions);
        return variant.ok() ? variant.analysis->step.total_s : 0;
    }

private slots:
    void initTestCase() { mLibrary = io::loadPresetLibrary(PRESETS_DIR); }

    void fullFlatAtLeastTwoTier_data()
    {
        QTest::addColumn<QString>("flat");
        QTest::addColumn<QString>("twoTier");
        for (const QString &group : { kMoe, kGpt3 }) {
            const QString name = group.section(QLatin1Char('/'), -2, -2) + QLatin1Char(' ');
            for (const char *hbd : { "h100-hbd8", "h100-hbd64", "h100-hbd128" })
                QTest::newRow(qPrintable(name + QLatin1String(hbd)))
                    << group + QStringLiteral("h100-fullflat.gapstudio.json")
                    << group + QLatin1String(hbd) + QStringLiteral(".gapstudio.json");
            QTest::newRow(qPrintable(name + QStringLiteral("future GPU")))
                << group + QStringLiteral("future-fullflat.gapstudio.json")
                << group + QStringLiteral("future-two-tier.gapstudio.json");
        }
    }
    void fullFlatAtLeastTwoTier()
    {
        QFETCH(QString, flat);
        QFETCH(QString, twoTier);
        const double flatStep = step(flat), twoTierStep = step(twoTier);
        QVERIFY(flatStep > 0 && twoTierStep > 0);
        QVERIFY2(flatStep <= twoTierStep,
                 qPrintable(QStringLiteral("FullFlat %1 s, two-tier %2 s").arg(flatStep).arg(twoTierStep)));
    }

    // H100 two-tier, domains of 8 -> 64 -> 128: each larger domain gives the MoE a shorter step
    // (its all-to-all and expert slicing move onto NVLink).
    void largerScaleUpDomainHelpsMoe()
    {
        const double hbd8 = step(kMoe + QStringLiteral("h100-hbd8.gapstudio.json"));
        const double hbd64 = step(kMoe + QStringLiteral("h100-hbd64.gapstudio.json"));
        const double hbd128 = step(kMoe + QStringLiteral("h100-hbd128.gapstudio.json"));
        QVERIFY(hbd8 > 0 && hbd64 > 0 && hbd128 > 0);
        QVERIFY2(hbd64 < hbd8, qPrintable(QStringLiteral("HBD 64 %1 s, HBD 8 %2 s").arg(hbd64).arg(hbd8)));
        QVERIFY2(hbd128 < hbd64,
                 qPrintable(QStringLiteral("HBD 128 %1 s, HBD 64 %2 s").arg(hbd128).arg(hbd64)));
    }

    void switchesHelp_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("hardware"); // "helps" or "hurts"
        for (const QString &group : { kMoe, kGpt3 })
            for (const QString &design : kDesigns) {
                // The exception: the MoE on the projected GPU (FullFlat and two-tier) runs its best
                // layout with TP 2 and ES 2 on the scale-up tier, and for two GPUs the model's
                // software ring costs less than the in-network reduction: RS/AG 1.5 x (1 - 1/2) =
                // 0.75 against 1 (x bytes / bandwidth; the scalars of docs/reference/paper.md §5
                // and §6.2). On FullFlat its DP reduction, where the ring costs 2x, is hidden
                // behind the backward pass, so hardware collectives make the step longer. On
                // two-tier part of the DP reduction is exposed, which the in-network reduction
                // halves, and that outweighs the TP loss: hardware collectives help there too, by
                // about 3 % with the shipped calibration (a near balance of two effects).
                QString hardware = QStringLiteral("helps");
                if (group == kMoe && design == QLatin1String("future-fullflat"))
                    hardware = QStringLiteral("hurts");
                QTest::newRow(qPrintable(group.section(QLatin1Char('/'), -2, -2) + QLatin1Char(' ') + design))
                    << group + design + QStringLiteral(".gapstudio.json") << hardware;
            }
    }
    // Each example with hardware collectives and overlap as shipped; flipping either off makes
    // the step longer (software collectives: but for the one exception above, where they make it
    // shorter).
    void switchesHelp()
    {
        QFETCH(QString, path);
        QFETCH(QString, hardware);
        const double asShipped = step(path);
        QVERIFY(asShipped > 0);
        const double software = flipped(path, softwareCollectives);
        const double serial = flipped(path, noOverlap);
        QVERIFY(software > 0 && serial > 0);
        const bool holds = hardware == QLatin1String("helps") ? software > asShipped : software < asShipped;
        QVERIFY2(holds,
                 qPrintable(QStringLiteral("hardware collectives expected to %1: software collectives %2 s, "
                                           "hardware %3 s")
                                .arg(hardware)
                                .arg(software)
                                .arg(asShipped)));
        QVERIFY2(serial > asShipped,
                 qPrintable(QStringLiteral("no overlap %1 s, overlap %2 s").arg(serial).arg(asShipped)));
    }
};

QTEST_GUILESS_MAIN(tst_PaperFindings)
#include "tst_paper_findings.moc"
