#pragma once
/**
 * @file explorechart.h
 * The base of the charts of computed sweeps (Explore, the design space, the roadmap, validation):
 * a PlotChart (charts/plotchart.h) with a subtitle under its title, and the marks every sweep
 * chart draws alike (the MFU curve, the crosses of points without a valid design, "this design").
 * The charts draw results computed by the model (explorecompute.h); they compute nothing
 * themselves.
 */

#include "charts/plotchart.h"

class QCPGraph;

namespace gapstudio::views {

class ExploreChart : public PlotChart {
    Q_OBJECT

protected:
    ExploreChart(QString id, QString title, QWidget *parent);

    /// The MFU curve (percent, on the right axis), as every sweep chart draws it.
    QCPGraph *addMfuGraph();
    /// Crosses on the bottom axis for the points without a valid design, named `name` (hover
    /// gives the reason).
    QCPGraph *addInfeasibleGraph(const QString &name);
    /// A dotted vertical line at `x` of the bottom axis labelled "this design". Call after the
    /// bottom axis' range and scale are set.
    void markCurrent(double x);
};

} // namespace gapstudio::views
