// shardRange (app/cli/grid.cpp) as a property over every grid of up to 64 points and up to 16
// shards: the shards are ordered, disjoint and together cover [0, points), and their sizes differ
// by at most one (the balanced split of points / shards, floor and ceiling).
#include "grid.h"

#include <QTest>

#include <cstdint>

class tst_ShardRange : public QObject {
    Q_OBJECT

private slots:
    void partitionIsOrderedCoveringAndBalanced()
    {
        for (std::uint64_t points = 0; points <= 64; ++points) {
            for (std::uint64_t shards = 1; shards <= 16; ++shards) {
                const QByteArray where = QByteArray::number(qulonglong(points)) + " points, "
                                         + QByteArray::number(qulonglong(shards)) + " shards";
                std::uint64_t next = 0; // where the next shard must start (ordered, no gap, no overlap)
                std::uint64_t smallest = points;
                std::uint64_t largest = 0;
                for (std::uint64_t shard = 1; shard <= shards; ++shard) {
                    const auto [first, last] = gapstudio::cli::shardRange(points, shard, shards);
                    QVERIFY2(first == next, where.constData());
                    QVERIFY2(first <= last, where.constData());
                    smallest = std::min(smallest, last - first);
                    largest = std::max(largest, last - first);
                    next = last;
                }
                QVERIFY2(next == points, where.constData()); // covering
                // Balanced: floor(points / shards) and ceil(points / shards) only.
                QVERIFY2(largest - smallest <= 1, where.constData());
                QVERIFY2(smallest == points / shards, where.constData());
            }
        }
    }

    void handCountedSplits()
    {
        // 10 points in 4 shards: 10 * s / 4 rounded down at s = 0..4 gives 0, 2, 5, 7, 10.
        const std::pair<std::uint64_t, std::uint64_t> expected[]
            = { { 0, 2 }, { 2, 5 }, { 5, 7 }, { 7, 10 } };
        for (std::uint64_t shard = 1; shard <= 4; ++shard)
            QCOMPARE(gapstudio::cli::shardRange(10, shard, 4), expected[shard - 1]);
    }
};

QTEST_GUILESS_MAIN(tst_ShardRange)
#include "tst_shard_range.moc"
