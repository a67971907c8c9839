#pragma once
/**
 * @file roadmaptable.h
 * The steps of a roadmap as a table: name, status, the four metrics, MW and the gains over the
 * step before, as the model gives them (RoadmapData). Activating a row emits stepActivated().
 */

#include "roadmap/roadmapdata.h"

#include <QTableWidget>

namespace gapstudio::views {

class RoadmapTable final : public QTableWidget {
    Q_OBJECT

public:
    explicit RoadmapTable(QWidget *parent = nullptr);

    void setRoadmap(const RoadmapPtr &roadmap);

    /// The table as display strings, header first (the report's roadmap section).
    [[nodiscard]] static QList<QStringList> rowsOf(const RoadmapData &roadmap);

signals:
    void stepActivated(int index);
};

} // namespace gapstudio::views
