#pragma once
/**
 * @file canvasscene.h
 * The datacenter canvas: scale-up domains (GPU block and count) inside the scale-out fabric,
 * links labelled with bandwidth and latency, the LLM, the layout and the total GPU count, drawn
 * from the compiled scenario of the latest results (a three-tier fabric as leaf and spine; blocks
 * changed by sliders say so). Items are views: they are drawn from the results and own no data.
 * Palette blocks dropped on it (MIME kMimeType, payload "kind:id") become commands on the
 * document (style B5); a link dropped where it is not clear which tier it is for goes to the one
 * tier it can serve (its preset's max_domain_size), else the user chooses.
 * A change of the results updates the items in place (canvasitems.h): an item is added or removed
 * only when its part of the design appears or goes (a scale-up domain, a tier of the fabric).
 */

#include "results/scenarioresults.h"
#include "studio/canvasitems.h"
#include "studio/cpumeter.h"
#include "studio/studioengine.h"

#include <QGraphicsScene>
#include <QGraphicsView>

#include <functional>
#include <optional>

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

    /// Asks which tier a link dropped outside both goes to: true = scale-up, false = scale-out,
    /// nullopt = cancel. The default shows a menu at the mouse; tests replace it.
    std::function<std::optional<bool>(const QString &linkName)> askTier;

    [[nodiscard]] Part partAt(QPointF scenePos) const;
    /// The centre of the first item drawing `part` (for tests and hints); null if none.
    [[nodiscard]] QPointF partCenter(Part part) const;
    [[nodiscard]] Part selectedPart() const;
    /// CPU time this thread has spent updating the items from results (for the latency bench).
    [[nodiscard]] double updateCpu_ms() const { return mUpdateCpu.total_ms(); }

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
    /// Names every item of the drawing in one pass (canvasdrawing.cpp), keeping the selection.
    void redraw();
    void drawDesign(const scenario::ResolvedScenario &r);
    /// Draws the scale-out fabric's links (one band, or leaf and spine) and returns the bottom.
    qreal addFabricLinks(const scenario::ResolvedScenario &r);
    /// Which tier a link dropped at `part` goes to (see the file comment); nullopt = cancelled.
    std::optional<bool> tierForLink(const std::string &presetId, Part part);
    /// Whether the scenario's overrides change a block with override prefix `prefix`.
    [[nodiscard]] bool adjusted(const char *prefix) const;
    void highlight(Part part);
    /// The outline of a part: highlighted while a drop would set it.
    [[nodiscard]] QPen partPen(Part part) const;
    QGraphicsRectItem *addPart(const QString &key, Part part, const QRectF &rect, const QColor &fill,
                               const QString &title, const QString &body, QGraphicsItem *parent = nullptr);

    ScenarioDocument *mDocument;
    ResultsPtr mResults;
    Part mHighlighted = Part::None;
    CanvasItems mItems { this };
    CpuMeter mUpdateCpu;
};

/// The view of the canvas: fits the drawing and accepts drops.
class CanvasView : public QGraphicsView {
    Q_OBJECT

public:
    /// Zoom limits, as the scale of the drawing (1 = 100 %).
    static constexpr double kMinZoom = 0.25;
    static constexpr double kMaxZoom = 4.0;
    /// Fitting never shrinks the drawing below this, so that its text stays readable (the view
    /// scrolls instead).
    static constexpr double kMinFitZoom = 0.7;
    /// ... nor its text below this height in pixels (at 1280 x 800 the fitted drawing's text was
    /// once about 5 px high).
    static constexpr double kMinTextPixels = 9.0;

    explicit CanvasView(CanvasScene *scene, QWidget *parent = nullptr);

    [[nodiscard]] double zoom() const;
    /// Whether the view fits the drawing to its size (until the user zooms).
    [[nodiscard]] bool fitsAutomatically() const { return mAutoFit; }
    /// CPU time this thread has spent on the canvas so far: updating its items and painting this
    /// view (for the latency bench).
    [[nodiscard]] double canvasCpu_ms() const;

public slots:
    void zoomIn();
    void zoomOut();
    /// Fits the drawing to the view and keeps fitting it on resize.
    void fitToView();

protected:
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override; ///< Ctrl + wheel zooms
    void paintEvent(QPaintEvent *event) override;

private:
    void setZoom(double zoom);
    CanvasScene *mCanvas;
    bool mAutoFit = true;
    CpuMeter mPaintCpu;
};

} // namespace gapstudio::views
