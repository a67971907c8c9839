// The grid's output order and flow (forEachInOrder in app/cli/grid_run.cpp): every item is handed
// on once, in order, whatever the number of workers; and an item is handed on as soon as it and
// every earlier one are done, not when the whole batch is ("grid prints nothing until the end, so
// a stopped grid loses everything").
#include "grid.h"

#include <QTest>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

using gapstudio::cli::forEachInOrder;

class tst_GridStream : public QObject {
    Q_OBJECT

private slots:
    void everyItemOnceInOrder()
    {
        for (std::size_t count : { 0, 1, 2, 7, 64, 1000 })
            for (unsigned workers : { 1u, 2u, 3u, 8u }) {
                std::vector<std::size_t> order;
                std::vector<std::string> texts;
                forEachInOrder(
                    count, workers, [](std::size_t i) { return std::to_string(i * i); },
                    [&](std::size_t i, const std::string &text) {
                        order.push_back(i);
                        texts.push_back(text);
                    });
                QCOMPARE(order.size(), count);
                for (std::size_t i = 0; i < count; ++i) {
                    QCOMPARE(order[i], i);
                    QCOMPARE(texts[i], std::to_string(i * i));
                }
            }
    }

    // The last item is not finished until the first has been handed on: with the output held
    // back to the end of the batch, the first would never be handed on before it. The wait is
    // bounded only so that a wrong implementation fails instead of hanging.
    void firstItemFlowsBeforeTheLastIsDone()
    {
        for (unsigned workers : { 1u, 2u, 4u }) {
            constexpr std::size_t kCount = 8;
            std::mutex mutex;
            std::condition_variable emitted;
            bool firstOut = false, firstOutBeforeLast = false;
            forEachInOrder(
                kCount, workers,
                [&](std::size_t i) {
                    if (i == kCount - 1) {
                        std::unique_lock lock(mutex);
                        firstOutBeforeLast
                            = emitted.wait_for(lock, std::chrono::seconds(60), [&] { return firstOut; });
                    }
                    return std::to_string(i);
                },
                [&](std::size_t i, const std::string &) {
                    if (i != 0)
                        return;
                    const std::lock_guard lock(mutex);
                    firstOut = true;
                    emitted.notify_all();
                });
            QVERIFY2(firstOutBeforeLast, qPrintable(QStringLiteral("%1 workers").arg(workers)));
        }
    }
};

QTEST_GUILESS_MAIN(tst_GridStream)
#include "tst_grid_stream.moc"
