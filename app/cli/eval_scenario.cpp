// `gapstudio-cli eval SCENARIO.gapstudio.json`: a native design, through the scenario pipeline.
#include "commands.h"
#include "cost_output.h"
#include "json_output.h"

#include "gapstudio/io/measurement_json.h"
#include "gapstudio/io/preset_json.h"
#include "gapstudio/model/goodput.h"
#include "gapstudio/model/units.h"
#include "gapstudio/scenario/pipeline.h"
#include "gapstudio/scenario/validation.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>
#include <optional>

namespace gapstudio::cli {

namespace {

nlohmann::ordered_json goodputToJson(const model::GoodputResult &g, const model::ReliabilityAssumptions &a)
{
    nlohmann::ordered_json out;
    out["goodput"] = g.goodput;
    // No failures (a rate of 0): no time between them to print, and JSON has no infinity.
    out["mtti_hours"] = std::isfinite(g.mtti_s) ? nlohmann::ordered_json(g.mtti_s / units::kSecondsPerHour)
                                                : nlohmann::ordered_json(nullptr);
    out["checkpoint_bytes"] = g.checkpoint_B;
    out["checkpoint_write_s"] = g.checkpointWrite_s;
    out["restart_s"] = g.restart_s;
    out["checkpoint_interval_s"] = g.interval_s;
    out["losses"] = { { "checkpoints", g.checkpointShare },
                      { "lost_work", g.lostWorkShare },
                      { "restarts", g.restartShare } };
    out["effective_mfu"] = g.effectiveMfu;
    out["effective_tokens_per_second"] = g.effectiveTokensPerSecond;
    out["effective_training_days"] = g.effectiveTrainingDays;
    out["effective_usd_per_million_tokens"] = g.effectiveUsdPerMillionTokens;
    out["interruptions"] = nlohmann::ordered_json::array();
    for (const model::InterruptionSource &s : g.sources)
        out["interruptions"].push_back(
            { { "cause", s.key }, { "parts", s.parts }, { "per_hour", s.perHour } });
    out["network_parts_estimated"] = g.networkEstimated;
    out["assumptions"] = { { "interruptions_per_gpu_hour", g.interruptionsPerGpuHour },
                           { "storage_GBps", a.storage_Bps / units::kBpsPerGBps },
                           { "job_restart_s", a.jobRestart_s },
                           { "checkpoint_interval_s", a.checkpointInterval_s }, // 0: Young's
                           { "async_checkpoint", a.asyncCheckpoint },
                           { "snapshot_GBps", a.snapshot_Bps / units::kBpsPerGBps } };
    out["assumptions"]["storage_read_GBps"] = a.storageRead_Bps.value_or(a.storage_Bps) / units::kBpsPerGBps;
    out["assumptions"]["spare_servers"] = a.spareServers;
    out["assumptions"]["repair_hours"] = a.repair_s / units::kSecondsPerHour;
    // Appended: the time the job stops per checkpoint (the write, or an asynchronous snapshot);
    // with hot spares, the chance a hardware failure finds none and the expected wait per
    // interruption for a repaired server (part of the restart's loss).
    out["checkpoint_stall_s"] = g.checkpointStall_s;
    out["no_spare_probability"] = g.noSpareProbability;
    out["spare_wait_s"] = g.spareWait_s;
    return out;
}

/// The measured run in `path` if it is a measurement file (its fileType), else nothing.
std::optional<io::Measurement> measurementIn(const std::string &path)
{
    const nlohmann::json json = io::readJsonFile(path);
    const auto type = json.is_object() ? json.find("fileType") : json.end();
    if (type == json.end() || !type->is_string() || type->get<std::string>() != "gapstudio.measurement")
        return std::nullopt;
    return io::parseMeasurement(json, path);
}

} // namespace

int runEvalScenario(const std::string &scenarioPath, bool referenceQuirks, const std::string &presetsDir,
                    bool withLayers, bool withCost, bool withGoodput, const std::string &calibrationFile)
{
    const scenario::PresetLibrary library = presetLibrary(presetsDir);
    const std::optional<io::Measurement> measured = measurementIn(scenarioPath);
    scenario::Scenario scenario = measured ? measured->scenario : io::loadScenario(scenarioPath);
    if (!calibrationFile.empty())
        scenario.calibration = { {}, readCalibrationFile(calibrationFile) };
    scenario::PipelineOptions options;
    options.referenceQuirks = referenceQuirks;
    options.withLayers = withLayers;
    const scenario::PipelineResult result = scenario::runScenario(scenario, library, options);
    if (!result.ok())
        return reportScenarioDiagnostics(result.diagnostics, scenario, scenarioPath,
                                         measured ? "/scenario" : "");
    const StatsFormat format
        = result.compiled->resolved.llm.isMoe() ? StatsFormat::CalculonMoe : StatsFormat::Calculon;
    nlohmann::ordered_json out = evaluationToJson(result.evaluation, format, withLayers);
    if (result.compiled->features.any()) {
        // The corrected model's own statistics and its calibration, after the reference's.
        result.evaluation.stats.forEachCorrected(
            [&](std::string_view name, double value) { out[std::string(name)] = value; });
        out["calibration"] = result.compiled->calibrationNote;
        if (const auto &a = result.compiled->calibrationAccuracy)
            out["calibration_accuracy"]
                = { { "runs", a->runs },
                    { "fitted_mean_abs_error", a->fittedMeanAbsError },
                    { "leave_one_family_out_mean_abs_error", a->leaveOneFamilyOutMeanAbsError },
                    { "gpu_has_entry", a->gpuHasEntry },
                    { "software_has_entry", a->softwareHasEntry },
                    { "unseen_gpu_generation_mean_abs_error", a->unseenGenerationMeanAbsError } };
        if (const auto &interval = result.interval)
            out["prediction_interval"] = intervalToJson(*interval, result.evaluation.stats, true);
    }
    if (withCost && result.cost)
        out["cost"] = costToJson(*result.cost); // after every existing key: the output only grows
    if (withGoodput && result.goodput) {
        out["goodput"] = goodputToJson(*result.goodput, result.compiled->resolved.reliability);
        // The storage block checkpoints go to (null: none, the default bandwidth).
        const std::optional<scenario::Storage> &storage = result.compiled->resolved.storage;
        out["goodput"]["assumptions"]["storage"]
            = storage ? nlohmann::ordered_json(storage->info.id) : nlohmann::ordered_json(nullptr);
    }
    if (measured) {
        const double time_s = measured->measuredIterationTime_s;
        out["measured"]
            = { { "id", measured->id },
                { "iteration_time_s", time_s },
                { "error", scenario::predictionError(time_s, result.evaluation.stats.total_time) } };
    }
    std::cout << out.dump(2) << '\n' << std::flush;
    return kExitOk;
}

} // namespace gapstudio::cli
