#pragma once
/**
 * @file chartexporter.h
 * File > Export chart and every chart's right-click Export…: knows the charts of the window and
 * which one the user is looking at (of the charts on screen, the one clicked or scrolled last), asks for
 * a file in the last folder used, and writes the chart with the design's provenance (its file
 * text and its name) through exportPlot().
 */

#include "charts/chartexport.h"

#include <QList>
#include <QObject>
#include <QPointer>

#include <functional>
#include <vector>

class QWidget;

namespace gapstudio::views {

class ChartInteraction;

class ChartExporter : public QObject {
    Q_OBJECT

public:
    /// `window` parents the file dialogs and error boxes.
    explicit ChartExporter(QWidget *window);

    /// What exports embed: the design's file text and its name (for titles).
    void setProvenance(std::function<QString()> json, std::function<QString()> designName);

    /// Registers a chart widget with its id and interaction (which sends Export… requests here).
    void addChart(QWidget *chart, const QString &id, ChartInteraction *interaction);
    /// Registers every chart of a list (any PlotChart, or any class with id() and
    /// interaction()).
    template <typename Chart> void addCharts(const QList<Chart *> &charts)
    {
        for (Chart *chart : charts)
            addChart(chart, chart->id(), chart->interaction());
    }

    /// The chart the user is looking at: of the charts on screen (not on a tab behind another),
    /// the one clicked or scrolled last, else the first; nullptr when none is on screen.
    [[nodiscard]] QWidget *currentChart() const;
    /// Its id ("step_time", "scaling", ...), empty when none.
    [[nodiscard]] QString currentChartId() const;

    /// Writes `chart` to `path` (format by suffix) with the provenance; false with `error`.
    bool exportChart(QWidget *chart, const QString &path, QString *error = nullptr) const;

    /// Asks for the file (tests replace it); the default is a save dialog in the last folder.
    std::function<QString(const QString &suggestedPath)> askPath;
    /// The files an export must never replace (the open scenario file).
    std::function<QStringList()> inputs;
    /// The calibration the design's results use, written into every export (empty: none).
    std::function<QString()> calibration;

public slots:
    /// File > Export chart: the current chart, after asking for a file.
    void exportCurrent();
    /// Export… of `chart`: asks for a file and writes it.
    void exportWithDialog(QWidget *chart);

signals:
    /// A chart was written to `path`.
    void exported(const QString &path);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Entry {
        QPointer<QWidget> chart;
        QString id;
        QPointer<ChartInteraction> interaction;
    };
    [[nodiscard]] const Entry *entry(const QWidget *chart) const;

    QWidget *mWindow;
    std::vector<Entry> mCharts;
    QPointer<QWidget> mLastLookedAt;
    std::function<QString()> mJson;
    std::function<QString()> mDesignName;
};

} // namespace gapstudio::views
