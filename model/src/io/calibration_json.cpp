// The software and calibration block formats (preset_json.h): strict parse and canonical write.
//   software:    framework, gradient_reduce_datatype ("fp32" | "bf16" | "fp16"), optional
//                elementwise_kernels, moe_dispatcher, moe_all_to_all_overlap
//   calibration: gemm_half_depth, gpus {key: {gemm_efficiency {datatype: e}, attention_efficiency,
//                hbm_efficiency}}, software {key: {compute_efficiency, block_overhead_us,
//                overlap_efficiency, moe_block_overhead_us}}, networks {key: {efficiency, latency_us}},
//                optional fit (each fitted parameter: name, value, standard_error, optional range [low,
//                high], at_bound).
// Efficiencies lie in model::limits::kEfficiency, [1e-6, 1], as everywhere else (README, "Input limits");
// overheads and latencies are >= 0.
#include "io/preset_blocks.h"

#include "gapstudio/model/enum_names.h"
#include "gapstudio/model/limits.h"
#include "gapstudio/model/units.h"

#include <array>
#include <string>

namespace gapstudio::io::detail {

namespace {

using units::kUsPerSecond;


void optionalNumber(const JsonCursor &c, const char *key, std::optional<double> &out, double low, bool lowIncluded,
                    double high, double unit = 1)
{
    if (c.value().contains(key))
        out = numberIn(c[key], low, lowIncluded, high, true) / unit;
}

/// An optional efficiency: in model::limits::kEfficiency.
void optionalEfficiency(const JsonCursor &c, const char *key, std::optional<double> &out)
{
    const model::Range &r = model::limits::kEfficiency;
    if (c.value().contains(key))
        out = numberIn(c[key], r.low, r.lowIncluded, r.high, r.highIncluded);
}

void writeOptional(nlohmann::ordered_json &out, const char *key, const std::optional<double> &value, double unit = 1)
{
    if (value)
        out[key] = unit == 1 ? plainNumber(*value) : unitNumber(*value, unit, true);
}

template <typename Entry, typename Parse>
std::map<std::string, Entry> parseEntries(const JsonCursor &c, const char *key, Parse parse)
{
    std::map<std::string, Entry> entries;
    const JsonCursor object = c[key];
    object.requireObject();
    for (const auto &item : object.value().items()) {
        if (item.key().empty())
            object.fail("expected non-empty keys (an id, an architecture or \"default\")");
        entries.emplace(item.key(), parse(object[item.key()]));
    }
    return entries;
}

scenario::GpuCalibration parseGpuEntry(const JsonCursor &c)
{
    requireKeys(c, {}, { "gemm_efficiency", "attention_efficiency", "hbm_efficiency" });
    scenario::GpuCalibration e;
    if (c.value().contains("gemm_efficiency")) {
        const JsonCursor gemm = c["gemm_efficiency"];
        gemm.requireObject();
        for (const auto &item : gemm.value().items()) {
            bool known = false;
            for (const auto &[name, type] : kDatatypeKeys)
                if (item.key() == name) {
                    optionalEfficiency(gemm, name, e.gemmEfficiency[static_cast<std::size_t>(type)]);
                    known = true;
                }
            if (!known)
                gemm[item.key()].fail("unknown datatype \"" + item.key() + "\" (expected fp32, bf16, fp16, fp8 or fp4)");
        }
    }
    optionalEfficiency(c, "attention_efficiency", e.attentionEfficiency);
    optionalEfficiency(c, "hbm_efficiency", e.hbmEfficiency);
    return e;
}

scenario::SoftwareCalibration parseSoftwareEntry(const JsonCursor &c)
{
    requireKeys(c, {},
                { "compute_efficiency", "block_overhead_us", "overlap_efficiency", "moe_block_overhead_us",
                  "host_op_scale" });
    scenario::SoftwareCalibration e;
    optionalEfficiency(c, "compute_efficiency", e.computeEfficiency);
    optionalNumber(c, "block_overhead_us", e.blockOverhead_s, 0, true, 1e6, kUsPerSecond);
    optionalEfficiency(c, "overlap_efficiency", e.overlapEfficiency);
    optionalNumber(c, "moe_block_overhead_us", e.moeBlockOverhead_s, 0, true, 1e6, kUsPerSecond);
    optionalNumber(c, "host_op_scale", e.hostOpScale, 0, false, 100, 1);
    return e;
}

scenario::NetworkCalibration parseNetworkEntry(const JsonCursor &c)
{
    requireKeys(c, {}, { "efficiency", "latency_us" });
    scenario::NetworkCalibration e;
    optionalEfficiency(c, "efficiency", e.efficiency);
    optionalNumber(c, "latency_us", e.latency_s, 0, true, 1e6, kUsPerSecond);
    return e;
}

/// The parameters' correlation matrix: `count` rows of `count` numbers in [-1, 1], symmetric,
/// 1 on the diagonal.
std::vector<std::vector<double>> parseCorrelation(const JsonCursor &c, std::size_t count)
{
    if (c.requireArray() != count)
        c.fail("expected " + std::to_string(count) + " rows, one per parameter, got "
               + std::to_string(c.value().size()));
    std::vector<std::vector<double>> rows(count);
    for (std::size_t i = 0; i < count; ++i) {
        const JsonCursor row = c[i];
        if (row.requireArray() != count)
            row.fail("expected " + std::to_string(count) + " correlations, one per parameter, got "
                     + std::to_string(row.value().size()));
        for (std::size_t j = 0; j < count; ++j)
            rows[i].push_back(numberIn(row[j], -1, true, 1, true));
        if (rows[i][i] != 1)
            row[i].fail("expected 1 (a parameter's correlation with itself), got "
                        + formatNumber(rows[i][i]));
    }
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (rows[i][j] != rows[j][i])
                c[i][j].fail("expected " + formatNumber(rows[j][i]) + ", the same as row " + std::to_string(j)
                             + " column " + std::to_string(i) + " (the matrix is symmetric)");
    return rows;
}

scenario::FitSummary parseFit(const JsonCursor &c)
{
    requireKeys(c,
                { "rows", "mean_abs_error_before", "mean_abs_error", "max_abs_error",
                  "leave_one_family_out_mean_abs_error", "parameters" },
                { "leave_one_generation_out_mean_abs_error", "correlation" });
    scenario::FitSummary fit;
    fit.rows = c["rows"].integerAtLeast(0);
    fit.meanAbsErrorBefore = numberIn(c["mean_abs_error_before"], 0, true);
    fit.meanAbsError = numberIn(c["mean_abs_error"], 0, true);
    fit.maxAbsError = numberIn(c["max_abs_error"], 0, true);
    fit.leaveOneFamilyOutMeanAbsError = numberIn(c["leave_one_family_out_mean_abs_error"], 0, true);
    if (c.value().contains("leave_one_generation_out_mean_abs_error")) {
        const JsonCursor generations = c["leave_one_generation_out_mean_abs_error"];
        generations.requireObject();
        for (const auto &item : generations.value().items()) {
            if (item.key().empty())
                generations.fail("expected non-empty keys (GPU architectures)");
            fit.leaveOneGenerationOutMeanAbsError[item.key()] = numberIn(generations[item.key()], 0, true);
        }
    }
    const JsonCursor list = c["parameters"];
    const std::size_t count = list.requireArray();
    for (std::size_t i = 0; i < count; ++i) {
        const JsonCursor p = list[i];
        requireKeys(p, { "name", "value", "standard_error" }, { "range", "at_bound" });
        scenario::FittedParameter parameter { p["name"].string(), p["value"].number(),
                                              numberIn(p["standard_error"], 0, true) };
        if (p.value().contains("range")) {
            const JsonCursor range = p["range"];
            if (range.requireArray() != 2)
                range.fail("expected [low, high]");
            parameter.low = range[0].number();
            parameter.high = range[1].number();
            if (!(parameter.low <= parameter.high))
                range.fail("expected low <= high");
        }
        if (p.value().contains("at_bound"))
            parameter.atBound = p["at_bound"].boolean();
        fit.parameters.push_back(std::move(parameter));
    }
    if (c.value().contains("correlation"))
        fit.correlation = parseCorrelation(c["correlation"], count);
    return fit;
}

} // namespace

scenario::Software parseSoftwareBody(const JsonCursor &c, bool wholeFile)
{
    requireBlockKeys(c, wholeFile, { "framework", "gradient_reduce_datatype" },
                     { "elementwise_kernels", "moe_dispatcher", "moe_all_to_all_overlap",
                       "pipeline_scatter_gather", "cuda_graph_scope", "moe_router_fusion",
                       "host_op_factor" });
    scenario::Software software;
    software.info = parseInfo(c);
    software.framework = c["framework"].string();
    const std::size_t type = c["gradient_reduce_datatype"].oneOf({ "fp32", "bf16", "fp16" });
    software.gradientReduceBytes = type == 0 ? 4 : 2;
    if (c.value().contains("elementwise_kernels"))
        software.eagerKernels = c["elementwise_kernels"].oneOf({ "fused", "eager" }) == 1;
    if (c.value().contains("moe_dispatcher"))
        software.moeDispatcher
            = static_cast<model::MoeDispatcher>(c["moe_dispatcher"].oneOf(model::names::kMoeDispatcher));
    if (c.value().contains("moe_all_to_all_overlap"))
        software.moeAllToAllOverlap = c["moe_all_to_all_overlap"].boolean();
    if (c.value().contains("pipeline_scatter_gather"))
        software.pipelineScatterGather = c["pipeline_scatter_gather"].boolean();
    if (c.value().contains("cuda_graph_scope"))
        software.cudaGraphScopes = parseCudaGraphScopes(c["cuda_graph_scope"]);
    if (c.value().contains("moe_router_fusion"))
        software.moeRouterFusion = c["moe_router_fusion"].boolean();
    if (c.value().contains("host_op_factor"))
        software.hostOpFactor = numberIn(c["host_op_factor"], 0, false, 100, true);
    return software;
}

void writeBody(nlohmann::ordered_json &out, const scenario::Software &software)
{
    out["framework"] = software.framework;
    out["gradient_reduce_datatype"] = software.gradientReduceBytes >= 4 ? "fp32" : "bf16";
    if (software.eagerKernels)
        out["elementwise_kernels"] = "eager";
    if (software.moeDispatcher)
        out["moe_dispatcher"] = model::names::of(model::names::kMoeDispatcher, *software.moeDispatcher);
    if (software.moeAllToAllOverlap)
        out["moe_all_to_all_overlap"] = *software.moeAllToAllOverlap;
    if (software.pipelineScatterGather)
        out["pipeline_scatter_gather"] = true;
    if (software.cudaGraphScopes)
        out["cuda_graph_scope"] = writeCudaGraphScopes(*software.cudaGraphScopes);
    if (software.moeRouterFusion)
        out["moe_router_fusion"] = true;
    if (software.hostOpFactor != 1)
        out["host_op_factor"] = software.hostOpFactor;
}

scenario::CalibrationSet parseCalibrationBody(const JsonCursor &c, bool wholeFile)
{
    requireBlockKeys(c, wholeFile, { "gemm_half_depth", "gpus", "software", "networks" }, { "fit" });
    scenario::CalibrationSet set;
    set.info = parseInfo(c);
    set.gemmHalfDepth = numberIn(c["gemm_half_depth"], 0, true, 1e9, true);
    set.gpus = parseEntries<scenario::GpuCalibration>(c, "gpus", parseGpuEntry);
    set.software = parseEntries<scenario::SoftwareCalibration>(c, "software", parseSoftwareEntry);
    set.networks = parseEntries<scenario::NetworkCalibration>(c, "networks", parseNetworkEntry);
    if (c.value().contains("fit"))
        set.fit = parseFit(c["fit"]);
    return set;
}

void writeBody(nlohmann::ordered_json &out, const scenario::CalibrationSet &set)
{
    out["gemm_half_depth"] = plainNumber(set.gemmHalfDepth);
    nlohmann::ordered_json gpus = nlohmann::ordered_json::object();
    for (const auto &[key, e] : set.gpus) {
        nlohmann::ordered_json entry = nlohmann::ordered_json::object();
        nlohmann::ordered_json gemm = nlohmann::ordered_json::object();
        for (const auto &[name, type] : kDatatypeKeys)
            writeOptional(gemm, name, e.gemmEfficiency[static_cast<std::size_t>(type)]);
        if (!gemm.empty())
            entry["gemm_efficiency"] = gemm;
        writeOptional(entry, "attention_efficiency", e.attentionEfficiency);
        writeOptional(entry, "hbm_efficiency", e.hbmEfficiency);
        gpus[key] = entry;
    }
    out["gpus"] = gpus;
    nlohmann::ordered_json software = nlohmann::ordered_json::object();
    for (const auto &[key, e] : set.software) {
        nlohmann::ordered_json entry = nlohmann::ordered_json::object();
        writeOptional(entry, "compute_efficiency", e.computeEfficiency);
        writeOptional(entry, "block_overhead_us", e.blockOverhead_s, kUsPerSecond);
        writeOptional(entry, "overlap_efficiency", e.overlapEfficiency);
        writeOptional(entry, "moe_block_overhead_us", e.moeBlockOverhead_s, kUsPerSecond);
        writeOptional(entry, "host_op_scale", e.hostOpScale);
        software[key] = entry;
    }
    out["software"] = software;
    nlohmann::ordered_json networks = nlohmann::ordered_json::object();
    for (const auto &[key, e] : set.networks) {
        nlohmann::ordered_json entry = nlohmann::ordered_json::object();
        writeOptional(entry, "efficiency", e.efficiency);
        writeOptional(entry, "latency_us", e.latency_s, kUsPerSecond);
        networks[key] = entry;
    }
    out["networks"] = networks;
    if (set.fit) {
        const scenario::FitSummary &f = *set.fit;
        nlohmann::ordered_json fit;
        fit["rows"] = f.rows;
        fit["mean_abs_error_before"] = plainNumber(f.meanAbsErrorBefore);
        fit["mean_abs_error"] = plainNumber(f.meanAbsError);
        fit["max_abs_error"] = plainNumber(f.maxAbsError);
        fit["leave_one_family_out_mean_abs_error"] = plainNumber(f.leaveOneFamilyOutMeanAbsError);
        if (!f.leaveOneGenerationOutMeanAbsError.empty()) {
            nlohmann::ordered_json generations = nlohmann::ordered_json::object();
            for (const auto &[generation, error] : f.leaveOneGenerationOutMeanAbsError)
                generations[generation] = plainNumber(error);
            fit["leave_one_generation_out_mean_abs_error"] = generations;
        }
        nlohmann::ordered_json parameters = nlohmann::ordered_json::array();
        for (const scenario::FittedParameter &p : f.parameters) {
            nlohmann::ordered_json parameter = { { "name", p.name },
                                                 { "value", plainNumber(p.value) },
                                                 { "standard_error", plainNumber(p.standardError) } };
            if (p.low != 0 || p.high != 0)
                parameter["range"] = { plainNumber(p.low), plainNumber(p.high) };
            if (p.atBound)
                parameter["at_bound"] = true;
            parameters.push_back(parameter);
        }
        fit["parameters"] = parameters;
        if (!f.correlation.empty()) {
            nlohmann::ordered_json rows = nlohmann::ordered_json::array();
            for (const std::vector<double> &row : f.correlation) {
                nlohmann::ordered_json values = nlohmann::ordered_json::array();
                for (double rho : row)
                    values.push_back(plainNumber(rho));
                rows.push_back(values);
            }
            fit["correlation"] = rows;
        }
        out["fit"] = fit;
    }
}

} // namespace gapstudio::io::detail
