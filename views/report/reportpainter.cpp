#include "report/reportpainter.h"

#include "charts/chartview.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QPdfWriter>

#include <algorithm>

namespace gapstudio::views::report {

namespace {

constexpr double kCellPadding = 3;
const QColor kRule(0xc8, 0xcc, 0xd2);
const QColor kHeaderFill(0xe4, 0xe7, 0xeb);
const QColor kShade(0xf4, 0xf5, 0xf7);
const QColor kFooterText(0x6b, 0x72, 0x80);

QFont font(const QString &family, double points, bool bold = false)
{
    QFont f(family);
    f.setPointSizeF(points);
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

double ReportPainter::textHeight(const QString &text, const QFont &f, double width) const
{
    const QFontMetricsF metrics(f, mPainter.device());
    if (text.isEmpty())
        return metrics.height();
    return metrics.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap | Qt::TextWrapAnywhere, text).height();
}

void ReportPainter::drawFooter()
{
    mPainter.save();
    mPainter.setFont(font(mSmall.family(), 7.5));
    mPainter.setPen(kFooterText);
    const QRectF line(kMargin, mPage_pt.height() - kMargin, contentWidth(), kFooterHeight);
    mPainter.drawLine(line.topLeft() - QPointF(0, 4), line.topRight() - QPointF(0, 4));
    mPainter.drawText(line, Qt::AlignLeft | Qt::AlignTop, mFooter);
    mPainter.drawText(line, Qt::AlignRight | Qt::AlignTop, QStringLiteral("Page %1").arg(mPage));
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
    const double h = textHeight(text, mHeading, contentWidth());
    ensureSpace(h + 60); // keep a heading with the start of its section
    mY += mY > kMargin ? 10 : 0;
    mPainter.setPen(Qt::black);
    mPainter.setFont(mHeading);
    mPainter.drawText(QRectF(kMargin, mY, contentWidth(), h), Qt::AlignLeft, text);
    mY += h + 2;
    mPainter.setPen(QPen(kRule, 0.8));
    mPainter.drawLine(QPointF(kMargin, mY), QPointF(kMargin + contentWidth(), mY));
    mY += 6;
}

void ReportPainter::paragraph(const QString &text, bool monospace, bool small)
{
    const QFont &f = monospace ? mMono : (small ? mSmall : mBody);
    const int flags = Qt::TextWordWrap | (monospace ? Qt::TextWrapAnywhere : 0);
    const double h = textHeight(text, f, contentWidth());
    ensureSpace(h);
    mPainter.setPen(Qt::black);
    mPainter.setFont(f);
    mPainter.drawText(QRectF(kMargin, mY, contentWidth(), h), flags, text);
    mY += h + 4;
}

double ReportPainter::drawRow(const QStringList &cells, const Table &table, bool header, bool shaded)
{
    const QFont &f = header ? mBold : mSmall;
    double total = 0;
    for (double w : table.weights)
        total += w;
    QList<double> widths;
    double rowHeight = 0;
    for (qsizetype i = 0; i < table.weights.size(); ++i) {
        widths << contentWidth() * table.weights[i] / total;
        rowHeight = std::max(rowHeight, textHeight(cells.value(i), f, widths.last() - 2 * kCellPadding));
    }
    rowHeight += 2 * kCellPadding;
    if (mY + rowHeight > bottom()) {
        newPage();
        if (!header && !table.headers.isEmpty())
            drawRow(table.headers, table, true, false);
    }
    const QRectF row(kMargin, mY, contentWidth(), rowHeight);
    if (header || shaded)
        mPainter.fillRect(row, header ? kHeaderFill : kShade);
    mPainter.setPen(QPen(kRule, 0.5));
    mPainter.drawLine(row.bottomLeft(), row.bottomRight());
    mPainter.setPen(Qt::black);
    mPainter.setFont(f);
    double x = kMargin;
    for (qsizetype i = 0; i < widths.size(); ++i) {
        const QRectF cell = QRectF(x, mY, widths[i], rowHeight).adjusted(kCellPadding, kCellPadding, -kCellPadding, 0);
        const Qt::Alignment align = table.rightAligned.value(i, false) ? Qt::AlignRight : Qt::AlignLeft;
        mPainter.drawText(cell, int(align | Qt::AlignTop) | Qt::TextWordWrap | Qt::TextWrapAnywhere, cells.value(i));
        x += widths[i];
    }
    mY += rowHeight;
    return rowHeight;
}

void ReportPainter::table(const Table &table)
{
    const QFontMetricsF metrics(mBold, mPainter.device());
    const double titleHeight = table.title.isEmpty() ? 0 : metrics.height() + 4;
    ensureSpace(titleHeight + 3 * (metrics.height() + 2 * kCellPadding)); // title, header and two rows together
    if (!table.title.isEmpty()) {
        mPainter.setPen(Qt::black);
        mPainter.setFont(font(mBody.family(), 9, true));
        mPainter.drawText(QRectF(kMargin, mY, contentWidth(), titleHeight), Qt::AlignLeft | Qt::AlignTop,
                          metrics.elidedText(table.title, Qt::ElideRight, contentWidth()));
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

void ReportPainter::chart(const ChartView &chart, const QString &caption)
{
    const double scale = contentWidth() / kChartWidth_px;
    const double height = kChartHeight_px * scale;
    const double captionHeight = textHeight(caption, mSmall, contentWidth());
    ensureSpace(captionHeight + 4 + height);
    mPainter.save();
    mPainter.translate(kMargin, mY);
    mPainter.scale(scale, scale);
    chart.plot()->toPainter(&mPainter, kChartWidth_px, kChartHeight_px);
    mPainter.restore();
    mY += height + 2;
    mPainter.setPen(kFooterText);
    mPainter.setFont(mSmall);
    mPainter.drawText(QRectF(kMargin, mY, contentWidth(), captionHeight), Qt::TextWordWrap, caption);
    mY += captionHeight + 12;
}

} // namespace gapstudio::views::report
