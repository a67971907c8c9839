#pragma once
/**
 * @file cornernote.h
 * A note in a tab widget's corner (the calibration that produced the charts' results) that never
 * pushes the tabs out of view: it shows as much of its text as the room beside the tabs allows,
 * ending in "…", and then carries the whole text as its tooltip. Without it, a long note took the
 * tab bar's room and left two or three tabs and scroll arrows.
 */

#include <QLabel>

class QTabWidget;

namespace gapstudio::views {

class CornerNote final : public QLabel {
    Q_OBJECT

public:
    explicit CornerNote(QWidget *parent = nullptr);

    /// Sets the whole text; call fitBeside() to show it.
    void setWholeText(const QString &text);
    [[nodiscard]] QString wholeText() const { return mWhole; }
    /// Shows as much of the text as fits in `tabs`' width beside its tab bar and `besides` (the
    /// corner's other widgets, pixels).
    void fitBeside(const QTabWidget *tabs, int besides = 0);

private:
    QString mWhole;
    /// What the shown text was fitted to.
    struct Fitted {
        QString whole;
        int room = -1;
        QFont font;
    } mFitted;
};

} // namespace gapstudio::views
