#pragma once
// Lets Qt finish what a change posted (layout requests, deferred geometry, show and raise events)
// without waiting on a clock: a fixed number of rounds of delivering posted events and processing
// the queue. A test that waits N ms instead passes or fails with the machine's load.

#include <QCoreApplication>
#include <QEventLoop>

namespace gapstudio::test {

inline void settle(int rounds = 8)
{
    for (int round = 0; round < rounds; ++round) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    }
}

} // namespace gapstudio::test
