// Network operation cost, one row per textbook collective (calculon-model.md §4.1;
// calculon-moe-model.md §5.2 for the all-to-all).
#include "network/network.h"

#include <QTest>

#include <cmath>

using namespace gapstudio::model;
using detail::NetOp;

class tst_Network : public QObject {
    Q_OBJECT

private slots:
    void collective_data();
    void collective();
    void allToAll_data();
    void allToAll();
};

void tst_Network::collective_data()
{
    QTest::addColumn<int>("op");
    QTest::addColumn<double>("scalar");
    QTest::addColumn<double>("offset");
    QTest::addColumn<double>("participants");
    QTest::addColumn<double>("wireBytes"); // for a 1 GB tensor
    const double s = 1e9;
    QTest::newRow("ring all-reduce 2S(n-1)/n") << int(NetOp::AllReduce) << 2.0 << -1.0 << 8.0 << 2 * s * 7 / 8;
    QTest::newRow("ring reduce-scatter S(n-1)/n") << int(NetOp::ReduceScatter) << 1.0 << -1.0 << 8.0 << s * 7 / 8;
    QTest::newRow("ring all-gather S(n-1)/n") << int(NetOp::AllGather) << 1.0 << -1.0 << 4.0 << s * 3 / 4;
    QTest::newRow("A100 NVSwitch all-gather 1.5S(n-1)/n") << int(NetOp::AllGather) << 1.5 << -1.0 << 8.0 << 1.5 * s * 7 / 8;
    QTest::newRow("bandwidth-optimal S") << int(NetOp::ReduceScatter) << 1.0 << 0.0 << 64.0 << s;
    QTest::newRow("in-network (NVLS/SHARP) all-reduce S(1+1/n)") << int(NetOp::AllReduce) << 1.0 << 1.0 << 8.0 << s * 9 / 8;
    QTest::newRow("p2p S") << int(NetOp::P2p) << 1.0 << 0.0 << 2.0 << s;
}

void tst_Network::collective()
{
    QFETCH(int, op);
    QFETCH(double, scalar);
    QFETCH(double, offset);
    QFETCH(double, participants);
    QFETCH(double, wireBytes);
    NetworkTier net;
    net.bandwidth_Bps = 400e9;
    net.efficiency = 0.8;
    net.latency_s = 5e-6;
    NetworkOp cost{scalar, offset, 0};
    net.p2p = net.reduceScatter = net.allGather = net.allReduce = cost;
    const double t = detail::networkTime(net, static_cast<NetOp>(op), 1e9, static_cast<std::int64_t>(participants));
    const double expected = 5e-6 + wireBytes / (400e9 * 0.8);
    QVERIFY2(std::fabs(t - expected) <= 1e-15 * expected, qPrintable(QStringLiteral("%1 vs %2").arg(t).arg(expected)));
}

void tst_Network::allToAll_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<qint64>("peers");
    QTest::addColumn<double>("opEfficiency");
    QTest::addColumn<double>("expected");
    // (EP - 1) pairwise exchanges of floor(S / EP) bytes, each paying the latency (§5.2): the
    // reference's moe18_4096_fullflat_base dispatch, 11,010,048 B over 16 peers at 1600 GB/s * 0.8.
    QTest::newRow("fullflat dispatch") << 11010048.0 << qint64(16) << 0.0 << 15 * (2e-6 + 688128 / 1.28e12);
    QTest::newRow("uneven chunk floors") << 1000.0 << qint64(3) << 0.0 << 2 * (2e-6 + 333 / 1.28e12);
    QTest::newRow("own efficiency replaces the tier's") << 1.6e9 << qint64(8) << 0.15 << 7 * (2e-6 + 2e8 / (1.6e12 * 0.15));
    QTest::newRow("one peer: no exchange") << 1e9 << qint64(1) << 0.0 << 0.0;
}

void tst_Network::allToAll()
{
    QFETCH(double, bytes);
    QFETCH(qint64, peers);
    QFETCH(double, opEfficiency);
    QFETCH(double, expected);
    NetworkTier net;
    net.bandwidth_Bps = 1600e9;
    net.efficiency = 0.8;
    net.latency_s = 2e-6;
    net.allToAll = {1.0, 0.0, opEfficiency};
    const double t = detail::allToAllTime(net, bytes, peers);
    QVERIFY2(std::fabs(t - expected) <= 1e-12 * std::max(expected, 1e-12),
             qPrintable(QStringLiteral("%1 vs %2").arg(t).arg(expected)));
}

QTEST_GUILESS_MAIN(tst_Network)
#include "tst_network.moc"
