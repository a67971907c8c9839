#pragma once
/**
 * @file roadmappanel.h
 * The Roadmap view: a roadmap file (*.gapstudio-roadmap.json) evaluated step by step, with its
 * chart (RoadmapChart) and table (RoadmapTable). A file that cannot be read shows why in words
 * (file, JSON pointer, what is wrong) and keeps whatever was shown before. Clicking a step opens
 * it as the current design under the rules of opening a file (the open guard asks to save
 * unsaved work first).
 */

#include "roadmap/roadmapdata.h"

#include <QWidget>

#include <functional>

class QLabel;

namespace gapstudio::views {

class RoadmapChart;
class RoadmapTable;
class ScenarioDocument;

class RoadmapPanel final : public QWidget {
    Q_OBJECT

public:
    explicit RoadmapPanel(ScenarioDocument *document, QWidget *parent = nullptr);

    /// Called before a step replaces the document; false keeps the document.
    void setOpenGuard(std::function<bool()> guard) { mOpenGuard = std::move(guard); }

    /// Reads and shows the roadmap at `path`; false with the reason shown (and in `error`).
    bool openFile(const QString &path, QString *error = nullptr);
    /// Reads and shows a roadmap shipped with the presets (shippedRoadmaps()).
    bool openShipped(const QString &relativePath, QString *error = nullptr);
    /// Shows `roadmap` (nullptr: none).
    void setRoadmap(RoadmapPtr roadmap);
    /// Opens step `index` (0-based) as the current design; false if there is none or the guard refused.
    bool openStep(int index);

    [[nodiscard]] RoadmapPtr roadmap() const { return mRoadmap; }
    [[nodiscard]] RoadmapChart *chart() const { return mChart; }
    [[nodiscard]] RoadmapTable *table() const { return mTable; }
    /// The problem shown (a file that could not be read, steps that are not valid designs), or empty.
    [[nodiscard]] QString problem() const;

signals:
    /// A roadmap was opened (the main window shows the Roadmap dock).
    void roadmapOpened();

private:
    bool present(RoadmapPtr roadmap, const QString &error, QString *errorOut);

    ScenarioDocument *mDocument;
    std::function<bool()> mOpenGuard;
    RoadmapPtr mRoadmap;
    QLabel *mTitle;
    QLabel *mProblem;
    RoadmapChart *mChart;
    RoadmapTable *mTable;
};

} // namespace gapstudio::views
