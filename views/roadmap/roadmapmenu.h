#pragma once
/**
 * @file roadmapmenu.h
 * The File menu's roadmap entries: Open roadmap… (a file dialog) and Example roadmaps (those
 * shipped with the presets). Each shows the Roadmap view, with the roadmap or the reason it
 * could not be read.
 */

class QAction;
class QMenu;
class QWidget;

namespace gapstudio::views {

class RoadmapPanel;

/// Adds the entries to `file` before `before` (nullptr: at the end); `dock` is the widget to show
/// and raise (the panel's dock).
void addRoadmapActions(QMenu *file, QAction *before, RoadmapPanel *panel, QWidget *dock);

} // namespace gapstudio::views
