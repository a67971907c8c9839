#include "studio/valuefield.h"

#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>

namespace gapstudio::views {

namespace {
/// The width a value label starts with: most values and units fit without growing it.
const QString kWidthTemplate = QStringLiteral("00000.0 GB/s");
} // namespace

ValueField::ValueField(QWidget *parent)
    : QStackedWidget(parent)
    , mLabel(new QLabel(this))
    , mEditor(new QLineEdit(this))
{
    mLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    mLabel->setToolTip(tr("Double-click to type a value"));
    mLabel->installEventFilter(this);
    mEditor->setAlignment(Qt::AlignRight);
    mEditor->installEventFilter(this);
    addWidget(mLabel);
    addWidget(mEditor);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    connect(mEditor, &QLineEdit::returnPressed, this, [this] { finish(true); });
}

void ValueField::setText(const QString &text)
{
    if (text == mLabel->text())
        return;
    mLabel->setText(text);
    // The label keeps a fixed size that only grows: a label of fixed size changes no layout
    // (QWidget::updateGeometry), so a slider step repaints the value alone instead of laying out
    // the whole panel and the wrapped texts of its scroll area again. As tall as the editor that
    // takes its place, so that the text stays centred in the row.
    const int margin = 2 * (mLabel->margin() + mLabel->contentsMargins().left());
    const int width = std::max(mLabel->fontMetrics().horizontalAdvance(text),
                               mLabel->fontMetrics().horizontalAdvance(kWidthTemplate))
                      + margin;
    const int height = std::max(mLabel->sizeHint().height(), mEditor->sizeHint().height());
    if (width > mLabel->minimumWidth() || mLabel->maximumWidth() != mLabel->minimumWidth()
        || mLabel->minimumHeight() != height || mLabel->maximumHeight() != height)
        mLabel->setFixedSize(std::max(width, mLabel->minimumWidth()), height);
}

QString ValueField::text() const
{
    return mLabel->text();
}

bool ValueField::isEditing() const
{
    return currentWidget() == mEditor;
}

void ValueField::startEditing()
{
    // The number alone, so that typing replaces it (the unit may be typed or left out).
    const std::optional<double> value = parseNumber(mLabel->text());
    mEditor->setText(value ? QLocale::c().toString(*value, 'g', 6) : QString());
    setCurrentWidget(mEditor);
    mEditor->selectAll();
    mEditor->setFocus();
}

std::optional<double> ValueField::parseNumber(const QString &text)
{
    static const QRegularExpression number(
        QStringLiteral("^\\s*([-+]?[0-9][0-9,]*(\\.[0-9]*)?([eE][-+]?[0-9]+)?)"));
    const QRegularExpressionMatch match = number.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    const double value = QLocale::c().toDouble(match.captured(1).remove(QLatin1Char(',')), &ok);
    return ok ? std::optional<double>(value) : std::nullopt;
}

void ValueField::finish(bool apply)
{
    if (!isEditing())
        return;
    const std::optional<double> value = parseNumber(mEditor->text());
    setCurrentWidget(mLabel);
    if (apply && value)
        emit valueEntered(*value);
}

bool ValueField::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == mLabel && event->type() == QEvent::MouseButtonDblClick) {
        startEditing();
        return true;
    }
    if (watched == mEditor) {
        if (event->type() == QEvent::KeyPress && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape) {
            finish(false);
            return true;
        }
        if (event->type() == QEvent::FocusOut)
            finish(false);
    }
    return QStackedWidget::eventFilter(watched, event);
}

} // namespace gapstudio::views
