#include "studio/commands.h"

#include "studio/scenariodocument.h"
#include "studio/studioengine.h"

namespace gapstudio::views {

ChangeScenario::ChangeScenario(ScenarioDocument *document, scenario::Scenario before, scenario::Scenario after,
                               const QString &text, int mergeId, std::string mergeKey)
    : QUndoCommand(text)
    , mDocument(document)
    , mBefore(std::move(before))
    , mAfter(std::move(after))
    , mMergeId(mergeId)
    , mMergeKey(std::move(mergeKey))
{
}

void ChangeScenario::undo()
{
    mDocument->setScenario(mBefore);
}

void ChangeScenario::redo()
{
    mDocument->setScenario(mAfter);
}

bool ChangeScenario::mergeWith(const QUndoCommand *other)
{
    const auto *next = static_cast<const ChangeScenario *>(other);
    if (next->mMergeKey != mMergeKey)
        return false;
    mAfter = next->mAfter;
    setObsolete(mAfter == mBefore); // every field, exactly: no text round trip
    return true;
}

} // namespace gapstudio::views
