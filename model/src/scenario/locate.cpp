// A model diagnostic's field, told as a JSON pointer of the scenario file (locate.h). The keys
// of the blocks are those of io/preset_json (preset_*_block*.cpp) and of the override table
// (override_rules.h).
#include "gapstudio/scenario/locate.h"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gapstudio::scenario {

namespace {

using model::Diagnostic;
using model::DiagnosticCode;

std::vector<std::string> split(const std::string &path)
{
    std::vector<std::string> parts;
    std::string::size_type start = 0;
    for (;;) {
        const auto slash = path.find('/', start);
        parts.push_back(path.substr(start, slash - start));
        if (slash == std::string::npos)
            return parts;
        start = slash + 1;
    }
}

class Locator {
public:
    explicit Locator(const Scenario &scenario)
        : mScenario(scenario)
    {
    }

    /// "/overrides/<key>" if the scenario overrides `key`.
    [[nodiscard]] std::optional<std::string> override(const std::string &key) const
    {
        if (!mScenario.overrides.contains(key))
            return std::nullopt;
        return "/overrides/" + key;
    }

    /// "/<name>/<key>" for an inline block, "/<name>" for a preset (the id is all the file has).
    template <typename Block>
    [[nodiscard]] static std::string in(const BlockRef<Block> &ref, const std::string &name,
                                        const std::string &key)
    {
        std::string pointer = "/" + name;
        if (ref.inlineBlock && !key.empty())
            pointer += "/" + key;
        return pointer;
    }

    [[nodiscard]] std::string application(const std::string &key) const
    {
        return override("llm." + key).value_or(in(mScenario.llm, "llm", key));
    }

    [[nodiscard]] std::string execution(const std::string &key) const
    {
        if (key == "num_procs")
            return override("gpu_count").value_or("/gpu_count");
        if (key == "num_experts")
            return in(mScenario.llm, "llm", "num_experts");
        if (key == "top_k_experts")
            return in(mScenario.llm, "llm", "top_k");
        if (key == "attention_type")
            return in(mScenario.llm, "llm", "kv_heads");
        return override("layout." + key).value_or(in(mScenario.layout, "layout", key));
    }

    [[nodiscard]] std::string memory(const std::vector<std::string> &parts) const
    {
        const bool hbm = parts[0] == "mem1";
        const std::string what = parts.size() > 1 ? parts[1] : "";
        const std::string tier = hbm ? "hbm" : "tier2";
        if (what == "capacity")
            return override(hbm ? "gpu.hbm_capacity_GiB" : "gpu.tier2_capacity_GiB")
                .value_or(in(mScenario.gpu, "gpu", tier + "/capacity_GiB"));
        if (what == "bandwidth")
            return override(hbm ? "gpu.hbm_bandwidth_GBps" : "gpu.tier2_bandwidth_GBps")
                .value_or(in(mScenario.gpu, "gpu", tier + "/bandwidth_GBps"));
        return in(mScenario.gpu, "gpu", tier + "/efficiency_by_MB");
    }

    [[nodiscard]] std::string engine(const std::vector<std::string> &parts) const
    {
        static constexpr std::array<std::pair<const char *, const char *>, 5> kKeys
            = { { { "float8", "fp8" },
                  { "float16", "fp16" },
                  { "bfloat16", "bf16" },
                  { "float32", "fp32" },
                  { "float4", "fp4" } } };
        const std::string name = parts[0]; // matrix or vector
        if (parts.size() > 2 && parts[2] == "peak_flops") {
            std::string key = parts[1];
            for (const auto &[model, file] : kKeys)
                if (key == model)
                    key = file;
            return override("gpu.compute_scale").value_or(in(mScenario.gpu, "gpu", name + "_tflops/" + key));
        }
        return in(mScenario.gpu, "gpu", name + "_efficiency_by_GFLOP");
    }

    [[nodiscard]] std::string network(const std::vector<std::string> &parts) const
    {
        const bool scaleUp = parts.size() < 2 || parts[1] == "0";
        const std::string what = parts.size() > 2 ? parts[2] : "";
        if (what == "size")
            return scaleUp ? override("topology.scale_up_domain_size")
                                 .value_or(in(mScenario.topology, "topology", "scale_up_domain_size"))
                           : override("gpu_count").value_or("/gpu_count");
        // Every tier above 0 is built from the scale-out link (FullFlat may reuse the scale-up one).
        const bool reused = !mScenario.scaleOut.inlineBlock && mScenario.scaleOut.presetId.empty();
        const std::string link = scaleUp || reused ? "scale_up" : "scale_out";
        const BlockRef<Interconnect> &ref = link == "scale_up" ? mScenario.scaleUp : mScenario.scaleOut;
        std::string key;
        if (what == "bandwidth" || what == "latency" || what == "efficiency") {
            key = what == "bandwidth" ? "bandwidth_GBps" : what == "latency" ? "latency_us" : "efficiency";
            if (const auto pointer = override(link + "." + key))
                return *pointer;
        } else if (what == "processor_usage") {
            key = what;
        } else if (what == "ops" && parts.size() > 3) {
            key = parts[3] == "all_to_all" ? "all_to_all_efficiency" : "collectives/" + parts[3];
        }
        return in(ref, link, key);
    }

private:
    const Scenario &mScenario;
};

} // namespace

std::string scenarioPointer(const Scenario &scenario, const Diagnostic &diagnostic)
{
    const std::string &field = diagnostic.field;
    if (field.empty())
        return {};
    if (diagnostic.code == DiagnosticCode::InvalidScenario)
        return "/" + field; // compile() names the scenario's own keys
    const Locator at(scenario);
    static constexpr std::array<std::pair<const char *, const char *>, 6> kApplication
        = { { { "hidden", "hidden" },
              { "feedforward", "feedforward" },
              { "seq_size", "seq_size" },
              { "attn_heads", "attn_heads" },
              { "attn_size", "head_size" },
              { "num_blocks", "num_blocks" } } };
    for (const auto &[model, file] : kApplication)
        if (field == model)
            return at.application(file);
    const std::vector<std::string> parts = split(field);
    if (parts.size() == 1)
        return at.execution(field);
    if (parts[0] == "mem1" || parts[0] == "mem2")
        return at.memory(parts);
    if (parts[0] == "matrix" || parts[0] == "vector")
        return at.engine(parts);
    if (parts[0] == "networks")
        return at.network(parts);
    return {};
}

bool isMalformedScenario(const model::Diagnostics &diagnostics)
{
    for (const Diagnostic &d : diagnostics)
        if (d.code == DiagnosticCode::InvalidScenario || d.code == DiagnosticCode::OutOfRange
            || d.code == DiagnosticCode::NonFiniteResult)
            return true;
    return false;
}

std::string scenarioDiagnosticText(const std::string &file, const Scenario &scenario,
                                   const Diagnostic &diagnostic, const std::string &at)
{
    const std::string pointer = scenarioPointer(scenario, diagnostic);
    return pointer.empty() ? diagnostic.message : file + ": " + at + pointer + ": " + diagnostic.message;
}

} // namespace gapstudio::scenario
