#pragma once
// What the Explore variants chart writes down its category axis: the tick labels and the group
// headers ("Fabric: ..."), read back from QCustomPlot.

#include "explore/variantschart.h"

#include <qcustomplot.h>

#include <QStringList>

namespace gapstudio::test {

/// The texts down the variants chart's category axis, and its group headers.
inline QStringList categoryTexts(const views::VariantsChart &chart)
{
    QStringList texts;
    QCustomPlot *p = chart.plot();
    if (const auto ticker = p->yAxis->ticker().dynamicCast<QCPAxisTickerText>())
        texts << ticker->ticks().values();
    for (int i = 0; i < p->itemCount(); ++i)
        if (const auto *text = qobject_cast<QCPItemText *>(p->item(i)))
            if (text->text().startsWith(QStringLiteral("Fabric:")))
                texts << text->text();
    return texts;
}

} // namespace gapstudio::test
