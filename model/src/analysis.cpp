// Placeholder until the analysis lands (see analysis.h).
#include "gapstudio/model/analysis.h"

namespace gapstudio::model {

Analysis analyze(const Application &, const Execution &, const System &, const Evaluation &)
{
    return {};
}

} // namespace gapstudio::model
