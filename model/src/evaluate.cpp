// Temporary stub so that the tree links while the model is being ported.
#include "gapstudio/model/evaluate.h"

namespace gapstudio::model {

Diagnostics checkConfiguration(const Application &, const Execution &, const System &)
{
    return {};
}

Evaluation evaluate(const Application &, const Execution &, const System &, const EvaluateOptions &)
{
    return {};
}

} // namespace gapstudio::model
