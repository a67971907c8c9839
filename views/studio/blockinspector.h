#pragma once
/**
 * @file blockinspector.h
 * The parameters of one block of the design (the part selected on the canvas, or a fixed one),
 * read from the resolved scenario of the latest results. Read-only: edits go through the
 * sliders, the layout panel and the palette.
 */

#include "results/scenarioresults.h"
#include "studio/canvasscene.h"

#include <QTableWidget>

namespace gapstudio::views {

class BlockInspector : public QTableWidget {
    Q_OBJECT

public:
    explicit BlockInspector(QWidget *parent = nullptr);

    void setPart(CanvasScene::Part part);
    void setResults(ResultsPtr results);
    [[nodiscard]] CanvasScene::Part part() const { return mPart; }

private:
    void refresh();
    void addRow(const QString &name, const QString &value);

    CanvasScene::Part mPart = CanvasScene::Part::None;
    ResultsPtr mResults;
};

} // namespace gapstudio::views
