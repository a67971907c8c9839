#include "report/report.h"

#include "charts/chartexport.h"
#include "charts/chartspanel.h"
#include "charts/chartview.h"
#include "common/safewrite.h"
#include "report/provenance.h"
#include "report/reportcontent.h"
#include "report/reportpainter.h"
#include "roadmap/roadmapchart.h"
#include "roadmap/roadmaptable.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFileInfo>
#include <QPageLayout>
#include <QPdfWriter>

#include <memory>

namespace gapstudio::views {

namespace {

/// The XMP packet carrying the scenario, in the namespace readProvenance() reads
/// (the same layout as chartexport.cpp's chart PDFs).
QByteArray xmpPacket(const QString &title, const QString &json)
{
    const QString e = json.toHtmlEscaped();
    const QString xmp = QStringLiteral(
        "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
        " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
        "  <rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"\n"
        "    xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmlns:gapstudio=\"urn:gapstudio:xmp:1.0/\">\n"
        "   <dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">%1</rdf:li></rdf:Alt></dc:title>\n"
        "   <xmp:CreatorTool>GapStudio %2</xmp:CreatorTool>\n"
        "   <gapstudio:version>%2</gapstudio:version>\n"
        "   <gapstudio:scenario>%3</gapstudio:scenario>\n"
        "  </rdf:Description>\n"
        " </rdf:RDF>\n"
        "</x:xmpmeta>\n"
        "<?xpacket end=\"w\"?>");
    return xmp.arg(title.toHtmlEscaped(), gapstudioVersion(), e).toUtf8();
}

QString designName(const scenario::Scenario &s)
{
    if (!s.info.name.empty())
        return QString::fromStdString(s.info.name);
    return s.info.id.empty() ? QObject::tr("Untitled design") : QString::fromStdString(s.info.id);
}

/// The file that reproduces the design: the scenario file, else this report itself (it embeds
/// the scenario, and `gapstudio --scenario` opens it).
QString scenarioFileName(const QString &pdfPath, const ReportOptions &options)
{
    if (!options.scenarioFile.isEmpty())
        return options.scenarioFile;
    return QFileInfo(pdfPath).fileName();
}

void writeIntro(report::ReportPainter &out, const ScenarioResults &current, const QString &pdfPath,
                const ReportOptions &options)
{
    out.title(QObject::tr("GapStudio design report"), designName(current.scenario));
    out.paragraph(QObject::tr("Date: %1    GapStudio %2    Model: corrected (native scenario)")
                      .arg(options.date.toString(QStringLiteral("yyyy-MM-dd HH:mm")), gapstudioVersion()));
    if (!current.scenario.info.source.empty())
        out.paragraph(QString::fromStdString(current.scenario.info.source), false, true);
    out.paragraph(
        QStringLiteral("Reproduce: gapstudio --scenario %1").arg(scenarioFileName(pdfPath, options)), true);
    out.paragraph(
        QObject::tr("The scenario is embedded in this PDF's metadata: opening this file in GapStudio, or "
                    "dropping it onto the window, restores the design."),
        false, true);
}

void writeCharts(report::ReportPainter &out, int section, const ScenarioResults &current,
                 const std::vector<const ScenarioResults *> &pinned)
{
    ChartsPanel panel;
    panel.setResults(std::make_shared<const ScenarioResults>(current));
    QList<PinnedScenario> pins;
    for (const ScenarioResults *pin : pinned)
        pins.append({ designName(pin->scenario), std::make_shared<const ScenarioResults>(*pin) });
    panel.setPins(pins);
    out.heading(QObject::tr("%1  Charts").arg(section));
    const QString against = pinned.empty() ? QString()
                            : pinned.size() == 1
                                ? QObject::tr(", current against baseline")
                                : QObject::tr(", current against the %1 pinned designs").arg(pinned.size());
    int figure = 1;
    for (const ChartView *chart : panel.charts()) {
        out.chart(*chart, QObject::tr("Figure %1. %2%3.").arg(figure++).arg(chart->title(), against),
                  // pins add legend entries: lay out wider (as the charts' own exports)
                  pinned.empty() ? report::ReportPainter::kChartWidth_px
                                 : report::ReportPainter::kWideChartWidth_px);
    }
}

/// The roadmap's steps: their table (the Roadmap view's) and chart.
void writeRoadmap(report::ReportPainter &out, int section, const RoadmapData &roadmap)
{
    out.heading(QObject::tr("%1  Roadmap").arg(section)); // headings do not wrap: the name goes below
    out.paragraph(QString::fromStdString(roadmap.roadmap.name));
    if (!roadmap.roadmap.source.empty())
        out.paragraph(QString::fromStdString(roadmap.roadmap.source), false, true);
    // The view's table in two, as its fifteen columns do not fit across A4: the steps' figures,
    // then their goodput and the MFU's likely range (step and design again, then the last four
    // columns).
    const QList<QStringList> rows = RoadmapTable::rowsOf(roadmap);
    constexpr int kGoodputColumns = 4;
    const qsizetype split = rows.first().size() - kGoodputColumns;
    report::Table table;
    table.title = QObject::tr("Steps of %1. Gains are over the step before (cost and energy ratios below 1 are savings).")
                      .arg(QFileInfo(roadmap.file).fileName());
    report::Table goodput;
    goodput.title
        = QObject::tr("The steps with failures, checkpoints and restarts: goodput, $ per million tokens "
                      "(Eff. $/M) and its ratio to the step before; the MFU's likely range (one standard "
                      "deviation of the model's error).");
    for (qsizetype r = 0; r < rows.size(); ++r) {
        QStringList &target = r == 0 ? table.headers : table.rows.emplace_back();
        target = rows[r].mid(0, split);
        QStringList &withFailures = r == 0 ? goodput.headers : goodput.rows.emplace_back();
        withFailures = rows[r].mid(0, 2) + rows[r].mid(split);
    }
    table.weights = { 0.8, 1.9, 0.95, 1.35, 0.85, 1.15, 1.0, 0.75, 1.3, 1.1, 1.2 };
    goodput.weights = { 0.8, 1.9, 1.1, 1.1, 1.1, 1.7 };
    goodput.widthFraction = 0.85;
    for (int c = 0; c < table.headers.size(); ++c)
        table.rightAligned << (c >= 3);
    goodput.rightAligned = { false, false, true, true, true, true };
    out.table(table);
    out.table(goodput);
    for (const QString &problem : roadmap.problems)
        out.paragraph(QStringLiteral("\u2022 ") + problem);
    RoadmapChart chart;
    chart.setRoadmap(std::make_shared<const RoadmapData>(roadmap));
    out.plot(*chart.plot(), QObject::tr("Roadmap: throughput, MFU, $ per million tokens and J per token per step."),
             report::ReportPainter::kChartWidth_px, 0.75);
}

/// The Cost and power section: the cost tables, with the warning of parts that have no price.
void writeCostAndPower(report::ReportPainter &out, int section, const ScenarioResults &current)
{
    out.heading(QObject::tr("%1  Cost and power").arg(section));
    const QList<report::Table> cost = report::costTables(current);
    if (cost.isEmpty())
        out.paragraph(QObject::tr("No cost: the design does not run (see Diagnostics)."));
    else if (const std::string warning = model::unpricedWarning(current.cost->bom); !warning.empty())
        out.paragraph(QStringLiteral("\u26a0 ") + QString::fromStdString(warning));
    for (const report::Table &table : cost)
        out.table(table);
}

void writeDiagnostics(report::ReportPainter &out, int section, const ScenarioResults &current)
{
    out.heading(QObject::tr("%1  Diagnostics").arg(section));
    const QStringList diagnostics = report::diagnosticLines(current);
    if (diagnostics.isEmpty())
        out.paragraph(QObject::tr("None: the model evaluates this design without errors."));
    for (const QString &line : diagnostics)
        out.paragraph(QStringLiteral("\u2022 ") + line);
}

/// The comparison with one pinned design (the baseline, as a change) or with several (side by
/// side). `pinned` is not empty.
void writeComparison(report::ReportPainter &out, int section, const ScenarioResults &current,
                     const std::vector<const ScenarioResults *> &pinned, const ReportOptions &options)
{
    if (pinned.size() == 1) {
        const ScenarioResults &baseline = *pinned.front();
        out.heading(QObject::tr("%1  Comparison with the baseline").arg(section));
        report::Table comparison = report::comparisonTable(baseline, current, options.tokenBudget);
        comparison.title
            = QObject::tr("Baseline: %1%2. Change = current \u2212 baseline.")
                  .arg(designName(baseline.scenario),
                       options.baselineFile.isEmpty() ? QString()
                                                      : QStringLiteral(" (%1)").arg(options.baselineFile));
        out.table(comparison);
        return;
    }
    out.heading(QObject::tr("%1  Comparison with the pinned designs").arg(section));
    QStringList names;
    for (std::size_t i = 0; i < pinned.size(); ++i)
        names << QStringLiteral("%1. %2").arg(i + 1).arg(designName(pinned[i]->scenario));
    report::Table comparison = report::comparisonTable(pinned, current, options.tokenBudget);
    comparison.title
        = QObject::tr("Pinned designs, in this order: %1.").arg(names.join(QStringLiteral("; ")));
    out.table(comparison);
}

/// The Design section: the blocks and their parameters.
void writeDesign(report::ReportPainter &out, int section, const ScenarioResults &current)
{
    out.heading(QObject::tr("%1  Design").arg(section));
    out.table(report::blocksTable(current));
    const QList<report::Table> parameters = report::parameterTables(current);
    if (parameters.isEmpty())
        out.paragraph(QObject::tr(
            "The scenario does not compile, so its blocks cannot be resolved (see Diagnostics)."));
    for (const report::Table &table : parameters)
        out.table(table);
}

bool paintReport(QIODevice &device, const ScenarioResults &current,
                 const std::vector<const ScenarioResults *> &pinned, const QString &pdfPath, QString *error,
                 const ReportOptions &options)
{
    const QString name = designName(current.scenario);
    QPdfWriter writer(&device);
    writer.setCreator(QStringLiteral("GapStudio %1").arg(gapstudioVersion()));
    writer.setTitle(QObject::tr("GapStudio report: %1").arg(name));
    writer.setDocumentXmpMetadata(
        xmpPacket(writer.title(), scenarioProvenance(options.embedded.value_or(current.scenario))));
    writer.setResolution(96); // the charts' fonts are laid out for 96 dpi; see reportpainter.h
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF()));

    QCPPainter painter;
    if (!painter.begin(&writer)) {
        if (error)
            *error = QObject::tr("%1: cannot draw the report").arg(pdfPath);
        return false;
    }
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(96.0 / 72.0, 96.0 / 72.0); // one unit = one point

    report::ReportPainter out(
        writer, painter,
        QStringLiteral("GapStudio %1  \u00b7  %2  \u00b7  %3")
            .arg(gapstudioVersion(), name, options.date.toString(QStringLiteral("yyyy-MM-dd"))));
    writeIntro(out, current, pdfPath, options);

    int section = 1;
    out.heading(QObject::tr("%1  Key results").arg(section++));
    out.table(report::keyResultsTable(current, options.tokenBudget));

    writeCostAndPower(out, section++, current);
    writeDiagnostics(out, section++, current);
    if (!pinned.empty())
        writeComparison(out, section++, current, pinned, options);
    writeDesign(out, section++, current);

    if (options.roadmap)
        writeRoadmap(out, section++, *options.roadmap);
    writeCharts(out, section, current, pinned); // every pin overlaid
    out.finish();
    if (!painter.end()) {
        if (error)
            *error = QObject::tr("%1: cannot draw the report").arg(pdfPath);
        return false;
    }
    return true;
}

} // namespace

bool writeReport(const ScenarioResults &current, const ScenarioResults *baseline, const QString &pdfPath,
                 QString *error, const ReportOptions &options)
{
    return writeReport(current, baseline ? std::vector { baseline } : std::vector<const ScenarioResults *> {},
                       pdfPath, error, options);
}

bool writeReport(const ScenarioResults &current, const std::vector<const ScenarioResults *> &pinned,
                 const QString &pdfPath, QString *error, const ReportOptions &options)
{
    // Made in memory, then written safely (common/safewrite.h): complete, or the old file kept.
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (!paintReport(buffer, current, pinned, pdfPath, error, options))
        return false;
    return writeFileSafely(pdfPath, buffer.data(), error);
}

} // namespace gapstudio::views
