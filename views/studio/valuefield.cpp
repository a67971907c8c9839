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
    fitLabel();
}

void ValueField::fitLabel()
{
    // The label keeps a fixed size that only grows: a label of fixed size changes no layout
    // (QWidget::updateGeometry), so a slider step repaints the value alone instead of laying out
    // the whole panel and the wrapped texts of its scroll area again. As tall as the editor that
    // takes its place, so that the text stays centred in the row. What depends on the font alone
    // (the template's width, the height) is measured once per font, not at every step.
    const int margin = 2 * (mLabel->margin() + mLabel->contentsMargins().left());
    if (mLeast.isEmpty())
        mLeast = QSize(mLabel->fontMetrics().horizontalAdvance(kWidthTemplate) + margin,
                       std::max(mLabel->sizeHint().height(), mEditor->sizeHint().height()));
    const int width
        = std::max(mLabel->fontMetrics().horizontalAdvance(mLabel->text()) + margin, mLeast.width());
    const int height = mLeast.height();
    if (width > mLabel->minimumWidth() || mLabel->maximumWidth() != mLabel->minimumWidth()
        || mLabel->minimumHeight() != height || mLabel->maximumHeight() != height)
        mLabel->setFixedSize(std::max(width, mLabel->minimumWidth()), height);
}

void ValueField::changeEvent(QEvent *event)
{
    QStackedWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        mLeast = QSize(); // measured again, and the label fitted anew
        mLabel->setMinimumSize(0, 0);
        mLabel->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
        fitLabel();
    }
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
