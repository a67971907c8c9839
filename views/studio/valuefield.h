#pragma once
/**
 * @file valuefield.h
 * A slider's value as text that turns into an editor on double-click: type a value (with or
 * without its unit), Enter applies it, Escape or leaving the field cancels.
 */

#include <QSize>
#include <QStackedWidget>

#include <optional>

class QLabel;
class QLineEdit;

namespace gapstudio::views {

class ValueField : public QStackedWidget {
    Q_OBJECT

public:
    explicit ValueField(QWidget *parent = nullptr);

    /// The value shown (while not editing).
    void setText(const QString &text);
    [[nodiscard]] QString text() const;
    /// Starts typing (what a double-click does).
    void startEditing();
    [[nodiscard]] bool isEditing() const;
    [[nodiscard]] QLineEdit *editor() const { return mEditor; }

    /// The number at the start of `text` ("1.5 TB/s" -> 1.5, "2,048" -> 2048); nullopt if none.
    [[nodiscard]] static std::optional<double> parseNumber(const QString &text);

signals:
    /// The user typed `value` and pressed Enter.
    void valueEntered(double value);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void finish(bool apply);
    /// Fixes the label's size to its text's, never narrower than it was (why: valuefield.cpp).
    void fitLabel();

    QLabel *mLabel;
    QLineEdit *mEditor;
    QSize mLeast; ///< the label's least size for the current font (empty: to be measured)
};

} // namespace gapstudio::views
