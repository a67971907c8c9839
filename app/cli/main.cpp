// gapstudio-cli: the reference performance model without a GUI (and without Qt).
#include "commands.h"
#include "grid.h"

#include "gapstudio/io/calculon_json.h"
#include "gapstudio/io/safe_file.h"

#include <cmath>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace gapstudio::cli;

constexpr const char *kUsage
    = R"(usage: gapstudio-cli eval --calculon MODEL.json EXECUTION.json SYSTEM.json [--layers]
       gapstudio-cli eval SCENARIO.gapstudio.json [--reference-quirks] [--presets DIR] [--layers] [--cost]
                          [--goodput] [--calibration CALIBRATION.json]
       gapstudio-cli import-hf CONFIG.json [--id ID] [--name NAME]
       gapstudio-cli bench [--moe | --scenario SCENARIO.gapstudio.json [--presets DIR]] [--seconds S]
       gapstudio-cli search --calculon MODEL.json NUM_PROCS MAX_BATCH DATATYPE SYSTEM.json
                            [--top N] [-m] [--no-tp-overlap] [--no-dp-overlap] [-f true|false|both]
                            [--moe EXPERTS] [--tp-comm ar,p2p_rs_ag,rs_ag] [--dp-overlap both|on|off]
                            [--rank sample_rate|mfu] [--threads N] [--max-layouts N] [--exhaustive]
       gapstudio-cli sweep --calculon MODEL.json EXECUTION.json SYSTEM.json
                           --axis PARAMETER|variants [--factors 0.5,1,2] [--json]
       gapstudio-cli sensitivity --calculon MODEL.json EXECUTION.json SYSTEM.json [--json]
       gapstudio-cli grid SCENARIO.gapstudio.json --vary KEY=v1,v2,... [--vary ...]
                          [--best-layout] [--shard K/N] [--threads N]
                          [--reference-quirks] [--presets DIR]
       gapstudio-cli rank SCENARIO.gapstudio.json [--by KEY] [--top N] [--widen] [--threads N] [--presets DIR]
       gapstudio-cli cost-sweep SCENARIO.gapstudio.json --gpus N1,N2,... [--by KEY] [--widen] [--threads N]
                                [--presets DIR] [--json]
       gapstudio-cli roadmap ROADMAP.gapstudio-roadmap.json [--json] [--presets DIR] [--reference-quirks]
                             [--calibration CALIBRATION.json]
       gapstudio-cli validate FILE_OR_DIR... [--presets DIR] [--calibration CALIBRATION.json]
                              [--only KEY=VALUE]... [--exclude KEY=VALUE]...
       gapstudio-cli calibrate FILE_OR_DIR... --out CALIBRATION.json [--gpu ID] [--software ID]
                               [--presets DIR] [--calibration START.json | --from-priors] [--bounded]
                               [--host-ops]
                               [--only KEY=VALUE]... [--exclude KEY=VALUE]...
       gapstudio-cli --help | --version

Commands:
  eval    Evaluate one configuration given as the reference model's (Calculon's) three
          JSON inputs: application, execution and system. Prints one JSON object with the
          96 statistics (SI units: seconds, bytes, flops, B/s) in the reference's order.
          --layers also prints "layers", one record per layer of a transformer block.
          An execution file in the calculon-MoE format (33 keys, with "model_MoE") is
          evaluated as that reference and prints its 122 statistics.
          With a SCENARIO.gapstudio.json instead, the design is compiled from the preset
          library and evaluated with the corrected model, or with the reference's quirks
          under --reference-quirks; MoE LLMs print the 122 statistics, and the corrected model
          adds its own ones, "calibration" (the entries used) and "calibration_accuracy" (the
          calibration's error on published runs; whether the GPU and software have entries of
          their own); --calibration runs it with that calibration file instead of the
          one the scenario names. Presets: --presets DIR
          alone, else $GAPSTUDIO_PRESETS, then ../share/gapstudio/presets next to the
          program, then the user's presets ($XDG_DATA_HOME or ~/.local/share, gapstudio/
          presets), then the source tree's presets/, then the copy built into the program
          (an id in an earlier folder hides the same id in later ones). --cost adds, after
          every other key, "cost": cluster $/hour, $/million tokens, J/token, MW, a training
          run of the token budget ($, MWh, GPU-hours), the breakdowns, the bill of materials
          and the assumptions (prices and power from the presets' cost blocks; economics
          overridable with the scenario's "cost.*" overrides). --goodput adds, last,
          "goodput": failures, checkpoints and restarts (the job's mean time to interrupt
          from a failure rate per GPU-hour, Young's checkpoint interval, Daly's expected
          wall time), the share of wall time that trains, where the rest goes, and the
          effective tokens/s, days and $/million tokens of the token budget; checkpoints
          are synchronous unless "reliability.async_checkpoint" is 1 (a snapshot to host
          memory, written in the background: "checkpoint_stall_s" is what the job stops);
          with a server repair time ("reliability.repair_hours") a failure that finds no
          hot spare ("reliability.spare_servers", priced in the bill of materials) waits
          for a repaired server: "no_spare_probability" and "spare_wait_s".
          A measurement file (presets/measurements) in place of the scenario evaluates
          its run's design and adds, last, "measured": the run's id, its measured
          "iteration_time_s" and the prediction's "error" (measured / predicted - 1, as
          validate reports it).
  import-hf  Turn a Hugging Face config.json into an llm preset (stdout); what it had to
          approximate (latent attention, shared experts, dense first layers, ...) goes to
          stderr as "approximation: ..." lines.
  bench   Evaluate a built-in configuration (reference case 18: gpt3-175B on 4096 H100,
          fp8; with --moe the calculon-MoE case gpt-1.8T on 4096 FullFlat GPUs) repeatedly
          on one thread for S seconds (default 3), as a layout search does (the system's
          ranges checked once, before), and print the rate; the last line is
          "evaluations_per_second: N". With --scenario, the design of a scenario file,
          compiled once, in its own model (the corrected one, as eval runs it), with the
          same output.
  search  Search the layouts of the reference's llm-optimal-execution (with --moe E, of
          calculon-MoE's legacy MoE search) on all cores. Prints the top N (default 1) as
          {"0": {"execution": {...}, "stats": {...}}, ...}, best first, ties in enumeration
          order; the last line on stderr is "configurations: C, valid: V, seconds: S,
          configurations_per_second: R, evaluated: E, skipped: K". Layouts that provably
          cannot rank (a lower bound on their step time) are skipped, with the same top N;
          --exhaustive evaluates every layout (V then counts all valid ones). A space of more than --max-layouts layouts
          (default 1000000000, about ten minutes on two cores; 0 = no limit) is refused
          before it starts, with its size.
  sweep   Evaluate the design with one hardware parameter scaled by each factor (peak_flops,
          hbm_bandwidth, hbm_capacity, scale_up_bandwidth, scale_out_bandwidth,
          network_latency, scale_up_domain_size), or its variants (hardware vs software
          collectives, overlap on/off, datatypes); CSV by default.
  grid    Evaluate the scenario at every point of a hardware grid: the Cartesian product of
          the --vary values (keys: the scenario override keys, e.g. gpu.hbm_bandwidth_GBps,
          scale_out.bandwidth_GBps, topology.scale_up_domain_size, gpu_count; the first
          --vary varies slowest). One JSON line per point, in point order: {"point", "overrides",
          "status", "message" (if not ok), "layout" (the execution used), "results" (total_time,
          sample_rate, tokens_per_second, total_efficiency, ... in SI units; if ok)}.
          --best-layout judges each point at its best layout (a layout search with the
          scenario's own settings and model; never worse than the scenario's own layout).
          --shard K/N prints only part K of N (consecutive points; the N parts concatenated in
          order are the whole grid), e.g. for Slurm job arrays; gapstudio-grid-mpi runs the same
          grid over MPI ranks with the same output. Summary on stderr.
  sensitivity  Elasticities of step time and MFU with respect to every hardware parameter
          (d ln y / d ln p, central differences), largest first: what buys the most.
  rank    Search the layouts of a scenario with its own model and rank them by KEY:
          usd_per_million_tokens (default), joules_per_token, sample_rate, mfu or
          effective_usd_per_million_tokens (with failures, checkpoints and restarts). Prints
          {"by", "search", "configurations", "valid", "exact", "layouts": [...]}, best
          first, each with its key numbers and the layout as a preset file; "exact" says
          whether the cost ranking provably covers the whole search space. The space is the
          scenario's own (its overlaps and context parallelism kept), the one the studio's
          Best layout and Explore search, so all name the same best layout; --widen adds
          every TP overlap and DP overlap on and off.
  cost-sweep  The scenario at each GPU count of --gpus, each at its best layout by KEY:
          time and cost to train the token budget, $/million tokens, J/token, MFU, and
          whether the point is on the Pareto front of time against cost, then the goodput
          under failures and the effective days and $/million tokens (CSV, or --json).
  roadmap  Evaluate each step of a roadmap (a scenario, or a named change to the step
          before): step,name,status,samples_per_second,mfu,usd_per_million_tokens,
          joules_per_token,megawatts,speedup,cost_ratio,energy_ratio,goodput,
          effective_usd_per_million_tokens,effective_cost_ratio (CSV, or --json with each
          step's cost object). The ratios compare each step with the one before; the
          effective figures count failures, checkpoints and restarts. --calibration runs
          every step with that calibration file instead of its own.
  validate  Predict every measured run (gapstudio.measurement files, or folders of them)
          with the corrected model and the shipped calibration (or --calibration): a JSON
          array of {"id", "family", "measured_s", "predicted_s", "error", "status", "cause"
          (if any), "calibration" (the entries used)}, error = measured_s / predicted_s - 1
          (positive: the model is too fast). A run that cannot be evaluated keeps its row
          (null prediction, its status and cause) and the cause also goes to stderr. Each
          row also names "gpu_arch", its GPU's architecture. stderr has a line per family and
          per gpu_arch; the last is "rows: N, mean_abs_error: X, max_abs_error: Y" (fractions).
          --only KEY=VALUE keeps, --exclude KEY=VALUE drops the runs whose KEY is VALUE, KEY
          one of family, gpu (preset id), gpu_arch (e.g. hopper, blackwell), software; a
          filter that matches no run is a usage error.
  calibrate  Fit a calibration preset to measured runs (Levenberg-Marquardt on
          log(predicted / measured), starting from the shipped calibration, whose values
          also stand for parameters the runs do not inform, or from --calibration
          START.json, or with --from-priors from the built-in priors alone, as if no
          calibration were installed, as the shipped calibration itself and every
          leave-one-out fit are):
          prints every parameter with its standard error, then those at or beyond an end of
          their documented plausible range (each range sourced in docs/references.md; such a
          parameter stands for a mechanism the model lacks), the error before and after, and
          the leave-one-family-out error (each family predicted by a fit without it) and
          the leave-one-generation-out error (each GPU architecture predicted by a fit
          without its runs: how far the calibration carries to a GPU generation it has not
          seen); writes the preset to --out. --gpu ID fits that GPU its own entry (else
          runs share their architecture's); --software ID fits every run as that software
          stack; --only/--exclude select the runs as for validate, e.g. --exclude
          gpu_arch=blackwell; --bounded keeps every parameter inside its range. The MoE
          blocks' host time is not fitted: their host operators (counted per layer, fewer
          under CUDA graphs and router fusion) cost the GPU's host CPU time per operator
          times the software's host_op_factor. --host-ops, which asked for that before it
          was the only way, is accepted and changes nothing.

Exit status (the GUI's headless exports keep the same):
  0  success
  1  infeasible configuration (e.g. out of memory): "error: <cause>" lines on stderr
  2  malformed input or usage error: "error: <file>: <json pointer>: <message>" on stderr
  3  an output could not be written (e.g. standard output on a full disk): "error: <what>: <reason>"

Input limits: regular files only (no FIFO or device), at most 64 MiB, JSON nested at most 64
deep; every number within the model's ranges (see README, "Input limits").
)";

int usageError(const std::string &message)
{
    std::cerr << "error: " << message << "\nrun 'gapstudio-cli --help' for usage\n";
    return kExitMalformed;
}

int commandEval(const std::vector<std::string> &args)
{
    std::vector<std::string> paths;
    bool calculon = false;
    bool layers = false;
    bool referenceQuirks = false;
    bool withCost = false;
    bool withGoodput = false;
    std::string presetsDir, calibrationFile;
    std::vector<std::string> scenarios;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "--layers") {
            layers = true;
        } else if (arg == "--reference-quirks") {
            referenceQuirks = true;
        } else if (arg == "--goodput") {
            withGoodput = true;
        } else if (arg == "--cost") {
            withCost = true;
        } else if (arg == "--presets") {
            if (i + 1 >= args.size() || args[i + 1].empty())
                throw UsageError { "--presets needs a directory (got an empty name)" };
            presetsDir = args[++i];
        } else if (arg == "--calibration") {
            if (i + 1 >= args.size() || args[i + 1].empty())
                throw UsageError { "--calibration needs a calibration file" };
            calibrationFile = args[++i];
        } else if (arg == "--calculon") {
            if (calculon)
                throw UsageError{"--calculon given twice"};
            calculon = true;
            for (std::size_t k = 0; k < 3; ++k, ++i) {
                if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
                    throw UsageError{"--calculon needs three files: MODEL.json EXECUTION.json SYSTEM.json"};
                paths.push_back(args[i + 1]);
            }
        } else if (arg.rfind("-", 0) == 0) {
            throw UsageError{"unknown option '" + arg + "' for eval"};
        } else if (!calculon && scenarios.empty()) {
            scenarios.push_back(arg);
        } else {
            throw UsageError{"unexpected argument '" + arg + "'"};
        }
    }
    if (calculon
        && (!scenarios.empty() || referenceQuirks || !presetsDir.empty() || withCost || withGoodput
            || !calibrationFile.empty()))
        throw UsageError {
            "--calculon takes no scenario, --reference-quirks, --presets, --cost, --goodput or --calibration"
        };
    rejectCalibrationUnderReferenceQuirks(referenceQuirks, calibrationFile);
    if (!scenarios.empty())
        return runEvalScenario(scenarios[0], referenceQuirks, presetsDir, layers, withCost, withGoodput,
                               calibrationFile);
    if (!calculon)
        throw UsageError{"eval needs --calculon MODEL.json EXECUTION.json SYSTEM.json or SCENARIO.gapstudio.json"};
    return runEval(paths[0], paths[1], paths[2], layers);
}

int commandBench(const std::vector<std::string> &args)
{
    double seconds = 3.0;
    bool moe = false;
    std::string scenarioPath, presetsDir;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--moe") {
            moe = true;
            continue;
        }
        if (args[i] == "--scenario" || args[i] == "--presets") {
            const std::string &option = args[i];
            (option == "--scenario" ? scenarioPath : presetsDir) = optionValue(option, args, i);
            continue;
        }
        if (args[i] != "--seconds")
            throw UsageError{"unknown argument '" + args[i] + "' for bench"};
        const std::string &text = optionValue(args[i], args, i);
        char *end = nullptr;
        seconds = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(seconds) || seconds < 0 || seconds > 86400)
            throw UsageError{"--seconds expects a number of seconds in [0, 86400], got '" + text + "'"};
    }
    if (moe && !scenarioPath.empty())
        throw UsageError{"bench takes --moe or --scenario, not both"};
    if (!presetsDir.empty() && scenarioPath.empty())
        throw UsageError{"--presets needs --scenario"};
    return scenarioPath.empty() ? runBench(seconds, moe) : runBenchScenario(scenarioPath, presetsDir, seconds);
}

int run(const std::vector<std::string> &args)
{
    if (args.empty())
        throw UsageError{"missing command"};
    for (const std::string &arg : args) {
        if (arg == "--help" || arg == "-h") {
            std::cout << kUsage;
            return kExitOk;
        }
    }
    if (args[0] == "--version") {
        if (args.size() > 1)
            throw UsageError{"--version takes no arguments"};
        std::cout << "gapstudio-cli " << GAPSTUDIO_VERSION << '\n';
        return kExitOk;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "eval")
        return commandEval(rest);
    if (args[0] == "bench")
        return commandBench(rest);
    if (args[0] == "search")
        return runSearch(rest);
    if (args[0] == "import-hf")
        return runImportHf(rest);
    if (args[0] == "sweep")
        return runSweep(rest);
    if (args[0] == "sensitivity")
        return runSensitivity(rest);
    if (args[0] == "validate")
        return runValidate(rest);
    if (args[0] == "calibrate")
        return runCalibrate(rest);
    if (args[0] == "grid")
        return runGrid(rest);
    if (args[0] == "rank")
        return runRank(rest);
    if (args[0] == "cost-sweep")
        return runCostSweep(rest);
    if (args[0] == "roadmap")
        return runRoadmap(rest);
    throw UsageError{"unknown command '" + args[0] + "'"};
}

} // namespace

/// The command's exit status, or 3 if its standard output could not be written: a result that
/// never reached its reader is a failure (`gapstudio-cli eval ... > /dev/full` once exited 0).
int finish(int status)
{
    try {
        gapstudio::io::flushOrThrow(stdout, "standard output");
    } catch (const gapstudio::io::OutputError &error) {
        std::cerr << "error: " << error.what() << '\n';
        return kExitOutputFailed;
    }
    return status;
}

int main(int argc, char **argv)
{
    // Nothing escapes main: every failure is a one-line "error: ..." and a documented exit status.
    try {
        return finish(run(std::vector<std::string>(argv + 1, argv + argc)));
    } catch (const UsageError &error) {
        return usageError(error.message);
    } catch (const gapstudio::io::OutputError &error) {
        std::cerr << "error: " << error.what() << '\n';
        return kExitOutputFailed;
    } catch (const gapstudio::io::InputError &error) {
        std::cerr << "error: " << error.what() << '\n';
        return kExitMalformed;
    } catch (const std::exception &error) {
        std::cerr << "error: " << error.what() << '\n';
        return kExitMalformed;
    } catch (...) {
        std::cerr << "error: unknown failure\n";
        return kExitMalformed;
    }
}
