#pragma once
/**
 * @file autosaver.h
 * Writes the document to an autosave file (in QStandardPaths::AppDataLocation) a moment after
 * each change, and removes it on a clean exit or save; a leftover file after a crash is offered
 * back on the next start.
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
    /// Loads the leftover autosave into the document (as an unsaved, modified scenario).
    bool restore(QString *error);
    /// Writes now (normally done by the timer).
    bool saveNow();
    /// Deletes the autosave (clean exit, or after a save).
    void discard();

private:
    ScenarioDocument *mDocument;
    QTimer mTimer;
};

} // namespace gapstudio::views
