#include "report/reportpainter.h"

#include "charts/chartview.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QPdfWriter>
#include <QRegularExpression>

#include <algorithm>

namespace gapstudio::views::report {

namespace {

constexpr double kCellPadding = 3;
constexpr double kKeepTogether = 380; // points: tables up to this height are not split
const QColor kRule(0xc8, 0xcc, 0xd2);
const QColor kHeaderFill(0xe4, 0xe7, 0xeb);
const QColor kShade(0xf4, 0xf5, 0xf7);
const QColor kFooterText(0x6b, 0x72, 0x80);

/// The writer renders at 96 dpi (the charts' fonts are laid out for 96 dpi screens) and the
/// painter is scaled by 96/72 so that one unit is one point; a font of `points` print points
/// therefore asks for 72/96 of that (the device converts points at 96 dpi, then the scale applies).
constexpr double kDeviceDpi = 96;
constexpr double kPointsPerUnit = 72 / kDeviceDpi;

QFont font(const QString &family, double points, bool bold = false)
{
    QFont f(family);
    f.setPointSizeF(points * kPointsPerUnit);
    f.setBold(bold);
    f.setKerning(true);
    return f;
}

} // namespace

ReportPainter::ReportPainter(QPdfWriter &writer, QCPPainter &painter, QString footer)
    : mWriter(writer)
    , mPainter(painter)
    , mFooter(std::move(footer))
    , mPage_pt(writer.pageLayout().fullRectPoints())
{
    const QString sans = QStringLiteral("DejaVu Sans");
    mBody = font(sans, 9);
    mBold = font(sans, 8, true);
    mSmall = font(sans, 8);
    mMono = font(QStringLiteral("DejaVu Sans Mono"), 8.5);
    mHeading = font(sans, 13, true);
    mTitle = font(sans, 20, true);
}

int ReportPainter::wrapFlags(const QString &text, const QFont &f, double width) const
{
    // Wrap at spaces; break inside a word only when the word alone is wider than the line.
    const QFontMetricsF metrics(f, mPainter.device());
    static const QRegularExpression breaks(QStringLiteral("[ \\-]")); // Qt also breaks after a hyphen
    for (const QString &word : text.split(breaks, Qt::SkipEmptyParts))
        if (metrics.horizontalAdvance(word) > width)
            return Qt::TextWrapAnywhere;
    return Qt::TextWordWrap;
}

double ReportPainter::textHeight(const QString &text, const QFont &f, double width) const
{
    const QFontMetricsF metrics(f, mPainter.device());
    if (text.isEmpty())
        return metrics.height();
    return metrics.boundingRect(QRectF(0, 0, width, 1e6), wrapFlags(text, f, width), text).height();
}

void ReportPainter::drawFooter()
{
    mPainter.save();
    mPainter.setFont(font(mSmall.family(), 7.5));
    mPainter.setPen(kFooterText);
    const QRectF line(kMargin, mPage_pt.height() - kMargin, contentWidth(), kFooterHeight);
    mPainter.drawLine(line.topLeft() - QPointF(0, 4), line.topRight() - QPointF(0, 4));
    // The page number whole on the right; the footer cut short with an ellipsis before it (a long
    // design name would run into it otherwise).
    const QString page = QStringLiteral("Page %1").arg(mPage);
    const QFontMetricsF metrics(mPainter.font(), mPainter.device());
    constexpr double kGap_pt = 12;
    const double room = line.width() - metrics.horizontalAdvance(page) - kGap_pt;
    mPainter.drawText(line, Qt::AlignLeft | Qt::AlignTop, metrics.elidedText(mFooter, Qt::ElideMiddle, room));
    mPainter.drawText(line, Qt::AlignRight | Qt::AlignTop, page);
    mPainter.restore();
}

void ReportPainter::newPage()
{
    drawFooter();
    mWriter.newPage();
    ++mPage;
    mY = kMargin;
}

void ReportPainter::ensureSpace(double points)
{
    if (mY + points > bottom() && mY > kMargin)
        newPage();
}

void ReportPainter::finish()
{
    if (!mPendingHeading.isEmpty())
        place(0);
    drawFooter();
}

void ReportPainter::title(const QString &title, const QString &subtitle)
{
    mPainter.setPen(Qt::black);
    mPainter.setFont(mTitle);
    const double h1 = textHeight(title, mTitle, contentWidth());
    mPainter.drawText(QRectF(kMargin, mY, contentWidth(), h1), Qt::TextWordWrap, title);
    mY += h1 + 4;
    const QFont sub = font(mBody.family(), 13);
    mPainter.setFont(sub);
    const double h2 = textHeight(subtitle, sub, contentWidth());
    mPainter.drawText(QRectF(kMargin, mY, contentWidth(), h2), Qt::TextWordWrap, subtitle);
    mY += h2 + 10;
}

void ReportPainter::heading(const QString &text)
{
    mPendingHeading = text; // drawn with the content that follows it (place())
}

void ReportPainter::place(double needed)
{
    if (mPendingHeading.isEmpty()) {
        ensureSpace(needed);
        return;
    }
    const double h = textHeight(mPendingHeading, mHeading, contentWidth());
    const double before = 10, after = 8;
    ensureSpace(before + h + after + needed);
    mY += mY > kMargin ? before : 0;
    mPainter.setPen(Qt::black);
    mPainter.setFont(mHeading);
    mPainter.drawText(QRectF(kMargin, mY, contentWidth(), h), Qt::AlignLeft, mPendingHeading);
    mY += h + 2;
    mPainter.setPen(QPen(kRule, 0.8));
    mPainter.drawLine(QPointF(kMargin, mY), QPointF(kMargin + contentWidth(), mY));
    mY += after - 2;
    mPendingHeading.clear();
}

void ReportPainter::paragraph(const QString &text, bool monospace, bool small)
{
    const QFont &f = monospace ? mMono : (small ? mSmall : mBody);
    const int flags = wrapFlags(text, f, contentWidth());
    const double h = textHeight(text, f, contentWidth());
    place(h);
    mPainter.setPen(Qt::black);
    mPainter.setFont(f);
    mPainter.drawText(QRectF(kMargin, mY, contentWidth(), h), flags, text);
    mY += h + 4;
}

QList<double> ReportPainter::columnWidths(const Table &table) const
{
    double total = 0;
    for (double w : table.weights)
        total += w;
    QList<double> widths;
    for (double w : table.weights)
        widths << contentWidth() * table.widthFraction * w / total;
    return widths;
}

double ReportPainter::rowHeight(const QStringList &cells, const Table &table, bool header) const
{
    const QList<double> widths = columnWidths(table);
    double height = 0;
    for (qsizetype i = 0; i < widths.size(); ++i)
        height = std::max(height,
                          textHeight(cells.value(i), header ? mBold : mSmall, widths[i] - 2 * kCellPadding));
    return height + 2 * kCellPadding;
}

double ReportPainter::drawRow(const QStringList &cells, const Table &table, bool header, bool shaded)
{
    const QFont &f = header ? mBold : mSmall;
    const QList<double> widths = columnWidths(table);
    const double tableWidth = contentWidth() * table.widthFraction;
    const double rowHeight = this->rowHeight(cells, table, header);
    if (mY + rowHeight > bottom()) {
        newPage();
        if (!header && !table.headers.isEmpty())
            drawRow(table.headers, table, true, false);
    }
    const QRectF row(kMargin, mY, tableWidth, rowHeight);
    if (header || shaded)
        mPainter.fillRect(row, header ? kHeaderFill : kShade);
    mPainter.setPen(QPen(kRule, 0.5));
    mPainter.drawLine(row.bottomLeft(), row.bottomRight());
    mPainter.setPen(Qt::black);
    mPainter.setFont(f);
    double x = kMargin;
    for (qsizetype i = 0; i < widths.size(); ++i) {
        const QRectF cell
            = QRectF(x, mY, widths[i], rowHeight).adjusted(kCellPadding, kCellPadding, -kCellPadding, 0);
        const Qt::Alignment align = table.rightAligned.value(i, false) ? Qt::AlignRight : Qt::AlignLeft;
        mPainter.drawText(cell, int(align | Qt::AlignTop) | wrapFlags(cells.value(i), f, cell.width()),
                          cells.value(i));
        x += widths[i];
    }
    mY += rowHeight;
    return rowHeight;
}

void ReportPainter::table(const Table &table)
{
    const QFontMetricsF metrics(mBold, mPainter.device());
    const QFont titleFont = font(mBody.family(), 9, true);
    const double titleHeight
        = table.title.isEmpty() ? 0 : textHeight(table.title, titleFont, contentWidth()) + 4;
    // A short table starts on the next page rather than leave rows behind; a longer one keeps
    // its title, header and first rows together.
    double total = titleHeight + (table.headers.isEmpty() ? 0 : rowHeight(table.headers, table, true));
    for (const QStringList &row : table.rows)
        total += rowHeight(row, table, false);
    place(total <= kKeepTogether ? total : titleHeight + 3 * (metrics.height() + 2 * kCellPadding));
    if (!table.title.isEmpty()) {
        mPainter.setPen(Qt::black);
        mPainter.setFont(titleFont);
        mPainter.drawText(QRectF(kMargin, mY, contentWidth(), titleHeight),
                          int(Qt::AlignLeft | Qt::AlignTop)
                              | wrapFlags(table.title, titleFont, contentWidth()),
                          table.title);
        mY += titleHeight;
    }
    if (!table.headers.isEmpty())
        drawRow(table.headers, table, true, false);
    bool shaded = false;
    for (const QStringList &row : table.rows) {
        drawRow(row, table, false, shaded);
        shaded = !shaded;
    }
    mY += 10;
}

void ReportPainter::chart(const ChartView &chart, const QString &caption, int width_px)
{
    plot(*chart.plot(), caption, width_px);
}

void ReportPainter::plot(QCustomPlot &plot, const QString &caption, int width_px, double aspect)
{
    const int height_px = qRound(width_px * aspect);
    const double scale = contentWidth() / width_px;
    const double height = height_px * scale;
    const double captionHeight = textHeight(caption, mSmall, contentWidth());
    place(captionHeight + 4 + height);
    mPainter.save();
    mPainter.translate(kMargin, mY);
    mPainter.scale(scale, scale);
    plot.toPainter(&mPainter, width_px, height_px);
    mPainter.restore();
    mY += height + 2;
    mPainter.setPen(kFooterText);
    mPainter.setFont(mSmall);
    mPainter.drawText(QRectF(kMargin, mY, contentWidth(), captionHeight), Qt::TextWordWrap, caption);
    mY += captionHeight + 12;
}

} // namespace gapstudio::views::report
