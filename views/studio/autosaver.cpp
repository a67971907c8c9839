#include "studio/autosaver.h"

#include "studio/scenariodocument.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace gapstudio::views {

AutoSaver::AutoSaver(ScenarioDocument *document, QObject *parent)
    : QObject(parent)
    , mDocument(document)
{
    mTimer.setSingleShot(true);
    mTimer.setInterval(kDelayMs);
    connect(document, &ScenarioDocument::changed, &mTimer, qOverload<>(&QTimer::start)); // debounce
    connect(&mTimer, &QTimer::timeout, this, &AutoSaver::saveNow);
    connect(document->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (clean)
            discard();
    });
}

QString AutoSaver::path()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/autosave.gapstudio.json");
}

bool AutoSaver::hasRecovery()
{
    return QFile::exists(path());
}

QString AutoSaver::sourcePath()
{
    return path() + QStringLiteral(".source");
}

QString AutoSaver::recoveredFileName()
{
    QFile file(sourcePath());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

bool AutoSaver::restore(QString *error)
{
    const auto scenario = readScenarioFile(path(), error);
    if (!scenario)
        return false;
    // Back as its own file (if it had one), with the unsaved changes on top.
    mDocument->reset(mDocument->scenario(), recoveredFileName());
    mDocument->undoStack()->resetClean(); // restored work is unsaved work
    mDocument->setScenario(*scenario);
    return true;
}

bool AutoSaver::saveNow()
{
    mTimer.stop();
    if (!mDocument->isModified())
        return false;
    QDir().mkpath(QFileInfo(path()).absolutePath());
    if (!writeScenarioFile(mDocument->scenario(), path(), nullptr))
        return false;
    // Which file the work belongs to (empty: an unsaved design).
    QFile source(sourcePath());
    if (source.open(QIODevice::WriteOnly | QIODevice::Truncate))
        source.write(mDocument->fileName().toUtf8());
    return true;
}

void AutoSaver::discard()
{
    mTimer.stop();
    QFile::remove(path());
    QFile::remove(sourcePath());
}

} // namespace gapstudio::views
