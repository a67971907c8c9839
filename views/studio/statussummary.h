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
 *
 * A slider step changes a few figures of the line, not the calibration note that makes up most
 * of it. Shaping a text (HarfBuzz) and drawing its glyphs is what a repaint costs, so the line is
 * kept in pieces ("Step time 4.003 s · ", "2.1 M tokens/s · ", ...), each laid out once
 * (QStaticText), and a new text shapes and repaints the pieces that changed and those it moves.
 * It draws the line as a QLabel of its size and font draws it.
 */

#include <QStaticText>
#include <QWidget>

#include <vector>

class QStatusBar;

namespace gapstudio::views {

class StatusSummary final : public QWidget {
    Q_OBJECT

public:
    explicit StatusSummary(QStatusBar *bar);

    void setText(const QString &text);
    [[nodiscard]] QString text() const { return mText; }
    /// The text as drawn: the whole text(), or its start and an ellipsis when the bar is too
    /// narrow (the whole text is then its tool tip).
    [[nodiscard]] QString shownText() const;

protected:
    bool event(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    /// A piece of the line, up to and with a separator, at `x` from the line's start.
    struct Piece {
        QString text;
        QStaticText drawn;
        qreal x = 0;
        qreal width = 0;
    };

    /// Fills the bar but for its size grip.
    void fit();
    /// Lays out the pieces of mText that differ from those shown; returns the area to repaint.
    QRectF layOut();
    /// Where the line's text starts (the left of the contents, centred vertically as
    /// QPainter::drawText centres a line).
    [[nodiscard]] QPointF origin() const;
    /// The area a piece's glyphs cover, the widget's height.
    [[nodiscard]] QRectF areaOf(const Piece &piece) const;

    QStatusBar *mBar;
    QString mText;
    std::vector<Piece> mPieces;
    QFont mLaidOutFont;
    /// When the line is wider than the widget: the whole line elided, drawn instead of the pieces.
    QStaticText mElided;
    bool mIsElided = false;
};

} // namespace gapstudio::views
