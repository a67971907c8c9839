#include "charts/chartexport.h"

#include "charts/chartview.h"
#include "results/calibrationtext.h"

#include <qcustomplot.h>

#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QImageWriter>
#include <QRegularExpression>
#include <QPageLayout>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QXmlStreamReader>

namespace gapstudio::views {

namespace {

const char *const kPngScenarioKey = "gapstudio.scenario";
const char *const kPngVersionKey = "gapstudio.version";
const char *const kPngCalibrationKey = "gapstudio.calibration";
const QString kXmpNamespace = QStringLiteral("urn:gapstudio:xmp:1.0/");
const QByteArray kCsvPrefix = QByteArrayLiteral("# gapstudio ");

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

/// Draws the plot as vectors (PDF, SVG) on `device`.
bool paintVector(const ExportSource &chart, QPaintDevice *device, const QString &path, QString *error)
{
    QCPPainter painter;
    if (!painter.begin(device))
        return fail(error, QObject::tr("Cannot write %1").arg(path));
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    chart.plot->toPainter(&painter, chart.size.width(), chart.size.height());
    painter.end();
    return true;
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
    if (!chart.calibration.isEmpty())
        image.setText(QString::fromLatin1(kPngCalibrationKey), chart.calibration);
    QImageWriter writer(path, "png");
    if (!writer.write(image))
        return fail(error, writer.errorString());
    return true;
}

bool writePdf(const ExportSource &chart, const QString &path, const QString &json, QString *error)
{
    const QSize size = chart.size;
    QPdfWriter writer(path);
    writer.setCreator(creator());
    writer.setTitle(chart.headline);
    writer.setDocumentXmpMetadata(xmpPacket(chart.headline, json, chart.calibration));
    writer.setResolution(72); // one pixel of the chart = one point of the page
    writer.setPageLayout(QPageLayout(QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch),
                                     QPageLayout::Portrait, QMarginsF()));
    return paintVector(chart, &writer, path, error);
}

bool writeSvg(const ExportSource &chart, const QString &path, const QString &json, QString *error)
{
    const QSize size = chart.size;
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(96);
    // Qt 6.4's QSvgGenerator writes title and description verbatim, unescaped.
    const QString title = chart.calibration.isEmpty()
                              ? chart.headline
                              : QStringLiteral("%1 (%2)").arg(chart.headline, chart.calibration);
    generator.setTitle(title.toHtmlEscaped());
    generator.setDescription(json.toHtmlEscaped());
    return paintVector(chart, &generator, path, error);
}

bool writeCsv(const ExportSource &chart, const QString &path, const QString &json, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, file.errorString());
    file.write(kCsvPrefix + gapstudioVersion().toUtf8() + " scenario: " + oneLine(json).toUtf8() + '\n');
    if (!chart.calibration.isEmpty())
        file.write("# calibration: " + oneLine(chart.calibration).toUtf8() + '\n');
    for (const QStringList &row : chart.rows) {
        QByteArrayList fields;
        for (const QString &field : row)
            fields << csvField(field);
        file.write(fields.join(',') + '\n');
    }
    if (!file.commit())
        return fail(error, file.errorString());
    return true;
}

/// The text of the first element named `name` (in `namespaceUri`, if given) of an XML document.
QString xmlElementText(const QByteArray &xml, const QString &name, const QString &namespaceUri = {})
{
    QXmlStreamReader reader(xml);
    while (reader.readNextStartElement() || !reader.atEnd()) {
        if (reader.isStartElement() && reader.name() == name &&
            (namespaceUri.isEmpty() || reader.namespaceUri() == namespaceUri))
            return reader.readElementText(QXmlStreamReader::IncludeChildElements);
        if (reader.hasError())
            break;
        if (!reader.isStartElement())
            reader.readNext();
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
    const QString calibration = chart.results() ? calibrationText(*chart.results()) : QString();
    return exportPlot({ chart.plot(), chart.exportSize(), chart.headline(), chart.csvRows(), calibration },
                      path, provenanceJson, scale, error);
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

QString readProvenance(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray content = file.readAll();
    if (content.startsWith("\x89PNG")) {
        QImageReader reader(path, "png");
        return reader.text(QString::fromLatin1(kPngScenarioKey));
    }
    if (content.startsWith("%PDF-")) {
        // The XMP packet is an uncompressed metadata stream (QPdfWriter writes it as given).
        const qsizetype begin = content.indexOf("<x:xmpmeta");
        const qsizetype end = content.indexOf("</x:xmpmeta>", begin);
        if (begin < 0 || end < 0)
            return {};
        const QByteArray xmp = content.mid(begin, end - begin + qsizetype(sizeof("</x:xmpmeta>") - 1));
        return xmlElementText(xmp, QStringLiteral("scenario"), kXmpNamespace);
    }
    if (content.startsWith(kCsvPrefix)) {
        const QByteArray line = content.left(content.indexOf('\n'));
        const qsizetype marker = line.indexOf(" scenario: ");
        return marker < 0 ? QString() : QString::fromUtf8(line.mid(marker + qsizetype(sizeof(" scenario: ") - 1)));
    }
    if (content.contains("<svg"))
        return xmlElementText(content, QStringLiteral("desc"));
    return {};
}

} // namespace gapstudio::views
