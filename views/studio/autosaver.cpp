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

bool AutoSaver::restore(QString *error)
{
    const auto scenario = readScenarioFile(path(), error);
    if (!scenario)
        return false;
    mDocument->reset(mDocument->scenario());
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
    return writeScenarioFile(mDocument->scenario(), path(), nullptr);
}

void AutoSaver::discard()
{
    mTimer.stop();
    QFile::remove(path());
}

} // namespace gapstudio::views
