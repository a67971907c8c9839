#pragma once
/**
 * @file legendtexts.h
 * Legend entries that lay their text out once. QCustomPlot's own entry (QCPPlottableLegendItem)
 * lays its name out again for its size (QFontMetrics::boundingRect) at every layout and for its
 * text (QPainter::drawText) at every draw, shaping it each time; with a dozen entries that was the
 * costliest part of redrawing a chart after a change of the design. A chart keeps the layouts
 * (LegendTexts) across its redraws, which recreate the entries, and draws each entry as QCustomPlot
 * does, the same size and the same pixels (tst_charts checks both against QCustomPlot's entries).
 */

#include <qcustomplot.h>

#include <QHash>
#include <QStaticText>

namespace gapstudio::views {

/// The laid-out names of a chart's legend entries, by font and name.
class LegendTexts {
public:
    struct Text {
        QRect bounds;     ///< as QCPPlottableLegendItem measures the name
        QStaticText text; ///< the name laid out once
    };
    /// The name's layout in `font`, on a line `iconHeight` tall (made on first use).
    [[nodiscard]] const Text &of(const QFont &font, const QString &name, int iconHeight);

    /// Replaces each of `legend`'s plottable entries by a LegendEntry drawing from this cache, in
    /// place and with the entry's own settings; entries already replaced are left.
    void adopt(QCPLegend *legend);

private:
    QHash<QString, Text> mTexts;
};

/// A plottable's legend entry with its name's layout from LegendTexts.
class LegendEntry final : public QCPPlottableLegendItem {
    Q_OBJECT

public:
    LegendEntry(QCPLegend *legend, QCPAbstractPlottable *plottable, LegendTexts *texts);

protected:
    void draw(QCPPainter *painter) override;
    QSize minimumOuterSizeHint() const override;

private:
    /// The name's layout, looked up again only when its font, name or icon height change (a
    /// lookup keys on QFont::key(), itself a cost).
    [[nodiscard]] const LegendTexts::Text &text() const;

    LegendTexts *mTexts;
    mutable LegendTexts::Text mText;
    mutable QFont mTextFont;
    mutable QString mTextName;
    mutable int mTextIconHeight = 0;
    mutable bool mHasText = false;
};

} // namespace gapstudio::views
