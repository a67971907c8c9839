#include "charts/chartexporter.h"

#include "common/safewrite.h"

#include "charts/chartinteraction.h"
#include "common/lastfolder.h"

#include <QEvent>
#include <QFileDialog>
#include <QMessageBox>
#include <QWidget>

namespace gapstudio::views {

ChartExporter::ChartExporter(QWidget *window)
    : QObject(window)
    , mWindow(window)
{
    askPath = [this](const QString &suggested) {
        return QFileDialog::getSaveFileName(
            mWindow, tr("Export chart"), suggested,
            tr("PNG image (*.png);;PDF (*.pdf);;SVG (*.svg);;CSV data (*.csv)"));
    };
}

void ChartExporter::setProvenance(std::function<QString()> json, std::function<QString()> designName)
{
    mJson = std::move(json);
    mDesignName = std::move(designName);
}

void ChartExporter::addChart(QWidget *chart, const QString &id, ChartInteraction *interaction)
{
    mCharts.push_back({ chart, id, interaction });
    chart->installEventFilter(this);
    if (interaction) {
        interaction->plotWidget()->installEventFilter(this); // clicks and wheel land on the plot
        connect(interaction, &ChartInteraction::exportRequested, this,
                [this, chart] { exportWithDialog(chart); });
    }
}

const ChartExporter::Entry *ChartExporter::entry(const QWidget *chart) const
{
    for (const Entry &e : mCharts)
        if (e.chart == chart)
            return &e;
    return nullptr;
}

bool ChartExporter::eventFilter(QObject *watched, QEvent *event)
{
    const QEvent::Type type = event->type();
    if (type == QEvent::MouseButtonPress || type == QEvent::Wheel || type == QEvent::ContextMenu) {
        for (const Entry &e : mCharts)
            if (e.chart == watched || (e.interaction && e.interaction->plotWidget() == watched)) {
                mLastLookedAt = e.chart;
                break;
            }
    }
    return QObject::eventFilter(watched, event);
}

namespace {
/// Whether the user can see `widget`: shown, and what the window shows at its centre is it (or a
/// part of it). QMainWindow keeps the docks of a tab group all "visible" and moves those behind
/// out of sight, so isVisible() alone says nothing (the Explore dock behind Charts is "visible");
/// visibleRegion() is empty for a chart its opaque plot covers.
bool onScreen(const QWidget *widget)
{
    if (!widget || !widget->isVisible())
        return false;
    QWidget *window = widget->window();
    const QWidget *shown = window->childAt(widget->mapTo(window, widget->rect().center()));
    return shown && (shown == widget || widget->isAncestorOf(shown));
}
} // namespace

QWidget *ChartExporter::currentChart() const
{
    if (onScreen(mLastLookedAt))
        return mLastLookedAt;
    for (const Entry &e : mCharts)
        if (onScreen(e.chart))
            return e.chart;
    return nullptr;
}

QString ChartExporter::currentChartId() const
{
    const Entry *e = entry(currentChart());
    return e ? e->id : QString();
}

bool ChartExporter::exportChart(QWidget *chart, const QString &path, QString *error) const
{
    const Entry *e = entry(chart);
    if (!e || !e->interaction) {
        if (error)
            *error = tr("No chart to export");
        return false;
    }
    ExportSource source = e->interaction->exportSource();
    source.design = mDesignName ? mDesignName() : QString();
    if (calibration) // the design's, for the Explore charts too
        source.calibration = calibration();
    if (inputs && !isNotAnInput(path, inputs(), error))
        return false;
    return exportPlot(source, path, mJson ? mJson() : QString(), 2.0, error);
}

void ChartExporter::exportCurrent()
{
    if (QWidget *chart = currentChart())
        exportWithDialog(chart);
}

void ChartExporter::exportWithDialog(QWidget *chart)
{
    const Entry *e = entry(chart);
    if (!e)
        return;
    const QString path = askPath(suggestedPath(e->id + QStringLiteral(".png")));
    if (path.isEmpty())
        return;
    rememberFolder(path);
    QString error;
    if (!exportChart(chart, path, &error)) {
        QMessageBox::critical(mWindow, tr("Export failed"), error);
        return;
    }
    emit exported(path);
}

} // namespace gapstudio::views
