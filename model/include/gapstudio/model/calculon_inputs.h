#pragma once
/**
 * @file calculon_inputs.h
 * The three inputs of the reference model (Calculon, Isaev et al., SC'23; code at caa4b11):
 * the application (LLM shape), the execution (parallel layout and options) and the system
 * (processor, memories, network tiers). SI units inside: the JSON readers in io/ convert once.
 */

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gapstudio::model {

/// The transformer being trained (reference `Llm.Application`, 6 integer keys).
struct Application {
    std::int64_t hidden = 0;      ///< model width h
    std::int64_t feedforward = 0; ///< MLP inner width f
    std::int64_t seqSize = 0;     ///< tokens per sample s
    std::int64_t attnHeads = 0;   ///< attention heads a
    std::int64_t attnSize = 0;    ///< per-head width d
    std::int64_t numBlocks = 0;   ///< transformer blocks L
    /// Grouped-query attention: key/value heads g with 1 < g < a (K and V projections h -> g*d,
    /// split by TP when g % tp == 0, else replicated). 0 = not grouped: Execution::attentionType
    /// decides (multi-head g = a, multi-query g = 1). Not part of the reference's JSON.
    std::int64_t kvHeads = 0;

    // The corrected model only (model::Features); every field at its default gives the
    // reference's transformer. None of them is part of the reference's JSON.
    std::int64_t vocabSize = 0;      ///< V: embedding rows and LM-head width (0 = not modelled)
    bool tiedEmbeddings = false;     ///< the LM head reuses the embedding table
    std::int64_t sharedExperts = 0;  ///< MoE: experts every token passes through
    std::int64_t sharedExpertFeedforward = 0; ///< width of one shared expert
    /// MoE: expert groups of group-limited routing (DeepSeek-V3: sigmoid scores with an expert
    /// bias, each token routed within its best groups; Megatron-Core --moe-router-num-groups).
    /// 0 or 1: plain top-k routing. Only the router's operators on the host depend on it.
    std::int64_t routerGroups = 0;
    std::int64_t denseBlocks = 0;    ///< MoE: blocks with a dense MLP instead of experts
    std::int64_t denseFeedforward = 0; ///< width of their dense MLP
    bool denseBlocksInterleaved = false; ///< spread over the model (else the leading blocks)
    /// Multi-head latent attention (DeepSeek-V2/V3): low-rank query and key/value projections.
    /// 0 = standard attention. attnSize is then the non-positional query/key width per head.
    std::int64_t qLoraRank = 0, kvLoraRank = 0, ropeHeadSize = 0, valueHeadSize = 0;
    std::int64_t slidingWindow = 0;       ///< tokens a query attends to in windowed blocks (0 = none)
    std::int64_t slidingWindowBlocks = 0; ///< how many blocks use the window
    /// Multi-token prediction depth D (DeepSeek-V3): D extra layers on the last pipeline stage,
    /// each one block of the model's kind plus a projection and a second pass of the LM head.
    std::int64_t mtpLayers = 0;
    /// Dropout probabilities of the attention probabilities (unfused attention) and of the
    /// hidden states after attention and MLP; < 0: not stated, and the dropout kernels run as in
    /// the references. A probability of 0 runs no kernel and keeps no mask (Features::dropout).
    double attentionDropout = -1, hiddenDropout = -1;
};

/// Element datatypes known to the model. The byte size is `bytesPerElement()`; float4 (0.5 byte)
/// comes from the MoE extension (calculon-MoE e3eb609).
enum class Datatype : std::uint8_t { Float8, Float16, Bfloat16, Float32, Float4 };
inline constexpr std::size_t kDatatypeCount = 5;

[[nodiscard]] double bytesPerElement(Datatype type) noexcept;
[[nodiscard]] const char *datatypeName(Datatype type) noexcept;
[[nodiscard]] std::optional<Datatype> datatypeFromName(const std::string &name) noexcept;

enum class AttentionType : std::uint8_t { MultiHead, MultiQuery };
enum class Recompute : std::uint8_t { None, AttnOnly, Full };
enum class TpCommType : std::uint8_t { Ar, P2pRsAg, RsAg };
enum class TpOverlap : std::uint8_t { None, Ring, Pipe };
/// The expert MLP's activation (calculon-MoE `activation_function`): GeLU, or SiLU = SwiGLU.
enum class ActivationFunction : std::uint8_t { Gelu, Silu };
/// How attention scores are computed: materialised s x s matrices (the references' batched
/// matmuls, softmax and dropout) or one fused, causal kernel (FlashAttention, Dao et al. 2022).
enum class AttentionKernel : std::uint8_t { Unfused, Flash };
/// MoE token dispatchers: Megatron-Core's all-to-all, the flex dispatcher with a sync-free backend
/// (HybridEP), or the flex dispatcher with DeepEP's normal kernels, whose dispatch makes the host
/// wait for the GPU.
enum class MoeDispatcher : std::uint8_t { AllToAll, Flex, FlexDeepEp };

/// The parallel layout and options (reference execution JSON, exactly 23 keys).
struct Execution {
    std::int64_t numProcs = 1;
    std::int64_t tensorPar = 1;
    std::int64_t pipelinePar = 1;
    std::int64_t dataPar = 1;
    std::int64_t tensorParNet = 0;
    std::int64_t pipelineParNet = 0;
    std::int64_t dataParNet = 0;
    std::int64_t batchSize = 1;      ///< global batch in samples
    std::int64_t microbatchSize = 1; ///< samples per microbatch
    Datatype datatype = Datatype::Float16;
    bool fusedActivation = false;
    AttentionType attentionType = AttentionType::MultiHead;
    Recompute activationRecompute = Recompute::None;
    std::int64_t pipelineInterleaving = 1;
    bool optimizerSharding = false;
    TpCommType tensorParCommType = TpCommType::Ar;
    TpOverlap tensorParOverlap = TpOverlap::None;
    bool seqParAgRedo = false;
    bool dataParOverlap = false;
    bool weightOffload = false;
    bool activationsOffload = false;
    bool optimizerOffload = false;
    bool training = true;

    // Mixture of experts (calculon-MoE e3eb609; calculon-moe-model.md §2.2). With modelMoE false
    // the block is the upstream dense one and EP = ES = 1.
    bool modelMoE = false;
    std::int64_t numExperts = 1;    ///< E: experts per MoE layer
    std::int64_t topKExperts = 1;   ///< k: experts per token
    std::int64_t expertPar = 1;     ///< EP: GPUs the experts are spread over
    std::int64_t expertSlice = 1;   ///< ES: ways each expert's FFN width is split
    std::int64_t dataParExp = 1;    ///< DPe: replicas of the expert shards
    std::int64_t expertParNet = 0;
    std::int64_t expertSliceNet = 0;
    std::int64_t dataParExpNet = 0;
    ActivationFunction activationFunction = ActivationFunction::Gelu;

    // The corrected model only (model::Features); both reference modes ignore them.
    std::int64_t contextPar = 1;     ///< CP: ranks a sequence is split over (ring exchange of K/V)
    std::int64_t contextParNet = -1; ///< -1: automatic (scenario compile picks the tier)
    AttentionKernel attentionKernel = AttentionKernel::Flash;
    std::int64_t firstStageBlocks = 0; ///< blocks on the first pipeline stage (0 = even split)
    std::int64_t lastStageBlocks = 0;  ///< blocks on the last pipeline stage (0 = even split)
    bool parameterSharding = false;    ///< weights sharded over DP too (ZeRO-3 / FSDP)
    double gradientReduceBytes = 0;    ///< bytes per gradient element DP reduces (0 = datatype)
    double moeCapacityFactor = 0;      ///< tokens an expert may take, x the balanced share (0 = dropless)
    bool moeAllToAllOverlap = false;   ///< EP all-to-all overlapped with another microbatch's compute
    /// The MoE token dispatcher: Megatron-Core's all-to-all (a dropless one synchronises with
    /// the host every layer), the flex one with HybridEP ("flex"), which does not, or the flex
    /// one with DeepEP's normal kernels ("flex-deepep"), which does inside its dispatch.
    MoeDispatcher moeDispatcher = MoeDispatcher::AllToAll;
    /// The parts of each transformer layer captured in CUDA graphs, a set of CudaGraphScope bits
    /// (Megatron-Core's --cuda-graph-scope): a graph is launched by one host call instead of one
    /// per operator.
    std::uint8_t cudaGraphScopes = 0;
    /// The MoE router's top-k, scores and auxiliary loss as fused kernels (Megatron-Core's
    /// --moe-router-fusion).
    bool moeRouterFusion = false;
    /// The element-wise operations (RMSNorm, the SwiGLU gate) run as separate eager-mode
    /// PyTorch kernels rather than fused ones (no torch.compile, no fused norm kernel).
    bool eagerKernels = false;
    /// Megatron-LM's scatter/gather optimisation of pipeline messages (its
    /// --no-scatter-gather-tensors-in-pipeline switch, on by default in its legacy schedules):
    /// without sequence parallelism each TP rank sends only its 1/TP share of the activation
    /// between stages, and the receiving ranks all-gather it over TP.
    bool pipelineScatterGather = false;

    /// Every field equal (exact: no tolerance).
    bool operator==(const Execution &) const = default;
};

/// The GPUs a layout lays out, TP x CP x PP x DP (context parallelism counted only where
/// `contextParallel`: the corrected model's feature, absent from the reference models);
/// saturates at INT64_MAX rather than overflow (checks.cpp). It must equal num_procs.
[[nodiscard]] std::int64_t layoutGpuCount(const Execution &e, bool contextParallel = true) noexcept;
/// The same for the MoE blocks' experts: EP x ES x PP x expert DP.
[[nodiscard]] std::int64_t expertLayoutGpuCount(const Execution &e) noexcept;

/// A step function: an op of size x gets the efficiency of the first row whose threshold <= x.
/// Rows are sorted by decreasing threshold and end with a 0 row. Thresholds are in SI units
/// (flops or bytes), converted from GFLOP / MB at the JSON boundary.
struct EfficiencyTable {
    std::vector<std::pair<double, double>> rows; ///< (threshold, efficiency)
    [[nodiscard]] double lookup(double size) const noexcept;
};

/// One compute engine (tensor-core "matrix" or CUDA-core "vector") for one datatype.
struct ComputeEngine {
    double peak_flops = 0; ///< flop/s
    EfficiencyTable efficiency;
};

/// One memory tier (HBM = tier 1, offload memory = tier 2).
struct MemoryTier {
    double capacity_B = 0;
    double bandwidth_Bps = 0;
    EfficiencyTable efficiency;
};

/// Cost model of one network operation: S' = S*scalar + (S*scalar/n)*offset.
struct NetworkOp {
    double scalar = 1;
    double offset = 0;
    double efficiency = 0; ///< if > 0, replaces the tier's efficiency for this op (calculon-MoE)
};

/// One network tier (reference `Network`, exactly 7 keys).
struct NetworkTier {
    double bandwidth_Bps = 0; ///< unidirectional injection bandwidth per processor
    double efficiency = 1;
    std::int64_t size = 1; ///< max processors sharing this tier
    double latency_s = 0;
    NetworkOp p2p, reduceScatter, allGather, allReduce;
    NetworkOp allToAll; ///< MoE dispatch/combine, costed as EP-1 pairwise exchanges
    bool mustBeFilled = false;
    double processorUsage = 0; ///< fraction of compute consumed while communicating
};

enum class ProcessingMode : std::uint8_t { NoOverlap, Roofline };

/// Megatron-Core's CUDA-graph scopes (its --cuda-graph-scope values), as bits of
/// Execution::cudaGraphScopes; names in enum_names.h.
enum CudaGraphScope : std::uint8_t {
    kGraphAttn = 1,
    kGraphMoeRouter = 2,
    kGraphMoePreprocess = 4,
    kGraphMoe = 8
};

/// The hardware (reference system JSON).
struct System {
    std::array<std::optional<ComputeEngine>, kDatatypeCount> matrix;
    std::array<std::optional<ComputeEngine>, kDatatypeCount> vector;
    MemoryTier mem1;
    MemoryTier mem2;
    ProcessingMode processingMode = ProcessingMode::NoOverlap;
    std::vector<NetworkTier> networks;

    // GEMM geometry for the corrected model's shape-aware efficiency (0 = unknown: no tile or
    // wave quantisation). Not part of the reference's JSON.
    std::int64_t smCount = 0;                 ///< streaming multiprocessors (compute units)
    std::int64_t gemmTileM = 0, gemmTileN = 0; ///< output tile of the GPU's GEMM kernels
    /// Host CPU time to issue one framework operator (a PyTorch op and its kernel launch) on the
    /// GPU's host; 0 = unknown, the corrected model then assumes kDefaultHostOpTime_s.
    double hostOpTime_s = 0;
};

} // namespace gapstudio::model
