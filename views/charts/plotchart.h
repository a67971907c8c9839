#pragma once
/**
 * @file plotchart.h
 * The one base of the studio's charts (the result charts of charts/ and cost/, and through
 * ExploreChart those of Explore, the design space, the roadmap and validation): one QCustomPlot
 * with a headline above the plot (wrapped to the plot's width as drawn, on screen or exported),
 * optionally a subtitle under it, a legend below the plot (in as many columns as fit), hover tool
 * tips, zoom, pan and a right-click menu (ChartInteraction), a centred message in place of data,
 * and CSV rows of exactly what is plotted. A chart draws values the model computed; it computes
 * no formula.
 */

#include "charts/chartexport.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QPointF>
#include <QSize>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>

class QCustomPlot;
class QCPAbstractPlottable;
class QCPAxis;
class QCPItemText;
class QCPTextElement;
class QMouseEvent;
class QResizeEvent;

namespace gapstudio::views {

class ChartInteraction;
class LegendTexts;

class PlotChart : public QWidget {
    Q_OBJECT

public:
    /// Size used for export when the chart has not been laid out on screen yet (pixels).
    static constexpr QSize kDefaultExportSize { 1000, 560 };

    ~PlotChart() override;

    /// The plot, drawn (a redraw put off while the chart was hidden is made first).
    [[nodiscard]] QCustomPlot *plot() const
    {
        drawIfStale();
        return mPlot;
    }
    /// Stable id ("step_time", "scaling", ...), used in object and file names.
    [[nodiscard]] QString id() const { return mId; }
    /// Human name of the chart, e.g. "Step time".
    [[nodiscard]] QString title() const { return mTitle; }
    /// The headline shown above the plot (the title, or the title with the key number), unwrapped.
    [[nodiscard]] QString headline() const
    {
        drawIfStale();
        return mHeadlineText;
    }
    /// The line under the headline (charts made with a subtitle row), empty when none.
    [[nodiscard]] QString subtitle() const;
    /// The centred message shown instead of data ("No results: ..."), empty when data is shown.
    [[nodiscard]] QString message() const
    {
        drawIfStale();
        return mMessage;
    }
    /// Whether the chart shows data (not a message).
    [[nodiscard]] bool hasData() const { return message().isEmpty(); }

    /// The plotted data as CSV rows, header first; numbers are the plotted values, unrounded.
    [[nodiscard]] virtual QList<QStringList> csvRows() const = 0;
    /// The hover text at `pos` (plot widget pixels), empty if nothing is under it.
    [[nodiscard]] virtual QString toolTipAt(const QPointF &pos) const;

    /// Size to export at: the on-screen size once laid out, else kDefaultExportSize.
    [[nodiscard]] QSize exportSize() const;
    /// What an export of this chart takes (plot, size, headline, CSV rows).
    [[nodiscard]] ExportSource exportSource() const;
    /// Zoom, pan and the right-click menu (Copy image, Export…, Reset zoom).
    [[nodiscard]] ChartInteraction *interaction() const { return mInteraction; }

    /// Clears the chart and shows `text` (e.g. "Computing…", "No results: …") in its place,
    /// wrapped to the plot's width.
    void showMessage(const QString &text);

    /// For an owner that computes the chart's data only when the chart is seen: `update` brings
    /// the data up to date (by setting it on the chart), called before the chart is next shown or
    /// read after markDataStale().
    void setDataUpdater(std::function<void()> update) { mDataUpdater = std::move(update); }
    /// The owner's data for this chart changed and is not computed yet (see setDataUpdater()).
    void markDataStale() { mDataStale = true; }
    /// Draws made so far through requestDraw() (now or put off), without making a pending one.
    [[nodiscard]] int draws() const { return mDraws; }

protected:
    /// Draws the chart from its data now if it is on screen (isSeen, whenseen.h), else when it is
    /// next shown, painted or read (plot(), headline(), message(), subtitle(), tool tips,
    /// exports): a chart on a hidden tab or dock costs nothing per change of the design.
    void requestDraw();
    /// Draws the chart from its data (called by requestDraw(), now or later).
    virtual void draw() { }
    /// Brings the owner's data up to date if it changed (setDataUpdater()): accessors of the
    /// chart's data call it first.
    void updateData() const;
    /// Draws a put-off draw when the plot is about to be painted (its tab clicked, its dock's tab
    /// raised).
    bool eventFilter(QObject *watched, QEvent *event) override;

    /// Whether the chart has a subtitle row under its headline.
    enum class Rows { Headline, HeadlineAndSubtitle };
    PlotChart(QString id, QString title, QWidget *parent, Rows rows = Rows::Headline);

    /// Empties the plot (plottables, items, tool tips, message, axis settings, headline back to
    /// the title) before drawing new data.
    void clearPlot();
    /// Called at the end of clearPlot() for the chart's own layout elements.
    virtual void onCleared() { }
    void setHeadline(const QString &text);
    void setSubtitle(const QString &text);
    /// Registers the hover text of the data point at `key` of `plottable`.
    void setToolTip(QCPAbstractPlottable *plottable, double key, const QString &text);
    /// A text label anchored at plot coordinates (x, y) of the bottom axis and `yAxis` (default:
    /// the left axis); `alignment` says which side of the text touches the anchor.
    QCPItemText *addLabel(double x, double y, const QString &text, Qt::Alignment alignment,
                          QCPAxis *yAxis = nullptr);
    /// Ends a drawing: the legend laid out, Reset zoom's view remembered, a redraw queued.
    void replot();

    void resizeEvent(QResizeEvent *event) override;

private:
    /// Makes a draw requestDraw() put off.
    void drawIfStale() const;
    /// The legend wrapped into as many columns as fit the chart's width (not while a message shows).
    void layOutLegend();
    /// Wraps the legend into as many columns as fit in `width` pixels.
    void fitLegend(int width);
    /// Wraps the headline to the plot's width as laid out (on screen or for an export) and lays
    /// the plot out again when that changed its lines.
    void wrapHeadline();
    [[nodiscard]] int messageWidth() const;
    void onMouseMove(QMouseEvent *event);

    QString mId;
    QString mTitle;
    QString mHeadlineText; ///< the headline, unwrapped
    QString mMessage;
    QCustomPlot *mPlot = nullptr;
    ChartInteraction *mInteraction = nullptr;
    QCPTextElement *mHeadline = nullptr;
    QCPTextElement *mSubtitle = nullptr; ///< only with Rows::HeadlineAndSubtitle
    int mLegendRow = 2;                  ///< the plot layout's row of the legend
    QCPItemText *mMessageItem = nullptr;
    QHash<QCPAbstractPlottable *, QMap<double, QString>> mToolTips;
    std::unique_ptr<LegendTexts> mLegendTexts; ///< the legend's names laid out once (legendtexts.h)
    mutable bool mStale = false; ///< a draw was requested while the chart was hidden
    int mDraws = 0;
    std::function<void()> mDataUpdater;
    mutable bool mDataStale = false; ///< the owner's data changed, not computed yet
};

} // namespace gapstudio::views
