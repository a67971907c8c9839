# Mutations of the money paths: cost and power, the cost search, roadmaps, the best layout,
# validation and calibration, the grid's shards and the MPI runner (sourced by
# tests/mutation-check.sh; see its header for the format).
# shellcheck shell=bash
# cost.cpp: power and money per hour
mutation "IT power without switches and optics" model/src/cost/cost.cpp \
    'r.itPower_W = gpus_W + hosts_W + scaleUp_W + scaleOut_W + spares_W + storage_W;' \
    'r.itPower_W = gpus_W + hosts_W + spares_W + storage_W;' \
    "tst_money_paths:itPowerFromAHandCountedBom"
mutation "facility power without the PUE" model/src/cost/cost.cpp \
    'r.facilityPower_W = r.itPower_W * assumptions.pue;' \
    'r.facilityPower_W = r.itPower_W;' \
    "tst_money_paths:itPowerFromAHandCountedBom"
mutation "waiting GPUs draw nothing" model/src/cost/cost.cpp \
    '= static_cast<double>(bom.gpus) * gpuBoardPower_W * (idle + (1.0 - idle) * r.gpuActivity);' \
    '= static_cast<double>(bom.gpus) * gpuBoardPower_W * (0 * idle + r.gpuActivity);' \
    "tst_money_paths:itPowerFromAHandCountedBom"
mutation "energy billed on IT power" model/src/cost/cost.cpp \
    'r.energyUsdPerHour = r.facilityPower_W / kWattsPerKilowatt * assumptions.usdPerKWh;' \
    'r.energyUsdPerHour = r.itPower_W / kWattsPerKilowatt * assumptions.usdPerKWh;' \
    "tst_money_paths:itPowerFromAHandCountedBom"
# cost_bom.cpp: the bill of materials
mutation "one optic per link" model/src/cost/cost_bom.cpp \
    'add("_optics", "optics (link ends)", 2.0 * static_cast<double>(count.links), cost.opticsPrice_USD,' \
    'add("_optics", "optics (link ends)", static_cast<double>(count.links), cost.opticsPrice_USD,' \
    "tst_money_paths:itPowerFromAHandCountedBom"
mutation "spines of half radix" model/src/cost/cost_bom.cpp \
    'out.switchesPerLevel.push_back(ceilDiv(uplinks, radix));' \
    'out.switchesPerLevel.push_back(ceilDiv(uplinks, half));' \
    "tst_money_paths:itPowerFromAHandCountedBom"
mutation "a GPU without a price is not flagged" model/src/cost/cost_bom.cpp \
    '        bom.unpriced.emplace_back("gpus");' \
    '        (void)bom;' \
    "tst_costpanel:unpricedPartsAreFlagged"
# costsearch.cpp: ranking by cost and its exactness
mutation "cost ranking always exact" model/src/scenario/costsearch.cpp \
    'out.exact = bound >= out.hits.front().score;' \
    'out.exact = true || bound >= out.hits.front().score;' \
    "tst_money_paths:costSearchAgainstEveryLayout"
mutation "cost candidates cut to top N" model/src/scenario/costsearch.cpp \
    '= std::max<std::size_t>(1, byCost ? std::max(options.candidates, options.topN) : options.topN);' \
    '= std::max<std::size_t>(1, options.topN);' \
    "tst_money_paths:costSearchAgainstEveryLayout"
mutation "rank searches a wider space than Best layout and Explore" model/src/scenario/costsearch.cpp \
    'model::SearchSpace s = scenarioSearchSpace(compiled, options.widen);' \
    'model::SearchSpace s = scenarioSearchSpace(compiled, true);' \
    "tst_searchapply:oneBestLayoutEverywhere"
# roadmap.cpp: gains between steps
mutation "roadmap speedup inverted" model/src/scenario/roadmap.cpp \
    'r.speedup = ratio(r.result.evaluation.stats.sample_rate, before.evaluation.stats.sample_rate);' \
    'r.speedup = ratio(before.evaluation.stats.sample_rate, r.result.evaluation.stats.sample_rate);' \
    "tst_money_paths:roadmapGainsAreRatiosOfStepTimes"
mutation "roadmap energy ratio is the cost ratio" model/src/scenario/roadmap.cpp \
    'r.energyRatio = ratio(r.result.cost->joulesPerToken, before.cost->joulesPerToken);' \
    'r.energyRatio = ratio(r.result.cost->usdPerMillionTokens, before.cost->usdPerMillionTokens);' \
    "tst_money_paths:roadmapGainsAreRatiosOfStepTimes"
# search.cpp: the layout searches (a design's search space, the bounded search)
mutation "best layout ignores context parallelism" model/src/search/search.cpp \
    'space.numProcs = e.numProcs / std::max<I>(1, e.contextPar);' \
    'space.numProcs = e.numProcs;' \
    "tst_money_paths:bestLayoutWithContextParallelism"
# costsearch.cpp and cost_commands.cpp: rank evaluates every layout ("valid" counts them all);
# the bounded cost search returns the same hits
mutation "cost search bounded when asked to be exhaustive" model/src/scenario/costsearch.cpp \
    'if (options.exhaustive) {' \
    'if (false) {' \
    "tst_search_corrected:costSearchBoundedEqualsExhaustive"
mutation "rank counts the valid layouts of a bounded search" app/cli/cost_commands.cpp \
    'c.options.exhaustive = true; // "valid" counts every valid layout of the space' \
    'c.options.exhaustive = false;' \
    "tst_cli_cost:rankCountsEveryValidLayout"
# validation.cpp: the error definition
mutation "error as 1 - predicted / measured" model/src/scenario/validation.cpp \
    'return measured_s / predicted_s - 1;' \
    'return 1 - predicted_s / measured_s;' \
    "tst_calibrate_synthetic:leaveOneFamilyOutHoldsTheFamilyBack"
mutation "error sign flipped" model/src/scenario/validation.cpp \
    'return measured_s / predicted_s - 1;' \
    'return predicted_s / measured_s - 1;' \
    "tst_published"
# calibrate.cpp (folds), calibration_problem.cpp and calibration_parameters.h (objective, priors),
# calibration_solver.cpp (standard errors)
mutation "fold fitted with its own family" model/src/calibration/calibrate.cpp \
    'const Problem without(prepare(measurements, library, held, out), held);' \
    'const Problem without(prepare(measurements, library, held, {}), held);' \
    "tst_calibrate_synthetic:leaveOneFamilyOutHoldsTheFamilyBack"
mutation "generations folded by family" model/src/calibration/calibrate.cpp \
    '= foldEach(measurements, library, options, generationOf, generations, fit.generationLeftOut, step);' \
    '= foldEach(measurements, library, options, familyOf, generations, fit.generationLeftOut, step);' \
    "tst_real_runs:leaveOneGenerationOut"
mutation "a run's generation is its GPU id" model/src/scenario/run_filter.cpp \
    'return gpu.architecture.empty() ? gpu.info.id : gpu.architecture;' \
    'return gpu.info.id;' \
    "tst_real_runs:leaveOneGenerationOut"
mutation "--exclude keeps the runs it names" model/src/scenario/run_filter.cpp \
    'if (match == filter.exclude)' \
    'if (match != filter.exclude)' \
    "tst_cli_calibrate:crossGenerationByFilters"
mutation "a projected GPU takes the best generation's error" model/src/calibration/calibration_lookup.cpp \
    'if (!a.gpuHasEntry && error > a.unseenGenerationMeanAbsError) {' \
    'if (!a.gpuHasEntry && (a.unseenGeneration.empty() || error < a.unseenGenerationMeanAbsError)) {' \
    "tst_calibrationtext:typicalError"
mutation "a fold over some families leaves out every family" model/src/calibration/calibrate.cpp \
    'if (options.foldFamilies.empty() || options.foldFamilies.count(family) == 1)' \
    'if (options.foldFamilies.empty() || true)' \
    "tst_real_runs:foldOverTwoFamilies"
mutation "fold starts from the start calibration" model/src/calibration/calibrate.cpp \
    'held.start = nullptr;' \
    'held.start = options.start;' \
    "tst_calibrate_synthetic:foldsStartFromThePriors"
mutation "standard errors without the transform's slope" model/src/calibration/calibration_solver.cpp \
    'const double s = mOptions.bounded && atBound(x, i) ? 0.0 : slope(p.kind, value(x, i));' \
    'const double s = mOptions.bounded && atBound(x, i) ? 0.0 : 1.0;' \
    "tst_calibrate_synthetic:standardErrorsByTheDeltaMethod"
mutation "objective without the measured time" model/src/calibration/calibration_problem.cpp \
    '= std::isfinite(predicted) && predicted > 0 ? std::log(predicted / mRuns[r].measured) : 10.0;' \
    '= std::isfinite(predicted) && predicted > 0 ? std::log(predicted) : 10.0;' \
    "tst_calibrate_synthetic:recoversTheKnownParameters"
mutation "priors ten times stronger" model/src/calibration/calibration_parameters.h \
    'constexpr double kPriorWeight = 0.05;' \
    'constexpr double kPriorWeight = 0.5;' \
    "tst_calibrate_synthetic:recoversTheKnownParameters,standardErrorsByTheDeltaMethod"
mutation "half-depth prior at 512" model/src/calibration/calibration_problem.cpp \
    '= add(kHalfDepthParameter, Kind::Positive, kHalfDepthRange, 128, 1.0, -1, start(s.gemmHalfDepth));' \
    '= add(kHalfDepthParameter, Kind::Positive, kHalfDepthRange, 512, 1.0, -1, start(s.gemmHalfDepth));' \
    "tst_calibrate_synthetic:recoversTheKnownParameters"
# app/cli: the grid's shards and the MPI runner
mutation "shards start at points / shards x (shard - 1)" app/cli/grid.cpp \
    'return { points * (shard - 1) / shards, points * shard / shards };' \
    'return { points / shards * (shard - 1), points * shard / shards };' \
    "tst_shard_range"
mutation "MPI rounds advance by one rank's points" app/cli/grid_mpi.cpp \
    'for (std::uint64_t base = first; base < last; base += ranks * kPerRank) {' \
    'for (std::uint64_t base = first; base < last; base += kPerRank) {' \
    "tst_cli_grid:mpiMatchesOneProcess"
# goodput.cpp: failures, checkpoints and restarts
mutation "Young's interval without the factor 2" model/src/cost/goodput.cpp \
    '= std::max(a.checkpointInterval_s > 0 ? a.checkpointInterval_s : std::sqrt(2 * delta * M), shortest);' \
    '= std::max(a.checkpointInterval_s > 0 ? a.checkpointInterval_s : std::sqrt(delta * M), shortest);' \
    "tst_goodput:youngAndDalyByHand"
mutation "an asynchronous snapshot as slow as the write" model/src/cost/goodput.cpp \
    '= a.asyncCheckpoint ? checkpoint_B / parts.gpus / a.snapshot_Bps : r.checkpointWrite_s;' \
    '= r.checkpointWrite_s;' \
    "tst_goodput:asynchronousCheckpointsByHand"
mutation "an asynchronous checkpoint's write not lost on failure" model/src/cost/goodput.cpp \
    'r.rework_s = a.asyncCheckpoint ? r.checkpointWrite_s : 0;' \
    'r.rework_s = 0;' \
    "tst_goodput:asynchronousCheckpointsByHand"
mutation "the next asynchronous checkpoint does not wait for the write" model/src/cost/goodput.cpp \
    'const double shortest = a.asyncCheckpoint ? r.checkpointWrite_s : 0;' \
    'const double shortest = 0;' \
    "tst_goodput:asynchronousCheckpointsByHand"
mutation "the snapshot bandwidth is not PCIe 5.0 x16" model/src/cost/goodput.cpp \
    'constexpr double kPcie5x16_Bps = 32e9 * 16 * 128.0 / 130 / 8;' \
    'constexpr double kPcie5x16_Bps = 32e9 * 16 / 8;' \
    "tst_goodput_scenario:overridesSetTheAssumptions,cliAsynchronousCheckpoints"
mutation "Daly's wall time without the restarts" model/src/cost/goodput.cpp \
    '= tau > 0 ? M * std::exp(R / M) * std::expm1((tau + delta) / M) / tau : std::exp(R / M);' \
    '= tau > 0 ? M * std::expm1((tau + delta) / M) / tau : std::exp(R / M);' \
    "tst_goodput:youngAndDalyByHand"
mutation "a restart reloads no checkpoint" model/src/cost/goodput.cpp \
    'r.restart_s = a.jobRestart_s + checkpoint_B / a.storageRead_Bps.value_or(a.storage_Bps);' \
    'r.restart_s = a.jobRestart_s;' \
    "tst_goodput:youngAndDalyByHand"
mutation "the job's failure rate does not grow with its GPUs" model/src/cost/goodput.cpp \
    'return { { "all", "All causes", parts.gpus, *a.interruptionsPerGpuHour * parts.gpus } };' \
    'return { { "all", "All causes", parts.gpus, *a.interruptionsPerGpuHour } };' \
    "tst_goodput:youngAndDalyByHand"
mutation "the Llama 3 links counted without the cluster switches" model/src/cost/goodput.cpp \
    'constexpr double kLlama3LinksPerGpu = 1 + 1 + 1.0 / 7;' \
    'constexpr double kLlama3LinksPerGpu = 1 + 1.0 / 7;' \
    "tst_goodput:llama3Pretraining"
mutation "HBM failures left out" model/src/cost/goodput.cpp \
    'source("hbm", "HBM", parts.gpus, a.hbmFit),' \
    'source("hbm", "HBM", 0, a.hbmFit),' \
    "tst_goodput:llama3Pretraining"
mutation "servers counted as GPUs" model/src/cost/goodput.cpp \
    'parts.servers = static_cast<double>(bom.servers);' \
    'parts.servers = parts.gpus;' \
    "tst_goodput_scenario:pipelineHasItExactlyForRunnableDesigns"
mutation "sharded optimizer state counted once per replica" model/src/cost/goodput.cpp \
    'const double optimizerReplicas = exe.optimizerSharding ? 1.0 : weightReplicas;' \
    'const double optimizerReplicas = weightReplicas;' \
    "tst_goodput:checkpointCountedOnceOverReplicas"
mutation "MoE weights divided over all data-parallel replicas" model/src/cost/goodput.cpp \
    '= exe.modelMoE ? static_cast<double>(std::max<std::int64_t>(1, exe.dataParExp)) : dataReplicas;' \
    '= dataReplicas;' \
    "tst_goodput:checkpointCountedOnceOverReplicas"
mutation "effective cost ignores the goodput" model/src/cost/goodput.cpp \
    'r.effectiveUsdPerMillionTokens = usdPerMillionTokens / r.goodput;' \
    'r.effectiveUsdPerMillionTokens = usdPerMillionTokens;' \
    "tst_goodput_scenario:pipelineHasItExactlyForRunnableDesigns,cliPrintsItLast"
mutation "the scenario's reliability overrides ignored" model/src/scenario/cost_inputs.cpp \
    '= model::goodputOf(compiled.resolved.reliability, model::reliabilityParts(cost.bom),' \
    '= model::goodputOf(model::ReliabilityAssumptions {}, model::reliabilityParts(cost.bom),' \
    "tst_goodput_scenario:overridesSetTheAssumptions"
mutation "effective MFU without the goodput" model/src/cost/goodput.cpp \
    'r.effectiveMfu = mfu * r.goodput;' \
    'r.effectiveMfu = mfu;' \
    "tst_goodput_scenario:pipelineHasItExactlyForRunnableDesigns,cliPrintsItLast tst_charts:waterfallAddsUpToPeak"
mutation "the Roadmap view's cost ratio with failures is the failure-free one" views/roadmap/roadmapdata.cpp \
    '    return steps[index].effectiveCostRatio;' \
    '    return steps[index].costRatio;' \
    "tst_roadmapview:chartIsTheModels"
mutation "the scaling chart's goodput counts the design's GPUs at every count" model/src/scenario/cost_inputs.cpp \
    '    spec.gpus = exe.numProcs;' \
    '' \
    "tst_exploredesign:thisDesignIsTheDesign"
mutation "the gap in dollars prices failures at the failure-free run" model/src/cost/cost.cpp \
    'runUsd * gap.failures / (gap.mfu - gap.failures) });' \
    'runUsd * gap.failures });' \
    "tst_cost:gapInDollarsSumsToRun tst_costpanel:gapInDollarsIsTheModels"
mutation "the scaling chart draws tokens/s with failures on the samples/s axis" views/explore/scalingchart.cpp \
    '? goodput.effectiveTokensPerSecond / static_cast<double>(mSeqSize)' \
    '? goodput.effectiveTokensPerSecond' \
    "tst_exploredesign:thisDesignIsTheDesign"
mutation "the Cost panel's cost with failures is the failure-free one" views/cost/costfigures.cpp \
    'money(g->effectiveUsdPerMillionTokens) };' \
    'money(c.usdPerMillionTokens) };' \
    "tst_costpanel:figuresAreTheModels"
mutation "the Cost panel's goodput shows what failures take" views/cost/costfigures.cpp \
    'fmt(kPercent * g->goodput, QStringLiteral("%")) }' \
    'fmt(kPercent * (1 - g->goodput), QStringLiteral("%")) }' \
    "tst_costpanel:figuresAreTheModels"
mutation "the efficiency gap's failures step drawn from the peak" views/charts/efficiencygapsteps.cpp \
    'const double mfu = steps.back().value(), lost = gap.failures * cf::kPercent;' \
    'const double mfu = steps.front().value(), lost = gap.failures * cf::kPercent;' \
    "tst_charts:waterfallAddsUpToPeak,csvRowsAreTheResults"
mutation "rank by effective cost without the goodput" model/src/scenario/costsearch.cpp \
    'return hit.goodput.effectiveUsdPerMillionTokens;' \
    'return hit.cost.usdPerMillionTokens;' \
    "tst_money_paths:costSearchAgainstEveryLayout"
mutation "cost search hits without their goodput" model/src/scenario/costsearch.cpp \
    'ranked.goodput = scenarioGoodput(layout, hit.stats, analysis, ranked.cost);' \
    'ranked.goodput = {};' \
    "tst_money_paths:costSearchAgainstEveryLayout tst_cli_cost:costSweepMarksParetoFront"
mutation "roadmap's effective cost ratio without the goodput" model/src/scenario/roadmap.cpp \
    'r.effectiveCostRatio = ratio(r.result.goodput->effectiveUsdPerMillionTokens,' \
    'r.effectiveCostRatio = ratio(r.result.cost->usdPerMillionTokens,' \
    "tst_money_paths:roadmapGainsAreRatiosOfStepTimes"
mutation "a failure without a spare waits for the second repaired server" model/src/cost/goodput.cpp \
    '/ static_cast<double>(a.spareServers + 1);' \
    '/ static_cast<double>(a.spareServers + 2);' \
    "tst_goodput:hotSparesByHand"
mutation "software interruptions take a server out" model/src/cost/goodput.cpp \
    'hardwarePerHour += s.key == "software" ? 0' \
    'hardwarePerHour += s.key == "software" ? s.perHour' \
    "tst_goodput:hotSparesByHand"
mutation "the wait for a spare left out of Daly's restart time" model/src/cost/goodput.cpp \
    'R = r.restart_s + r.spareWait_s + r.rework_s;' \
    'R = r.restart_s + r.rework_s;' \
    "tst_goodput:hotSparesByHand"
mutation "the Poisson tail one term short" model/src/cost/goodput.cpp \
    'const double below = static_cast<double>(k) - 1;' \
    'const double below = static_cast<double>(k);' \
    "tst_goodput:poissonTail"
mutation "hot spares without their GPUs" model/src/cost/cost_bom.cpp \
    'bom.spareGpus = spec.spareServers * perServer;' \
    'bom.spareGpus = spec.spareServers;' \
    "tst_goodput:sparesInTheBillOfMaterials"
mutation "idle spare GPUs at full power" model/src/cost/cost.cpp \
    'static_cast<double>(bom.spareGpus) * gpuBoardPower_W * idle' \
    'static_cast<double>(bom.spareGpus) * gpuBoardPower_W' \
    "tst_goodput:sparesInTheBillOfMaterials"
mutation "a storage block's read bandwidth is its write bandwidth" model/src/scenario/resolve.cpp \
    'resolved.reliability.storageRead_Bps = storage->read_Bps;' \
    'resolved.reliability.storageRead_Bps = storage->write_Bps;' \
    "tst_goodput_scenario:storageBlock"
mutation "unpriced storage counted as priced" model/src/cost/cost_bom.cpp \
    'bom.unpriced.emplace_back("storage");' \
    '(void)0;' \
    "tst_goodput_scenario:storageBlock tst_costpanel:storageBlockIsAnUndoableChoice"
mutation "IT power without the checkpoint storage" model/src/cost/cost.cpp \
    'scaleOut_W + spares_W + storage_W;' \
    'scaleOut_W + spares_W;' \
    "tst_goodput_scenario:storageBlock"
mutation "a GPU preset's interruption rates ignored" model/src/scenario/resolve.cpp \
    'applyPartFits(resolved.reliability, resolved.gpu.reliability);' \
    '(void)0;' \
    "tst_goodput_scenario:interruptionRatesFromPresets"
# prediction_interval.cpp and the fit's correlations: the interval on a prediction
mutation "model error taken as a sigma" model/src/scenario/prediction_interval.cpp \
    'return std::sqrt(std::numbers::pi / 2) * meanAbsError;' \
    'return meanAbsError;' \
    "tst_prediction_interval:modelErrorIsTheMeanAbsErrorAsASigma"
mutation "parameters uncorrelated" model/src/scenario/prediction_interval.cpp \
    ': fit.correlation[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];' \
    ': 0.0;' \
    "tst_prediction_interval:correlatedParametersAddAsTheGumSays"
mutation "sources added, not in quadrature" model/src/scenario/prediction_interval.cpp \
    'interval.sigma = std::hypot(interval.parameterSigma, interval.modelSigma);' \
    'interval.sigma = interval.parameterSigma + interval.modelSigma;' \
    "tst_prediction_interval:evalPrintsTheInterval"
mutation "links without a fitted parameter" model/src/calibration/calibration_lookup.cpp \
    'source(*set, keys, entry, fit::networkParameter));' \
    'source(*set, keys, entry - 9, fit::networkParameter));' \
    "tst_prediction_interval:oneParameterIsItsDerivativeTimesItsError"
mutation "a stack's own entry as the default's" model/src/calibration/calibration_lookup.cpp \
    'const std::array<std::string, 3> softwareKeys = { software.info.id, "default", "" };' \
    'const std::array<std::string, 3> softwareKeys = { "default", "default", "" };' \
    "tst_prediction_interval:aStacksOwnParameter"
mutation "unseen software takes the fitted error" model/src/scenario/prediction_interval.cpp \
    'return leaveOneFamilyOutMeanAbsError;' \
    'return fittedMeanAbsError;' \
    "tst_prediction_interval:modelErrorIsTheMeanAbsErrorAsASigma"
mutation "an asymmetric correlation matrix read" model/src/io/calibration_json.cpp \
    'if (rows[i][j] != rows[j][i])' \
    'if (false)' \
    "tst_prediction_interval:correlationsInTheCalibrationFile"
mutation "Key results' MFU range from the step time" views/results/resultstable.cpp \
    'const auto [lowMfu, highMfu] = results.interval->range(results.analysis->gap.mfu);' \
    'const auto [lowMfu, highMfu] = results.interval->range(results.analysis->step.total_s);' \
    "tst_resultstable:showsTheLikelyRange"
mutation "the report without the likely range" views/report/reportcontent.cpp \
    'if (results.interval && results.analysis) { // one standard deviation (prediction_interval.h)' \
    'if (false) {' \
    "tst_report:reportOfDefaultScenarioHasEverySection"
mutation "a correlation matrix of another size used" model/src/scenario/prediction_interval.cpp \
    'const bool correlated = fit.correlation.size() == fit.parameters.size();' \
    'const bool correlated = !fit.correlation.empty();' \
    "tst_prediction_interval:correlatedParametersAddAsTheGumSays"
mutation "the charts' error bars drawn the wrong way round" views/charts/likelyrange.cpp \
    'bars->addData(r.value - r.low, r.high - r.value);' \
    'bars->addData(r.high - r.value, r.value - r.low);' \
    "tst_charts:likelyRangesAreErrorBars"
mutation "the step-time chart without the pins' ranges" views/charts/steptimechart.cpp \
    'if (row.kind != QLatin1String("exposed") || !row.run.results || !row.run.results->interval)' \
    'if (row.kind != QLatin1String("exposed") || !row.run.results || !row.run.results->interval || row.run.isPin())' \
    "tst_charts:likelyRangesAreErrorBars"
mutation "the efficiency gap's MFU range from the peak" views/charts/efficiencygapchart.cpp \
    'return run.run.results->interval->range(step.value());' \
    'return run.run.results->interval->range(100.0);' \
    "tst_charts:likelyRangesAreErrorBars"
mutation "the roadmap's likely ranges all the MFU's" views/roadmap/roadmapdata.cpp \
    'return steps[index].result.interval->range(*v);' \
    'return steps[index].result.interval->range(steps[index].result.evaluation.stats.total_efficiency);' \
    "tst_roadmapview:chartIsTheModels"
mutation "the roadmap table's MFU range the throughput's" views/roadmap/roadmaptable.cpp \
    'const auto range = roadmap.likelyRange(i, RoadmapMetric::Mfu);' \
    'const auto range = roadmap.likelyRange(i, RoadmapMetric::Throughput);' \
    "tst_roadmapview:chartIsTheModels tst_report:reportHasRoadmapSection"
mutation "the step-time CSV's low end the high one" views/charts/steptimechart.cpp \
    '{ std::tuple { "step_time_low", tr("Step time, likely range (low)"), range->first },' \
    '{ std::tuple { "step_time_low", tr("Step time, likely range (low)"), range->second },' \
    "tst_charts:csvRowsAreTheResults"
mutation "the efficiency gap CSV's range from the unscaled MFU" views/charts/efficiencygapchart.cpp \
    'csv.append({ run, QStringLiteral("mfu_likely_range"), tr("MFU, likely range"), cf::exact(low),' \
    'csv.append({ run, QStringLiteral("mfu_likely_range"), tr("MFU, likely range"), cf::exact(low / 100),' \
    "tst_charts:csvRowsAreTheResults"
