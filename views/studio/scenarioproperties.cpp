#include "studio/scenarioproperties.h"

#include "studio/scenariodocument.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>

namespace gapstudio::views {

ScenarioPropertiesDialog::ScenarioPropertiesDialog(ScenarioDocument *document, QWidget *parent)
    : QDialog(parent)
    , mDocument(document)
    , mName(new QLineEdit(this))
    , mNotes(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("scenarioProperties"));
    setWindowTitle(tr("Scenario properties"));
    const scenario::Scenario &s = document->scenario();
    mName->setText(QString::fromStdString(s.info.name));
    mName->setObjectName(QStringLiteral("scenarioName"));
    mNotes->setPlainText(QString::fromStdString(s.info.source));
    mNotes->setObjectName(QStringLiteral("scenarioNotes"));
    mNotes->setTabChangesFocus(true);
    auto *hint = new QLabel(
        document->nameFollowsEdits()
            ? tr("The name follows your changes (\"Custom: …\") until you give the design one here.")
            : tr("The name is yours: it stays as it is when the design changes."),
        this);
    hint->setWordWrap(true);
    hint->setStyleSheet(QStringLiteral("color: #505050;"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto *form = new QFormLayout(this);
    form->addRow(tr("Name:"), mName);
    form->addRow(tr("Notes:"), mNotes);
    form->addRow(hint);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(mName, &QLineEdit::textChanged, this, [buttons](const QString &text) {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!text.trimmed().isEmpty());
    });
    resize(520, 280);
}

void ScenarioPropertiesDialog::apply()
{
    mDocument->setProperties(mName->text(), mNotes->toPlainText());
}

} // namespace gapstudio::views
