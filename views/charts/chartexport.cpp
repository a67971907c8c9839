#include "charts/chartexport.h"

#include "charts/chartview.h"
#include "common/safewrite.h"

#include "gapstudio/io/safe_file.h"
#include "results/calibrationtext.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFileInfo>
#include <QImageReader>
#include <QImageWriter>
#include <QPageLayout>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QXmlStreamReader>

namespace gapstudio::views {

namespace {

const char *const kPngScenarioKey = "gapstudio.scenario";
const char *const kPngVersionKey = "gapstudio.version";
const char *const kPngCalibrationKey = "gapstudio.calibration";
const char *const kPngStepTimeKey = "gapstudio.step_time_s";
const QString kXmpNamespace = QStringLiteral("urn:gapstudio:xmp:1.0/");
const QByteArray kCsvPrefix = QByteArrayLiteral("# gapstudio ");
/// Deepest XML nesting read for provenance (GapStudio's own SVG and XMP need fewer than 10).
constexpr int kMaxXmlDepth = 256;

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

QString creator()
{
    return QStringLiteral("GapStudio %1").arg(gapstudioVersion());
}

/// The provenance on one line: line breaks and the indentation after them removed. JSON strings
/// cannot hold a raw line break, so this keeps valid JSON valid, with its keys in their order.
QString oneLine(const QString &json)
{
    static const QRegularExpression lineBreak(QStringLiteral("[\\r\\n]+[ \\t]*"));
    return QString(json).replace(lineBreak, QString()).trimmed();
}

QByteArray csvField(const QString &field)
{
    QByteArray bytes = field.toUtf8();
    if (bytes.contains(',') || bytes.contains('"') || bytes.contains('\n') || bytes.contains('\r'))
        bytes = '"' + bytes.replace('"', "\"\"") + '"';
    return bytes;
}

QByteArray xmpPacket(const QString &title, const QString &json, const QString &calibration)
{
    const QString e = json.toHtmlEscaped();
    const QString xmp = QStringLiteral(
        "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
        " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
        "  <rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"\n"
        "    xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\"\n"
        "    xmlns:gapstudio=\"%1\">\n"
        "   <dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">%2</rdf:li></rdf:Alt></dc:title>\n"
        "   <dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">%3</rdf:li></rdf:Alt></dc:description>\n"
        "   <xmp:CreatorTool>%4</xmp:CreatorTool>\n"
        "   <gapstudio:version>%5</gapstudio:version>\n"
        "   <gapstudio:scenario>%3</gapstudio:scenario>\n"
        "   <gapstudio:calibration>%6</gapstudio:calibration>\n"
        "  </rdf:Description>\n"
        " </rdf:RDF>\n"
        "</x:xmpmeta>\n"
        "<?xpacket end=\"w\"?>");
    return xmp
        .arg(kXmpNamespace, title.toHtmlEscaped(), e, creator(), gapstudioVersion(),
             calibration.toHtmlEscaped())
        .toUtf8();
}

/// The document title: the headline, and the design's name when there is one.
QString documentTitle(const ExportSource &chart)
{
    return chart.design.isEmpty() ? chart.headline
                                  : QStringLiteral("%1 — %2").arg(chart.headline, chart.design);
}

/// Draws the plot as vectors (PDF, SVG) on `device`.
bool paintVector(const ExportSource &chart, QPaintDevice *device, const QString &path, QString *error)
{
    QCPPainter painter;
    if (!painter.begin(device))
        return fail(error, QObject::tr("%1: cannot draw the chart").arg(path));
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    chart.plot->toPainter(&painter, chart.size.width(), chart.size.height());
    return painter.end() || fail(error, QObject::tr("%1: cannot draw the chart").arg(path));
}

// Each format is made in memory and then written with writeFileSafely (common/safewrite.h):
// written in place, a failed or partial write (full disk, /dev/full) once left a truncated
// file and reported success.

/// `image` with its text chunks as a PNG file, written safely.
bool writePngFile(const QImage &image, const QString &path, QString *error)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image))
        return fail(error, QStringLiteral("%1: %2").arg(path, writer.errorString()));
    return writeFileSafely(path, buffer.data(), error);
}

bool writePng(const ExportSource &chart, const QString &path, const QString &json, double scale, QString *error)
{
    const QSize size = chart.size;
    QImage image = chart.plot->toPixmap(size.width(), size.height(), scale).toImage();
    const int dotsPerMeter = qRound(96 * scale / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    image.setText(QString::fromLatin1(kPngScenarioKey), json);
    image.setText(QString::fromLatin1(kPngVersionKey), gapstudioVersion());
    image.setText(QStringLiteral("Title"), documentTitle(chart)); // a PNG keyword (PNG spec 11.3.4.2)
    if (!chart.calibration.isEmpty())
        image.setText(QString::fromLatin1(kPngCalibrationKey), chart.calibration);
    return writePngFile(image, path, error);
}

bool writePdf(const ExportSource &chart, const QString &path, const QString &json, QString *error)
{
    const QSize size = chart.size;
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setCreator(creator());
        writer.setTitle(documentTitle(chart));
        writer.setDocumentXmpMetadata(xmpPacket(documentTitle(chart), json, chart.calibration));
        writer.setResolution(72); // one pixel of the chart = one point of the page
        writer.setPageLayout(
            QPageLayout(QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch),
                        QPageLayout::Portrait, QMarginsF()));
        if (!paintVector(chart, &writer, path, error))
            return false;
    }
    return writeFileSafely(path, buffer.data(), error);
}

bool writeSvg(const ExportSource &chart, const QString &path, const QString &json, QString *error)
{
    const QSize size = chart.size;
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setResolution(96);
        // Qt 6.4's QSvgGenerator writes title and description verbatim, unescaped.
        const QString title = chart.calibration.isEmpty()
                                  ? documentTitle(chart)
                                  : QStringLiteral("%1 (%2)").arg(documentTitle(chart), chart.calibration);
        generator.setTitle(title.toHtmlEscaped());
        generator.setDescription(json.toHtmlEscaped());
        if (!paintVector(chart, &generator, path, error))
            return false;
    }
    return writeFileSafely(path, buffer.data(), error);
}

bool writeCsv(const ExportSource &chart, const QString &path, const QString &json, QString *error)
{
    QByteArray csv = kCsvPrefix + gapstudioVersion().toUtf8() + " scenario: " + oneLine(json).toUtf8() + '\n';
    if (!chart.calibration.isEmpty())
        csv += "# calibration: " + oneLine(chart.calibration).toUtf8() + '\n';
    for (const QStringList &row : chart.rows) {
        QByteArrayList fields;
        for (const QString &field : row)
            fields << csvField(field);
        csv += fields.join(',') + '\n';
    }
    return writeFileSafely(path, csv, error);
}

/// The text of the first element named `name` (in `namespaceUri`, if given) of an XML document,
/// read token by token with a bounded depth (QXmlStreamReader::readElementText recurses into
/// child elements: a deeply nested SVG overflowed the stack). Sets `problem` if the document is
/// nested too deep.
QString xmlElementText(const QByteArray &xml, const QString &name, const QString &namespaceUri = {},
                       QString *problem = nullptr)
{
    QXmlStreamReader reader(xml);
    int depth = 0;
    int inside = 0; // the depth of the element read, 0 outside it
    QString text;
    while (!reader.atEnd()) {
        const QXmlStreamReader::TokenType token = reader.readNext();
        if (reader.hasError())
            return {};
        if (token == QXmlStreamReader::StartElement) {
            if (++depth > kMaxXmlDepth) {
                if (problem)
                    *problem = QObject::tr("XML nested deeper than %1 levels").arg(kMaxXmlDepth);
                return {};
            }
            if (!inside && reader.name() == name
                && (namespaceUri.isEmpty() || reader.namespaceUri() == namespaceUri))
                inside = depth;
        } else if (token == QXmlStreamReader::EndElement) {
            if (inside == depth)
                return text;
            --depth;
        } else if (inside && token == QXmlStreamReader::Characters) {
            text += reader.text();
        }
    }
    return {};
}

} // namespace

QString gapstudioVersion()
{
    return QStringLiteral(GAPSTUDIO_VERSION_STRING);
}

bool exportChart(const ChartView &chart, const QString &path, const QString &provenanceJson, double scale,
                 QString *error)
{
    ExportSource source = chart.exportSource();
    source.calibration = chart.results() ? calibrationText(*chart.results()) : QString();
    return exportPlot(source, path, provenanceJson, scale, error);
}

bool exportPlot(const ExportSource &chart, const QString &path, const QString &provenanceJson, double scale,
                QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return writePng(chart, path, provenanceJson, scale, error);
    if (suffix == QLatin1String("pdf"))
        return writePdf(chart, path, provenanceJson, error);
    if (suffix == QLatin1String("svg"))
        return writeSvg(chart, path, provenanceJson, error);
    if (suffix == QLatin1String("csv"))
        return writeCsv(chart, path, provenanceJson, error);
    return fail(error, QObject::tr("Unknown export format \"%1\" (use .png, .pdf, .svg or .csv)").arg(suffix));
}

QString readProvenance(const QString &path, QString *problem)
{
    try {
        const std::string content = io::readInputFile(path.toStdString());
        return provenanceFromBytes(QByteArray(content.data(), qsizetype(content.size())), problem);
    } catch (const io::InputError &e) { // missing, not a regular file, larger than the limit
        if (problem)
            *problem = QString::fromUtf8(e.what());
        return {};
    }
}

bool exportScreenshot(QImage image, const QString &path, const QString &provenanceJson,
                      std::optional<double> stepTime_s, QString *error)
{
    image.setText(QString::fromLatin1(kPngScenarioKey), provenanceJson);
    image.setText(QString::fromLatin1(kPngVersionKey), gapstudioVersion());
    if (stepTime_s)
        image.setText(QString::fromLatin1(kPngStepTimeKey), QString::number(*stepTime_s, 'g', 17));
    return writePngFile(image, path, error);
}

std::optional<double> screenshotStepTime(const QString &path)
{
    QImageReader reader(path, "png");
    bool ok = false;
    const double seconds = reader.text(QString::fromLatin1(kPngStepTimeKey)).toDouble(&ok);
    return ok ? std::optional<double>(seconds) : std::nullopt;
}

QString provenanceFromBytes(const QByteArray &content, QString *problem)
{
    if (content.startsWith("\x89PNG")) {
        QBuffer buffer;
        buffer.setData(content);
        buffer.open(QIODevice::ReadOnly);
        QImageReader reader(&buffer, "png");
        return reader.text(QString::fromLatin1(kPngScenarioKey));
    }
    if (content.startsWith("%PDF-")) {
        // The XMP packet is an uncompressed metadata stream (QPdfWriter writes it as given).
        const qsizetype begin = content.indexOf("<x:xmpmeta");
        const qsizetype end = content.indexOf("</x:xmpmeta>", begin);
        if (begin < 0 || end < 0)
            return {};
        const QByteArray xmp = content.mid(begin, end - begin + qsizetype(sizeof("</x:xmpmeta>") - 1));
        return xmlElementText(xmp, QStringLiteral("scenario"), kXmpNamespace, problem);
    }
    if (content.startsWith(kCsvPrefix)) {
        const QByteArray line = content.left(content.indexOf('\n'));
        const qsizetype marker = line.indexOf(" scenario: ");
        return marker < 0 ? QString() : QString::fromUtf8(line.mid(marker + qsizetype(sizeof(" scenario: ") - 1)));
    }
    if (content.contains("<svg"))
        return xmlElementText(content, QStringLiteral("desc"), {}, problem);
    return {};
}

} // namespace gapstudio::views
