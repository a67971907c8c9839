#include "studio/llmpanel.h"

#include "common/whenseen.h"
#include "studio/blockinspector.h"
#include "studio/scenariodocument.h"

#include <QComboBox>
#include <QVBoxLayout>

namespace gapstudio::views {

LlmPanel::LlmPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mPicker(new QComboBox(this))
    , mParameters(new BlockInspector(this))
    , mWhenSeen(new WhenSeen(this))
{
    setObjectName(QStringLiteral("llmPanel"));
    mPicker->setObjectName(QStringLiteral("llmPicker"));
    for (const auto &[id, llm] : document->library().llms)
        mPicker->addItem(QString::fromStdString(llm.info.name), QString::fromStdString(id));
    mParameters->setPart(CanvasScene::Part::Llm);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(mPicker);
    layout->addWidget(mParameters);
    connect(mPicker, &QComboBox::activated, this, [this](int index) {
        mDocument->applyPreset(BlockKind::Llm, mPicker->itemData(index).toString().toStdString());
    });
}

void LlmPanel::setResults(const ResultsPtr &results)
{
    mWhenSeen->run([this, results] { // a tab behind Layout: shown when raised (whenseen.h)
        mParameters->setResults(results);
        const QSignalBlocker blocker(mPicker);
        mPicker->setCurrentIndex(
            mPicker->findData(QString::fromStdString(mDocument->scenario().llm.presetId)));
    });
}

} // namespace gapstudio::views
