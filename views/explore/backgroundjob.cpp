#include "explore/backgroundjob.h"

namespace gapstudio::views {

BackgroundJob::BackgroundJob(QObject *parent)
    : QObject(parent)
    , mCancel(std::make_shared<std::atomic<bool>>(false))
{
}

BackgroundJob::~BackgroundJob()
{
    mCancel->store(true);
    join();
}

quint64 BackgroundJob::begin()
{
    // The previous run is told to stop and joined: it stops within one search task.
    mCancel->store(true);
    join();
    mCancel = std::make_shared<std::atomic<bool>>(false);
    mRunning = true;
    return ++mGeneration;
}

void BackgroundJob::join()
{
    if (mThread.joinable())
        mThread.join();
}

void BackgroundJob::post(std::function<void()> call)
{
    const quint64 generation = mGeneration; // read by the worker: set before the thread started
    QMetaObject::invokeMethod(
        this,
        [this, generation, call = std::move(call)] {
            if (generation == mGeneration)
                call();
        },
        Qt::QueuedConnection);
}

void BackgroundJob::requestCancel()
{
    mCancel->store(true);
}

void BackgroundJob::cancel()
{
    mCancel->store(true);
    join();
    ++mGeneration;
    mRunning = false;
}

} // namespace gapstudio::views
