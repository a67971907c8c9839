#pragma once
/**
 * @file autosaver.h
 * Writes the document to its own autosave file a moment after each change, and removes it on a
 * clean exit or a successful save; files a crashed session left behind are offered back on the
 * next start.
 *
 * One autosave per document and instance (a single slot per user let a second instance
 * overwrite the first's recovery copy and delete it on save): the file is
 * <folder>/<document>-<instance>.gapstudio.json, next to a ".origin" file naming the document's
 * file, and a lock file held while the instance runs, so that a running instance's autosave is
 * never offered for recovery nor deleted by another.
 */

#include <QDateTime>
#include <QList>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace gapstudio::views {

class ScenarioDocument;

/// An autosave a previous session left behind (its instance is no longer running).
struct Recovery {
    QString path;         ///< the autosave file
    QString documentFile; ///< the file the work belongs to; empty for an untitled document
    QDateTime saved;      ///< when it was written
};

class AutoSaver : public QObject {
    Q_OBJECT

public:
    static constexpr int kDelayMs = 1500;

    /// `folder` empty: QStandardPaths::AppDataLocation + "/autosave".
    explicit AutoSaver(ScenarioDocument *document, QObject *parent = nullptr, QString folder = {});
    ~AutoSaver() override;

    /// The folder autosaves live in.
    [[nodiscard]] QString folder() const { return mFolder; }
    /// This document's autosave file (changes with the document's file name).
    [[nodiscard]] QString path() const;
    /// The autosaves of sessions that are no longer running, newest first.
    [[nodiscard]] QList<Recovery> recoveries() const;
    /// Loads `recovery` into the document as unsaved work on its file; it becomes this
    /// document's autosave (the leftover file is removed once ours is written).
    bool restore(const Recovery &recovery, QString *error);
    /// Deletes a leftover autosave (the user declined it).
    static void discardRecovery(const Recovery &recovery);
    /// Writes now (normally done by the timer). False if nothing was written.
    bool saveNow();
    /// Deletes this document's autosave (clean exit, or after a save).
    void discard();

private:
    void removeFiles(const QString &autosavePath) const;

    ScenarioDocument *mDocument;
    QString mFolder;
    QString mInstance; ///< unique per running instance: process id and start time
    std::unique_ptr<QLockFile> mLock;
    QString mWritten; ///< the autosave file last written, if any
    QTimer mTimer;
};

} // namespace gapstudio::views
