#pragma once
/**
 * @file reportpainter.h
 * Flows report content down A4 pages of a QPdfWriter: headings, wrapped paragraphs, tables that
 * continue on the next page (repeating their header), and charts drawn as vectors. Units are
 * PDF points (the writer renders at 96 dpi, like the screens the charts are laid out for, and
 * the painter is scaled by 96/72), and fonts are given in print points.
 */

#include "report/reportcontent.h"

#include <QFont>
#include <QList>
#include <QRectF>
#include <QString>

class QCPPainter;
class QCustomPlot;
class QPdfWriter;

namespace gapstudio::views {
class ChartView;
}

namespace gapstudio::views::report {

class ReportPainter {
public:
    /// Page margins (points) and the chart's drawing size (chart pixels, scaled to the width).
    static constexpr double kMargin = 42; // about 15 mm
    static constexpr double kFooterHeight = 20;
    static constexpr int kChartWidth_px = 820;      // chart text prints at about 7.5 pt
    static constexpr int kWideChartWidth_px = 1000; // for the longer legends of a baseline (about 6 pt)
    static constexpr double kChartAspect = 0.58;    // height / width

    /// `painter` is active on `writer` (resolution 96 dpi, painter scaled by 96/72); `footer` is
    /// printed on every page with the page number.
    ReportPainter(QPdfWriter &writer, QCPPainter &painter, QString footer);

    void title(const QString &title, const QString &subtitle);
    /// A section heading, placed with (on the same page as) the content that follows it.
    void heading(const QString &text);
    void paragraph(const QString &text, bool monospace = false, bool small = false);
    void table(const Table &table);
    /// The chart laid out `width_px` chart pixels wide, scaled to the content width (about half a
    /// page high), with `caption` below it.
    void chart(const ChartView &chart, const QString &caption, int width_px = kChartWidth_px);
    /// The same for any plot (the roadmap chart), `aspect` = height / width.
    void plot(QCustomPlot &plot, const QString &caption, int width_px = kChartWidth_px,
              double aspect = kChartAspect);
    void space(double points) { mY += points; }
    void newPage();
    /// Starts a page unless `points` of height fit below the cursor.
    void ensureSpace(double points);
    void finish(); ///< prints the last page's footer

    [[nodiscard]] int pageCount() const { return mPage; }

private:
    [[nodiscard]] double contentWidth() const { return mPage_pt.width() - 2 * kMargin; }
    [[nodiscard]] double bottom() const { return mPage_pt.height() - kMargin - kFooterHeight; }
    [[nodiscard]] double textHeight(const QString &text, const QFont &font, double width) const;
    [[nodiscard]] int wrapFlags(const QString &text, const QFont &font, double width) const;
    void drawFooter();
    /// Makes room for `needed` points of content plus a pending heading, and draws the heading.
    void place(double needed);
    [[nodiscard]] QList<double> columnWidths(const Table &table) const;
    [[nodiscard]] double rowHeight(const QStringList &cells, const Table &table, bool header) const;
    double drawRow(const QStringList &cells, const Table &table, bool header, bool shaded);

    QPdfWriter &mWriter;
    QCPPainter &mPainter;
    QString mFooter;
    QString mPendingHeading;
    QRectF mPage_pt;
    double mY = kMargin;
    int mPage = 1;
    QFont mBody, mBold, mSmall, mMono, mHeading, mTitle;
};

} // namespace gapstudio::views::report
