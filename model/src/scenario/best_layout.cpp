// A design at its best layout (best_layout.h): the layout search with the design's own model,
// then the pipeline at the layout found.
#include "gapstudio/scenario/best_layout.h"

#include "gapstudio/model/search_bounded.h"

#include <exception>

namespace gapstudio::scenario {

namespace {

bool satisfies(const model::LayoutPins &pins, const model::Execution &e)
{
    return (!pins.tensorPar || e.tensorPar == *pins.tensorPar)
           && (!pins.pipelinePar || e.pipelinePar == *pins.pipelinePar)
           && (!pins.dataPar || e.dataPar == *pins.dataPar)
           && (!pins.pipelineInterleaving || e.pipelineInterleaving == *pins.pipelineInterleaving)
           && (!pins.microbatchSize || e.microbatchSize == *pins.microbatchSize)
           && (!pins.recompute || e.activationRecompute == *pins.recompute)
           && (!pins.optimizerSharding || e.optimizerSharding == *pins.optimizerSharding);
}

} // namespace

BestLayoutResult findBestLayout(const CompiledScenario &compiled, const BestLayoutOptions &options,
                                const PipelineOptions &pipeline)
{
    BestLayoutResult out;
    out.space = model::designSearchSpace(compiled.execution, options.pins);
    model::SearchOptions search = model::designSearchOptions(compiled.evaluateOptions());
    search.topN = 1;
    search.threads = options.threads;
    search.cancel = options.cancel;
    search.progress = options.progress;
    try {
        const model::BoundedSearchResult bounded
            = model::searchLayoutsBounded(compiled.application, compiled.system, out.space, search);
        const model::SearchResult &found = bounded.search;
        out.configurations = found.configurations;
        out.valid = found.valid;
        out.evaluated = bounded.evaluated;
        out.cancelled = found.cancelled;
        // The design's own layout counts too: it may lie outside the space (uneven stages,
        // another network mapping) and wins ties, so that the best is never worse than it.
        PipelineResult own = runCompiled(compiled, pipeline);
        out.found = own.ok() && satisfies(options.pins, compiled.execution);
        if (!found.top.empty()
            && (!out.found || found.top.front().stats.sample_rate > own.evaluation.stats.sample_rate)) {
            CompiledScenario design = compiled;
            design.execution = found.top.front().execution;
            out.result = runCompiled(design, pipeline);
            out.found = out.result.ok();
        }
        if (!out.result.compiled)
            out.result = std::move(own);
    } catch (const std::exception &error) { // out of memory, say: the design as given
        out.found = false;
        out.result = runCompiled(compiled, pipeline);
        out.result.diagnostics.push_back({ model::DiagnosticCode::InvalidScenario, "",
                                           std::string("layout search failed: ") + error.what() });
    }
    return out;
}

BestLayoutResult runScenarioAtBestLayout(const Scenario &scenario, const PresetLibrary &library,
                                         const BestLayoutOptions &options, const PipelineOptions &pipeline)
{
    PipelineResult own = runScenario(scenario, library, pipeline);
    if (!own.compiled) {
        BestLayoutResult out;
        out.result = std::move(own);
        return out;
    }
    BestLayoutResult out = findBestLayout(*own.compiled, options, pipeline);
    if (!out.found)
        out.result = std::move(own);
    out.result.scenario = scenario;
    if (out.found) { // the design with the layout found written inline, its layout overrides gone
        std::erase_if(out.result.scenario.overrides,
                      [](const auto &entry) { return entry.first.rfind("layout.", 0) == 0; });
        Layout layout = out.result.compiled->resolved.layout;
        layout.info = { "best-layout", "Best layout", "layout search of GapStudio" };
        layout.execution = out.result.compiled->execution;
        out.result.scenario.layout = { "", layout };
    }
    return out;
}

std::optional<double> layoutChoiceLoss(const PipelineResult &own, const PipelineResult &best) noexcept
{
    if (!own.ok() || !best.ok())
        return std::nullopt;
    return best.analysis->gap.mfu - own.analysis->gap.mfu;
}

} // namespace gapstudio::scenario
