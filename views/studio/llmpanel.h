#pragma once
/**
 * @file llmpanel.h
 * The LLM being trained: a preset picker (one command per pick) and its parameters.
 */

#include "results/scenarioresults.h"

#include <QWidget>

class QComboBox;

namespace gapstudio::views {

class WhenSeen;

class BlockInspector;
class ScenarioDocument;

class LlmPanel : public QWidget {
    Q_OBJECT

public:
    explicit LlmPanel(ScenarioDocument *document, QWidget *parent = nullptr);
    void setResults(const ResultsPtr &results);
    [[nodiscard]] QComboBox *picker() const { return mPicker; }

private:
    ScenarioDocument *mDocument;
    QComboBox *mPicker;
    BlockInspector *mParameters;
    WhenSeen *mWhenSeen;
};

} // namespace gapstudio::views
