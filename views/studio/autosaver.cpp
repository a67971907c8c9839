#include "studio/autosaver.h"

#include "common/safewrite.h"
#include "studio/scenariodocument.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>
#include <atomic>

namespace gapstudio::views {

namespace {

const QString kSuffix = QStringLiteral(".gapstudio.json");
const QString kOrigin = QStringLiteral(".origin");
const QString kLock = QStringLiteral(".lock");

/// "<instance>" part of an autosave name: <document>-<instance>.gapstudio.json.
QString instanceOf(const QString &autosavePath)
{
    const QString name = QFileInfo(autosavePath).fileName().chopped(kSuffix.size());
    return name.mid(name.lastIndexOf(QLatin1Char('-')) + 1);
}

/// Several documents of one process each have their own autosave.
int nextDocument()
{
    static std::atomic<int> count { 0 };
    return ++count;
}

QString lockPath(const QString &folder, const QString &instance)
{
    return QDir(folder).filePath(instance + kLock);
}

} // namespace

AutoSaver::AutoSaver(ScenarioDocument *document, QObject *parent, QString folder)
    : QObject(parent)
    , mDocument(document)
    , mFolder(folder.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
                                     + QStringLiteral("/autosave")
                               : std::move(folder))
    , mInstance(QStringLiteral("%1x%2x%3")
                    .arg(QCoreApplication::applicationPid())
                    .arg(QDateTime::currentMSecsSinceEpoch(), 0, 36)
                    .arg(nextDocument()))
{
    QDir().mkpath(mFolder);
    // Held while this instance runs: its autosave is not a leftover of a crash.
    mLock = std::make_unique<QLockFile>(lockPath(mFolder, mInstance));
    mLock->setStaleLockTime(0);
    mLock->tryLock(0);
    mTimer.setSingleShot(true);
    mTimer.setInterval(kDelayMs);
    connect(document, &ScenarioDocument::changed, &mTimer, qOverload<>(&QTimer::start)); // debounce
    connect(&mTimer, &QTimer::timeout, this, &AutoSaver::saveNow);
    connect(document->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (clean) // saved successfully (a failed save leaves the document modified)
            discard();
    });
}

AutoSaver::~AutoSaver()
{
    // The autosave itself stays unless discard() ran: a kill or a crash must not lose work.
    mLock.reset();
}

QString AutoSaver::path() const
{
    QString document = QFileInfo(mDocument->fileName()).fileName();
    if (document.endsWith(kSuffix))
        document.chop(kSuffix.size());
    if (document.isEmpty())
        document = QStringLiteral("untitled");
    document.replace(QLatin1Char('-'), QLatin1Char('_')); // the last '-' separates the instance
    return QDir(mFolder).filePath(document + QLatin1Char('-') + mInstance + kSuffix);
}

QList<Recovery> AutoSaver::recoveries() const
{
    QList<Recovery> out;
    const QFileInfoList files
        = QDir(mFolder).entryInfoList({ QStringLiteral("*") + kSuffix }, QDir::Files, QDir::Time);
    for (const QFileInfo &file : files) {
        const QString instance = instanceOf(file.filePath());
        if (instance == mInstance)
            continue;
        QLockFile lock(lockPath(mFolder, instance));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0)) // its instance is still running
            continue;
        lock.unlock();
        Recovery r { file.filePath(), {}, file.lastModified() };
        QFile origin(file.filePath() + kOrigin);
        if (origin.open(QIODevice::ReadOnly))
            r.documentFile = QString::fromUtf8(origin.readLine(4096)).trimmed();
        out << r;
    }
    return out;
}

bool AutoSaver::restore(const Recovery &recovery, QString *error)
{
    const auto scenario = readScenarioFile(recovery.path, error);
    if (!scenario)
        return false;
    mDocument->reset(mDocument->scenario(), recovery.documentFile);
    mDocument->undoStack()->resetClean(); // restored work is unsaved work
    mDocument->setScenario(*scenario);
    // Ours first, then the leftover goes: at no moment is the work only in memory.
    if (saveNow())
        removeFiles(recovery.path);
    return true;
}

void AutoSaver::discardRecovery(const Recovery &recovery)
{
    QFile::remove(recovery.path);
    QFile::remove(recovery.path + kOrigin);
    QFile::remove(lockPath(QFileInfo(recovery.path).absolutePath(), instanceOf(recovery.path)));
}

bool AutoSaver::saveNow()
{
    mTimer.stop();
    if (!mDocument->isModified())
        return false;
    QDir().mkpath(mFolder);
    const QString target = path();
    if (!writeScenarioFile(mDocument->scenario(), target, nullptr))
        return false;
    writeFileSafely(target + kOrigin, mDocument->fileName().toUtf8() + '\n');
    if (!mWritten.isEmpty() && mWritten != target) // the document was saved under a new name
        removeFiles(mWritten);
    mWritten = target;
    return true;
}

void AutoSaver::discard()
{
    mTimer.stop();
    if (!mWritten.isEmpty())
        removeFiles(mWritten);
    removeFiles(path());
    mWritten.clear();
}

void AutoSaver::removeFiles(const QString &autosavePath) const
{
    QFile::remove(autosavePath);
    QFile::remove(autosavePath + kOrigin);
}

} // namespace gapstudio::views
