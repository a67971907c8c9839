#pragma once
/**
 * @file recentfiles.h
 * File > Open recent: the scenario files opened or saved last (kept in the settings, so that
 * they come back in the next session); files that no longer exist are left out.
 */

#include <QMenu>
#include <QStringList>

namespace gapstudio::views {

class RecentFiles : public QMenu {
    Q_OBJECT

public:
    static constexpr int kMaxFiles = 8;

    explicit RecentFiles(QWidget *parent = nullptr);

    /// Puts `path` first (an absolute path; a file already listed moves up).
    void add(const QString &path);
    /// The files listed, most recent first (only those that exist).
    [[nodiscard]] static QStringList files();
    void clearFiles();

signals:
    void fileChosen(const QString &path);

private:
    void populate();
};

} // namespace gapstudio::views
