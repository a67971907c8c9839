#pragma once
/**
 * @file canvasscene.h
 * The datacenter canvas: scale-up domains (GPU block and count) inside the scale-out fabric,
 * links labelled with bandwidth and latency, the LLM, the layout and the total GPU count, drawn
 * from the compiled scenario of the latest results. Items are views: they are rebuilt from the
 * results and own no data. Palette blocks dropped on it (MIME kMimeType, payload "kind:id")
 * become commands on the document (style B5).
 */

#include "results/scenarioresults.h"
#include "studio/studioengine.h"

#include <QGraphicsScene>
#include <QGraphicsView>

namespace gapstudio::views {

class ScenarioDocument;

/// The MIME type of a dragged palette block; the payload is "kind:presetId" in UTF-8.
inline constexpr const char *kBlockMimeType = "application/x-gapstudio-block";

class CanvasScene : public QGraphicsScene {
    Q_OBJECT

public:
    /// The parts of the drawing a drop or a selection can target.
    enum class Part { None, Llm, Layout, Total, Fabric, ScaleOutLink, Domain, ScaleUpLink, Gpu };
    Q_ENUM(Part)

    explicit CanvasScene(ScenarioDocument *document, QObject *parent = nullptr);
    ~CanvasScene() override;

    void setResults(ResultsPtr results);

    /// Sets the part of the design under `scenePos` to the preset: a GPU onto a domain, an
    /// interconnect onto the scale-up or scale-out link, a topology onto the fabric, an LLM or a
    /// layout anywhere. Pushes one command; false if nothing changed.
    bool dropBlock(BlockKind kind, const QString &presetId, QPointF scenePos);

    [[nodiscard]] Part partAt(QPointF scenePos) const;
    /// The centre of the first item drawing `part` (for tests and hints); null if none.
    [[nodiscard]] QPointF partCenter(Part part) const;
    [[nodiscard]] Part selectedPart() const;

    /// Decodes a palette payload; false if it is not one.
    static bool decodePayload(const QByteArray &payload, BlockKind *kind, QString *presetId);
    [[nodiscard]] static QByteArray encodePayload(BlockKind kind, const QString &presetId);

signals:
    void partSelected(gapstudio::views::CanvasScene::Part part);

protected:
    void dragEnterEvent(QGraphicsSceneDragDropEvent *event) override;
    void dragMoveEvent(QGraphicsSceneDragDropEvent *event) override;
    void dragLeaveEvent(QGraphicsSceneDragDropEvent *event) override;
    void dropEvent(QGraphicsSceneDragDropEvent *event) override;

private:
    void rebuild();
    void highlight(Part part);
    QGraphicsRectItem *addPart(Part part, const QRectF &rect, const QColor &fill, const QString &title,
                               const QString &body, QGraphicsItem *parent = nullptr);

    ScenarioDocument *mDocument;
    ResultsPtr mResults;
    Part mHighlighted = Part::None;
};

/// The view of the canvas: fits the drawing and accepts drops.
class CanvasView : public QGraphicsView {
    Q_OBJECT

public:
    explicit CanvasView(CanvasScene *scene, QWidget *parent = nullptr);

protected:
    void resizeEvent(QResizeEvent *event) override;
};

} // namespace gapstudio::views
