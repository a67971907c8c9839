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
};

/// Element datatypes known to the model. The byte size is `bytesPerElement()`.
enum class Datatype : std::uint8_t { Float8, Float16, Bfloat16, Float32 };
inline constexpr std::size_t kDatatypeCount = 4;

[[nodiscard]] double bytesPerElement(Datatype type) noexcept;
[[nodiscard]] const char *datatypeName(Datatype type) noexcept;
[[nodiscard]] std::optional<Datatype> datatypeFromName(const std::string &name) noexcept;

enum class AttentionType : std::uint8_t { MultiHead, MultiQuery };
enum class Recompute : std::uint8_t { None, AttnOnly, Full };
enum class TpCommType : std::uint8_t { Ar, P2pRsAg, RsAg };
enum class TpOverlap : std::uint8_t { None, Ring, Pipe };

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
};

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
};

/// One network tier (reference `Network`, exactly 7 keys).
struct NetworkTier {
    double bandwidth_Bps = 0; ///< unidirectional injection bandwidth per processor
    double efficiency = 1;
    std::int64_t size = 1; ///< max processors sharing this tier
    double latency_s = 0;
    NetworkOp p2p, reduceScatter, allGather, allReduce;
    bool mustBeFilled = false;
    double processorUsage = 0; ///< fraction of compute consumed while communicating
};

enum class ProcessingMode : std::uint8_t { NoOverlap, Roofline };

/// The hardware (reference system JSON).
struct System {
    std::array<std::optional<ComputeEngine>, kDatatypeCount> matrix;
    std::array<std::optional<ComputeEngine>, kDatatypeCount> vector;
    MemoryTier mem1;
    MemoryTier mem2;
    ProcessingMode processingMode = ProcessingMode::NoOverlap;
    std::vector<NetworkTier> networks;
};

} // namespace gapstudio::model
