#include "charts/likelyrange.h"

#include <qcustomplot.h>

namespace gapstudio::views {

QCPErrorBars *addLikelyRanges(QCPAxis *keyAxis, QCPAxis *valueAxis, const std::vector<LikelyRange> &ranges,
                              const QString &name)
{
    if (ranges.empty())
        return nullptr;
    // QCPErrorBars take their positions from a data plottable: an invisible graph of the values.
    auto *anchor = new QCPGraph(keyAxis, valueAxis);
    anchor->setObjectName(QStringLiteral("likelyRangeAnchor"));
    anchor->setLineStyle(QCPGraph::lsNone);
    anchor->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    anchor->removeFromLegend();
    auto *bars = new QCPErrorBars(keyAxis, valueAxis);
    bars->setObjectName(QStringLiteral("likelyRange"));
    bars->setName(name);
    bars->setDataPlottable(anchor);
    bars->setErrorType(QCPErrorBars::etValueError);
    bars->setPen(QPen(QColor(0x20, 0x20, 0x20), 1.3));
    bars->setWhiskerWidth(9);
    for (const LikelyRange &r : ranges) {
        anchor->addData(r.key, r.value);
        bars->addData(r.value - r.low, r.high - r.value);
    }
    return bars;
}

} // namespace gapstudio::views
