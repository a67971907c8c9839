// A block's layers and traffic hold only this evaluation's values, whatever their memory held
// before. The layers a block builder adds hold only what the builder and Layer's default
// initialisers put there: BlockBuilder::add default-initialises each slot (no zeroing of the
// whole layer first), so a Layer member without its default initialiser would carry an earlier
// evaluation's bytes into this one. computeBlockStats writes the block's traffic in place into
// its caller's BlockComm, which it clears first.
#include "fidelity_machine.h"

#include "engine/block_builder.h"
#include "engine/block_stats.h"
#include "engine/run.h"

#include <QTest>

#include <cstddef>
#include <cstring>
#include <new>

using namespace gapstudio::model;
using namespace gapstudio::model::detail;
using namespace gapstudio::test::fidelity;

namespace {

/// One of each kind of layer the builder makes for a block: the attention part of a dense block
/// (forks, norms, linear layers, attention, TP collectives, dropouts, residual adds) and the
/// MoE pieces (expert GEMMs, an expert-slice collective, an all-to-all), into `block`. The
/// collectives point at `sys`'s network tiers: both builds must share one system.
void buildSample(Block &block, const System &sys)
{
    const Application app = gpt();
    const Execution exe = layout(2);
    BlockBuilder b(app, exe, sys, block);
    buildAttention(b, app, exe, 2048 * app.hidden / 2, corrected().features);
    b.expertLinear("Experts", 4, 512, app.hidden, 4096, {});
    b.collective("ExpertSlice", 2048 * app.hidden, false, {}, 2, b.tier(0), TpCommType::RsAg).group
        = CommGroup::Es;
    b.allToAll("AllToAll", 2048 * app.hidden, {}, 2, b.tier(0));
}

/// The bytes of a layer that are its members (not the padding after the one-byte fields).
bool sameMembers(const Layer &a, const Layer &b)
{
    const std::size_t flags = offsetof(Layer, lowPrecision) + sizeof(bool);
    const std::size_t rest = offsetof(Layer, name);
    const auto *x = reinterpret_cast<const unsigned char *>(&a);
    const auto *y = reinterpret_cast<const unsigned char *>(&b);
    return std::memcmp(x, y, flags) == 0 && std::memcmp(x + rest, y + rest, sizeof(Layer) - rest) == 0;
}

} // namespace

class tst_BlockBuilder : public QObject {
    Q_OBJECT

private slots:
    void layersHoldTheirDefaultsOverUsedMemory()
    {
        // The same block built into zeroed memory and into memory full of 0xAB bytes (an earlier
        // block's leftovers): every member of every layer must come out the same.
        alignas(Block) static unsigned char zeroed[sizeof(Block)];
        alignas(Block) static unsigned char used[sizeof(Block)];
        std::memset(zeroed, 0, sizeof zeroed);
        std::memset(used, 0xAB, sizeof used);
        Block &clean = *new (zeroed) Block;
        Block &dirty = *new (used) Block;
        const System sys = machine();
        buildSample(clean, sys);
        buildSample(dirty, sys);
        QVERIFY(clean.size >= 15);
        QCOMPARE(dirty.size, clean.size);
        for (std::size_t i = 0; i < clean.size; ++i)
            QVERIFY2(sameMembers(clean.layers[i], dirty.layers[i]), clean.layers[i].name);
    }

    void trafficWrittenOverAnEarlierBlocksTraffic()
    {
        // The block's traffic written into a fresh BlockComm and into one that holds an earlier
        // block's (the same block's, walked once already): both must come out the same.
        static Block block;
        const System sys = machine();
        buildSample(block, sys);
        const Execution exe = layout(2);
        const LayerContext ctx = layerContext(exe, sys, corrected());
        Stats first;
        BlockComm comm;
        computeBlockStats(block, ctx, exe, Quirks::corrected(), first, comm);
        QVERIFY(comm.tp.fwTime[0] > 0 && comm.ep.fwTime[0] > 0 && comm.es.bwTime[0] > 0);
        const BlockComm fresh = comm;
        Stats again;
        computeBlockStats(block, ctx, exe, Quirks::corrected(), again, comm);
        QVERIFY(std::memcmp(&comm, &fresh, sizeof comm) == 0);
        QCOMPARE(again.block_fw_time, first.block_fw_time);
    }
};

QTEST_APPLESS_MAIN(tst_BlockBuilder)
#include "tst_block_builder.moc"
