#pragma once
/**
 * @file backgroundjob.h
 * Runs one computation at a time on a worker thread and hands its result to the GUI thread
 * (style B3: the model is pure, so a long search or sweep moves to a thread and nothing else
 * changes). A new start() cancels and supersedes the previous run; results of a superseded run are
 * dropped (generation counter). The destructor cancels and joins, so a job never outlives the
 * object that receives its result.
 */

#include <QMetaObject>
#include <QObject>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>

namespace gapstudio::views {

class BackgroundJob final : public QObject {
    Q_OBJECT

public:
    explicit BackgroundJob(QObject *parent = nullptr);
    ~BackgroundJob() override;

    /**
     * Runs `work(cancel)` on a worker thread; when it returns, `done(result)` runs on this
     * object's (GUI) thread unless a later start() or cancel() superseded it. `work` must poll or
     * pass on `cancel` (e.g. SearchOptions::cancel) to stop early.
     */
    template <typename Result>
    void start(std::function<Result(const std::atomic<bool> &cancel)> work, std::function<void(Result)> done)
    {
        const quint64 generation = begin();
        mThread = std::thread(
            [this, generation, cancel = mCancel, work = std::move(work), done = std::move(done)] {
                auto result = std::make_shared<Result>(work(*cancel));
                QMetaObject::invokeMethod(
                    this,
                    [this, generation, result, done] {
                        if (generation != mGeneration)
                            return;
                        mRunning = false;
                        done(std::move(*result));
                        emit finished();
                    },
                    Qt::QueuedConnection);
            });
    }

    /// Posts `call` to this object's thread, to be run there unless the current run has been
    /// superseded (for progress callbacks made on worker threads).
    void post(std::function<void()> call);

    /// Asks the running job to stop; its result is still delivered (with whatever it found).
    void requestCancel();
    /// Stops the running job and drops its result.
    void cancel();
    [[nodiscard]] bool isRunning() const { return mRunning; }

signals:
    /// After the `done` callback of a run.
    void finished();

private:
    quint64 begin();
    void join();

    std::thread mThread;
    std::shared_ptr<std::atomic<bool>> mCancel;
    quint64 mGeneration = 0; ///< read on the GUI thread only
    bool mRunning = false;
};

} // namespace gapstudio::views
