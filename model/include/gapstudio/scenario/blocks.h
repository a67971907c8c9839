#pragma once
/**
 * @file blocks.h
 * The building blocks a user assembles (issue "Building blocks"): GPU, interconnect, topology,
 * LLM and layout. SI units inside (suffix names the unit); the JSON files use human units in
 * their keys (`hbm_capacity_GiB`, `bandwidth_GBps`, `latency_us`) and io converts once.
 */

#include "gapstudio/model/calculon_inputs.h"
#include "gapstudio/model/cost.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gapstudio::model {
// Equality of the model's input parts that blocks hold, so that the blocks' defaulted
// operator== exist (Execution defaults its own). Exact: doubles compare with ==.
[[nodiscard]] inline bool operator==(const EfficiencyTable &a, const EfficiencyTable &b) noexcept
{
    return a.rows == b.rows;
}
[[nodiscard]] inline bool operator==(const MemoryTier &a, const MemoryTier &b) noexcept
{
    return a.capacity_B == b.capacity_B && a.bandwidth_Bps == b.bandwidth_Bps && a.efficiency == b.efficiency;
}
[[nodiscard]] inline bool operator==(const NetworkOp &a, const NetworkOp &b) noexcept
{
    return a.scalar == b.scalar && a.offset == b.offset && a.efficiency == b.efficiency;
}
} // namespace gapstudio::model

namespace gapstudio::scenario {

/// Identity and provenance of a block (the preset file header without fileType/version).
struct BlockInfo {
    std::string id;     ///< stable preset id, e.g. "nvidia-h100-sxm-80gb"
    std::string name;   ///< display name, e.g. "NVIDIA H100 SXM 80GB"
    std::string source; ///< datasheet, paper, or "projection in Tithi et al. 2026"
    bool operator==(const BlockInfo &) const = default;
};

/// The server a GPU sits in, for the cost model (a GPU preset's `cost` block, which also carries
/// the GPU's price). Figures exclude the GPUs and the network parts (those are counted apart).
struct GpuCost {
    std::int64_t gpusPerServer = 8;
    double serverPrice_USD = 0;
    double serverPower_W = 0;
    std::string source; ///< where the GPU's price and these figures come from, or how they were estimated
    bool operator==(const GpuCost &) const = default;
};

/// Interruption rates of a block's parts, in FIT (job interruptions per 10^9 part-hours), with
/// their source: a GPU preset may give "gpu_fit", "hbm_fit" and "server_fit", an interconnect
/// preset (as the scale-out network) "nic_fit" and "link_fit". They replace the goodput model's
/// defaults (model/goodput.h); a scenario's `reliability.*` overrides win over both.
struct PartFits {
    std::map<std::string, double> fit; ///< by JSON key, e.g. {"hbm_fit", 12.5}
    std::string source;
    bool operator==(const PartFits &) const = default;
};

/// One accelerator.
struct Gpu {
    BlockInfo info;
    /// Dense (no sparsity) peak of the tensor-core ("matrix") engine per datatype; unset = the
    /// chip has no such datatype. Vector = CUDA-core/SIMD engine for element-wise work.
    std::array<std::optional<double>, model::kDatatypeCount> matrixPeak_flops{};
    std::array<std::optional<double>, model::kDatatypeCount> vectorPeak_flops{};
    model::EfficiencyTable matrixEfficiency; ///< thresholds in flops
    model::EfficiencyTable vectorEfficiency; ///< thresholds in flops
    model::MemoryTier hbm;                   ///< tier 1
    model::MemoryTier tier2;                 ///< host/CPU-attached memory; capacity 0 = none
    double boardPower_W = 0;
    std::optional<double> price_USD; ///< in the `cost` block when there is one
    std::optional<GpuCost> cost;
    std::optional<PartFits> reliability; ///< the GPU's, its HBM's and its server's interruption rates
    /// Corrected model: the chip family a calibration may be keyed by (e.g. "hopper"), and the
    /// GEMM geometry of its shape-aware efficiency (0 = unknown).
    std::string architecture;
    std::int64_t smCount = 0;
    std::int64_t gemmTileM = 0, gemmTileN = 0;
    /// The host CPU's time to issue one PyTorch operator (0 = not stated).
    double hostOpTime_s = 0;
    bool operator==(const Gpu &) const = default;
};

/// One link technology (NVLink, InfiniBand, RoCE, optical FullFlat, ...), per GPU.
struct Interconnect {
    BlockInfo info;
    double bandwidth_Bps = 0;     ///< unidirectional injection bandwidth per GPU
    double latency_s = 0;         ///< per operation
    double efficiency = 1;        ///< achieved fraction of bandwidth
    double allToAllEfficiency = 0; ///< if > 0, replaces `efficiency` for all-to-all
    bool inNetworkReduction = false; ///< SHARP/NVLS-style reductions in the switches
    /// Collective cost scalars [scalar, offset] (calculon-model.md §4.1); the JSON may omit them,
    /// then they follow from inNetworkReduction.
    model::NetworkOp reduceScatter, allGather, allReduce;
    double processorUsage = 0;    ///< fraction of compute used while communicating
    std::int64_t maxDomainSize = 0; ///< most GPUs one switch domain can join (0 = unlimited)
    std::optional<model::LinkCost> cost; ///< switch, adapter, optics and cable figures (cost model)
    std::optional<PartFits> reliability; ///< adapters' and links' interruption rates (as scale-out)
    bool operator==(const Interconnect &) const = default;
};

enum class TopologyKind : std::uint8_t {
    TwoTier,  ///< scale-up domains of N GPUs plus a scale-out fabric
    FullFlat, ///< every GPU reaches every other at scale-up-class bandwidth (Tithi et al.)
    ThreeTier ///< scale-up, then leaf and spine with an oversubscription ratio
};

/// How interconnects become the reference's ordered network tiers.
struct Topology {
    BlockInfo info;
    TopologyKind kind = TopologyKind::TwoTier;
    std::int64_t scaleUpDomainSize = 8;   ///< GPUs per scale-up domain (tier 0)
    bool scaleUpMustBeFilled = true;       ///< degrees on tier 0 must divide the domain
    std::int64_t leafSize = 0;             ///< three-tier: GPUs under one leaf switch
    double oversubscription = 1;           ///< three-tier: spine bandwidth divisor
    bool operator==(const Topology &) const = default;
};

enum class AttentionKind : std::uint8_t { MultiHead, MultiQuery, GroupedQuery };

/// A transformer, dense or mixture-of-experts.
struct Llm {
    BlockInfo info;
    std::int64_t hidden = 0, feedforward = 0, seqSize = 0, attnHeads = 0, headSize = 0, numBlocks = 0;
    std::int64_t kvHeads = 0;     ///< key/value heads: = attnHeads (MHA), 1 (MQA), between (GQA)
    std::int64_t vocabSize = 0;   ///< for parameter counts and token budgets
    std::int64_t numExperts = 1;  ///< 1 = dense
    std::int64_t topK = 1;
    model::ActivationFunction activation = model::ActivationFunction::Gelu;
    // Corrected model only (both references ignore them).
    bool tiedEmbeddings = false;
    std::int64_t sharedExperts = 0, sharedExpertFeedforward = 0; ///< MoE shared experts
    std::int64_t routerGroups = 0; ///< MoE group-limited routing's expert groups (0: plain top-k)
    std::int64_t denseBlocks = 0, denseFeedforward = 0;          ///< MoE blocks with a dense MLP
    bool denseBlocksInterleaved = false; ///< dense blocks alternate with MoE ones (else lead)
    /// Multi-head latent attention (0 = standard): ranks of the query and key/value
    /// compressions, the rotary part of the query/key head and the value head width.
    std::int64_t qLoraRank = 0, kvLoraRank = 0, ropeHeadSize = 0, valueHeadSize = 0;
    std::int64_t slidingWindow = 0, slidingWindowBlocks = 0; ///< windowed attention blocks
    std::int64_t mtpLayers = 0; ///< multi-token prediction depth (DeepSeek-V3), 0 = none
    /// Training dropout probabilities (attention probabilities; hidden states), < 0 = not stated.
    double attentionDropout = -1, hiddenDropout = -1;
    [[nodiscard]] bool isMoe() const noexcept { return numExperts > 1; }
    [[nodiscard]] AttentionKind attention() const noexcept
    {
        return kvHeads == attnHeads ? AttentionKind::MultiHead
               : kvHeads == 1       ? AttentionKind::MultiQuery
                                    : AttentionKind::GroupedQuery;
    }
    bool operator==(const Llm &) const = default;
};

/// A software stack (framework and version). What it sends in which datatype is here; how fast
/// it runs is in the calibration (CalibrationSet), keyed by this block's id.
struct Software {
    BlockInfo info;
    std::string framework;          ///< e.g. "Megatron-Core with Transformer Engine"
    double gradientReduceBytes = 4; ///< bytes per gradient element in the DP reduction
    bool eagerKernels = false;      ///< element-wise ops as separate eager-mode kernels
    /// Pipeline messages scattered over TP and all-gathered by the receiver (Execution's field).
    bool pipelineScatterGather = false;
    /// The MoE token dispatcher and EP all-to-all overlap the stack runs with, for layouts that
    /// do not name their own (unset: the all-to-all dispatcher, no overlap).
    std::optional<model::MoeDispatcher> moeDispatcher;
    std::optional<bool> moeAllToAllOverlap;
    /// The CUDA-graph scopes it captures (Execution::cudaGraphScopes), for layouts that do not
    /// name their own (unset: none).
    std::optional<std::uint8_t> cudaGraphScopes;
    bool moeRouterFusion = false; ///< Execution::moeRouterFusion
    /// Host time per framework operator in bare PyTorch operators (1: the bare one): Transformer
    /// Engine's modules before their CPU-overhead fixes cost 2.69 (host_op_factor; its source in
    /// docs/references.md, "MoE host operators"). Scales the GPU's host_op_us.
    double hostOpFactor = 1;
    bool operator==(const Software &) const = default;
};

/// The storage system checkpoints are written to and read back from (a storage preset): its
/// sustained bandwidths for the whole job, and its price and power when known (model/goodput.h
/// uses the bandwidths, model/cost.h prices the system as one line of the bill of materials).
struct Storage {
    BlockInfo info;
    double write_Bps = 0, read_Bps = 0;
    std::optional<double> price_USD; ///< the whole system; unset: no price (the $ figures say so)
    double power_W = 0;              ///< the whole system
    bool operator==(const Storage &) const = default;
};

/// Calibrated efficiencies of one GPU (by GPU id, architecture or "default"). Unset values fall
/// back along that chain.
struct GpuCalibration {
    std::array<std::optional<double>, model::kDatatypeCount> gemmEfficiency{};
    std::optional<double> attentionEfficiency, hbmEfficiency;
    bool operator==(const GpuCalibration &) const = default;
};

/// Calibrated behaviour of one software stack (by software id or "default").
struct SoftwareCalibration {
    std::optional<double> computeEfficiency, blockOverhead_s, overlapEfficiency, moeBlockOverhead_s,
        hostOpScale;
    bool operator==(const SoftwareCalibration &) const = default;
};

/// Calibrated collective efficiency and latency of one interconnect (by interconnect id, or
/// "scale_up" / "scale_out" for every link in that role).
struct NetworkCalibration {
    std::optional<double> efficiency, latency_s;
    bool operator==(const NetworkCalibration &) const = default;
};

/// One fitted parameter with its standard error, and the documented range the fit kept it in.
struct FittedParameter {
    std::string name;
    double value = 0, standardError = 0;
    /// The documented plausible range (both 0 when the file records none).
    double low = 0, high = 0;
    /// At or beyond an end of its range: the runs want a value the documented mechanism does not
    /// give, so the model lacks a mechanism there. A bounded fit holds the value at the end (its
    /// standard error is then 0: the bound, not the runs, sets it).
    bool atBound = false;
    bool operator==(const FittedParameter &) const = default;
};

/// How a calibration was fitted (informational; shown in the studio and by the CLI).
struct FitSummary {
    std::int64_t rows = 0;
    double meanAbsErrorBefore = 0, meanAbsError = 0, maxAbsError = 0, leaveOneFamilyOutMeanAbsError = 0;
    /// Per GPU generation: the mean |error| on its runs of a fit that had not seen the generation.
    std::map<std::string, double> leaveOneGenerationOutMeanAbsError;
    std::vector<FittedParameter> parameters;
    /// The parameters' correlations (row i, column j in the order of `parameters`; symmetric, 1 on
    /// the diagonal): with the standard errors, the covariance a prediction's interval is
    /// propagated from (prediction_interval.h). Empty when the file did not record it.
    std::vector<std::vector<double>> correlation;
    bool operator==(const FitSummary &) const = default;
};

/// A calibration preset: measured efficiencies of GPUs, software stacks and interconnects that
/// the corrected model runs with (gapstudio-cli calibrate writes one).
struct CalibrationSet {
    BlockInfo info;
    double gemmHalfDepth = 0; ///< K (elements) at which a GEMM reaches half its large-K efficiency
    std::map<std::string, GpuCalibration> gpus;
    std::map<std::string, SoftwareCalibration> software;
    std::map<std::string, NetworkCalibration> networks;
    std::optional<FitSummary> fit;
    bool operator==(const CalibrationSet &) const = default;
};

/// A parallel layout: every execution option of the reference model. `execution.numProcs` is
/// ignored (the scenario's GPU count rules); the MoE fields matter only for MoE LLMs.
struct Layout {
    BlockInfo info;
    model::Execution execution;
    /// Whether the layout names its MoE dispatcher and EP all-to-all overlap itself; where it
    /// does not, the software stack's choice applies (Software::moeDispatcher and so on).
    bool namesMoeDispatcher = false, namesMoeAllToAllOverlap = false, namesCudaGraphScopes = false;
    bool operator==(const Layout &) const = default;
};

} // namespace gapstudio::scenario
