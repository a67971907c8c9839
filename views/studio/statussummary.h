#pragma once
/**
 * @file statussummary.h
 * The results' one-line summary (statusline.h) in the main window's status bar. Its text changes
 * at every change of the design, and a label in the bar's layout then lays the bar and the whole
 * main window (every dock) out again. So it lies over the bar outside its layout, at a fixed size
 * that follows the bar's: a widget of fixed size invalidates no layout (QWidget::updateGeometry),
 * and a new text only repaints it. A temporary message (a menu's status tip, a notice) covers it,
 * as it covers the widgets of the bar's layout, and it comes back. A text wider than the bar
 * ends in an ellipsis, whole in the tool tip.
 */

#include <QLabel>
#include <QStaticText>

class QStatusBar;

namespace gapstudio::views {

class StatusSummary final : public QLabel {
    Q_OBJECT

public:
    explicit StatusSummary(QStatusBar *bar);

    /// The text as drawn: the whole text(), or its start and an ellipsis when the bar is too
    /// narrow (the whole text is then its tool tip).
    [[nodiscard]] QString shownText() const;

protected:
    bool event(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    /// Fills the bar but for its size grip.
    void fit();
    /// The shown text, laid out for the label's font and width. Measuring and drawing a text
    /// shape it (HarfBuzz), the bulk of a repaint: it is shaped once per new text or width, and
    /// measured by its layout, so that a text that fits is not shaped again to be elided.
    const QStaticText &prepared() const;

    QStatusBar *mBar;
    struct Prepared {
        QString whole;
        int width = -1;
        QFont font;
        QStaticText shown;
    };
    mutable Prepared mPrepared;
};

} // namespace gapstudio::views
