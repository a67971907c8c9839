# Mutations of the model core, the views, the exports and the programs (sourced by
# tests/mutation-check.sh; see its header for the format).
# shellcheck shell=bash
# analysis.cpp: the charts' data (model::analyze)
mutation "memory loss halved" model/src/engine/analysis.cpp \
    '{ "memory", "Memory-bound time", memory / total },' \
    '{ "memory", "Memory-bound time", memory / total / 2 },' \
    "tst_analysis:efficiencyGapByHand"
mutation "DP bytes without the sharded all-gather" model/src/engine/analysis.cpp \
    'lp * o.block_dp_size * (exe.optimizerSharding ? 2.0 : 1.0), o.dp_comm_link_time,' \
    'lp * o.block_dp_size, o.dp_comm_link_time,' \
    "tst_analysis:tierTrafficByHand"
mutation "hidden TP communication ignores the exposed part" model/src/engine/analysis.cpp \
    'hidden(o.tp_comm_link_time, o.tp_comm_exposed_time)' \
    'hidden(o.tp_comm_link_time, 0.0)' \
    "tst_analysis:stepBreakdownByHand"
mutation "HBM traffic without the optimizer step" model/src/engine/analysis.cpp \
    'lp * o.block_optim_mem_accessed;' \
    '0.0;' \
    "tst_analysis:tierTrafficByHand"
mutation "tokens per second are samples per second" model/src/engine/analysis.cpp \
    'a.tokensPerSecond = o.sample_rate * static_cast<double>(app.seqSize);' \
    'a.tokensPerSecond = o.sample_rate;' \
    "tst_analysis:stepBreakdownByHand"
mutation "MoE host sync not a loss of its own" model/src/engine/analysis.cpp \
    '{ "moe_sync", "MoE dispatcher host sync (fitted)", o.moe_sync_time / total },' \
    '{ "moe_sync", "MoE dispatcher host sync (fitted)", 0.0 },' \
    "tst_fidelity_layers:softwareOverheadsNamedInTheGap"
mutation "expert load imbalance not a loss of its own" model/src/engine/analysis.cpp \
    '{ "moe_imbalance", "Expert load imbalance", o.moe_imbalance_time / total },' \
    '{ "moe_imbalance", "Expert load imbalance", 0.0 },' \
    "tst_fidelity_layers:expertLoadImbalance"
# block_stats.cpp and stages.cpp: the software stack's fixed costs counted per block and pass
mutation "software overheads counted for the forward pass only" model/src/engine/block_stats.cpp \
    'o.block_software_overhead_time = passes * ctx.calibration->blockOverhead_s;' \
    'o.block_software_overhead_time = ctx.calibration->blockOverhead_s;' \
    "tst_fidelity_layers:softwareOverheadsNamedInTheGap"
mutation "software overheads of the embedding and LM head left out" model/src/engine/stages.cpp \
    'o.software_overhead_time += M * critical.ends.software;' \
    'o.software_overhead_time += 0;' \
    "tst_fidelity_layers:softwareOverheadsNamedInTheGap"
mutation "the software picker's choice is dropped" views/studio/layoutpanel.cpp \
    'mDocument->setSoftware(id.toStdString());' \
    '(void)id;' \
    "tst_designedits:softwareStackPickedInTheLayoutPanel"
mutation "the calibration picker's choice is dropped" views/studio/calibrationchoice.cpp \
    'mDocument->setCalibration(id.toStdString());' \
    '(void)id;' \
    "tst_designedits:calibrationPickedInTheLayoutPanel"
mutation "the calibration picker shows the library's first, not the design's" views/studio/calibrationchoice.cpp \
    'setCurrentIndex(std::max(0, index));' \
    'setCurrentIndex(0);' \
    "tst_designedits:calibrationPickedInTheLayoutPanel"
mutation "the embedded calibration's entry added again on every change" views/studio/calibrationchoice.cpp \
    'if (!embeddedShown)' \
    'if (true)' \
    "tst_designedits:calibrationPickedInTheLayoutPanel"
mutation "the embedded calibration's entry kept after a preset is picked" views/studio/calibrationchoice.cpp \
    'if (embeddedShown)' \
    'if (false)' \
    "tst_designedits:calibrationPickedInTheLayoutPanel"
mutation "the panel says a flex dispatcher synchronises" views/studio/layoutpanel.cpp \
    'const QString dispatcher = e.moeDispatcher == model::MoeDispatcher::Flex' \
    'const QString dispatcher = e.moeDispatcher != model::MoeDispatcher::Flex' \
    "tst_designedits:softwareStackPickedInTheLayoutPanel"
mutation "the report leaves the software stack out" views/report/reportcontent.cpp \
    'table.rows << QStringList { QStringLiteral("Software stack"),' \
    'table.rows << QStringList { QStringLiteral("Software"),' \
    "tst_calibrationtext:report"
mutation "goodput shown as a fraction, not a percentage" views/results/goodputtext.cpp \
    'const QString percent = locale.toString(100 * g.goodput,' \
    'const QString percent = locale.toString(g.goodput,' \
    "tst_calibrationtext:goodputInKeyResultsAndReport"
# sweep.cpp: sweeps and sensitivity
mutation "HBM bandwidth not scaled" model/src/search/sweep.cpp \
    's.mem1.bandwidth_Bps *= factor;' \
    's.mem1.bandwidth_Bps *= 1.0;' \
    "tst_sweep:scaledChangesExactlyItsField"
mutation "scale-out scales the scale-up tier" model/src/search/sweep.cpp \
    's.networks.back().bandwidth_Bps *= factor;' \
    's.networks.front().bandwidth_Bps *= factor;' \
    "tst_sweep:scaledChangesExactlyItsField"
mutation "latency scaled on no tier" model/src/search/sweep.cpp \
    'n.latency_s *= factor;' \
    'n.latency_s *= 1.0;' \
    "tst_sweep:scaledChangesExactlyItsField"
mutation "scale-out value read from tier 0" model/src/search/sweep.cpp \
    'return s.networks.empty() ? 0 : s.networks.back().bandwidth_Bps;' \
    'return s.networks.empty() ? 0 : s.networks.front().bandwidth_Bps;' \
    "tst_sweep:sweepPointsAreTheScaledValues"
mutation "an unmoved parameter reported as elasticity 0" model/src/search/sweep.cpp \
    'if (upParam == downParam) {' \
    'if (false) {' \
    "tst_sweep:sensitivityFlagsAParameterThatDidNotMove"
# network.h and the model core
mutation "collective offset dropped" model/src/network/network.h \
    'size += chunk * cost.offset;' \
    'size += chunk;' \
    "tst_calculon_parity"
mutation "an operation's own efficiency ignored" model/src/network/network.h \
    'const double efficiency = cost.efficiency > 0 ? cost.efficiency : net.efficiency;' \
    'const double efficiency = net.efficiency;' \
    "tst_moe_parity:cases"
mutation "pipeline bubble one stage short" model/src/engine/batch_stats.cpp \
    'o.bubble_time = dbl(exe.pipelinePar - 1) * chunkTime' \
    'o.bubble_time = dbl(exe.pipelinePar - 2) * chunkTime' \
    "tst_calculon_parity"
mutation "Adam moments in 2 bytes" model/src/engine/layer_memory.h \
    'const double moments = l.optimSpace * 4;' \
    'const double moments = l.optimSpace * 2;' \
    "tst_calculon_parity"
mutation "calibrated HBM rate without the software stack's compute efficiency" model/src/engine/layers.h \
    'return hbm.bandwidth_Bps * cal.hbmEfficiency * cal.computeEfficiency;' \
    'return hbm.bandwidth_Bps * cal.hbmEfficiency;' \
    "tst_fidelity_layers:calibratedMemoryTrafficAtTheStacksHbmRate"
mutation "the calibrated block walk costs its layers as the reference does" model/src/engine/block_stats.cpp \
    'addLayer<true>(block.layers[i], ctx, exe, quirks, weightStagesSkip, totals, comm);' \
    'addLayer<false>(block.layers[i], ctx, exe, quirks, weightStagesSkip, totals, comm);' \
    "tst_fidelity_layers:eagerElementwiseKernels"
mutation "eager RMSNorm forward one FP32 pass short" model/src/engine/calibrated_cost.cpp \
    'return l.inputs * (fw ? 7 * f + 2 * b : 19 * f + 4 * b);' \
    'return l.inputs * (fw ? 6 * f + 2 * b : 19 * f + 4 * b);' \
    "tst_fidelity_layers:eagerElementwiseKernels"
mutation "every expert on every GPU" model/src/engine/moe_block.cpp \
    'const I localExperts = experts / ep; // e' \
    'const I localExperts = experts; // e' \
    "tst_moe_parity:cases"
# The input limits (range_checks.cpp, result_guard.cpp)
mutation "no count check" model/src/engine/range_checks.cpp \
    'if (count.constant <= limits::kMaxCount)' \
    'if (true)' \
    "tst_limits:countsThatWouldOverflowNameTheLargestInput"
mutation "HBM bandwidth unchecked" model/src/engine/range_checks.cpp \
    'c.require(sys.mem1.bandwidth_Bps, limits::kBandwidth, path("mem1/bandwidth"), "HBM bandwidth", "B/s");' \
    '(void)0;' \
    "tst_limits:systemRangesNameTheField"
mutation "final guard lets NaN through" model/src/engine/result_guard.cpp \
    'if (std::isfinite(sum[0] + sum[1]) && std::min(low[0], low[1]) >= 0)' \
    'if (((void)sum, std::isfinite(0.0)) && std::min(low[0], low[1]) >= 0)' \
    "tst_limits:guardCatchesWhatTheRangesMiss"
# search.cpp
mutation "divisors repeat the square root" model/src/search/search.cpp \
    'if (c != x / c)' \
    'if (true)' \
    "tst_search:upstream"
mutation "hit positions not offset by their task" model/src/search/search.cpp \
    'candidate.hit.index += offsets[candidate.task];' \
    'candidate.hit.index += 0;' \
    "tst_search:largeTopKeepsEveryValidLayoutInOrder"
mutation "a design's search without its calibration" model/src/search/search.cpp \
    'options.calibration = design.calibration;' \
    'options.calibration = {};' \
    "tst_searchapply:appliedRowIsTheRow"
mutation "a design's search forgets its other settings" model/src/search/search.cpp \
    'space.base = e;' \
    'space.base = Execution {};' \
    "tst_money_paths:bestLayoutWithContextParallelism,gpuCountSweepKeepsContextParallelism"
# sweep.cpp, explorecompute.cpp: Explore's searches run the design's own model
mutation "scaling counts ignore context parallelism" model/src/search/sweep.cpp \
    'space.numProcs = n / cp;' \
    'space.numProcs = n;' \
    "tst_money_paths:gpuCountSweepKeepsContextParallelism"
mutation "Explore searches with the reference's features" views/explore/explorecompute.cpp \
    'model::SearchOptions options = model::designSearchOptions(evaluate);' \
    'model::SearchOptions options; options.quirks = options.moeQuirks = evaluate.quirks;' \
    "tst_searchapply:appliedRowIsTheRow,sweepPointsAreDesigns"
mutation "every fabric called two-tier in the variants chart" views/explore/variantschart.cpp \
    'mFlat = model::isFullFlat(system);' \
    'mFlat = false;' \
    "tst_exploredesign:variantsNameTheDesignsFabric"
# stages.cpp: the memory of each pipeline stage
mutation "dense blocks of an MoE model keep an MoE block's optimizer state" model/src/engine/stages.cpp \
    'run.stages.denseOptimizer_B = denseState.optimizer - moeState.optimizer;' \
    'run.stages.denseOptimizer_B = 0;' \
    "tst_moe_corrected:denseBlocksHoldTheirOwnOptimizerState"
mutation "the first stage's dense blocks not counted" model/src/engine/stages.cpp \
    'run.stages.firstDense = denseHere;' \
    'run.stages.firstDense = 0;' \
    "tst_moe_corrected:denseBlocksHoldTheirOwnOptimizerState"
# search_bound.cpp: the bounded search's lower bound on the step time must stay a lower bound
mutation "step-time bound 1.5x too high" model/src/search/search_bound.cpp \
    'const double time = lowest * (1 - 1e-9);' \
    'const double time = 1.5 * lowest * (1 - 1e-9);' \
    "tst_search:boundedEqualsExhaustive"
# ... under the corrected model too (search_bound.cpp, points 6 and 7): each corrected term too tight
mutation "corrected bound: EP and ES exposures at the group's own tiers only" model/src/search/search_bound.cpp \
    'const bool byExpertTiers = options.features.any() && exe.modelMoE;' \
    'const bool byExpertTiers = false;' \
    "tst_search_corrected:everyLayoutWithinItsBound"
mutation "corrected bound: the stages' extra time counted twice" model/src/search/search_bound.cpp \
    'time += stageExtraTime(run, o, *stages);' \
    'time += 2 * stageExtraTime(run, o, *stages);' \
    "tst_search_corrected:everyLayoutWithinItsBound"
mutation "corrected bound: the TP group's exposed time counted twice" model/src/search/search_bound.cpp \
    'for (const GroupComm *group : { &comm.tp, &comm.ep, &comm.es, features.attention ? &comm.cp : nullptr }) {' \
    'for (const GroupComm *group : { &comm.tp, &comm.tp, &comm.ep, &comm.es, features.attention ? &comm.cp : nullptr }) {' \
    "tst_search_corrected:everyLayoutWithinItsBound"
mutation "MFU bound with half the ideal time" model/src/search/search_bound.cpp \
    '*ideal = idealStepTime(run, block); // 7.' \
    '*ideal = 0.5 * idealStepTime(run, block); // 7.' \
    "tst_search_corrected:everyLayoutWithinItsBound"
# search_loops.h: expert DP spans the context-parallel ranks (an MoE design with CP has layouts)
mutation "MoE search: expert DP without the context-parallel ranks" model/src/search/search_loops.h \
    'n / tp / ep / pp * cp }))' \
    'n / tp / ep / pp * (cp / cp) }))' \
    "tst_search_corrected:boundedEqualsExhaustive"
# Scenario compile (compile.cpp, resolve.cpp and the override keys, locate.cpp)
mutation "the software stack's dispatcher overrides the layout's" model/src/scenario/compile.cpp \
    'if (r.software.moeDispatcher && !r.layout.namesMoeDispatcher)' \
    'if (r.software.moeDispatcher)' \
    "tst_compile_software:softwareChoosesTheMoeDispatcher"
mutation "the software stack's EP overlap ignored" model/src/scenario/compile.cpp \
    'exe.moeAllToAllOverlap = *r.software.moeAllToAllOverlap;' \
    'exe.moeAllToAllOverlap = false;' \
    "tst_compile_software:softwareChoosesTheMoeDispatcher"
mutation "tier latency not copied" model/src/scenario/compile.cpp \
    'tier.latency_s = link.latency_s;' \
    'tier.latency_s = 0;' \
    "tst_compile"
mutation "spine not oversubscribed" model/src/scenario/compile.cpp \
    'spine.bandwidth_Bps = r.scaleOut.bandwidth_Bps / topo.oversubscription;' \
    'spine.bandwidth_Bps = r.scaleOut.bandwidth_Bps;' \
    "tst_compile:threeTier"
mutation "HBM override in MB/s" model/src/scenario/override_rules_design.cpp \
    '[](R &r, double v) { r.gpu.hbm.bandwidth_Bps = v * kBpsPerGBps; },' \
    '[](R &r, double v) { r.gpu.hbm.bandwidth_Bps = v * 1e6; },' \
    "tst_compile:overridesApply"
mutation "a slider reads the preset's link efficiency, not the calibrated one" model/src/scenario/override_rules_design.cpp \
    '    return tier ? tier->efficiency : (scaleUp ? c.resolved.scaleUp : c.resolved.scaleOut).efficiency;' \
    '    return tier && false ? tier->efficiency : (scaleUp ? c.resolved.scaleUp : c.resolved.scaleOut).efficiency;' \
    "tst_override_keys:readValuesRoundTrip"
mutation "override ranges unchecked" model/src/scenario/overrides.cpp \
    'if (!std::isfinite(value) || !range.contains(value))' \
    'if (!std::isfinite(value))' \
    "tst_limits:overrideRanges"
mutation "diagnostics point at the layout despite an override" model/src/scenario/locate.cpp \
    'return override("layout." + key).value_or(in(mScenario.layout, "layout", key));' \
    'return in(mScenario.layout, "layout", key);' \
    "tst_limits:scenarioPointers"
# Exports (chartexport.cpp, report.cpp, headlessstatus.cpp)
mutation "CSV fields joined by semicolons" views/charts/chartexport.cpp \
    "csv += fields.join(',') + '\\n';" \
    "csv += fields.join(';') + '\\n';" \
    "tst_chartexport:exportWritesFormatWithProvenance"
mutation "SVG provenance not escaped" views/charts/chartexport.cpp \
    'generator.setDescription(json.toHtmlEscaped());' \
    'generator.setDescription(json);' \
    "tst_chartexport:exportWritesFormatWithProvenance"
mutation "PNG without its scenario" views/charts/chartexport.cpp \
    'image.setText(QString::fromLatin1(kPngScenarioKey), json);' \
    '(void)json;' \
    "tst_chartexport:exportWritesFormatWithProvenance"
mutation "XML depth unbounded" views/charts/chartexport.cpp \
    'if (++depth > kMaxXmlDepth) {' \
    'if (++depth < 0) {' \
    "tst_headless_errors:deeplyNestedSvgIsRefused"
mutation "report write failure reported as success" views/report/report.cpp \
    'return writeFileSafely(pdfPath, buffer.data(), error);' \
    'return writeFileSafely(pdfPath, buffer.data(), error) || true;' \
    "tst_headless_errors:unwritableReportIsExit3"
mutation "malformed scenario exported anyway" views/report/headlessstatus.cpp \
    'if (results.compiled && !scenario::isMalformedScenario(results.diagnostics))' \
    'if (results.compiled)' \
    "tst_headless_errors:guiAndCliAgreeOnAMalformedScenario"
mutation "a restored autosave left behind" views/studio/autosaver.cpp \
    'removeFiles(recovery.path);' \
    '(void)recovery;' \
    "tst_studiodocument:leftoversOfEndedSessionsAreOffered"
mutation "pinned designs' columns repeat the current design" views/results/resultstable.cpp \
    'mPinned.append({ pin.name, rowsOf(*pin.results) });' \
    'mPinned.append({ pin.name, mCurrent });' \
    "tst_mainwindow:pinnedScenariosSideBySide"
mutation "the report's N-way columns all the current design" views/report/reportcontent.cpp \
    'columns << keyMetrics(*pinned[i], tokenBudget);' \
    'columns << keyMetrics(current, tokenBudget);' \
    "tst_report:reportComparesSeveralPinnedDesigns"
mutation "variant labels cut off in a narrow chart" views/explore/variantschart.cpp \
    'upper = std::max(upper, label->position->coords().x() * width / (width - w));' \
    'upper = std::max(upper, w * 0);' \
    "tst_explorecharts:variantsAreSweepVariants"
mutation "an FP8 run's 16-bit GEMMs left to the library's calibration" model/src/calibration/calibration_problem.cpp \
    'c.gemmEfficiency[static_cast<std::size_t>(sixteen)] = value(x, b.gemm16);' \
    '(void)sixteen;' \
    "tst_real_runs:fitIgnoresTheLibrarysCalibration"
mutation "every software stack counted as calibrated" model/src/calibration/calibration_lookup.cpp \
    'a.softwareHasEntry = find(set->software, r.software.info.id) != nullptr;' \
    'a.softwareHasEntry = true;' \
    "tst_calibrationtext:typicalError"
mutation "the cost chart never compares with a pin" app/mainwindowcost.cpp \
    'cost->setPins(mPinned->pins());' \
    'cost->setPins({});' \
    "tst_mainwindow:pinnedScenariosSideBySide"
# The command-line tool and the studio's headless runs (the programs are relinked with the mutant)
mutation "calibrate may write over one of its inputs" app/cli/calibrate.cpp \
    'requireOutputIsNoInput(args, loaded);' \
    '(void)&requireOutputIsNoInput;' \
    "tst_cli_calibrate:calibrateNeverReplacesAnInput"
mutation "a screenshot may replace its scenario" app/main.cpp \
    'if (!gapstudio::views::isNotAnInput(parser.value(o.screenshot), { parser.value(o.scenario) },' \
    'if (false && !gapstudio::views::isNotAnInput(parser.value(o.screenshot), { parser.value(o.scenario) },' \
    "tst_headless_errors:screenshotNeverReplacesItsScenario"
mutation "the optimizer sharded over DP only under context parallelism" model/src/engine/evaluate.cpp \
    'const double contextShards = features.attention ? dbl(exe.contextPar) : 1.0;' \
    'const double contextShards = features.attention ? 1.0 : 1.0;' \
    "tst_fidelity:optimizerShardsOverContextParallelRanks"
mutation "the optimizer state replicated over data parallelism" model/src/engine/evaluate.cpp \
    'ctx.optimizerShards = exe.optimizerSharding ? dbl(exe.dataPar) * contextShards : 1.0;' \
    'ctx.optimizerShards = 1.0 + 0 * contextShards;' \
    "tst_real_runs:predictedMemoryFitsTheGpu"
mutation "pipeline messages scattered under every software stack" model/src/engine/run.h \
    'return run.features.pipelineScatterGather && run.exe.pipelineScatterGather && run.exe.tensorPar > 1' \
    'return run.features.pipelineScatterGather && run.exe.tensorPar > 1' \
    "tst_fidelity:pipelineScatterGather"
mutation "the scattered pipeline message's all-gather dropped" model/src/engine/batch_stats.cpp \
    'run.chunkFwPpTime += gather;' \
    'run.chunkFwPpTime += 0 * gather;' \
    "tst_fidelity:pipelineScatterGather"
mutation "the software preset's scatter/gather key not read" model/src/io/calibration_json.cpp \
    'software.pipelineScatterGather = c["pipeline_scatter_gather"].boolean();' \
    'software.pipelineScatterGather = false && c["pipeline_scatter_gather"].boolean();' \
    "tst_compile_software:softwareScattersPipelineMessages"
# block.cpp, preset_llm_block.cpp, compile.cpp: a dropout of probability 0 is no kernel
mutation "a dropout of probability 0 still runs" model/src/engine/block.cpp \
    'return !(features.dropout && p == 0.0);' \
    'return !(features.dropout && p == 0.0 && false);' \
    "tst_fidelity_layers:dropoutOfZeroIsNoKernel"
mutation "the attention dropout follows the hidden one" model/src/engine/block.cpp \
    'if (dropoutRuns(app.attentionDropout, features))' \
    'if (dropoutRuns(app.hiddenDropout, features))' \
    "tst_fidelity_layers:dropoutOfZeroIsNoKernel"
mutation "the LLM's hidden dropout not read" model/src/io/preset_llm_block.cpp \
    'optionalProbability("hidden_dropout", llm.hiddenDropout);' \
    '(void)optionalProbability;' \
    "tst_presets:badFiles"
mutation "the LLM's dropout not passed to the model" model/src/scenario/compile.cpp \
    'app.attentionDropout = llm.attentionDropout;' \
    'app.attentionDropout = -1;' \
    "tst_compile:llmDropoutReachesTheModel"

# block_stats.cpp: only the layers without weights skip their weight, gradient and optimizer sums
mutation "a layer with weights summed as weightless" model/src/engine/block_stats.cpp \
    'return counts == 0;' \
    'return counts >> 63 == 0;' \
    "tst_calculon_parity:reproducesCase"
# layer_types.h, block_builder.h: a layer slot is default-initialised, so every member needs its
# default initialiser or it keeps the slot's earlier bytes
mutation "a layer member without its default initialiser" model/src/engine/layer_types.h \
    'double ringStepElements = 0;' \
    'double ringStepElements;' \
    "tst_block_builder"
# layers.cpp: a TP collective's stage prices its own direction's collective, and only that one
mutation "the forward stage priced with the backward collective" model/src/engine/layers.cpp \
    'return fwNet() + compute;' \
    'return bwNet() + compute;' \
    "tst_calculon_parity:reproducesCase"
# block_stats.cpp: an all-to-all's backward link is its forward one, reused, never dropped
mutation "the backward all-to-all left unpriced" model/src/engine/block_stats.cpp \
    ': l.kind == LayerKind::AllToAll ? fwLink' \
    ': l.kind == LayerKind::AllToAll ? Link {}' \
    "tst_moe_parity:cases"
# block_stats.cpp: the block's traffic is written in place, over whatever its BlockComm held
mutation "the block's traffic added to what its record held" model/src/engine/block_stats.cpp \
    'comm = BlockComm {};' \
    '(void)comm;' \
    "tst_block_builder"
# block_stats.cpp: the kind tested once per layer still sends the communicating layers' stages
# to their own processing time (overlapped tiles, ring attention)
mutation "a pass stage timed as if its layer never communicated" model/src/engine/block_stats.cpp \
    'const StageTiming timing = processingTimeWithNet(l, ctx, s, cost, link.time[0], comms);' \
    'const StageTiming timing = processingTimeWithNet(l, ctx, s, cost, link.time[0], false);' \
    "tst_calculon_parity:reproducesCase"
# moe_block.cpp, block_stats.cpp: the busiest GPU of dropless routing sets the pace
mutation "the busiest GPU's excess loses its factor of 2" model/src/engine/moe_block.cpp \
    'return 1 + std::sqrt(2 * std::log(d(s.ep)) / d(s.pairs));' \
    'return 1 + std::sqrt(std::log(d(s.ep)) / d(s.pairs));' \
    "tst_fidelity_layers:expertLoadImbalance"
mutation "the experts' activation is not paced by the busiest GPU" model/src/engine/moe_block.cpp \
    'b.last().expertWork = true;' \
    '(void)b.last();' \
    "tst_fidelity_layers:expertLoadImbalance"
mutation "the busiest GPU's excess left out of the backward pass" model/src/engine/block_stats.cpp \
    'o.block_agrad_time += extra * t.expertAgrad;' \
    '(void)t.expertAgrad;' \
    "tst_fidelity_layers:expertLoadImbalance"
mutation "experts padded to a capacity still counted as imbalanced" model/src/engine/moe_block.cpp \
    'if (!features.moeImbalance || exe.moeCapacityFactor > 0 || s.pairs < 1)' \
    'if (!features.moeImbalance || exe.moeCapacityFactor < 0 || s.pairs < 1)' \
    "tst_fidelity_layers:expertLoadImbalance"
mutation "the bounded fit lets values leave their documented ranges" model/src/calibration/calibration_problem.cpp \
    'return mOptions.bounded ? std::clamp(v, p.range.low, p.range.high) : v;' \
    'return v;' \
    "tst_calibrate_synthetic:boundedFitKeepsTheDocumentedRanges"
mutation "a parameter beyond its documented range not named" model/src/calibration/calibration_problem.cpp \
    'return v <= p.range.low + margin || v >= p.range.high - margin;' \
    'return v <= p.range.low + margin && v >= p.range.high - margin;' \
    "tst_calibrate_synthetic:boundedFitKeepsTheDocumentedRanges"
mutation "a GEMM efficiency range above A100's measured maximum" model/src/calibration/calibration_parameters.h \
    'constexpr Range kGemmRange { 0.5, 0.9 };' \
    'constexpr Range kGemmRange { 0.5, 0.95 };' \
    "tst_cli_calibrate:boundedFitNamesWhatItHolds"
mutation "final guard's fast path sums one lane only" model/src/engine/result_guard.cpp \
    'const FieldPair sum = (lanes.sum[0] + lanes.sum[1]) + (lanes.sum[2] + lanes.sum[3]);' \
    'const FieldPair sum = lanes.sum[0];' \
    "tst_limits:guardChecksEveryStatistic"
mutation "final guard's fast path reads one lane's minimum only" model/src/engine/result_guard.cpp \
    '= lower(lower(lanes.minimum[0], lanes.minimum[1]), lower(lanes.minimum[2], lanes.minimum[3]));' \
    '= lanes.minimum[0];' \
    "tst_limits:guardChecksEveryStatistic"
mutation "final guard's fast path reads one statistic of each pair" model/src/engine/result_guard.cpp \
    'if (std::isfinite(sum[0] + sum[1]) && std::min(low[0], low[1]) >= 0)' \
    'if (std::isfinite(sum[0]) && low[0] >= 0)' \
    "tst_limits:guardChecksEveryStatistic"
mutation "final guard skips the statistics after the signed one" model/src/engine/result_guard.cpp \
    'scanFields(fields, kSignedIndex + 1, kStatistics, lanes);' \
    '' \
    "tst_limits:guardChecksEveryStatistic"
mutation "final guard's fast path skips the signed statistic" model/src/engine/result_guard.cpp \
    'lanes.sum[0] += FieldPair { stats.stage_imbalance_time, 0.0 }; // finite, of either sign' \
    '' \
    "tst_limits:guardChecksEveryStatistic"
mutation "final guard's fast path drops the last statistics of a range" model/src/engine/result_guard.cpp \
    'for (; i < end; ++i) {' \
    'for (; i < begin; ++i) {' \
    "tst_limits:guardChecksEveryStatistic"
mutation "final guard lets the signed statistic be infinite" model/src/engine/result_guard.cpp \
    'if (name == kSignedStatistic && std::isfinite(value))' \
    'if (name == kSignedStatistic)' \
    "tst_limits:guardChecksEveryStatistic"
