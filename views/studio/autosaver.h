#pragma once
/**
 * @file autosaver.h
 * Writes the document to an autosave file (in QStandardPaths::AppDataLocation) a moment after
 * each change, with the name of the file it belongs to beside it, and removes both on a clean
 * exit or save; a leftover autosave after a crash is offered back on the next start, as its file
 * with unsaved changes.
 */

#include <QObject>
#include <QString>
#include <QTimer>

namespace gapstudio::views {

class ScenarioDocument;

class AutoSaver : public QObject {
    Q_OBJECT

public:
    static constexpr int kDelayMs = 1500;

    explicit AutoSaver(ScenarioDocument *document, QObject *parent = nullptr);

    /// The autosave file's path (AppDataLocation/autosave.gapstudio.json).
    [[nodiscard]] static QString path();
    /// True if a previous session left an autosave behind.
    [[nodiscard]] static bool hasRecovery();
    /// The file the leftover autosave belongs to (empty: an unsaved design, or none).
    [[nodiscard]] static QString recoveredFileName();
    /// Loads the leftover autosave into the document: the file it belongs to, modified.
    bool restore(QString *error);
    /// Writes now (normally done by the timer).
    bool saveNow();
    /// Deletes the autosave (clean exit, or after a save).
    void discard();

private:
    [[nodiscard]] static QString sourcePath();

    ScenarioDocument *mDocument;
    QTimer mTimer;
};

} // namespace gapstudio::views
